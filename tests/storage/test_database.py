"""A database that is down, missing or unusable gives a StorageError with a one-line reason and
a masked URL; what was stored before an error stays stored."""

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import text

from storage import HardwareSpec, NewQuery, Storage, StorageError
from tests.conftest import NO_POSTGRES, postgres_server
from tests.scratch import create_database, drop_database

SECRET = "s3cret-Passw0rd"
GPU = HardwareSpec(gpu="GeForce RTX 4090", gpu_count=1, gpu_memory_gb=24)


async def refusal(url: str) -> StorageError:
    with pytest.raises(StorageError) as refused:
        await Storage.open(url)
    return refused.value


def assert_clean(error: StorageError) -> None:
    """One line, no password, no SQL."""
    shown = " ".join(str(v) for v in error.params.values())
    assert SECRET not in shown and SECRET not in str(error)
    assert "\n" not in shown and "SELECT" not in shown


async def test_postgres_on_a_closed_port():
    error = await refusal(f"postgresql://postgres:{SECRET}@127.0.0.1:1/test")
    assert error.code == "db_unavailable"
    assert error.params["url"] == "postgresql+asyncpg://postgres:***@127.0.0.1:1/test"
    assert error.params["reason"] == "Connection refused"
    assert_clean(error)


async def test_a_missing_postgres_database():
    server = postgres_server()
    if server is None:
        pytest.skip(NO_POSTGRES)
    url = server.rsplit("/", 1)[0] + "/no_such_database_here"
    error = await refusal(url.replace("postgres@", f"postgres:{SECRET}@"))
    assert error.code == "db_unavailable"
    assert "no_such_database_here" in error.params["reason"]
    assert_clean(error)


async def test_sqlite_below_a_regular_file(tmp_path: Path):
    (tmp_path / "file").write_text("not a folder")
    error = await refusal(f"sqlite:///{tmp_path / 'file' / 'db.sqlite'}")
    assert error.code == "db_unavailable"
    assert_clean(error)


async def test_sqlite_path_that_is_a_folder(tmp_path: Path):
    error = await refusal(f"sqlite:///{tmp_path}")
    assert error.code == "db_unavailable"
    assert "unable to open" in error.params["reason"]


@pytest.mark.parametrize(
    "url", ["not a url", f"mysql://root:{SECRET}@localhost/db", f"oracle://u:{SECRET}@h/x"]
)
async def test_unusable_urls_are_refused_without_echoing_them(url: str):
    error = await refusal(url)
    assert error.code == "db_bad_url"
    assert_clean(error)


async def test_a_failed_write_changes_nothing(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    await storage.profiles.save(user.id, "desk", GPU)
    await storage.queries.save(NewQuery(user_id=user.id, text="kept"))
    with pytest.raises(StorageError) as conflict:
        await storage.queries.save(NewQuery(user_id=user.id + 999, text="orphan"))
    assert conflict.value.code == "db_conflict"
    with pytest.raises(StorageError):
        await storage.profiles.save(user.id, "desk", GPU, text="\x00")
    assert [q.text for q in await storage.queries.recent_for_user(user.id)] == ["kept"]
    (profile,) = await storage.profiles.of_user(user.id)
    assert profile.text == "" and profile.is_default


async def test_a_database_that_goes_away_gives_a_storage_error():
    server = postgres_server()
    if server is None:
        pytest.skip(NO_POSTGRES)
    url = await create_database(server)
    storage = await Storage.open(url)
    try:
        user = await storage.users.ensure("local", "alice")
        await drop_database(url)
        with pytest.raises(StorageError) as gone:
            await storage.profiles.save(user.id, "desk", GPU)
        assert gone.value.code == "db_unavailable"
    finally:
        await storage.close()


async def test_killed_connections_are_replaced(storage: Storage):
    if storage.db.backend != "postgresql":
        pytest.skip("server-side connection kills are a PostgreSQL matter")
    user = await storage.users.ensure("local", "alice")
    async with storage.db.engine.connect() as admin:
        await admin.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    await asyncio.sleep(0)
    assert (await storage.users.get(user.id)) is not None
