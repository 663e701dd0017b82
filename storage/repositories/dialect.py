"""INSERT ... ON CONFLICT on both backends. SQLite and PostgreSQL both support it, but SQLAlchemy
builds it from each dialect's own `insert`, and cannot cache what it builds ("no key"): a
statement run on every message is written once as SQL text both backends read alike instead."""

from __future__ import annotations

from sqlalchemy import Table, TextClause, bindparam, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Base


def insert(session: AsyncSession, table: type[Base]) -> postgresql.Insert | sqlite.Insert:
    """An INSERT for `table` that has `.on_conflict_do_nothing()` / `.on_conflict_do_update()`."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def insert_on_conflict(
    table: Table,
    columns: tuple[str, ...],
    keys: tuple[str, ...],
    *,
    update: tuple[str, ...] = (),
    returning: str | None = None,
) -> TextClause:
    """INSERT of `columns` (bound by name, with the columns' types); on a conflict on `keys`,
    sets `update` from the new row, or does nothing when `update` is empty."""
    action = (
        "DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in update)
        if update
        else "DO NOTHING"
    )
    sql = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join(f':{c}' for c in columns)}) "
        f"ON CONFLICT ({', '.join(keys)}) {action}"
        + (f" RETURNING {returning}" if returning else "")
    )
    return text(sql).bindparams(*(bindparam(c, type_=table.c[c].type) for c in columns))
