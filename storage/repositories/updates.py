"""Processed update ids: each incoming update is handled once, however often it is delivered.

Telegram redelivers an update when the bot did not confirm it in time, and several replicas may
receive the same one. `claim` is a single INSERT ... ON CONFLICT DO NOTHING RETURNING, which
both backends make atomic: of any number of concurrent claims for one id, exactly one is told
it is new.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from sqlalchemy import delete

from .. import checks
from ..database import Database
from ..models import ProcessedUpdateRow, utcnow
from ..sqlite_statements import Statements
from .counts import rowcount
from .dialect import insert_on_conflict

# Run for every update: built once, as SQL text (see dialect.insert_on_conflict).
_CLAIM = insert_on_conflict(
    ProcessedUpdateRow.__table__,
    ("source", "update_id", "processed_at"),
    ("source", "update_id"),
    returning="update_id",
)


def _claim(values: dict[str, object], connection: Statements) -> bool:
    return connection.execute(_CLAIM, values).first() is not None


class UpdateRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, source: str, update_id: int) -> bool:
        """True the first time (source, update_id) is seen, False for every repeat."""
        source = checks.name(source, "source")
        checks.in_range("update_id", update_id, -(2**63), 2**63 - 1)
        values = {"source": source, "update_id": update_id, "processed_at": utcnow()}
        return await self._db.run(partial(_claim, values), write=True)

    async def prune(self, older_than: timedelta) -> int:
        """Forgets ids processed more than `older_than` ago (Telegram stops redelivering after
        24 hours); returns how many."""
        async with self._db.write() as session:
            result = await session.execute(
                delete(ProcessedUpdateRow).where(
                    ProcessedUpdateRow.processed_at < utcnow() - older_than
                )
            )
            return rowcount(result)
