"""Alembic environment for storage: runs on a connection handed over by storage.migrate, or, for
developers' `alembic -c storage/alembic.ini ...`, on an engine for DATABASE_URL."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from storage.engine import make_engine
from storage.models import Base
from storage.settings import StorageSettings, database_url

config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        compare_type=True,
        # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_on_own_engine() -> None:
    configured = config.get_main_option("sqlalchemy.url")
    url = database_url(configured) if configured else StorageSettings().url
    engine = make_engine(url, pooled=False)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


def _run_offline() -> None:
    configured = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=database_url(configured) if configured else StorageSettings().url,
        target_metadata=Base.metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    _run_offline()
elif (handed_over := config.attributes.get("connection")) is not None:
    _run(handed_over)
else:
    asyncio.run(_run_on_own_engine())
