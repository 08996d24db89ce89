"""Database engines and migrations.

The server uses one asyncio engine (asyncpg or aiosqlite). Migrations run through Alembic with a blocking
driver (psycopg or sqlite3), at server start, under an advisory lock on Postgres so that several
processes starting together do not race.
"""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Awaitable, Callable, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, SingletonThreadPool, StaticPool, create_engine, event, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from .config import Settings, project_root

MIGRATION_LOCK = 72_615_001  # pg_advisory_lock key held while migrating
T = TypeVar("T")


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


class PostgresWriters:
    """asyncpg connections for the group committer's batches (app/services/commits.py), beside SQLAlchemy's pool.

    A move's commit is the one database wait every player feels. Checking a connection out of SQLAlchemy's
    async pool and back costs about 0.2 ms of it (greenlet hops and pool events; one table, interleaved:
    1.16 ms per one-move batch through the pool, 0.99 ms on this pool); a plain asyncpg pool costs a few µs.
    Holds `size` connections (the batches in flight), opened by `open()` at the server's start (else on
    first use; a move should not wait for connections to open) and closed with the engine, so nothing else
    has to own them. `prepare(connection)` runs on each new connection (the statements' first use: Postgres
    parses and plans them then, which a first move should not wait for either)."""

    def __init__(self, engine: AsyncEngine, size: int,
                 prepare: Callable[[Any], Awaitable[None]] | None = None):
        self._dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._size = size
        self._prepare = prepare
        self._pool = None
        self._opening: asyncio.Lock | None = None
        event.listen(engine.sync_engine, "engine_disposed", lambda _engine: self.close())

    async def run(self, write: Callable[..., Awaitable[T]], *args: Any) -> T:
        """`await write(connection, *args)` on a connection of the pool (each statement commits on its own)."""
        async with (await self.open()).acquire() as connection:
            return await write(connection, *args)

    async def open(self):
        if self._pool is None:
            import asyncpg

            self._opening = self._opening or asyncio.Lock()
            async with self._opening:
                if self._pool is None:
                    self._pool = await asyncpg.create_pool(self._dsn, min_size=self._size, max_size=self._size,
                                                           init=self._prepare,
                                                           server_settings={"application_name": "tabula-writer"})
        return self._pool

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()  # with the engine: at shutdown, between batches


class SqliteWriter:
    """One sqlite3 connection, on a thread of its own, for the group committer's batches.

    Through aiosqlite every statement of a batch and its commit are a hop to its thread and back, and under
    load each hop waits for a turn of the busy event loop (a 10-move batch took 29 ms at 50 tables). Here a
    whole batch (BEGIN IMMEDIATE, its statements, COMMIT with the same pragmas: WAL, synchronous=FULL) is
    one hop. Opened by `open()` at the server's start (else on first use) and closed with the engine. A
    database in memory is one per connection, so the tables need a file (they did already: migrations run
    on another connection).

    `run_sync` runs other writes of several statements the same way, through SQLAlchemy on the same connection:
    the presence of a table's sockets, written while its moves are played, held SQLite's one write lock across
    seven hops through aiosqlite (8-16 ms at one table), and every move of the process waited behind it."""

    def __init__(self, engine: AsyncEngine):
        self._path = engine.url.database or ":memory:"
        self._connection: sqlite3.Connection | None = None
        self._thread: ThreadPoolExecutor | None = None
        # SQLAlchemy on the writer's own connection, for `run_sync` (StaticPool: always that one).
        self._core = create_engine("sqlite://", creator=self._connect, poolclass=StaticPool)
        event.listen(engine.sync_engine, "engine_disposed", lambda _engine: self.close())

    async def run(self, write: Callable[..., T], *args: Any) -> T:
        """`write(connection, *args)` in one transaction on the writer's thread; rolled back if it raises."""
        return await asyncio.get_running_loop().run_in_executor(self._started(), self._transaction, write, args)

    async def run_sync(self, write: Callable[..., T], *args: Any) -> T:
        """`write(connection, *args)` with a SQLAlchemy `Connection`, as `run` does (one transaction, one hop)."""
        return await asyncio.get_running_loop().run_in_executor(self._started(), self._core_transaction, write, args)

    def _core_transaction(self, write: Callable[..., T], args: tuple[Any, ...]) -> T:
        with self._core.connect() as connection:  # an error: rolled back as it closes
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            result = write(connection, *args)
            connection.commit()
        return result

    async def open(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._started(), self._connect)

    def _started(self) -> ThreadPoolExecutor:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabula-sqlite-writer")
        return self._thread

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            _sqlite_pragmas(self._connection, None)
        return self._connection

    def _transaction(self, write: Callable[..., T], args: tuple[Any, ...]) -> T:
        connection = self._connect()
        connection.execute("BEGIN IMMEDIATE")
        try:
            result = write(connection, *args)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:  # also after a failed COMMIT: the next batch must find none open
                connection.execute("ROLLBACK")
            raise
        return result

    def close(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.submit(self._close).result()
            thread.shutdown()

    def _close(self) -> None:
        self._core.dispose()
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()


class SqliteReaders:
    """Reads of several statements in one hop each, on `size` threads of their own, each with its own sqlite3
    connection (WAL: they read beside the writer), for the reads that come with every request, page socket and
    bot turn (`TablesService.current`).

    Through aiosqlite, each statement, the checkout of a pooled connection and its return are a hop to the
    connection's thread and back, each waiting for a turn of the event loop; when the loop is busy (a club's
    soak, 200 tables) the pool's fifteen connections stayed checked out across those waits, and bot turns
    waited the pool's 30 s for one and failed. Here a connection is held only while its statements run, and a
    read waits for a thread, never fails for want of one. A database in memory is one per connection: it has
    no readers (`for_engine` is None) and is read through the engine's pool."""

    def __init__(self, path: str, size: int = 2):
        self._size = size
        self._threads: ThreadPoolExecutor | None = None
        # One connection per thread (SingletonThreadPool), closed from the loop's thread at the end.
        self._core = create_engine("sqlite://", creator=lambda: sqlite3.connect(path, check_same_thread=False),
                                   poolclass=SingletonThreadPool, pool_size=size)
        event.listen(self._core, "connect", _sqlite_pragmas)

    @classmethod
    def for_engine(cls, engine: AsyncEngine) -> "SqliteReaders | None":
        path = engine.url.database
        if not path or path == ":memory:":
            return None
        readers = cls(path)
        event.listen(engine.sync_engine, "engine_disposed", lambda _engine: readers.close())
        return readers

    async def run(self, read: Callable[..., T], *args: Any) -> T:
        """`read(connection, *args)` with a SQLAlchemy `Connection`, on a reader's thread, in one hop."""
        if self._threads is None:
            self._threads = ThreadPoolExecutor(max_workers=self._size, thread_name_prefix="tabula-sqlite-reader")
        return await asyncio.get_running_loop().run_in_executor(self._threads, self._read, read, args)

    def _read(self, read: Callable[..., T], args: tuple[Any, ...]) -> T:
        with self._core.connect() as connection:  # returned to the pool (rolled back) as it closes
            return read(connection, *args)

    def close(self) -> None:
        threads, self._threads = self._threads, None
        if threads is not None:
            threads.shutdown()  # the reads under way end first
        self._core.dispose()


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
