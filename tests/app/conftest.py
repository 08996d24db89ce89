"""Fixtures for the server tests: a real uvicorn server per database kind (in a thread of the test
process, for speed), server subprocesses where the point is processes, and a database inspector."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from sqlalchemy import Engine, text

from app.config import Settings
from app.db import make_sync_engine
from app.main import create_app
from app.web.protocol import HttpProtocol, WebSocketProtocol
from tests.conftest import BACKENDS, fresh_database_url
from tests.processes import free_port
from tests.processes import ServerProcess as ProcessBase


@dataclass
class LiveServer:
    backend: str
    settings: Settings
    base: str  # http://127.0.0.1:PORT
    db: Engine  # a blocking engine on the same database, to inspect it

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")

    def row(self, table_id: str) -> dict:
        """Everything stored about a table, to check that an error changed nothing."""
        with self.db.connect() as conn:
            table = conn.execute(text(
                "SELECT version, status, state, seed, updated_at FROM tables WHERE id = :id"), {"id": table_id}
            ).mappings().first()
            seats = conn.execute(text(
                "SELECT number, name, token_hash FROM seats WHERE table_id = :id ORDER BY number"),
                {"id": table_id}).all()
            actions = conn.execute(text(
                "SELECT version, seat, action FROM actions WHERE table_id = :id ORDER BY version"),
                {"id": table_id}).all()
        return {"table": dict(table) if table else None, "seats": [tuple(s) for s in seats],
                "actions": [tuple(a) for a in actions]}


class ThreadServer:
    def __init__(self, settings: Settings, port: int, rate_limits: bool = False):
        # One client (the tests) makes every table and move: the per-client limits are tested on their own.
        settings = dataclasses.replace(settings, rate_limits=rate_limits)
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning",
                                lifespan="on", ws_ping_interval=None,
                                timeout_graceful_shutdown=2, http=HttpProtocol,
                                ws=WebSocketProtocol)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@contextmanager
def running(backend: str, settings: Settings) -> Iterator[LiveServer]:
    """A real server (uvicorn, websockets) with these settings, in a thread, while the block runs."""
    port = free_port()
    server = ThreadServer(settings, port)
    server.start()
    db = make_sync_engine(settings)
    try:
        yield LiveServer(backend, settings, f"http://127.0.0.1:{port}", db)
    finally:
        server.stop()
        db.dispose()


@pytest.fixture(scope="session", params=BACKENDS)
def live(request, postgres_server, tmp_path_factory) -> Iterator[LiveServer]:
    """A real server on each kind of database, shared by the tests of a session."""
    url = fresh_database_url(request.param, postgres_server, tmp_path_factory.mktemp("live"), "live")
    with running(request.param, Settings(database_url=url, benchmark=True, heartbeat=1.0)) as server:
        yield server


@pytest.fixture(scope="session")
def live_pg(request, postgres_server, tmp_path_factory) -> Iterator[LiveServer]:
    """The same on Postgres only (for tests whose point does not depend on the database)."""
    url = postgres_server.create_database("livepg")
    with running("postgres", Settings(database_url=url, benchmark=True, heartbeat=1.0)) as server:
        yield server


class ServerProcess(ProcessBase):
    """A server process serving the benchmark game, with quick presence heartbeats."""

    def __init__(self, database_url: str, workdir: Path, port: int | None = None):
        super().__init__(database_url, workdir, port, env={"TABULA_BENCHMARK": "1", "TABULA_HEARTBEAT": "1"})


@pytest.fixture
def processes(tmp_path) -> Iterator[list[ServerProcess]]:
    """Server processes a test starts; each is stopped by its own handle afterwards."""
    started: list[ServerProcess] = []
    yield started
    for proc in started:
        proc.stop()
