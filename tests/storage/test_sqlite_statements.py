"""Core statements on the sqlite3 driver read and write exactly what SQLAlchemy does: the same
JSON, UTC datetimes and booleans, the values written into a statement, errors of the same
classes, and a failed transaction leaves nothing behind."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import create_engine, insert, literal, select
from sqlalchemy.exc import IntegrityError, MultipleResultsFound, NoResultFound

from storage import Storage, StorageError
from storage.models import ConversationStateRow, ProfileRow, QueryRow, UserRow
from storage.schemas import HardwareSpec
from storage.sqlite_statements import Compiler, Driver, transaction

USERS = UserRow.__table__
PROFILES = ProfileRow.__table__
STATES = ConversationStateRow.__table__


@pytest.fixture
async def database(tmp_path: Path):
    """A migrated SQLite file and a driver connection to it in autocommit mode."""
    path = tmp_path / "test.db"
    async with await Storage.open(f"sqlite+aiosqlite:///{path}"):
        pass
    connection = sqlite3.connect(path, isolation_level=None)
    compiler = Compiler(create_engine("sqlite://").dialect)
    try:
        yield path, connection, compiler
    finally:
        connection.close()


def new_user(driver: Driver, external_id: str, settings: dict) -> int:
    now = datetime(2026, 12, 2, 7, 30, 15, 123456, tzinfo=UTC)
    values = {
        "platform": "telegram",
        "external_id": external_id,
        "language": "nl",
        "settings": settings,
        "created_at": now,
        "updated_at": now,
    }
    return driver.execute(insert(USERS).returning(USERS.c.id), values).one().id


async def test_what_the_driver_writes_sqlalchemy_reads_alike(database, tmp_path: Path):
    path, connection, compiler = database
    settings = {"charts": False, "units": "gb", "nested": [1, 2.5, None, "ü"]}
    user_id = transaction(connection, compiler, "IMMEDIATE", lambda d: new_user(d, "42", settings))
    async with await Storage.open(f"sqlite+aiosqlite:///{path}") as storage:
        found = await storage.users.find("telegram", "42")
    assert found is not None and found.id == user_id
    assert found.settings == settings
    assert found.created_at == datetime(2026, 12, 2, 7, 30, 15, 123456, tzinfo=UTC)


async def test_what_sqlalchemy_writes_the_driver_reads_alike(database, tmp_path: Path):
    path, connection, compiler = database
    async with await Storage.open(f"sqlite+aiosqlite:///{path}") as storage:
        user = await storage.users.ensure("telegram", 7)
        await storage.users.set_settings(user.id, {"engine": "vllm"})
        await storage.profiles.save(
            user.id, "rig", HardwareSpec(gpu="RTX 4090", gpu_count=2, gpu_memory_gb=24)
        )
    row = transaction(
        connection,
        compiler,
        "DEFERRED",
        lambda d: d.execute(select(USERS, PROFILES.c.is_default).join(PROFILES), {}).first(),
    )
    assert row.settings == {"engine": "vllm"}
    assert row.is_default is True  # SQLite's 1, as a bool
    assert row.created_at.tzinfo is not None and row.created_at.utcoffset() == timedelta(0)
    assert row._asdict()["external_id"] == "7"


def test_datetimes_in_other_zones_are_stored_in_utc(database):
    _, connection, compiler = database
    amsterdam = timezone(timedelta(hours=1))

    def write_and_read(d: Driver):
        user_id = new_user(d, "1", {})
        d.execute(
            insert(STATES),
            {
                "chat_id": None,
                "user_id": user_id,
                "state": {"draft": {"model": "llama 3 8b"}},
                "updated_at": datetime(2026, 12, 2, 9, 0, tzinfo=amsterdam),
            },
        )
        return connection.execute("SELECT updated_at FROM conversation_states").fetchone()

    with pytest.raises(IntegrityError):  # chat_id is part of the key: NOT NULL
        transaction(connection, compiler, "IMMEDIATE", write_and_read)
    assert connection.execute("SELECT count(*) FROM users").fetchone() == (0,)  # rolled back

    def in_utc(d: Driver):
        d.execute(
            insert(USERS),
            {
                "platform": "telegram",
                "external_id": "2",
                "language": None,
                "settings": {},
                "created_at": datetime(2026, 12, 2, 9, 0, tzinfo=amsterdam),
                "updated_at": datetime(2026, 12, 2, 9, 0, tzinfo=amsterdam),
            },
        )
        return d.execute(select(USERS.c.created_at), {}).one().created_at

    assert transaction(connection, compiler, "IMMEDIATE", in_utc) == datetime(
        2026, 12, 2, 8, 0, tzinfo=UTC
    )
    (stored,) = connection.execute("SELECT created_at FROM users").fetchone()
    assert stored.startswith("2026-12-02 08:00:00")


def test_values_written_into_a_statement_are_bound(database):
    _, connection, compiler = database
    statement = select(literal(41), literal("x")).where(USERS.c.platform == "telegram")
    assert (
        transaction(connection, compiler, "DEFERRED", lambda d: d.execute(statement, {}).first())
        is None
    )
    transaction(connection, compiler, "IMMEDIATE", lambda d: new_user(d, "3", {}))
    row = transaction(connection, compiler, "DEFERRED", lambda d: d.execute(statement, {}).one())
    assert tuple(row) == (41, "x")


def test_a_column_default_the_driver_cannot_compute_is_refused(database):
    _, connection, compiler = database
    values = {"user_id": 1, "chat_id": None, "text": "hi", "status": "answered"}  # no created_at
    with pytest.raises(TypeError, match="give every column a value"):
        transaction(
            connection,
            compiler,
            "IMMEDIATE",
            lambda d: d.execute(insert(QueryRow.__table__), values),
        )
    assert not connection.in_transaction


def test_one_wants_exactly_one_row(database):
    _, connection, compiler = database
    with pytest.raises(NoResultFound):
        transaction(connection, compiler, "DEFERRED", lambda d: d.execute(select(USERS), {}).one())
    for external_id in ("1", "2"):
        transaction(connection, compiler, "IMMEDIATE", lambda d, e=external_id: new_user(d, e, {}))
    with pytest.raises(MultipleResultsFound):
        transaction(connection, compiler, "DEFERRED", lambda d: d.execute(select(USERS), {}).one())


async def test_a_conflict_is_a_storage_conflict_and_keeps_what_was_there(tmp_path: Path):
    async with await Storage.open(f"sqlite+aiosqlite:///{tmp_path / 'test.db'}") as storage:
        user = await storage.users.ensure("telegram", 5)
        chat = await storage.chats.ensure("telegram", 5, "private")
        await storage.conversations.put(chat.id, user.id, {"language": "nl"})
        with pytest.raises(StorageError) as raised:
            await storage.conversations.put(chat.id, user.id + 1000, {"language": "en"})
        assert raised.value.code == "db_conflict"  # no such user: the foreign key refuses
        kept = await storage.conversations.get(chat.id, user.id)
    assert kept is not None and kept.state == {"language": "nl"}
