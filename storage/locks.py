"""One worker at a time per chat, across processes: the bot replicas behind a webhook must not
answer two messages of one chat at once, or a follow-up could be read before its question.

Within a process an asyncio lock per chat (KeyedLocks); across processes on PostgreSQL a
session-level advisory lock, held on its own connection for the duration. SQLite serves one
process, so there the advisory lock is nothing."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import text

from .database import Database, guard


class KeyedLocks:
    """An asyncio lock per name, made on first use and dropped when its last holder or waiter
    leaves, so a process that has seen a million chats does not keep a million locks."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._users: dict[str, int] = {}

    @asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(name, asyncio.Lock())
        self._users[name] = self._users.get(name, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[name] -= 1
            if not self._users[name]:
                del self._users[name], self._locks[name]


_LOCK = text("SELECT pg_advisory_lock(:k)")
_UNLOCK = text("SELECT pg_advisory_unlock(:k)")


# Advisory lock keys are one int64 namespace shared with the migration lock; keys for chats are
# hashes of "chat:<key>", which collide with it with probability 2^-64.


def _key(name: str) -> int:
    return int.from_bytes(
        hashlib.blake2b(f"chat:{name}".encode(), digest_size=8).digest(), "big", signed=True
    )


@asynccontextmanager
async def advisory_lock(db: Database, name: str) -> AsyncIterator[None]:
    """Hold the cross-process lock named `name` (a chat) until the block ends. Callers hold
    the chat's KeyedLocks lock first, so that only one of a process's updates for a chat holds
    a connection to wait on."""
    if db.backend != "postgresql":
        yield
        return
    # A session lock needs no transaction around it: without one, taking and releasing it
    # are a round trip each instead of three.
    async with guard(db.url), db.engine.connect() as connection:
        await connection.execution_options(isolation_level="AUTOCOMMIT")
        await connection.execute(_LOCK, {"k": _key(name)})
        try:
            yield
        finally:
            await connection.execute(_UNLOCK, {"k": _key(name)})
