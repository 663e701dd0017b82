import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from estimator.models import catalog
from storage import Storage
from tests.scratch import create_database, drop_database

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def arch():
    """Architecture of a catalog model by name."""

    def get(name: str):
        found = catalog.find(name)
        assert found is not None, name
        return found.architecture

    return get


POSTGRES_ENV = "LLM_SIZER_TEST_POSTGRES_URL"
NO_POSTGRES = (
    f"PostgreSQL tests need {POSTGRES_ENV} (e.g. postgresql+asyncpg://postgres@127.0.0.1:5432/test)"
)


def postgres_server() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database, for one test."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
        return
    server = postgres_server()
    if server is None:
        pytest.skip(NO_POSTGRES)
    url = asyncio.run(create_database(server))
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        asyncio.run(drop_database(url))


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    """Storage on a fresh database, migrated to head."""
    opened = await Storage.open(database_url)
    try:
        yield opened
    finally:
        await opened.close()
