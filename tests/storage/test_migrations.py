"""Alembic migrations: up, down and up again, the schema they build equals the models, and
concurrent starts on a fresh database, on both backends."""

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from storage import StorageError, migrate
from storage.database import Database
from storage.migrate import HEAD, current, downgrade, scripts
from storage.models import Base

ROOT = Path(__file__).resolve().parents[2]
TABLES = {t.name for t in Base.metadata.sorted_tables}


async def tables(url: str) -> set[str]:
    db = Database(url)
    try:
        async with db.engine.connect() as connection:
            names = await connection.run_sync(lambda c: inspect(c).get_table_names())
        return set(names) - {"alembic_version"}
    finally:
        await db.close()


async def schema_differences(url: str) -> list:
    db = Database(url)
    try:
        async with db.engine.connect() as connection:
            return await connection.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata)
            )
    finally:
        await db.close()


def test_head_is_the_newest_script():
    assert scripts().get_current_head() == HEAD


async def test_upgrade_downgrade_upgrade(database_url: str):
    assert await current(database_url) is None
    assert await migrate(database_url) == HEAD
    assert await tables(database_url) == TABLES
    await downgrade(database_url, "base")
    assert await current(database_url) is None
    assert await tables(database_url) == set()
    assert await migrate(database_url) == HEAD
    assert await tables(database_url) == TABLES


async def test_migrated_schema_matches_the_models(database_url: str):
    await migrate(database_url)
    assert await schema_differences(database_url) == []


async def test_migrate_twice_is_a_no_op(database_url: str):
    await migrate(database_url)
    assert await migrate(database_url) == HEAD
    assert await current(database_url) == HEAD


async def test_two_migrations_started_together_both_succeed(database_url: str):
    results = await asyncio.gather(migrate(database_url), migrate(database_url))
    assert results == [HEAD, HEAD]
    assert await tables(database_url) == TABLES


def test_processes_started_together_all_succeed(database_url: str):
    code = "import asyncio, sys; from storage import migrate; asyncio.run(migrate(sys.argv[1]))"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", code, database_url],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outcomes = [(p.wait(timeout=120), p.stderr.read()) for p in processes]
    assert [code for code, _ in outcomes] == [0, 0, 0, 0], outcomes
    assert asyncio.run(current(database_url)) == HEAD


async def test_migrate_does_not_depend_on_the_working_directory(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    assert await migrate(database_url) == HEAD


async def test_a_database_from_a_newer_version_is_refused(database_url: str):
    await migrate(database_url)
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.execute(text("UPDATE alembic_version SET version_num = 'ffff9999'"))
    finally:
        await db.close()
    with pytest.raises(StorageError) as refused:
        await migrate(database_url)
    assert refused.value.code == "db_schema_newer"
    assert refused.value.params["revision"] == "ffff9999"
