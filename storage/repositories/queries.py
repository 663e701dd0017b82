"""Questions asked, with their parsed inputs and the answer's verdict and totals."""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_, insert, select

from .. import checks
from ..database import Database
from ..models import QueryRow, utcnow
from ..schemas import NewQuery, Query
from . import convert

MAX_LIMIT = 1000
# Built once and run with parameters: saving a query happens on every answer, and building the
# statement anew each time costs as much as running it.
_QUERIES = QueryRow.__table__
_INSERT = insert(_QUERIES).returning(_QUERIES.c.id)


class QueryRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def save(self, query: NewQuery) -> Query:
        values = {**query.model_dump(), "created_at": utcnow()}
        row = await self._db.run(
            lambda connection: connection.execute(_INSERT, values).one(), write=True
        )
        return Query(**values, id=row.id)

    async def recent_for_user(self, user_id: int, limit: int = 20) -> list[Query]:
        """The user's questions, newest first, in every chat."""
        return await self._recent(QueryRow.user_id == user_id, limit)

    async def recent_for_chat(self, chat_id: int, limit: int = 20) -> list[Query]:
        """The questions asked in a chat (a team's recent questions), newest first."""
        return await self._recent(QueryRow.chat_id == chat_id, limit)

    async def latest(self, user_id: int, chat_id: int) -> Query | None:
        """The user's newest question in the chat."""
        found = await self._recent(
            and_(QueryRow.user_id == user_id, QueryRow.chat_id == chat_id), 1
        )
        return found[0] if found else None

    async def _recent(self, where: ColumnElement[bool], limit: int) -> list[Query]:
        checks.in_range("limit", limit, 1, MAX_LIMIT)
        async with self._db.read() as session:
            rows = await session.scalars(
                select(QueryRow)
                .where(where)
                .order_by(QueryRow.created_at.desc(), QueryRow.id.desc())
                .limit(limit)
            )
            return [convert.query(r) for r in rows]
