"""A Bot that survives an update it cannot read, and polls again soon after the API is back.

PTB parses a getUpdates batch as a whole: one update it cannot parse fails the batch, the offset
never moves past it, and polling refetches the same batch forever (measured with PTB 22.8). Here
each update is checked on its own; one that does not parse is logged by id and replaced by an
empty update with the same id, which no handler matches and which moves the offset on.

PTB's polling loop waits 1.5 times longer after each failed getUpdates, up to 30 s: after a
dozen 500s it resumed 46 s after the API was healthy again. Here a failed getUpdates is tried
again within the call, the pause capped at POLL_PAUSE_MAX_S, so polling resumes within about
that long of the API coming back.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram import Bot, Update
from telegram.error import TimedOut
from telegram.ext import ExtBot

from .delivery import passing

log = logging.getLogger(__name__)
POLL_PAUSE_MAX_S = 2.0
POLL_PAUSE_FIRST_S = 0.25


class TolerantBot(ExtBot):
    async def _post(self, endpoint: str, data: Any = None, **kwargs: Any) -> Any:
        if endpoint != "getUpdates":
            return await super()._post(endpoint, data, **kwargs)
        pause = POLL_PAUSE_FIRST_S
        while True:
            try:
                result = await super()._post(endpoint, data, **kwargs)
            except TimedOut:
                raise  # PTB polls again at once
            except Exception as error:
                if not passing(error):
                    raise
                log.warning("getUpdates failed (%s); polling again in %.2f s", error, pause)
                await asyncio.sleep(pause)
                pause = min(POLL_PAUSE_MAX_S, pause * 2)
                continue
            if isinstance(result, list):
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


async def post_json(bot: Bot, endpoint: str, params: dict[str, Any]) -> Any:
    """`endpoint` with JSON parameters as they are, through the bot's rate limiter and
    retries; the raw result. Bot.do_api_request would do the same but warns for every method
    PTB has a function for."""
    return await bot._post(endpoint, params)
