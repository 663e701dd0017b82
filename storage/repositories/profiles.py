"""Hardware profiles: several per user, each with a name, and exactly one default once any exist.

"Exactly one default" is kept by the repository and guarded by the database: a partial unique
index allows at most one default per user, and every change of default first locks the user
(see users.lock_user), so concurrent `use` and `save` calls queue instead of colliding.
"""

from __future__ import annotations

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import checks
from ..database import Database
from ..errors import StorageError
from ..models import ProfileRow
from ..schemas import HardwareSpec, Profile
from . import convert
from .users import lock_user

MAX_PROFILES = 50
# Read before most answers: a Core statement built once (see Database.connection).
_PROFILES = ProfileRow.__table__
_DEFAULT = select(_PROFILES).where(
    _PROFILES.c.user_id == bindparam("user_id"), _PROFILES.c.is_default
)


class ProfileRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def save(
        self,
        user_id: int,
        name: str,
        hardware: HardwareSpec,
        *,
        text: str = "",
        make_default: bool = False,
    ) -> Profile:
        """Creates or replaces the profile `name`. The user's first profile becomes the default;
        `make_default` makes this one the default in any case. `text` is what the user typed."""
        name = checks.name(name)
        text = checks.free_text(text, "text", checks.HARDWARE_TEXT_MAX)
        if hardware.is_empty:
            raise StorageError("hardware_empty")
        async with self._db.write() as session:
            await lock_user(session, user_id)
            row = await _by_name(session, user_id, name)
            if row is None:
                count = await session.scalar(
                    select(func.count()).where(ProfileRow.user_id == user_id)
                )
                if (count or 0) >= MAX_PROFILES:
                    raise StorageError("too_many_profiles", limit=MAX_PROFILES)
                row = ProfileRow(user_id=user_id, name=name, is_default=False)
                session.add(row)
            row.text = text
            for field, value in convert.hardware_columns(hardware).items():
                setattr(row, field, value)
            await session.flush()
            if make_default or await _default(session, user_id) is None:
                await _make_default(session, user_id, row)
            return convert.profile(row)

    async def get(self, user_id: int, name: str) -> Profile | None:
        async with self._db.read() as session:
            row = await _by_name(session, user_id, checks.name(name))
            return None if row is None else convert.profile(row)

    async def named(self, user_id: int, name: str) -> Profile:
        """The profile `name`; refuses (profile_not_found) with the names the user does have."""
        async with self._db.read() as session:
            return convert.profile(await existing_profile(session, user_id, checks.name(name)))

    async def default(self, user_id: int) -> Profile | None:
        """The profile answers use when a question names no hardware."""
        row = await self._db.run(
            lambda connection: connection.execute(_DEFAULT, {"user_id": user_id}).first(),
            write=False,
        )
        return None if row is None else convert.profile(row)

    async def of_user(self, user_id: int) -> list[Profile]:
        async with self._db.read() as session:
            rows = await session.scalars(
                select(ProfileRow).where(ProfileRow.user_id == user_id).order_by(ProfileRow.name)
            )
            return [convert.profile(r) for r in rows]

    async def use(self, user_id: int, name: str) -> Profile:
        """Makes `name` the default profile."""
        name = checks.name(name)
        async with self._db.write() as session:
            await lock_user(session, user_id)
            row = await existing_profile(session, user_id, name)
            await _make_default(session, user_id, row)
            return convert.profile(row)

    async def delete(self, user_id: int, name: str) -> Profile | None:
        """Deletes `name`; returns the default afterwards. Deleting the default promotes the
        most recently changed remaining profile, so a user with profiles always has one."""
        name = checks.name(name)
        async with self._db.write() as session:
            await lock_user(session, user_id)
            row = await existing_profile(session, user_id, name)
            was_default = row.is_default
            await session.delete(row)
            await session.flush()
            if not was_default:
                current = await _default(session, user_id)
                return None if current is None else convert.profile(current)
            successor = await session.scalar(
                select(ProfileRow)
                .where(ProfileRow.user_id == user_id)
                .order_by(ProfileRow.updated_at.desc(), ProfileRow.id.desc())
                .limit(1)
            )
            if successor is None:
                return None
            await _make_default(session, user_id, successor)
            return convert.profile(successor)


async def _by_name(session: AsyncSession, user_id: int, name: str) -> ProfileRow | None:
    return await session.scalar(
        select(ProfileRow).where(ProfileRow.user_id == user_id, ProfileRow.name == name)
    )


async def existing_profile(session: AsyncSession, user_id: int, name: str) -> ProfileRow:
    """The profile `name`; refuses with the names the user does have."""
    row = await _by_name(session, user_id, name)
    if row is not None:
        return row
    names = list(
        await session.scalars(
            select(ProfileRow.name).where(ProfileRow.user_id == user_id).order_by(ProfileRow.name)
        )
    )
    if not names:
        raise StorageError("profile_none")
    raise StorageError("profile_not_found", name=name, known=names)


async def _default(session: AsyncSession, user_id: int) -> ProfileRow | None:
    return await session.scalar(
        select(ProfileRow).where(ProfileRow.user_id == user_id, ProfileRow.is_default)
    )


async def _make_default(session: AsyncSession, user_id: int, row: ProfileRow) -> None:
    # Clear first, then set: the partial unique index is checked row by row on PostgreSQL, so
    # doing both in one UPDATE could trip it halfway.
    await session.execute(
        update(ProfileRow)
        .where(ProfileRow.user_id == user_id, ProfileRow.id != row.id, ProfileRow.is_default)
        .values(is_default=False)
        .execution_options(synchronize_session="fetch")
    )
    row.is_default = True
    await session.flush()
