"""What is stored about a person: a summary, a full export, and forgetting it all."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, and_, delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from ..database import Database
from ..models import (
    Base,
    ChatRow,
    ConversationStateRow,
    MembershipRow,
    OutboxRow,
    ProfileRow,
    QueryRow,
    SharedQuestionRow,
    TeamHardwareRow,
    UserRow,
    utcnow,
)
from ..schemas import ForgetSummary, SharedQuestion, UserExport
from . import convert

OWN_CHAT_TYPES = ("private", "terminal")


async def own_chats(session: AsyncSession, user: UserRow) -> list[ChatRow]:
    """The user's own chats with the bot: private chats and terminals they asked in, and the
    platform's private chat with them (a Telegram private chat's id is the user's id), which
    exists from their first message even when nothing was asked there."""
    asked = select(QueryRow.chat_id).where(QueryRow.user_id == user.id)
    talked = select(ConversationStateRow.chat_id).where(ConversationStateRow.user_id == user.id)
    same_id = and_(ChatRow.platform == user.platform, ChatRow.external_id == user.external_id)
    return list(
        await session.scalars(
            select(ChatRow)
            .where(
                ChatRow.type.in_(OWN_CHAT_TYPES),
                or_(same_id, ChatRow.id.in_(asked), ChatRow.id.in_(talked)),
            )
            .order_by(ChatRow.id)
        )
    )


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
            teams = await rows(
                ChatRow,
                ChatRow.id,
                where=ChatRow.id.in_([m.chat_id for m in memberships]),
            )
            own = [] if user is None else await own_chats(session, user)
            chats = sorted({c.id: c for c in [*own, *teams]}.values(), key=lambda c: c.id)
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
                shared_questions=[
                    SharedQuestion.model_validate(r)
                    for r in await rows(
                        SharedQuestionRow,
                        SharedQuestionRow.created_at,
                        where=SharedQuestionRow.user_id == user_id,
                    )
                ],
            )

    async def forget(self, user_id: int) -> bool:
        """Deletes the user, their own chats with the bot (with any message still waiting to
        be sent there) and, through the schema's cascades, exactly their data: profiles,
        queries, conversation states, shared questions, memberships and opt-ins. Team hardware
        they added stays with the team, no longer saying who added it. False when there was no
        such user."""
        async with self._db.write() as session:
            user = await session.get(UserRow, user_id)
            if user is None:
                return False
            own = await own_chats(session, user)
            if own:
                await session.execute(
                    delete(OutboxRow).where(
                        OutboxRow.platform == user.platform,
                        OutboxRow.chat_key.in_([c.external_id for c in own]),
                    )
                )
                await session.execute(delete(ChatRow).where(ChatRow.id.in_([c.id for c in own])))
            await session.execute(delete(UserRow).where(UserRow.id == user_id))
            return True
