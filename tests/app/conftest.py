"""Fixtures for the server tests: a real uvicorn server per database kind (in a thread of the test
process, for speed), server subprocesses where the point is processes, and a database inspector."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from sqlalchemy import Engine, text

from app.config import Settings
from app.db import make_sync_engine
from app.main import create_app
from tests.conftest import BACKENDS, fresh_database_url

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    def __init__(self, settings: Settings, port: int):
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning",
                                lifespan="on", ws_ping_interval=None,
                                timeout_graceful_shutdown=2)
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


@pytest.fixture(scope="session", params=BACKENDS)
def live(request, postgres_server, tmp_path_factory) -> Iterator[LiveServer]:
    """A real server (uvicorn, websockets) on each kind of database, shared by the tests of a session."""
    url = fresh_database_url(request.param, postgres_server, tmp_path_factory.mktemp("live"), "live")
    settings = Settings(database_url=url, benchmark=True, heartbeat=1.0)
    port = free_port()
    server = ThreadServer(settings, port)
    server.start()
    db = make_sync_engine(settings)
    try:
        yield LiveServer(request.param, settings, f"http://127.0.0.1:{port}", db)
    finally:
        server.stop()
        db.dispose()


@pytest.fixture(scope="session")
def live_pg(request, postgres_server, tmp_path_factory) -> Iterator[LiveServer]:
    """The same on Postgres only (for tests whose point does not depend on the database)."""
    url = postgres_server.create_database("livepg")
    settings = Settings(database_url=url, benchmark=True, heartbeat=1.0)
    port = free_port()
    server = ThreadServer(settings, port)
    server.start()
    db = make_sync_engine(settings)
    try:
        yield LiveServer("postgres", settings, f"http://127.0.0.1:{port}", db)
    finally:
        server.stop()
        db.dispose()


class ServerProcess:
    """`python -m app serve` in its own process (for the tests whose point is processes)."""

    def __init__(self, database_url: str, workdir: Path, port: int | None = None):
        self.database_url = database_url
        self.workdir = workdir
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log = workdir / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "ServerProcess":
        env = {**os.environ, "DATABASE_URL": self.database_url, "TABULA_BENCHMARK": "1",
               "TABULA_HEARTBEAT": "1", "PYTHONPATH": str(ROOT)}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app", "serve", "--port", str(self.port), "--log-level", "warning"],
                cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        return self

    def wait_ready(self, timeout: float = 40) -> "ServerProcess":
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def processes(tmp_path) -> Iterator[list[ServerProcess]]:
    """Server processes a test starts; each is stopped by its own handle afterwards."""
    started: list[ServerProcess] = []
    yield started
    for proc in started:
        proc.stop()
