"""Tabula's side of the benchmark: for each database and each T, a fresh server process on a fresh
database, the load driver (tests/bench/driver.js) against it, then the server stopped by its pid.
Results are the driver's JSON files (the same shape as the peer's), one per run, in --outdir.

    .venv/bin/python tests/bench/run_tabula.py [--storage postgres sqlite] [--sweep 1 10 50 200]
        [--repeat-t 50 --repeats 3] [--client ws] [--http-at 50] [--processes-at 50] [--outdir DIR]

Postgres: TABULA_BENCH_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/postgres) names a
server on which a throw-away database is created for each run and dropped afterwards. SQLite: a file in
a temporary directory. Every move is committed durably before it is acknowledged (synchronous_commit
on for Postgres, synchronous=FULL for SQLite): the server's settings, not the benchmark's.

`--processes-at T...` also runs these T (Postgres only) with two server processes on one database, as a
club behind a proxy would: the driver creates table i on process i % 2 and puts its two seats on
different processes, so every move reaches its opponent through LISTEN/NOTIFY. The row's client is
`ws-2proc`; CPU and RSS are the two processes' sums, and the time breakdown their average per move.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "bench" / "driver.js"
PAGE_DRIVER = ROOT / "tests" / "bench" / "page_driver.py"  # a real game played through the table pages
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Database:
    """A throw-away database for one run."""

    def __init__(self, storage: str, workdir: Path):
        self.storage = storage
        self.name = ""
        self.url = ""
        self._admin_url = os.environ.get("TABULA_BENCH_POSTGRES_URL", DEFAULT_PG)
        if storage == "postgres":
            self.name = f"tabula_bench_{os.getpid()}_{secrets.token_hex(4)}"
            self._admin(f'CREATE DATABASE "{self.name}"')
            from sqlalchemy.engine import make_url

            self.url = make_url(self._admin_url).set(database=self.name).render_as_string(hide_password=False)
        else:
            self.url = f"sqlite:///{workdir / ('bench-' + secrets.token_hex(4) + '.db')}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self._admin_url, autocommit=True) as conn:
            conn.execute(sql)

    def settings(self) -> dict[str, str] | None:
        """The durability settings the run had (Postgres: what every commit waited for)."""
        if self.storage != "postgres":
            return {"journal_mode": "wal", "synchronous": "full"}  # app/db.py sets these on every connection
        import psycopg

        with psycopg.connect(self._admin_url, autocommit=True) as conn:
            return {name: conn.execute(f"SHOW {name}").fetchone()[0]
                    for name in ("server_version", "fsync", "synchronous_commit", "wal_sync_method", "shared_buffers")}

    def drop(self) -> None:
        if self.storage == "postgres" and self.name:
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


class Server:
    """`python -m app serve` with the benchmark game served, in its own process."""

    def __init__(self, database_url: str, log_path: Path, workdir: Path, extra_env: dict[str, str] | None = None):
        self.port = free_port()
        env = {**os.environ, "DATABASE_URL": database_url, "TABULA_BENCHMARK": "1", "PYTHONPATH": str(ROOT),
               "TABULA_RATE_LIMITS": "0",  # every simulated player comes from this one machine
               **(extra_env or {})}
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--port", str(self.port), "--log-level", "warning"],
            cwd=workdir, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited at start")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()


def merged_timings(each: list[dict]) -> dict:
    """Several processes' time breakdowns as one: each part's µs per move averaged over all their moves."""
    moves = sum(t["moves"] for t in each) or 1
    batches = sum(t["commits"]["batches"] for t in each) or 1
    return {"moves": moves,
            "us_per_move": {part: round(sum(t["us_per_move"][part] * t["moves"] for t in each) / moves, 1)
                            for part in each[0]["us_per_move"]},
            "commits": {"batches": batches, "moves": sum(t["commits"]["moves"] for t in each),
                        "mean_batch": round(sum(t["commits"]["moves"] for t in each) / batches, 2),
                        "ms_per_batch": round(sum((t["commits"].get("ms_per_batch") or 0) * t["commits"]["batches"]
                                                  for t in each) / batches, 2)},
            "by_process": each}


def run_one(name: str, storage: str, client: str, tables: int, outdir: Path, *, timeout: int, spectators: int,
            deflate: bool, verify: bool, node: str, extra_env: dict[str, str] | None = None,
            ack: str = "patch", processes: int = 1) -> dict | None:
    """One run: `client` is ws, http (driver.js, the benchmark game) or page (page_driver.py)."""
    work = Path(tempfile.mkdtemp(prefix="tabula-bench-"))
    db = Database(storage, work)
    servers: list[Server] = []
    timings = [outdir / f"{name}.timings{'' if k == 0 else '.' + str(k)}.json" for k in range(processes)]
    out = outdir / f"{name}.json"
    try:
        for k in range(processes):
            log = outdir / f"{name}.server{'' if k == 0 else '.' + str(k)}.log"
            servers.append(Server(db.url, log, work, {"TABULA_TIMINGS_FILE": str(timings[k]), **(extra_env or {})}))
        for server in servers:
            server.wait_ready()
        if client == "page":
            cmd = [sys.executable, str(PAGE_DRIVER), "--url", servers[0].url, "--tables", str(tables),
                   "--server-pid", str(servers[0].proc.pid), "--storage", storage, "--label", name,
                   "--out", str(out), "--timeout", str(2 * timeout)]
        else:
            cmd = [node, str(DRIVER), "--url", ",".join(s.url for s in servers), "--matches", str(tables),
                   "--spectators", str(spectators), "--client", client, "--storage", storage,
                   "--server-pid", ",".join(str(s.proc.pid) for s in servers),
                   "--timeout", str(timeout), "--label", name, "--out", str(out), "--deflate", "1" if deflate else "0",
                   "--verify", "1" if verify else "0", "--ack", ack]
            if db.name:
                cmd += ["--db-name", db.name]
        with open(outdir / f"{name}.driver.log", "wb") as log:
            rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, timeout=2 * timeout + 30,
                                env={**os.environ, "CLK_TCK": str(os.sysconf("SC_CLK_TCK"))}).returncode
        if not out.is_file():
            print(f"   {name}: driver failed rc={rc}")
            print("   " + "\n   ".join((outdir / f"{name}.driver.log").read_text().splitlines()[-5:]))
            return None
        for server in servers:
            server.stop()
        r = json.loads(out.read_text())
        if all(t.is_file() for t in timings):  # where the servers' time went (written when they stopped)
            each = [json.loads(t.read_text()) for t in timings]
            r["server_timings"] = each[0] if processes == 1 else merged_timings(each)
        r["database_settings"] = db.settings()
        out.write_text(json.dumps(r, indent=2) + "\n")
        lat = r["latency_ms"]["opponent"]
        print(f"   {name}: {r['status']} {r['moves_total']} moves in {r['play_wall_s']}s = {r['moves_per_s']}/s, "
              f"opp p50/p95/p99 {lat['p50']}/{lat['p95']}/{lat['p99']} ms, "
              f"B/update {r['update_bytes']['player']['mean']} (text {r['update_bytes']['player_text']['mean']}), "
              f"server CPU {r['server']['cpu_ms_per_move'] if r['server'] else '-'} ms/move"
              + (f" + db {r['database']['cpu_ms_per_move']}" if r.get("database") else "")
              + f", other cores {r['machine']['other_busy_cores_play'] if r.get('machine') else '-'}", flush=True)
        if r.get("server_timings"):
            st = r["server_timings"]
            print(f"      server time per move (us): {st['us_per_move']}, commits: {st['commits']}", flush=True)
        return r
    finally:
        for server in servers:
            server.stop()
        db.drop()
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--storage", nargs="+", default=["postgres", "sqlite"], choices=["postgres", "sqlite"])
    parser.add_argument("--sweep", nargs="*", type=int, default=[1, 10, 50, 200])
    parser.add_argument("--repeat-t", type=int, default=50, help="the T that is run --repeats times")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--client", default="ws", choices=["ws", "http"], help="how moves are sent in the sweep")
    parser.add_argument("--http-at", nargs="*", type=int, default=[50],
                        help="also run these T once with moves sent over HTTP (nothing: none)")
    parser.add_argument("--run-index", type=int, default=1, help="number of the first run in the file names")
    parser.add_argument("--ack-message-at", nargs="*", type=int, default=[],
                        help="also run these T once over the websocket with an ack message per move (as the page)")
    parser.add_argument("--processes-at", nargs="*", type=int, default=[],
                        help="also run these T once with two server processes on one Postgres database")
    parser.add_argument("--page-at", nargs="*", type=int, default=[],
                        help="also run these T once with César & Cléopâtre played through the table pages")
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=100, help="per-phase driver limit, seconds")
    parser.add_argument("--no-deflate", action="store_true", help="do not offer permessage-deflate")
    parser.add_argument("--verify", action="store_true", help="check every patched view against a full view at the end")
    parser.add_argument("--outdir", type=Path, default=None)
    args = parser.parse_args()

    node = shutil.which("node")
    if node is None:
        print("run_tabula: node is needed for the driver (Debian: apt-get install nodejs)", file=sys.stderr)
        return 2
    outdir = args.outdir or ROOT / "tests" / "bench" / "results" / time.strftime("%Y%m%d-%H%M%S")
    outdir.mkdir(parents=True, exist_ok=True)
    print(f"== Tabula ({sys.executable}), node {subprocess.run([node, '-v'], capture_output=True, text=True).stdout.strip()}, "
          f"{os.cpu_count()} cores; results in {outdir}", flush=True)
    failed = 0
    for storage in args.storage:
        for t in args.sweep:
            for i in range(args.repeats if t == args.repeat_t else 1):
                r = run_one(f"tabula-{storage}-{args.client}-T{t}-r{args.run_index + i}", storage, args.client, t, outdir,
                            timeout=args.timeout, spectators=args.spectators, deflate=not args.no_deflate,
                            verify=args.verify, node=node)
                failed += r is None or r["status"] != "ok"
        other = "http" if args.client == "ws" else "ws"
        for t in args.http_at or []:
            r = run_one(f"tabula-{storage}-{other}-T{t}-r{args.run_index}", storage, other, t, outdir, timeout=args.timeout,
                        spectators=args.spectators, deflate=not args.no_deflate, verify=args.verify, node=node)
            failed += r is None or r["status"] != "ok"
        for t in args.ack_message_at or []:
            r = run_one(f"tabula-{storage}-ws-ackmsg-T{t}-r{args.run_index}", storage, "ws", t, outdir,
                        timeout=args.timeout, spectators=args.spectators, deflate=not args.no_deflate,
                        verify=args.verify, node=node, ack="message")
            failed += r is None or r["status"] != "ok"
        for t in args.page_at or []:
            r = run_one(f"tabula-{storage}-page-T{t}-r{args.run_index}", storage, "page", t, outdir,
                        timeout=args.timeout, spectators=1, deflate=True, verify=False, node=node)
            failed += r is None or r["status"] != "ok"
        for t in (args.processes_at or []) if storage == "postgres" else []:  # SQLite: one process per file
            r = run_one(f"tabula-{storage}-ws-2proc-T{t}-r{args.run_index}", storage, "ws", t, outdir,
                        timeout=args.timeout, spectators=args.spectators, deflate=not args.no_deflate,
                        verify=args.verify, node=node, processes=2)
            failed += r is None or r["status"] != "ok"
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
