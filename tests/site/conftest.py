"""Fixtures of the site tests: a real server process on a free port with a temporary SQLite database, an
in-process client for template and route tests, and headless Chromium (Debian's, never a downloaded one)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.processes import ROOT, ServerProcess

ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ADMIN_TOKEN = "club-secret-token"


class SiteServer(ServerProcess):
    """A server on its own SQLite file, with an admin token and quick heartbeats; `start` waits until it
    answers."""

    def __init__(self, workdir: Path, heartbeat: float = 2.0):
        super().__init__(f"sqlite:///{workdir / 'site.db'}", workdir,
                         env={"TABULA_HEARTBEAT": str(heartbeat), "TABULA_ADMIN_TOKEN": ADMIN_TOKEN})
        self._http: httpx.Client | None = None

    @property
    def http(self) -> httpx.Client:
        """One kept-alive client for the API calls of the tests (a new connection per call is slow)."""
        if self._http is None:
            self._http = httpx.Client(base_url=self.base, timeout=15)
        return self._http

    def start(self) -> "SiteServer":
        super().start()
        self.wait_ready()
        return self

    def stop(self) -> None:
        if self._http is not None:
            self._http.close()
        super().stop()


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Iterator[SiteServer]:
    server = SiteServer(tmp_path_factory.mktemp("site")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def quick_site(tmp_path_factory) -> Iterator[SiteServer]:
    """A server whose bots act at once (the players' seats are taken over by novice bots), one per module."""
    server = SiteServer(tmp_path_factory.mktemp("quick"))
    server.env.update({"TABULA_BOT_DELAY": "0", "TABULA_TAKEOVER_LEVEL": "novice"})
    server.start()
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
