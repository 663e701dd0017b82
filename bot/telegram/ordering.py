"""Updates of different chats at once, of one chat in order.

Answering is mostly waiting on the database and on Telegram, so updates run concurrently; but a
follow-up must see the question before it, so the updates of one chat wait for each other. PTB
starts the processing of updates in the order they arrive and asyncio.Lock wakes waiters first
come, first served, so each chat's updates are handled in arrival order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

MAX_CONCURRENT = 64


class PerChatOrder(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[object, asyncio.Lock] = {}
        self._users: dict[object, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = _chat_of(update)
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._users[key] -= 1
            if not self._users[key]:  # the last one out removes the lock: no growth per chat
                del self._users[key], self._locks[key]

    async def initialize(self) -> None:
        """Nothing to set up: the locks are made as chats appear."""

    async def shutdown(self) -> None:
        """Nothing to release."""


def _chat_of(update: object) -> object:
    if isinstance(update, Update):
        if update.effective_chat is not None:
            return update.effective_chat.id
        if update.effective_user is not None:
            return ("user", update.effective_user.id)
    return None
