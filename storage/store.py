"""Storage as the rest of the application sees it: one object holding every repository."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from types import TracebackType
from typing import Self

from sqlalchemy.engine import URL

from .database import Database
from .migrate import migrate
from .repositories import (
    ChatRepository,
    ConversationRepository,
    OutboxRepository,
    PrivacyRepository,
    ProfileRepository,
    QueryRepository,
    SharedQuestionRepository,
    TeamHardwareRepository,
    TurnRepository,
    UpdateRepository,
    UserRepository,
)


@dataclass(frozen=True, slots=True)
class Pruned:
    """How many rows one round of pruning deleted."""

    updates: int
    states: int
    outbox: int


class Storage:
    """The repositories over one database. Open with `await Storage.open()` (which migrates the
    schema to head) and close with `await storage.close()`, or use `async with`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.users = UserRepository(db)
        self.profiles = ProfileRepository(db)
        self.chats = ChatRepository(db)
        self.team_hardware = TeamHardwareRepository(db)
        self.queries = QueryRepository(db)
        self.conversations = ConversationRepository(db)
        self.updates = UpdateRepository(db)
        self.privacy = PrivacyRepository(db)
        self.outbox = OutboxRepository(db)
        self.shared = SharedQuestionRepository(db)
        self.turns = TurnRepository(db, self.users, self.chats)

    @classmethod
    async def open(cls, url: str | URL | None = None, *, upgrade: bool = True) -> Self:
        """Storage at `url` (default: DATABASE_URL, else the SQLite file in the user's data
        directory), with its schema brought to head unless `upgrade` is False."""
        db = Database(url)
        if upgrade:
            try:
                await migrate(db.url)
            except BaseException:
                await db.close()
                raise
        return cls(db)

    async def prune(self, *, updates: timedelta, states: timedelta) -> Pruned:
        """Forgets update claims older than `updates` (and messages kept in the outbox as
        long), and conversation states untouched for `states`."""
        return Pruned(
            updates=await self.updates.prune(updates),
            states=await self.conversations.prune(states),
            outbox=await self.outbox.prune(updates),
        )

    async def ping(self) -> None:
        """One round trip to the database; raises StorageError when it cannot be reached."""
        await self.db.ping()

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
