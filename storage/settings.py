"""Where the database is: `DATABASE_URL`, else an SQLite file in the user's data directory.

The URL is a SecretStr so that printing or logging the settings never shows a password; code
that needs the URL asks for it, and code that shows it uses `display_url`.
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir
from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from .errors import StorageError

APP_NAME = "llm-sizer"
DATABASE_FILE = "llm-sizer.db"

# People paste URLs without the async driver (or in Heroku's "postgres://" spelling); the
# engine is async-only, so each backend gets its async driver.
_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+pysqlite": "sqlite+aiosqlite",
    "sqlite+aiosqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "postgresql+psycopg2": "postgresql+asyncpg",
    "postgresql+psycopg": "postgresql+asyncpg",
    "postgresql+asyncpg": "postgresql+asyncpg",
}


def default_database_path() -> Path:
    """The SQLite file used when DATABASE_URL is not set (its folder is made when first used)."""
    return Path(user_data_dir(APP_NAME, appauthor=False)) / DATABASE_FILE


def _default_url() -> SecretStr:
    return SecretStr(f"sqlite+aiosqlite:///{default_database_path()}")


class StorageSettings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore", frozen=True)

    database_url: SecretStr = Field(default_factory=_default_url)

    @property
    def url(self) -> URL:
        return database_url(self.database_url.get_secret_value())

    @property
    def display_url(self) -> str:
        return masked(self.url)


def database_url(url: str | URL) -> URL:
    """`url` as an async SQLAlchemy URL; refuses what storage cannot open.

    The refusal never repeats the text it was given, since that may hold a password.
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StorageError("db_bad_url", reason="not a URL") from None
    driver = _ASYNC_DRIVERS.get(parsed.drivername)
    if driver is None:
        raise StorageError("db_bad_url", reason=f"unsupported database '{parsed.drivername}'")
    if parsed.get_backend_name() == "sqlite" and _in_memory(parsed):
        # Each connection would get its own empty database, migrations included.
        raise StorageError("db_bad_url", reason="an in-memory SQLite database; give a file")
    return parsed.set(drivername=driver)


def _in_memory(url: URL) -> bool:
    name = url.database or ""
    return not name or ":memory:" in name or "mode=memory" in str(url)


def masked(url: str | URL) -> str:
    """The URL as it may appear in logs and messages: the password replaced by ***."""
    return database_url(url).render_as_string(hide_password=True)


def sqlite_path(url: URL) -> Path | None:
    """The database file of an SQLite URL; None for other backends and for SQLite's
    "file:" URIs, whose path is not a plain file name."""
    if url.get_backend_name() != "sqlite" or not url.database:
        return None
    if url.database.startswith("file:"):
        return None
    return Path(url.database)
