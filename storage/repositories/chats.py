"""Chats and teams: where questions are asked, their settings, members and shared profiles."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import checks
from ..database import Database
from ..errors import StorageError
from ..models import ChatRow, MembershipRow, ProfileRow, UserRow, utcnow
from ..schemas import Chat, ChatType, Membership, Platform, SharedProfile
from . import convert
from .counts import rowcount
from .dialect import insert
from .platform_ids import ensure_row, external_key, find_row
from .profiles import existing_profile


async def lock_chat(session: AsyncSession, chat_id: int) -> ChatRow:
    """The chat, locked for this transaction (PostgreSQL; SQLite writers are serial anyway)."""
    row = await session.get(ChatRow, chat_id, with_for_update=True)
    if row is None:
        raise StorageError("chat_not_found", chat_id=chat_id)
    return row


class ChatRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def ensure(
        self,
        platform: Platform,
        external_id: str | int,
        chat_type: ChatType,
        *,
        title: str | None = None,
    ) -> Chat:
        """The chat with this platform id, created on first sight; type and title follow what
        the platform reports (a group becomes a supergroup, titles change)."""
        key = external_key(external_id)
        title = checks.label(title, "title", checks.TITLE_MAX)
        found = await self.find(platform, key)
        if found is not None and found.type == chat_type and found.title == title:
            return found
        fields = {"type": chat_type, "title": title}
        async with self._db.write() as session:
            return convert.chat(await ensure_row(session, ChatRow, platform, key, fields))

    async def find(self, platform: Platform, external_id: str | int) -> Chat | None:
        async with self._db.read() as session:
            row = await find_row(session, ChatRow, platform, external_key(external_id))
            return None if row is None else convert.chat(row)

    async def get(self, chat_id: int) -> Chat | None:
        async with self._db.read() as session:
            row = await session.get(ChatRow, chat_id)
            return None if row is None else convert.chat(row)

    async def set_language(self, chat_id: int, language: str | None) -> Chat:
        return await self._update(chat_id, language=checks.language(language))

    async def set_settings(self, chat_id: int, settings: dict[str, Any]) -> Chat:
        """Replaces the chat's settings (a JSON object of at most 64 KiB)."""
        return await self._update(chat_id, settings=checks.document(settings, "settings"))

    async def delete(self, chat_id: int) -> bool:
        """Deletes the chat with its memberships, team hardware and conversation states; the
        members' queries stay theirs, without the chat."""
        async with self._db.write() as session:
            result = await session.execute(delete(ChatRow).where(ChatRow.id == chat_id))
            return bool(rowcount(result))

    async def migrate(
        self, platform: Platform, old_external_id: str | int, new_external_id: str | int
    ) -> Chat | None:
        """A group that became a supergroup got a new id: the team's data moves with it. When
        the new id was already seen (its first message raced the migration notice) that empty
        row gives way to the old one. None when the old id was never stored."""
        old_key, new_key = external_key(old_external_id), external_key(new_external_id)
        async with self._db.write() as session:
            row = await session.scalar(
                select(ChatRow)
                .where(ChatRow.platform == platform, ChatRow.external_id == old_key)
                .with_for_update()
            )
            if row is None:
                return None
            await session.execute(
                delete(ChatRow).where(ChatRow.platform == platform, ChatRow.external_id == new_key)
            )
            row.external_id, row.type = new_key, "supergroup"
            await session.flush()
            return convert.chat(row)

    async def join(self, chat_id: int, user_id: int) -> Membership:
        """Records that the user is in the chat (idempotent); sharing stays as it was."""
        async with self._db.write() as session:
            return convert.membership(await _join(session, chat_id, user_id))

    async def leave(self, chat_id: int, user_id: int) -> bool:
        async with self._db.write() as session:
            result = await session.execute(
                delete(MembershipRow).where(
                    MembershipRow.chat_id == chat_id, MembershipRow.user_id == user_id
                )
            )
            return bool(rowcount(result))

    async def members(self, chat_id: int) -> list[Membership]:
        async with self._db.read() as session:
            rows = await session.scalars(
                select(MembershipRow)
                .where(MembershipRow.chat_id == chat_id)
                .order_by(MembershipRow.created_at, MembershipRow.user_id)
            )
            return [convert.membership(r) for r in rows]

    async def share_profile(
        self, chat_id: int, user_id: int, profile_name: str | None = None
    ) -> Membership:
        """Opts the user in to sharing a profile with the team: `profile_name`, or whichever
        profile is their default at the time the team asks."""
        async with self._db.write() as session:
            profile_id = None
            if profile_name is not None:
                profile = await existing_profile(session, user_id, checks.name(profile_name))
                profile_id = profile.id
            row = await _join(session, chat_id, user_id)
            row.shares_profile, row.shared_profile_id = True, profile_id
            await session.flush()
            return convert.membership(row)

    async def stop_sharing(self, chat_id: int, user_id: int) -> Membership | None:
        async with self._db.write() as session:
            row = await session.get(MembershipRow, (chat_id, user_id))
            if row is None:
                return None
            row.shares_profile, row.shared_profile_id = False, None
            await session.flush()
            return convert.membership(row)

    async def shared_profiles(self, chat_id: int) -> list[SharedProfile]:
        """The hardware the team's members share with it, for "who in the team can run this?"."""
        m = MembershipRow
        chosen = or_(
            ProfileRow.id == m.shared_profile_id,
            and_(m.shared_profile_id.is_(None), ProfileRow.is_default),
        )
        async with self._db.read() as session:
            rows = await session.execute(
                select(UserRow, ProfileRow)
                .join(m, m.user_id == UserRow.id)
                .join(ProfileRow, and_(ProfileRow.user_id == UserRow.id, chosen))
                .where(m.chat_id == chat_id, m.shares_profile)
                .order_by(UserRow.id)
            )
            return [
                SharedProfile(user=convert.user(u), profile=convert.profile(p)) for u, p in rows
            ]

    async def _update(self, chat_id: int, **values: Any) -> Chat:
        async with self._db.write() as session:
            row = await lock_chat(session, chat_id)
            for field, value in values.items():
                setattr(row, field, value)
            await session.flush()
            return convert.chat(row)


async def _join(session: AsyncSession, chat_id: int, user_id: int) -> MembershipRow:
    await session.execute(
        insert(session, MembershipRow)
        .values(
            chat_id=chat_id,
            user_id=user_id,
            shares_profile=False,
            created_at=utcnow(),
            updated_at=utcnow(),
        )
        .on_conflict_do_nothing(index_elements=["chat_id", "user_id"])
    )
    return (
        await session.scalars(
            select(MembershipRow).where(
                MembershipRow.chat_id == chat_id, MembershipRow.user_id == user_id
            )
        )
    ).one()
