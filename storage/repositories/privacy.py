"""What is stored about a person: a summary, a full export, and forgetting it all."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.orm import InstrumentedAttribute

from ..database import Database
from ..models import (
    Base,
    ChatRow,
    ConversationStateRow,
    MembershipRow,
    ProfileRow,
    QueryRow,
    TeamHardwareRow,
    UserRow,
    utcnow,
)
from ..schemas import ForgetSummary, UserExport
from . import convert


class PrivacyRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def summary(self, user_id: int) -> ForgetSummary:
        async with self._db.read() as session:

            async def count(column: InstrumentedAttribute[int]) -> int:
                return await session.scalar(select(func.count()).where(column == user_id)) or 0

            return ForgetSummary(
                profiles=await count(ProfileRow.user_id),
                queries=await count(QueryRow.user_id),
                memberships=await count(MembershipRow.user_id),
                conversation_states=await count(ConversationStateRow.user_id),
            )

    async def export(self, user_id: int) -> UserExport:
        """Everything stored about the user, read in one transaction so it is consistent."""
        async with self._db.read() as session:
            user = await session.get(UserRow, user_id)

            async def rows(model: type[Base], *order: Any, where: ColumnElement[bool]) -> list[Any]:
                return list(await session.scalars(select(model).where(where).order_by(*order)))

            memberships = await rows(
                MembershipRow, MembershipRow.chat_id, where=MembershipRow.user_id == user_id
            )
            chats = await rows(
                ChatRow,
                ChatRow.id,
                where=ChatRow.id.in_([m.chat_id for m in memberships]),
            )
            return UserExport(
                exported_at=utcnow(),
                user=None if user is None else convert.user(user),
                profiles=[
                    convert.profile(r)
                    for r in await rows(
                        ProfileRow, ProfileRow.name, where=ProfileRow.user_id == user_id
                    )
                ],
                chats=[convert.chat(r) for r in chats],
                memberships=[convert.membership(r) for r in memberships],
                team_hardware_added=[
                    convert.team_hardware(r)
                    for r in await rows(
                        TeamHardwareRow,
                        TeamHardwareRow.id,
                        where=TeamHardwareRow.added_by == user_id,
                    )
                ],
                queries=[
                    convert.query(r)
                    for r in await rows(
                        QueryRow,
                        QueryRow.created_at,
                        QueryRow.id,
                        where=QueryRow.user_id == user_id,
                    )
                ],
                conversation_states=[
                    convert.state(r)
                    for r in await rows(
                        ConversationStateRow,
                        ConversationStateRow.chat_id,
                        where=ConversationStateRow.user_id == user_id,
                    )
                ],
            )

    async def forget(self, user_id: int) -> bool:
        """Deletes the user and, through the schema's cascades, exactly their data: profiles,
        queries, conversation states, memberships and opt-ins. Team hardware they added stays
        with the team, no longer saying who added it. False when there was no such user."""
        async with self._db.write() as session:
            result = await session.execute(delete(UserRow).where(UserRow.id == user_id))
            return bool(result.rowcount)
