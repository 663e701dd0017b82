"""Pruning on a schedule: update claims, stale conversation states and messages kept too long
in the outbox are deleted every hour (the first time on start), so the tables stop growing and
an update id Telegram uses again after a quiet week is not taken for a redelivery. Several
replicas may prune at once: each deletes what is old, and the others find nothing left."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from storage import Storage, StorageError

from .settings import BotSettings

log = logging.getLogger(__name__)
EVERY_S = 3600.0


class Housekeeping:
    def __init__(self, storage: Storage, settings: BotSettings, every_s: float = EVERY_S) -> None:
        self._storage = storage
        self._updates = timedelta(hours=settings.telegram_update_retention_hours)
        self._states = timedelta(hours=settings.conversation_retention_hours)
        self._every_s = every_s
        self._task: asyncio.Task[None] | None = None

    async def prune(self) -> None:
        """One round; a database that is away is tried again next round."""
        try:
            pruned = await self._storage.prune(updates=self._updates, states=self._states)
        except StorageError as error:
            log.warning("pruning failed, tried again in an hour: %s", error.code)
            return
        if pruned.updates or pruned.states or pruned.outbox:
            log.info(
                "pruned %d update claims, %d conversation states, %d kept messages",
                pruned.updates,
                pruned.states,
                pruned.outbox,
            )

    async def _run(self) -> None:
        while True:
            await self.prune()
            await asyncio.sleep(self._every_s)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="housekeeping")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
