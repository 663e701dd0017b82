"""Async engines that behave alike on SQLite and PostgreSQL.

SQLite needs three things per connection that PostgreSQL gives for free: foreign keys (off by
default, and our cascades depend on them), WAL (readers do not block the writer) and a busy
timeout (a writer waits for the lock instead of failing at once). It also needs SQLAlchemy to
emit BEGIN itself: the sqlite3 driver's legacy mode skips BEGIN before SELECT and DDL, which
breaks repeatable reads and transactional migrations. Emitting it ourselves lets a write
transaction start with BEGIN IMMEDIATE, so two writers queue on the lock up front rather than
both reading and then failing to upgrade to a write lock with "database is locked".
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Literal, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool, StaticPool

from .errors import StorageError
from .settings import sqlite_path

SqliteBegin = Literal["DEFERRED", "IMMEDIATE", "EXCLUSIVE"]
E = TypeVar("E", Engine, AsyncEngine)
BEGIN_OPTION = "llm_sizer_sqlite_begin"

# Seconds a connection waits for a lock another one holds; 50 concurrent writers of a few
# milliseconds each stay far below it, and a stuck writer still ends in a clear error.
SQLITE_BUSY_TIMEOUT_S = 30
POSTGRES_CONNECT_TIMEOUT_S = 10
# Connections kept open. A webhook replica's updates in flight (bot.telegram.webhook) each hold
# one for their chat's lock and use one more to answer; past pool_size, SQLAlchemy closes a
# returned connection and opens a new PostgreSQL session next time, which cost a webhook
# replica more than any query it ran.
POSTGRES_POOL_SIZE = 16


def make_engine(url: URL, *, pooled: bool = True) -> AsyncEngine:
    """An engine for `url` (already normalised by settings.database_url)."""
    kwargs: dict[str, Any] = {}
    if not pooled:
        kwargs["poolclass"] = NullPool
    if url.get_backend_name() == "sqlite":
        path = sqlite_path(url)
        if path is not None:
            _make_parent(path, url)
        # Every use is a `begin()` block that commits or rolls back itself, so the pool's own
        # ROLLBACK on check-in is a wasted round trip to aiosqlite's thread on every call.
        engine = create_async_engine(
            url,
            connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S},
            pool_reset_on_return=None,
            **kwargs,
        )
        _sqlite_events(engine.sync_engine)
        return engine
    if pooled:
        kwargs["pool_size"] = POSTGRES_POOL_SIZE
    return create_async_engine(
        url,
        pool_pre_ping=pooled,
        connect_args={
            "timeout": POSTGRES_CONNECT_TIMEOUT_S,
            "server_settings": {"application_name": "llm-sizer"},
        },
        **kwargs,
    )


def sync_sqlite_engine(url: URL, *, waits: bool = True) -> Engine:
    """A synchronous engine (the sqlite3 driver) on the SQLite file of `url`, whose connections
    get the same pragmas as `make_engine`'s (storage.sqlite_direct, which begins their
    transactions itself: storage.sqlite_statements).

    `waits`: its connections wait up to the busy timeout for another connection's lock, and
    may be used from any one thread at a time. Otherwise it is one connection for the event
    loop's own thread, which must never wait: it gives up on a lock at once (busy timeout 0),
    and never checkpoints the write-ahead log as a commit ends (the checkpoint writes the
    database file and syncs it to disk; a thread does it instead)."""
    connect_args: dict[str, Any] = {"timeout": SQLITE_BUSY_TIMEOUT_S if waits else 0}
    kwargs: dict[str, Any] = {}
    if waits:
        connect_args["check_same_thread"] = False
    else:
        kwargs["poolclass"] = StaticPool
    engine = create_engine(
        url.set(drivername="sqlite+pysqlite"),
        connect_args=connect_args,
        pool_reset_on_return=None,
        **kwargs,
    )
    _sqlite_events(engine)
    if not waits:
        _no_checkpoints(engine)
    return engine


def sqlite_begin(engine: E, mode: SqliteBegin) -> E:
    """The same engine (same pool) whose transactions start with BEGIN `mode` on SQLite."""
    return engine.execution_options(**{BEGIN_OPTION: mode})


def _make_parent(path: Path, url: URL) -> None:
    """The database's folder, and the file itself readable by its owner only: it holds people's
    questions and hardware (SQLite gives its -wal and -shm files the database file's mode)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as exc:
        raise StorageError(
            "db_unavailable",
            url=url.render_as_string(hide_password=True),
            reason=exc.strerror or type(exc).__name__,
        ) from None


def _sqlite_events(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        # SQLite's advice for WAL: no fsync per commit (a third of a write's time). A crash of
        # the program loses nothing and nothing can corrupt; only a power cut or OS crash may
        # undo the last commits before the next checkpoint.
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        mode = connection.get_execution_options().get(BEGIN_OPTION, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


def _no_checkpoints(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA wal_autocheckpoint = 0")
