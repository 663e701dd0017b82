"""Conversation state per (chat, user): the slot-filling machine's memory, shared by replicas."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete

from .. import checks
from ..database import Database
from ..models import ConversationStateRow, utcnow
from ..schemas import ConversationState
from ..sqlite_statements import Statements
from . import convert
from .counts import rowcount
from .dialect import insert_on_conflict

_PUT_STATE = insert_on_conflict(
    ConversationStateRow.__table__,
    ("chat_id", "user_id", "state", "updated_at"),
    ("chat_id", "user_id"),
    update=("state", "updated_at"),
)


def put_state(
    connection: Statements, chat_id: int, user_id: int, state: dict[str, Any]
) -> ConversationState:
    """Stores `state`, replacing what was there, in one statement (an upsert) in the caller's
    transaction."""
    state = checks.document(state, "state")
    now = utcnow()
    values = {"chat_id": chat_id, "user_id": user_id, "state": state, "updated_at": now}
    connection.execute(_PUT_STATE, values)
    return ConversationState(chat_id=chat_id, user_id=user_id, state=state, updated_at=now)


class ConversationRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(
        self, chat_id: int, user_id: int, *, max_age: timedelta | None = None
    ) -> ConversationState | None:
        """The state, or None when there is none or it is older than `max_age` (a question
        abandoned yesterday should not swallow today's message)."""
        async with self._db.read() as session:
            row = await session.get(ConversationStateRow, (chat_id, user_id))
            if row is None or (max_age is not None and row.updated_at < utcnow() - max_age):
                return None
            return convert.state(row)

    async def put(self, chat_id: int, user_id: int, state: dict[str, Any]) -> ConversationState:
        """Stores `state`, replacing what was there, in one statement (an upsert)."""
        return await self._db.run(
            lambda connection: put_state(connection, chat_id, user_id, state), write=True
        )

    async def clear(self, chat_id: int, user_id: int) -> bool:
        async with self._db.write() as session:
            result = await session.execute(
                delete(ConversationStateRow).where(
                    ConversationStateRow.chat_id == chat_id,
                    ConversationStateRow.user_id == user_id,
                )
            )
            return bool(rowcount(result))

    async def prune(self, older_than: timedelta) -> int:
        """Deletes states untouched for `older_than`; returns how many."""
        async with self._db.write() as session:
            result = await session.execute(
                delete(ConversationStateRow).where(
                    ConversationStateRow.updated_at < utcnow() - older_than
                )
            )
            return rowcount(result)
