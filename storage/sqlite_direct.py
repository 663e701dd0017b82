"""SQLite transactions for the hot paths (claiming an update, a message's context, saving its
turn), run whole on the event loop's own thread, or in a thread of this process when they
would have to wait.

Through aiosqlite every step of a transaction (BEGIN, each statement, each fetch, COMMIT) is
handed to its thread and back, with a greenlet switch for each in SQLAlchemy's async layer: a
one-statement transaction cost 1.3-2.1 ms of CPU, where the same read takes 0.15 ms on a
synchronous connection. Handing the whole transaction to a thread at once cut that to about
0.4 ms alone, but not in the bot: there the thread and the busy event loop take the GIL from
each other at every call into sqlite3, and the thread's share grew to 0.6 ms a transaction
(measured per thread over 3,000 answers of bench/telegram_speed.py's harness).

So a transaction first runs directly, on one connection that never waits: its busy timeout is
0, and it never checkpoints the write-ahead log on commit (a checkpoint writes the database
file and syncs it to disk). What runs directly is a few indexed statements in the OS's page
cache (0.1-0.2 ms); writes reach the log file's pages in memory, and WAL lets readers read
while another connection writes. A transaction that meets a lock (another process writing,
the schema being migrated) is rolled back, which undoes nothing since it got no lock, and runs
again in a thread where it may wait up to the busy timeout. Every CHECKPOINT_EVERY direct
commits the write thread checkpoints the log (PASSIVE: it waits for nobody)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.engine import URL
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import PoolProxiedConnection

from .engine import sync_sqlite_engine
from .sqlite_statements import Begin, Compiler, Statements, transaction

log = logging.getLogger(__name__)
R = TypeVar("R")
# Commits between two checkpoints: SQLite's own default (wal_autocheckpoint) is 1,000 pages,
# and a message's transactions write a few pages each.
CHECKPOINT_EVERY = 300
_CHECKPOINT = "PRAGMA wal_checkpoint(PASSIVE)"
_LOCKED = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _locked(error: OperationalError) -> bool:
    return getattr(error.orig, "sqlite_errorcode", None) in _LOCKED


def _logged(done: Future[Any]) -> None:
    """Background work (the checkpoint) has nobody awaiting it: its failure is logged."""
    error = done.exception()
    if error is not None:
        log.warning("background database work failed: %s", type(error).__name__)


def _driver(connection: PoolProxiedConnection) -> sqlite3.Connection:
    driver = connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)  # the engines are pysqlite's
    return driver


class SqliteDirect:
    """`await run(work, write=...)`: `work(statements)` in one transaction on the SQLite file of
    `url` (BEGIN IMMEDIATE for writes, so that a writer takes the lock up front or not at
    all), on the driver's connection (storage.sqlite_statements). `work` must do only SQL: it
    may run twice (rolled back the first time)."""

    def __init__(self, url: URL) -> None:
        self._direct_engine = sync_sqlite_engine(url, waits=False)
        self._waiting_engine = sync_sqlite_engine(url)
        self._compiler = Compiler(self._direct_engine.dialect)
        # Opened on first use, on the event loop's thread (sqlite3 ties it to its thread),
        # and kept: checking it out of the pool for every transaction cost more than a read.
        self._direct: PoolProxiedConnection | None = None
        # One thread each, in order; reads never wait behind a write that waits for another
        # process's lock.
        self._workers = {
            w: ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
            for w, name in ((False, "sqlite-read"), (True, "sqlite-write"))
        }
        self._commits = 0

    async def run(self, work: Callable[[Statements], R], *, write: bool) -> R:
        begin: Begin = "IMMEDIATE" if write else "DEFERRED"
        try:
            if self._direct is None:  # opening sets WAL, which may meet a lock too
                self._direct = self._direct_engine.raw_connection()
            outcome = transaction(_driver(self._direct), self._compiler, begin, work)
        except OperationalError as error:
            if not _locked(error):
                raise
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._workers[write], self._waiting, begin, work)
        if write:
            self._commits += 1
            if self._commits % CHECKPOINT_EVERY == 0:
                self._workers[True].submit(self._checkpoint).add_done_callback(_logged)
        return outcome

    def _waiting(self, begin: Begin, work: Callable[[Statements], R]) -> R:
        connection = self._waiting_engine.raw_connection()
        try:
            return transaction(_driver(connection), self._compiler, begin, work)
        finally:
            connection.close()

    def _checkpoint(self) -> None:
        connection = self._waiting_engine.raw_connection()
        try:
            _driver(connection).execute(_CHECKPOINT)
        finally:
            connection.close()

    async def close(self) -> None:
        if self._direct is not None:
            # On the thread that opened it (the loop's): sqlite3 refuses any other.
            self._direct.close()
            self._direct = None
            self._direct_engine.dispose()
        # Waits for a transaction still in its thread, which may wait for a lock.
        await asyncio.to_thread(self._shut)

    def _shut(self) -> None:
        for worker in self._workers.values():
            worker.shutdown(wait=True)
        self._waiting_engine.dispose()
