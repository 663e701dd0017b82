"""Updates of different chats at once, of one chat in order.

Answering is mostly waiting on the database and on Telegram, so updates run concurrently; but a
follow-up must see the question before it, so the updates of one chat wait for each other. PTB
starts the processing of updates in the order they arrive and asyncio.Lock wakes waiters first
come, first served, so each chat's updates are handled in arrival order."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from storage.locks import KeyedLocks

from .identity import chat_key

MAX_CONCURRENT = 64


class PerChatOrder(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT) -> None:
        super().__init__(max_concurrent_updates)
        self._chats = KeyedLocks()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_key(update) if isinstance(update, Update) else ""
        async with self._chats.hold(key):
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up: the locks are made as chats appear."""

    async def shutdown(self) -> None:
        """Nothing to release."""
