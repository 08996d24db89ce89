"""Clean process life: a real server (`python -m app serve`) that has started its bot worker process (and,
with it, multiprocessing's resource tracker) leaves no process of its tree behind within 5 s of a SIGTERM,
whether the signal goes to the server alone or to its whole process group (what `timeout`, Ctrl-C and
systemd do), and its workers notice a `kill -9` of the server and exit within 5 s."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.processes import GRACE, ROOT, free_port, survivors, tree


class BotServer:
    """A server in its own process group with a table of bots playing, so that its bot worker runs."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.sockets = ExitStack()
        self.log = workdir / f"server-{self.port}.log"
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{workdir / 'life.db'}", "PYTHONPATH": str(ROOT),
               "TABULA_BOT_DELAY": "0.01-0.02", "TABULA_BOT_WORKERS": "1"}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app", "serve", "--port", str(self.port), "--log-level", "warning"],
                cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def start_bots(self) -> set[int]:
        """Waits until the server answers and its bot worker has played; returns the process tree."""
        base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        table = key = None
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                if table is None:
                    r = httpx.post(base + "/api/tables", timeout=5,
                                   json={"game": "cesar_cleopatre", "players": 2, "bots": ["novice", "novice"]})
                    table, key = r.json()["id"], r.json()["spectator_key"]
                elif httpx.get(f"{base}/api/tables/{table}", timeout=5).json()["version"] >= 3 \
                        and len(tree(self.proc.pid)) >= 3:  # the server, its bot worker, the resource tracker
                    # Spectators stay connected through the shutdown, on the JSON and on the page's socket.
                    for path in ("", "/html"):
                        self.sockets.enter_context(
                            connect(f"ws://127.0.0.1:{self.port}/ws/tables/{table}{path}?spectate={key}"))
                    return tree(self.proc.pid)
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the bots did not start: {self.log.read_text()}")

    def start_worker(self) -> set[int]:
        """Waits only until the bot worker process exists (it may still be starting); returns the tree."""
        deadline = time.monotonic() + 60
        table = None
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                if table is None:
                    table = httpx.post(f"http://127.0.0.1:{self.port}/api/tables", timeout=5, json={
                        "game": "cesar_cleopatre", "players": 2, "bots": ["novice", "novice"]}).json()["id"]
                elif len(tree(self.proc.pid)) >= 3:
                    return tree(self.proc.pid)
            except httpx.HTTPError:
                pass
            time.sleep(0.01)
        raise AssertionError(f"no bot worker: {self.log.read_text()}")

    def clean_up(self, pids: set[int]) -> None:
        self.sockets.close()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(timeout=10)


@pytest.fixture
def server(tmp_path):
    started = BotServer(tmp_path)
    yield started
    started.clean_up(tree(started.proc.pid) | {started.proc.pid})


@pytest.mark.parametrize("to", ["server", "process group"])
def test_sigterm_leaves_no_process_of_the_server_tree(server, to):
    pids = server.start_bots()
    if to == "server":
        server.proc.send_signal(signal.SIGTERM)
    else:
        os.killpg(server.proc.pid, signal.SIGTERM)
    server.proc.wait(timeout=30)
    left = survivors(pids)
    server.clean_up(left)
    assert not left, f"still running {GRACE} s after SIGTERM: {sorted(left)}"
    log = server.log.read_text()
    assert "leaked semaphore" not in log and "Traceback" not in log, log


def test_workers_exit_when_the_server_is_killed(server):
    pids = server.start_bots()
    server.proc.kill()
    server.proc.wait(timeout=10)
    left = survivors(pids)
    server.clean_up(left)
    assert not left, f"still running {GRACE} s after the server's kill -9: {sorted(left)}"


def test_sigterm_to_the_group_while_the_bot_worker_starts(server):
    """The worker may get the signal before it has set itself to ignore it: it must not die of it (the
    server would start another during its own shutdown, and leak the pool's semaphores)."""
    pids = server.start_worker()
    os.killpg(server.proc.pid, signal.SIGTERM)
    server.proc.wait(timeout=30)
    left = survivors(pids | tree(server.proc.pid))
    server.clean_up(left)
    assert not left, f"still running {GRACE} s after SIGTERM: {sorted(left)}"
    log = server.log.read_text()
    assert "died" not in log and "leaked semaphore" not in log and "Traceback" not in log, log


def test_a_test_server_ends_when_the_test_process_is_killed(tmp_path):
    """Processes a test starts end with it: a SIGKILLed test run (no teardown) leaves no server behind."""
    script = (f"import sys, time; sys.path.insert(0, {str(ROOT)!r})\n"
              "from pathlib import Path\n"
              "from tests.processes import ServerProcess\n"
              f"server = ServerProcess('sqlite:///{tmp_path}/db.sqlite', Path({str(tmp_path)!r})).start()\n"
              "server.wait_ready()\n"
              "print(server.proc.pid, flush=True)\n"
              "time.sleep(600)\n")
    runner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        server_pid = int(runner.stdout.readline())
        family = tree(server_pid)
        runner.kill()
        runner.wait(timeout=10)
        assert not survivors(family), "a server outlived the test process that started it"
    finally:
        runner.kill()
