"""Processed update ids: each incoming update is handled once, however often it is delivered.

Telegram redelivers an update when the bot did not confirm it in time, and several replicas may
receive the same one. `claim` is a single INSERT ... ON CONFLICT DO NOTHING RETURNING, which
both backends make atomic: of any number of concurrent claims for one id, exactly one is told
it is new.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.dialects import postgresql, sqlite

from .. import checks
from ..database import Database
from ..models import ProcessedUpdateRow, utcnow


def _claim(dialect: Any) -> Any:
    return (
        dialect.insert(ProcessedUpdateRow.__table__)
        .on_conflict_do_nothing(index_elements=["source", "update_id"])
        .returning(ProcessedUpdateRow.update_id)
    )


# Run for every update: Core statements built once (see Database.connection).
_CLAIM = {"sqlite": _claim(sqlite), "postgresql": _claim(postgresql)}


class UpdateRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, source: str, update_id: int) -> bool:
        """True the first time (source, update_id) is seen, False for every repeat."""
        source = checks.name(source, "source")
        checks.in_range("update_id", update_id, -(2**63), 2**63 - 1)
        values = {"source": source, "update_id": update_id, "processed_at": utcnow()}
        async with self._db.connection(write=True) as connection:
            found = await connection.execute(_CLAIM[connection.dialect.name], values)
            return found.first() is not None

    async def prune(self, older_than: timedelta) -> int:
        """Forgets ids processed more than `older_than` ago (Telegram stops redelivering after
        24 hours); returns how many."""
        async with self._db.write() as session:
            result = await session.execute(
                delete(ProcessedUpdateRow).where(
                    ProcessedUpdateRow.processed_at < utcnow() - older_than
                )
            )
            return result.rowcount
