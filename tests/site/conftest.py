"""Fixtures of the site tests: a real server process on a free port with a temporary SQLite database, an
in-process client for template and route tests, and headless Chromium (Debian's, never a downloaded one)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ADMIN_TOKEN = "club-secret-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SiteServer:
    """`python -m app serve` on a free port, its own SQLite file, an admin token and quick heartbeats."""

    def __init__(self, workdir: Path, heartbeat: float = 2.0):
        self.workdir = workdir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = workdir / "server.log"
        self.heartbeat = heartbeat
        self.proc: subprocess.Popen | None = None
        self._http: httpx.Client | None = None

    @property
    def http(self) -> httpx.Client:
        """One kept-alive client for the API calls of the tests (a new connection per call is slow)."""
        if self._http is None:
            self._http = httpx.Client(base_url=self.base, timeout=15)
        return self._http

    def start(self) -> "SiteServer":
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{self.workdir / 'site.db'}", "PYTHONPATH": str(ROOT),
               "TABULA_HEARTBEAT": str(self.heartbeat), "TABULA_ADMIN_TOKEN": ADMIN_TOKEN}
        env.pop("TABULA_PUBLIC_URL", None)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app", "serve", "--port", str(self.port), "--log-level", "warning"],
                cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 40
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

    def errors(self) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(line for line in text.splitlines() if "Traceback" in line or "ERROR" in line)

    def stop(self) -> None:
        if self._http is not None:
            self._http.close()
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Iterator[SiteServer]:
    server = SiteServer(tmp_path_factory.mktemp("site")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser():
    """Chromium for one test module: Playwright's sync API runs an event loop of its own in this thread,
    so it is closed before the asyncio tests of the other modules."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
