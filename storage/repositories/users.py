"""Users: a Telegram account or a local OS user, their language and settings."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import checks
from ..database import Database
from ..errors import StorageError
from ..models import UserRow
from ..schemas import Platform, User
from . import convert
from .platform_ids import ensure_row, external_key, find_row


async def lock_user(session: AsyncSession, user_id: int) -> None:
    """Serialises changes to one user's rows (e.g. which profile is the default).

    On PostgreSQL this row lock makes concurrent writers for the same user queue up; SQLite
    needs nothing more, as its write transactions (BEGIN IMMEDIATE) already run one at a time.
    """
    found = await session.scalar(select(UserRow.id).where(UserRow.id == user_id).with_for_update())
    if found is None:
        raise StorageError("user_not_found", user_id=user_id)


class UserRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def ensure(
        self, platform: Platform, external_id: str | int, *, language: str | None = None
    ) -> User:
        """The user with this platform id, created on first sight; `language`, when given,
        replaces the stored one (Telegram sends the current one with every message)."""
        key = external_key(external_id)
        lang = checks.language(language)
        found = await self.find(platform, key)
        if found is not None and (lang is None or found.language == lang):
            return found
        fields = {} if lang is None else {"language": lang}
        async with self._db.write() as session:
            return convert.user(await ensure_row(session, UserRow, platform, key, fields))

    async def find(self, platform: Platform, external_id: str | int) -> User | None:
        async with self._db.read() as session:
            row = await find_row(session, UserRow, platform, external_key(external_id))
            return None if row is None else convert.user(row)

    async def get(self, user_id: int) -> User | None:
        async with self._db.read() as session:
            row = await session.get(UserRow, user_id)
            return None if row is None else convert.user(row)

    async def set_language(self, user_id: int, language: str | None) -> User:
        return await self._update(user_id, language=checks.language(language))

    async def set_settings(self, user_id: int, settings: dict[str, Any]) -> User:
        """Replaces the user's settings (a JSON object of at most 64 KiB)."""
        return await self._update(user_id, settings=checks.document(settings, "settings"))

    async def _update(self, user_id: int, **values: Any) -> User:
        async with self._db.write() as session:
            row = await session.get(UserRow, user_id, with_for_update=True)
            if row is None:
                raise StorageError("user_not_found", user_id=user_id)
            for field, value in values.items():
                setattr(row, field, value)
            await session.flush()
            return convert.user(row)
