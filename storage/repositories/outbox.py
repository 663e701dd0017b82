"""Messages waiting for the platform's API to take them: kept when a send finally failed, sent
later in the order they were kept, and deleted once sent.

Several processes may send from one outbox (webhook replicas on one PostgreSQL): a process
claims a row for a while before sending it, and only the process holding the claim sends it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, distinct, func, or_, select, update

from .. import checks
from ..database import Database
from ..models import OutboxRow, utcnow
from ..schemas import OutboxMessage, Platform
from .counts import rowcount
from .platform_ids import external_key

MAX_LIMIT = 1000
METHOD_MAX = 32


def _message(row: OutboxRow) -> OutboxMessage:
    return OutboxMessage.model_validate(row)


class OutboxRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def keep(
        self,
        platform: Platform,
        chat_key: str,
        method: str,
        params: dict[str, Any],
        body: bytes | None = None,
    ) -> OutboxMessage:
        """Stores a message to send later; `params` are the API's own, as JSON."""
        row = OutboxRow(
            platform=checks.name(platform, "platform"),
            chat_key=external_key(chat_key),
            method=checks.label(method, "method", METHOD_MAX) or "",
            params=checks.document(params, "params"),
            body=body,
            created_at=utcnow(),
        )
        async with self._db.write() as session:
            session.add(row)
            await session.flush()
            return _message(row)

    async def chats(self, platform: Platform) -> set[str]:
        """The chats that have messages waiting."""
        async with self._db.read() as session:
            found = await session.scalars(
                select(distinct(OutboxRow.chat_key)).where(OutboxRow.platform == platform)
            )
            return set(found)

    async def claim(
        self, platform: Platform, hold: timedelta, limit: int = 50
    ) -> list[OutboxMessage]:
        """The oldest messages no other process holds, now held by this one for `hold`.

        Only a chat's oldest waiting message can be claimed while it waits, so messages to one
        chat are sent in the order they were kept even when several processes send."""
        checks.in_range("limit", limit, 1, MAX_LIMIT)
        now = utcnow()
        free = or_(OutboxRow.claimed_until.is_(None), OutboxRow.claimed_until < now)
        oldest = (
            select(func.min(OutboxRow.id))
            .where(OutboxRow.platform == platform)
            .group_by(OutboxRow.chat_key)
        )
        async with self._db.write() as session:
            rows = list(
                await session.scalars(
                    select(OutboxRow)
                    .where(OutboxRow.id.in_(oldest), free)
                    .order_by(OutboxRow.id)
                    .limit(limit)
                )
            )
            if not rows:
                return []
            taken = await session.execute(
                update(OutboxRow)
                .where(OutboxRow.id.in_([r.id for r in rows]), free)
                .values(claimed_until=now + hold)
                .returning(OutboxRow.id)
            )
            ids = set(taken.scalars())
            return [_message(r) for r in rows if r.id in ids]

    async def sent(self, message_id: int) -> None:
        """The message went out (or can never go out): it is no longer kept."""
        async with self._db.write() as session:
            await session.execute(delete(OutboxRow).where(OutboxRow.id == message_id))

    async def release(self, message_id: int) -> None:
        """Sending failed for now: any process may try the message again."""
        async with self._db.write() as session:
            await session.execute(
                update(OutboxRow).where(OutboxRow.id == message_id).values(claimed_until=None)
            )

    async def prune(self, older_than: timedelta) -> int:
        """Drops messages kept longer than `older_than`: an answer days late helps nobody."""
        async with self._db.write() as session:
            result = await session.execute(
                delete(OutboxRow).where(OutboxRow.created_at < utcnow() - older_than)
            )
            return rowcount(result)
