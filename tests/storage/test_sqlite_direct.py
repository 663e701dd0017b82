"""The hot paths on SQLite run on the event loop's thread on a connection that never waits: a
lock held by another process sends them to a thread (the loop goes on meanwhile, and nothing is
written twice), and the write-ahead log is checkpointed by that thread, not by a commit on the
loop."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from storage import Storage, sqlite_direct


def held_write_lock(path: Path, seconds: float) -> threading.Thread:
    """Another process's writer: holds the write lock for `seconds` from a thread."""
    taken = threading.Event()

    def hold() -> None:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        taken.set()
        threading.Event().wait(seconds)
        other.execute("COMMIT")
        other.close()

    thread = threading.Thread(target=hold)
    thread.start()
    taken.wait()
    return thread


@pytest.fixture
async def sqlite_storage(tmp_path: Path):
    opened = await Storage.open(f"sqlite+aiosqlite:///{tmp_path / 'test.db'}")
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_locked_write_waits_in_a_thread_while_the_loop_goes_on(
    sqlite_storage: Storage, tmp_path: Path
):
    holder = held_write_lock(tmp_path / "test.db", 0.5)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    running = asyncio.create_task(ticker())
    claimed = await sqlite_storage.updates.claim("telegram", 7)
    running.cancel()
    holder.join()

    assert claimed
    assert ticks >= 20  # the loop ran while the claim waited for the lock
    assert not await sqlite_storage.updates.claim("telegram", 7)  # written once


async def test_reads_go_on_while_another_process_writes(sqlite_storage: Storage, tmp_path: Path):
    await sqlite_storage.turns.load("telegram", 5, 5, "private", language="en")
    holder = held_write_lock(tmp_path / "test.db", 0.5)
    started = asyncio.get_running_loop().time()
    found = await sqlite_storage.turns.load("telegram", 5, 5, "private", language="en")
    waited = asyncio.get_running_loop().time() - started
    holder.join()
    assert found.user.language == "en"
    assert waited < 0.4  # not behind the writer's lock


def rows_in_the_database_file(tmp_path: Path) -> int:
    """Claims in the database file alone, without the write-ahead log: what a checkpoint
    copied there."""
    copy = tmp_path / "copy.db"
    shutil.copy(tmp_path / "test.db", copy)
    with sqlite3.connect(copy) as connection:
        (count,) = connection.execute("SELECT count(*) FROM processed_updates").fetchone()
    return count


async def test_the_log_is_checkpointed_in_a_thread_not_on_commit(
    sqlite_storage: Storage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(sqlite_direct, "CHECKPOINT_EVERY", 5)
    for update in range(4):
        await sqlite_storage.updates.claim("telegram", update)
    assert rows_in_the_database_file(tmp_path) == 0  # all still in the log

    await sqlite_storage.updates.claim("telegram", 4)
    for _ in range(200):
        if rows_in_the_database_file(tmp_path) == 5:
            break
        await asyncio.sleep(0.01)
    assert rows_in_the_database_file(tmp_path) == 5
