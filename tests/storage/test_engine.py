"""What the first start leaves behind: a private SQLite file, and no Alembic chatter in the log."""

from __future__ import annotations

import asyncio
import logging
import stat
from pathlib import Path

import pytest

from storage import Storage


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_sqlite_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "data" / "llm-sizer" / "llm-sizer.db"

    async def use() -> None:
        async with await Storage.open(f"sqlite+aiosqlite:///{path}") as storage:
            await storage.users.ensure("local", "alice")

    asyncio.run(use())
    assert mode(path) == 0o600
    assert mode(path.parent) == 0o700
    # SQLite makes the write-ahead log and its index with the database file's mode.
    for companion in path.parent.glob("llm-sizer.db-*"):
        assert mode(companion) == 0o600, companion.name


def test_an_existing_database_keeps_its_mode(tmp_path: Path) -> None:
    """A team's file made group-readable on purpose stays so."""
    path = tmp_path / "shared.db"
    path.touch(mode=0o640)
    path.chmod(0o640)

    async def use() -> None:
        async with await Storage.open(f"sqlite+aiosqlite:///{path}"):
            pass

    asyncio.run(use())
    assert mode(path) == 0o640


def test_migrating_logs_one_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)

    async def use() -> None:
        async with await Storage.open(f"sqlite+aiosqlite:///{tmp_path / 'new.db'}"):
            pass

    asyncio.run(use())
    lines = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert [r.name for r in lines] == ["storage.migrate"], [r.getMessage() for r in lines]
    assert "upgraded to" in lines[0].getMessage()
