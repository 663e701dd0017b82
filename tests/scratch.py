"""Throwaway PostgreSQL databases, for tests and benchmarks that must not share state.

Needs PostgreSQL 13 or newer (DROP DATABASE ... WITH (FORCE)) and the maintenance database
"postgres" on the same server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from uuid import uuid4

from sqlalchemy import text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from storage.settings import database_url

PREFIX = "llm_sizer_tmp_"


def _admin(url: URL) -> AsyncEngine:
    # CREATE/DROP DATABASE cannot run inside a transaction.
    return create_async_engine(
        url.set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool
    )


async def create_database(server_url: str | URL) -> URL:
    """A new, empty database on the server of `server_url`; returns its URL."""
    server = database_url(server_url)
    name = PREFIX + uuid4().hex
    admin = _admin(server)
    try:
        async with admin.connect() as connection:
            await connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await admin.dispose()
    return server.set(database=name)


async def drop_database(url: str | URL) -> None:
    """Drops a database made by create_database, even while connections to it are open."""
    target = database_url(url)
    name = target.database or ""
    if not name.startswith(PREFIX) or not name[len(PREFIX) :].isalnum():
        raise ValueError(f"not a database made by create_database: {name!r}")
    admin = _admin(target)
    try:
        async with admin.connect() as connection:
            await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


@asynccontextmanager
async def temporary_database(server_url: str | URL) -> AsyncIterator[URL]:
    """A new database for the duration of the block."""
    url = await create_database(server_url)
    try:
        yield url
    finally:
        await drop_database(url)
