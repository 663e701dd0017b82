"""One database: an engine, short read and write transactions, and driver errors as StorageError.

Every repository call is its own transaction (`read()`, `write()` or `connection()`), so a caller
never holds a transaction across a round trip to Telegram, and an error rolls back exactly that
call: nothing stored earlier is touched.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, nullcontext
from typing import NoReturn, TypeVar

from sqlalchemy import text
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .engine import make_engine, sqlite_begin
from .errors import StorageError
from .settings import StorageSettings, database_url
from .sqlite_direct import SqliteDirect
from .sqlite_statements import Statements

R = TypeVar("R")

_PING = text("SELECT 1")


class Database:
    def __init__(self, url: str | URL | None = None) -> None:
        self.url = database_url(url) if url is not None else StorageSettings().url
        self.engine = make_engine(self.url)
        # SQLite has one writer at a time, and its busy handler lets waiting writers poll (up
        # to 100 ms apart, first come not first served): with a dozen writers at once one of
        # them lost for the whole 30 s busy timeout ("database is locked"). This process's
        # writers take turns here instead, in order; other processes still meet the timeout.
        self._writers = asyncio.Lock() if self.backend == "sqlite" else None
        self._read_engine = sqlite_begin(self.engine, "DEFERRED")
        self._write_engine = sqlite_begin(self.engine, "IMMEDIATE")
        self._reader = async_sessionmaker(self._read_engine, expire_on_commit=False)
        self._writer = async_sessionmaker(self._write_engine, expire_on_commit=False)
        self._sqlite = SqliteDirect(self.url) if self.backend == "sqlite" else None

    @property
    def backend(self) -> str:
        """ "sqlite" or "postgresql"."""
        return self.url.get_backend_name()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A session for reading, in one transaction so that what it reads is consistent."""
        async with guard(self.url), self._reader() as session, session.begin():
            yield session

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session whose transaction commits at the end, or rolls back on any error."""
        async with self._turn(), guard(self.url), self._writer() as session, session.begin():
            yield session

    async def run(self, work: Callable[[Statements], R], *, write: bool) -> R:
        """`work(statements)` in one Core transaction (committed at the end when all went
        well), for the hot paths (claiming an update, a message's context, saving its turn):
        without the ORM's unit of work a call costs about half as much, and on SQLite the
        whole transaction runs on the driver's synchronous connection (storage.sqlite_direct)
        instead of handing each statement to aiosqlite's thread. On PostgreSQL `work` runs
        over asyncpg through SQLAlchemy's greenlet bridge. `work` does SQL only: it may run
        twice."""
        async with self._turn() if write else nullcontext(), guard(self.url):
            if self._sqlite is not None:
                return await self._sqlite.run(work, write=write)
            engine = self._write_engine if write else self._read_engine
            async with engine.begin() as connection:
                return await connection.run_sync(work)

    @asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """This process's turn to write (SQLite); nothing to wait for on PostgreSQL."""
        if self._writers is None:
            yield
            return
        async with self._writers:
            yield

    async def ping(self) -> None:
        await self.run(lambda connection: connection.execute(_PING), write=False)

    async def close(self) -> None:
        if self._sqlite is not None:
            await self._sqlite.close()
        await self.engine.dispose()


@asynccontextmanager
async def guard(url: URL) -> AsyncIterator[None]:
    """Turns driver and connection errors inside the block into a StorageError."""
    try:
        yield
    except StorageError:
        raise
    except IntegrityError as exc:
        _fail("db_conflict", url, exc)
    except (SQLAlchemyError, OSError) as exc:
        _fail("db_unavailable", url, exc)
    except Exception as exc:
        if not _is_asyncpg_error(exc):
            raise
        _fail("db_unavailable", url, exc)


def _is_asyncpg_error(exc: Exception) -> bool:
    """asyncpg raises its own errors, not wrapped by SQLAlchemy, while connecting ("database
    does not exist", "role does not exist"). Checked without importing asyncpg for SQLite."""
    if "asyncpg" not in sys.modules:
        return False
    import asyncpg

    return isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError)


def _fail(code: str, url: URL, exc: BaseException) -> NoReturn:
    raise StorageError(
        code, url=url.render_as_string(hide_password=True), reason=reason(exc, url)
    ) from None


def reason(exc: BaseException, url: URL) -> str:
    """One line saying what went wrong, without SQL, parameters or the password."""
    cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    if isinstance(cause, OSError) and cause.errno:
        # asyncio's "Connect call failed ('127.0.0.1', 1)" hides the actual reason.
        text = os.strerror(cause.errno)
    else:
        text = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
    # The driver's own message can carry the wrapped driver error class in front of it.
    text = text.split(": ", 1)[1] if text.startswith("<class ") and ": " in text else text
    if url.password:
        text = text.replace(str(url.password), "***")
    return text[:200]
