"""DATABASE_URL, the default SQLite file, driver names and masked passwords."""

import logging
from pathlib import Path

import pytest

from storage import Storage, StorageError, StorageSettings, migrate
from storage.settings import database_url, default_database_path, masked
from tests.conftest import NO_POSTGRES, postgres_server


def test_default_is_sqlite_in_the_user_data_folder(monkeypatch, tmp_path: Path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_path() == tmp_path / "llm-sizer" / "llm-sizer.db"
    assert StorageSettings().url == database_url(f"sqlite+aiosqlite:///{default_database_path()}")


async def test_the_default_folder_is_made_on_first_use(monkeypatch, tmp_path: Path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "deep" / "er"))
    async with await Storage.open() as storage:
        await storage.users.ensure("local", "alice")
    assert (tmp_path / "deep" / "er" / "llm-sizer" / "llm-sizer.db").is_file()


def test_database_url_from_the_environment(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/x.db")
    assert StorageSettings().url.drivername == "sqlite+aiosqlite"
    assert StorageSettings().url.database == f"{tmp_path}/x.db"


@pytest.mark.parametrize(
    ("given", "driver"),
    [
        ("sqlite:///x.db", "sqlite+aiosqlite"),
        ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite"),
        ("postgresql://u@h/d", "postgresql+asyncpg"),
        ("postgres://u@h/d", "postgresql+asyncpg"),
        ("postgresql+psycopg2://u@h/d", "postgresql+asyncpg"),
    ],
)
def test_urls_get_their_async_driver(given: str, driver: str):
    assert database_url(given).drivername == driver


def test_passwords_never_show(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:hunter2@db.example/llm")
    settings = StorageSettings()
    assert "hunter2" not in repr(settings) and "hunter2" not in str(settings)
    assert settings.display_url == "postgresql+asyncpg://bot:***@db.example/llm"
    assert masked("postgresql://bot:hunter2@db/llm") == "postgresql+asyncpg://bot:***@db/llm"
    assert settings.url.password == "hunter2"


async def test_migration_logs_do_not_show_the_password(caplog):
    server = postgres_server()
    if server is None:
        pytest.skip(NO_POSTGRES)
    from tests.scratch import temporary_database

    async with temporary_database(server) as url:
        # The test server trusts local connections, so any password gets in.
        with_password = url.set(password="hunter2")
        with caplog.at_level(logging.DEBUG):
            await migrate(with_password)
    assert caplog.records and "hunter2" not in caplog.text
    assert "***" in caplog.text


@pytest.mark.parametrize(
    "url", ["sqlite://", "sqlite:///:memory:", "sqlite:///file::memory:?cache=shared&uri=true"]
)
def test_in_memory_sqlite_is_refused(url: str):
    # Every connection (the migration's included) would see its own empty database.
    with pytest.raises(StorageError) as refused:
        database_url(url)
    assert refused.value.code == "db_bad_url"
