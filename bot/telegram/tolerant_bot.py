"""A Bot that survives an update it cannot read.

PTB parses a getUpdates batch as a whole: one update it cannot parse fails the batch, the offset
never moves past it, and polling refetches the same batch forever (measured with PTB 22.8). Here
each update is checked on its own; one that does not parse is logged by id and replaced by an
empty update with the same id, which no handler matches and which moves the offset on."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.ext import ExtBot

log = logging.getLogger(__name__)


class TolerantBot(ExtBot):
    async def _post(self, endpoint: str, data: Any = None, **kwargs: Any) -> Any:
        result = await super()._post(endpoint, data, **kwargs)
        if endpoint == "getUpdates" and isinstance(result, list):
            return [self._readable(raw) for raw in result]
        return result

    def _readable(self, raw: Any) -> Any:
        try:
            Update.de_json(raw, self)
        except Exception:
            update_id = raw.get("update_id") if isinstance(raw, dict) else None
            log.warning("dropped an update that does not parse (update_id %s)", update_id)
            return {"update_id": update_id if isinstance(update_id, int) else 0}
        return raw
