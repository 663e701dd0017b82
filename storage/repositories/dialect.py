"""INSERT ... ON CONFLICT for the session's backend: both SQLite and PostgreSQL support it, but
SQLAlchemy builds it from each dialect's own `insert`."""

from __future__ import annotations

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Base


def insert(session: AsyncSession, table: type[Base]) -> postgresql.Insert | sqlite.Insert:
    """An INSERT for `table` that has `.on_conflict_do_nothing()` / `.on_conflict_do_update()`."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)
