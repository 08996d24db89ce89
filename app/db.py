"""Database engines and migrations.

The server uses one asyncio engine (asyncpg or aiosqlite). Migrations run through Alembic with a blocking
driver (psycopg or sqlite3), at server start, under an advisory lock on Postgres so that several
processes starting together do not race.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from .config import Settings, project_root

MIGRATION_LOCK = 72_615_001  # pg_advisory_lock key held while migrating


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers run beside the writer; synchronous=FULL makes every commit durable before we
    # acknowledge it (an acknowledged move is never lost, even on power loss).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_async_engine(settings: Settings) -> AsyncEngine:
    if settings.is_postgres:
        engine = create_async_engine(
            settings.async_url,
            # A steady pool: opening a connection costs far more than waiting briefly for a free one.
            pool_size=20,
            max_overflow=5,
            pool_timeout=30,
            pool_pre_ping=False,
            connect_args={"server_settings": {"application_name": "tabula"}},
        )
    else:
        engine = create_async_engine(settings.async_url, connect_args={"timeout": 10})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def make_sync_engine(settings: Settings) -> Engine:
    engine = create_engine(settings.sync_url)
    if not settings.is_postgres:
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config(settings: Settings) -> Config:
    root = project_root()
    ini = root / "alembic.ini"
    config = Config(str(ini)) if ini.is_file() else Config()
    config.set_main_option("script_location", str(root / "migrations"))
    config.set_main_option("sqlalchemy.url", settings.sync_url.replace("%", "%%"))
    config.attributes["configure_logging"] = False
    return config


def migrate(settings: Settings, revision: str = "head") -> None:
    """Brings the database up to `revision` (blocking)."""
    if not settings.is_postgres:
        path = _sqlite_path(settings)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    engine = make_sync_engine(settings)
    try:
        with engine.connect() as connection:
            if settings.is_postgres:
                connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
                connection.commit()
            try:
                config = alembic_config(settings)
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
                connection.commit()
            finally:
                if settings.is_postgres:
                    connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
                    connection.commit()
    finally:
        engine.dispose()


async def migrate_async(settings: Settings) -> None:
    await asyncio.to_thread(migrate, settings)


def _sqlite_path(settings: Settings) -> Path | None:
    from sqlalchemy.engine import make_url

    database = make_url(settings.database_url).database
    if not database or database == ":memory:":
        return None
    return Path(database)
