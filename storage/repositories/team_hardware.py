"""A team's hardware pool: machines owned by a chat, each recording who added it."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import checks
from ..database import Database
from ..errors import StorageError
from ..models import TeamHardwareRow
from ..schemas import HardwareSpec, TeamHardware
from . import convert
from .chats import lock_chat

MAX_TEAM_HARDWARE = 100


class TeamHardwareRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def save(
        self,
        chat_id: int,
        name: str,
        hardware: HardwareSpec,
        *,
        text: str = "",
        added_by: int | None = None,
    ) -> TeamHardware:
        """Adds the machine `name` to the team, or replaces its hardware; whoever added it
        first stays recorded as its adder."""
        name = checks.name(name)
        text = checks.free_text(text, "text", checks.HARDWARE_TEXT_MAX)
        if hardware.is_empty:
            raise StorageError("hardware_empty")
        async with self._db.write() as session:
            await lock_chat(session, chat_id)
            row = await _by_name(session, chat_id, name)
            if row is None:
                count = await session.scalar(
                    select(func.count()).where(TeamHardwareRow.chat_id == chat_id)
                )
                if (count or 0) >= MAX_TEAM_HARDWARE:
                    raise StorageError("too_many_team_hardware", limit=MAX_TEAM_HARDWARE)
                row = TeamHardwareRow(chat_id=chat_id, name=name, added_by=added_by)
                session.add(row)
            row.text = text
            for field, value in convert.hardware_columns(hardware).items():
                setattr(row, field, value)
            await session.flush()
            return convert.team_hardware(row)

    async def get(self, chat_id: int, name: str) -> TeamHardware | None:
        async with self._db.read() as session:
            row = await _by_name(session, chat_id, checks.name(name))
            return None if row is None else convert.team_hardware(row)

    async def of_chat(self, chat_id: int) -> list[TeamHardware]:
        async with self._db.read() as session:
            rows = await session.scalars(
                select(TeamHardwareRow)
                .where(TeamHardwareRow.chat_id == chat_id)
                .order_by(TeamHardwareRow.name)
            )
            return [convert.team_hardware(r) for r in rows]

    async def remove(self, chat_id: int, name: str) -> None:
        name = checks.name(name)
        async with self._db.write() as session:
            row = await _by_name(session, chat_id, name)
            if row is None:
                raise StorageError("team_hardware_not_found", name=name)
            await session.delete(row)


async def _by_name(session: AsyncSession, chat_id: int, name: str) -> TeamHardwareRow | None:
    return await session.scalar(
        select(TeamHardwareRow).where(
            TeamHardwareRow.chat_id == chat_id, TeamHardwareRow.name == name
        )
    )
