"""Updates of different chats at once, of one chat in order, and no chat's backlog in anyone
else's way.

Answering is mostly waiting on the database and on Telegram, so updates run concurrently; but a
follow-up must see the question before it, so the updates of one chat wait for each other. An
update first waits for its chat's turn and only then takes one of the slots shared by all chats:
a chat with 300 messages queued holds one slot, not all of them (PTB's own processor takes the
slot first, and one user's flood made everyone else wait 54 s). PTB starts the processing of
updates in the order they arrive and asyncio.Lock wakes waiters first come, first served, so
each chat's updates are handled in arrival order.

With several processes (webhook replicas), `across` names a lock the processes share, taken
inside the slot, so that a process holds one connection per chat it is answering, not one per
chat it has queued."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from storage.locks import KeyedLocks

from .identity import chat_key

# Updates answered at once. Each holds at most one database connection at a time, and
# SQLAlchemy's pool for SQLite gives 15 (5 kept, 10 more); with more at once they queue on
# the pool and on SQLite's one writer (64 at once: "database is locked" under load). Answering
# is CPU-bound here, so more would not be faster on a few cores anyway.
MAX_CONCURRENT = 12


class PerChatOrder(BaseUpdateProcessor):
    def __init__(
        self,
        max_concurrent_updates: int = MAX_CONCURRENT,
        across: Callable[[str], AbstractAsyncContextManager[None]] | None = None,
    ) -> None:
        super().__init__(max_concurrent_updates)
        self._slots = asyncio.Semaphore(max_concurrent_updates)
        self._chats = KeyedLocks()
        self._across = across

    # PTB marks process_update final, but its own semaphore would admit updates before their
    # chat's turn: the order per chat has to be taken first, which only an override can do.
    async def process_update(  # type: ignore[misc]
        self, update: object, coroutine: Awaitable[Any]
    ) -> None:
        """The chat's turn, then a slot, then (across processes) the chat's shared lock."""
        async with self._chats.hold(_key(update)), self._slots:
            await self.do_process_update(update, coroutine)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if self._across is None:
            await coroutine
            return
        async with self._across(_key(update)):
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up: the locks are made as chats appear."""

    async def shutdown(self) -> None:
        """Nothing to release."""


def _key(update: object) -> str:
    return chat_key(update) if isinstance(update, Update) else ""
