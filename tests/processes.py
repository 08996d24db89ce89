"""A real server in its own process (`python -m app serve`), for the tests whose point is processes (a
SIGKILL, a restart, two servers on one database) and for the site tests that drive a browser against it."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def ends_with_parent() -> Callable[[], None] | None:
    """A `preexec_fn` that makes the child receive SIGTERM when the process starting it dies, even by SIGKILL
    (when no fixture's teardown runs): Linux's parent-death signal. Linux ties it to the *thread* that started
    the child, so only children of the main thread get it; one started from a worker thread would be stopped
    when that thread ends."""
    if not sys.platform.startswith("linux") or threading.current_thread() is not threading.main_thread():
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os.kill(os.getpid(), signal.SIGTERM)
    return preexec


class ServerProcess:
    """`python -m app serve` on a free port (or on `port`: a restart where the clients expect it), with the
    database and the extra environment given; its output goes to `workdir/server-PORT.log`. `module`: another
    module that runs the same command line (a test's server with something of its own)."""

    module = "app"

    def __init__(self, database_url: str, workdir: Path, port: int | None = None,
                 env: dict[str, str] | None = None, log_level: str = "warning"):
        self.database_url = database_url
        self.log_level = log_level
        self.workdir = workdir
        self.port = port or free_port()
        self.env = env or {}
        self.proc: subprocess.Popen | None = None
        self.log = workdir / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "ServerProcess":
        # One client (the tests) makes every table and move: the per-client limits are tested on their own.
        env = {**os.environ, "DATABASE_URL": self.database_url, "PYTHONPATH": str(ROOT), "TABULA_RATE_LIMITS": "0",
               **self.env}
        env.pop("TABULA_PUBLIC_URL", None)  # links are made from the request, as on a friend's machine
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", self.module, "serve", "--port", str(self.port), "--log-level", self.log_level],
                cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT, preexec_fn=ends_with_parent())
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

    def errors(self) -> str:
        """The lines of the server's log that report an error."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(line for line in text.splitlines() if "Traceback" in line or "ERROR" in line)

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


GRACE = 5.0  # seconds a server's whole process tree has to be gone after a SIGTERM (issue #23)


def children_of(pid: int) -> list[int]:
    """Every process whose parent is `pid`, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: the command may hold spaces and parentheses, so split after the last ")".
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def tree(pid: int) -> set[int]:
    """`pid` and all its descendants."""
    found, todo = set(), [pid]
    while todo:
        current = todo.pop()
        found.add(current)
        todo.extend(children_of(current))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def survivors(pids: set[int], grace: float = GRACE) -> set[int]:
    """The processes of `pids` still running after `grace` seconds (looked at until they are all gone)."""
    deadline = time.monotonic() + grace
    while True:
        left = {pid for pid in pids if alive(pid)}
        if not left or time.monotonic() > deadline:
            return left
