"""Rows known by a platform's own id (users and chats): found by it, and created on first sight
without a race."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import Select, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import checks
from ..errors import StorageError
from ..models import ChatRow, UserRow, utcnow
from .dialect import insert


def external_key(external_id: str | int) -> str:
    """The platform's id for a person or chat, as stored: a one-line string."""
    key = checks.label(str(external_id), "external_id")
    if key is None:
        raise StorageError("name_empty", field="external_id")
    return key


R = TypeVar("R", UserRow, ChatRow)


def _by_key(model: type[R], platform: str, key: str) -> Select[tuple[R]]:
    return select(model).where(model.platform == platform, model.external_id == key)


async def find_row(session: AsyncSession, model: type[R], platform: str, key: str) -> R | None:
    return await session.scalar(_by_key(model, platform, key))


async def ensure_row(
    session: AsyncSession, model: type[R], platform: str, key: str, fields: dict[str, Any]
) -> R:
    """The row for (platform, key), inserted with `fields` on first sight; `fields` that differ
    from a stored row replace its values."""
    now = utcnow()
    # Two first messages from one person may arrive together: the loser of the race inserts
    # nothing and reads the winner's row.
    await session.execute(
        insert(session, model)
        .values(
            platform=platform,
            external_id=key,
            settings={},
            created_at=now,
            updated_at=now,
            **fields,
        )
        .on_conflict_do_nothing(index_elements=["platform", "external_id"])
    )
    row = (await session.scalars(_by_key(model, platform, key))).one()
    changed = {f: v for f, v in fields.items() if getattr(row, f) != v}
    if changed:
        for field, value in changed.items():
            setattr(row, field, value)
        await session.flush()
    return row
