"""Bring a database's schema to the newest revision on start, safely when several processes start
at once (two bot replicas, a bot and a CLI call).

The upgrade runs in one transaction that first takes a lock every other migrator also takes:
on PostgreSQL an advisory transaction lock, on SQLite the database's write lock (BEGIN
EXCLUSIVE). The second process waits, then finds the schema at head and does nothing. Both
backends have transactional DDL, so a failed upgrade leaves the schema as it was.

Alembic is imported only when there is something to do: a database already at HEAD costs one
small query, which keeps every CLI call that opens storage about 0.3 s faster.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL, Connection

from .database import guard
from .engine import make_engine, sqlite_begin
from .errors import StorageError
from .settings import StorageSettings, database_url

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# The newest revision under migrations/versions; test_migrations.py fails when they disagree.
HEAD = "0002"
VERSION_TABLE = "alembic_version"
# pg_advisory_xact_lock key shared by every llm-sizer process: b"llm-size" as an int64.
LOCK_KEY = int.from_bytes(b"llm-size", "big")

log = logging.getLogger(__name__)
# Alembic reports every plugin it sets up and every step at INFO, about ten lines in a bot's log
# per upgrade; the one line of `migrate` below says what happened.
logging.getLogger("alembic").setLevel(logging.WARNING)


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration in code: no alembic.ini, independent of the working directory."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = connection
    return config


@cache
def scripts() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def _current(connection: Connection) -> str | None:
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    return connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


async def current(url: str | URL | None = None) -> str | None:
    """The database's revision; None for an empty database."""
    target = _url(url)
    engine = make_engine(target, pooled=False)
    try:
        async with guard(target), engine.connect() as connection:
            return await connection.run_sync(_current)
    finally:
        await engine.dispose()


async def migrate(url: str | URL | None = None) -> str:
    """Upgrades the database at `url` (default: DATABASE_URL) to HEAD; returns the revision."""
    target = _url(url)
    try:
        if await current(target) == HEAD:
            return HEAD
    except StorageError:
        # Only a shortcut: another migrator holding SQLite's lock can make this read fail
        # ("database is locked") where the locked upgrade below waits its turn (a file that
        # cannot be opened fails there too, with the same error). A server that cannot be
        # reached is not tried twice.
        if target.get_backend_name() != "sqlite":
            raise
    await _locked(target, _upgrade)
    log.info("database %s upgraded to %s", target.render_as_string(hide_password=True), HEAD)
    return HEAD


async def downgrade(url: str | URL | None, revision: str = "base") -> None:
    """Downgrades to `revision` ("base": no tables left). For tests and operators, never run
    on start."""

    def change(config: Config) -> None:
        from alembic import command

        command.downgrade(config, revision)

    await _locked(_url(url), change)


def _upgrade(config: Config) -> None:
    from alembic import command

    command.upgrade(config, "head")


async def _locked(url: URL, change: Callable[[Config], None]) -> None:
    engine = make_engine(url, pooled=False)
    try:
        async with guard(url), sqlite_begin(engine, "EXCLUSIVE").connect() as connection:
            await connection.begin()
            if url.get_backend_name() == "postgresql":
                await connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY}
                )
            await connection.run_sync(_apply, url, change)
            await connection.commit()
    finally:
        await engine.dispose()


def _apply(connection: Connection, url: URL, change: Callable[[Config], None]) -> None:
    found = _current(connection)
    if found is not None and found not in _known():
        raise StorageError(
            "db_schema_newer", url=url.render_as_string(hide_password=True), revision=found
        )
    change(alembic_config(connection))


@cache
def _known() -> frozenset[str]:
    return frozenset(s.revision for s in scripts().walk_revisions())


def _url(url: str | URL | None) -> URL:
    return StorageSettings().url if url is None else database_url(url)
