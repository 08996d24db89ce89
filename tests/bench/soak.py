"""A club's busy evening: a real server under many live tables for minutes, its memory, its cost per move and
its shutdown.

    .venv/bin/python tests/bench/soak.py                # 200 tables for 10 minutes
    .venv/bin/python tests/bench/soak.py --short        # 20 tables for 1 minute: a quick check
    .venv/bin/python tests/bench/soak.py --tables N --minutes D [--source CHECKOUT]
    .venv/bin/python tests/bench/soak.py --short --minutes 5 --bot-delay 0 --memory   # who holds the memory

It starts `python -m app serve` (SQLite in a temporary directory, its own process group, bots after
TABULA_BOT_DELAY=0.05-0.15 s, novice bots deciding in the bot worker) from this checkout or from CHECKOUT, and
keeps N tables in play, the three games mixed, a new table as soon as one ends. Each table is made as people
make one: created, every seat joined with the invite key, then every player leaves their seat to a (novice)
bot; each seat's page socket stays open with the seat's cookie, and one spectator's with the spectator key
(`/ws/tables/T/html`, the socket the table page uses). Every 10 s, and at the end, it prints: the resident
memory of the server (and of it, the C allocator's main heap: what the allocator keeps for the objects of more
than 512 bytes, fragmentation included) and of its children, the server's open file descriptors, actions per
second (the server's own counter, TABULA_METRICS=1), the server's CPU per action, the bytes of page updates
received per action and per message, and errors (failed requests, unexpected socket closes, the lines of the
server's log that report an error). Then every client leaves and, 10 s later, the server's memory is read
again; SIGTERM goes to the server alone, and the processes of its tree still running 5 s later are counted; a
second, small server gets SIGTERM on its whole process group (as `timeout`, Ctrl-C and systemd send it). The
server's cycle collector rounds over its life (TABULA_TIMINGS_FILE, written as it stops) are printed too. The
targets of the summary are issue #23's. Not part of the test suite.

The first N tables are an evening under way, as a club's server is after hours of play: before the clock
starts, and before any page of them is open, the bots play each table to a stage of its game (`stages`:
drawn as a club's tables are found at any moment), and its players take their seats back. Begun all at once
from their first action (`--fresh`), the tables age together through the run: their later actions cost
more, few games end in the first minutes, and what the tables hold grows with their age, not with time.

`--bot-delay` and `--games` (e.g. `bench_cards`, a short benchmark game) make many games end within a run;
`--spectator-delay N` has every other table show its spectators the game N versions behind.
`--memory` has the server write who holds its memory (TABULA_TRACEMALLOC_FILE, app/observability.py) at
warm-up, at the end, after the clients left and once their games ended: its RSS before and after
`malloc_trim(0)`, what its caches hold, and a census of its live objects by type; `--tracemalloc N` adds
the growth by traceback (N frames) from warm-up on, which slows the server tens of times (a short look
only: its CPU figures are then meaningless). The report's path is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games import ALL_GAMES  # noqa: E402
from games.core.conformance import random_game  # noqa: E402
from tests.processes import ROOT, ends_with_parent, free_port, survivors, tree  # noqa: E402

KINDS = [("cesar_cleopatre", (2,)), ("ave_cesar", (3, 4, 5)), ("alea_iacta_est", (2, 3, 4, 5))]
SAMPLE = 10.0  # seconds between two printed samples
PING = 'id="tb-ping"'
FINISHED = 'data-status="finished"'
TICK = os.sysconf("SC_CLK_TCK")
ACTIONS_METRIC = re.compile(r"^tabula_actions_committed_total\{[^}]*\} ([0-9.e+]+)$", re.M)


@dataclass
class Counts:
    games: int = 0
    bytes: int = 0
    messages: int = 0
    errors: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(what)


@dataclass
class Sample:
    at: float
    actions: float
    cpu: float  # the server's CPU seconds (user + system) so far
    rss: float  # MB, the server
    heap: float  # MB, of which the C allocator's main heap (`heap_mb`)
    children_rss: float  # MB, every process it started
    fds: int
    bytes: int
    messages: int
    tables: int
    games: int


def proc_stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    fields = proc_stat(pid)
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def heap_mb(pid: int) -> float:
    """The resident part of the process's `[heap]` mapping: the C allocator's main heap, where the main thread's
    objects of more than 512 bytes (HTML, texts, large dicts' tables) live and where its fragmentation stays,
    apart from Python's arenas of small objects and the other threads' heaps (anonymous mappings)."""
    try:
        smaps = Path(f"/proc/{pid}/smaps").read_text()
    except OSError:
        return 0.0
    at = smaps.find("[heap]\n")
    return 0.0 if at < 0 else int(smaps[smaps.index("\nRss:", at) + 5:].split(None, 1)[0]) / 1024


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Server:
    """`python -m app serve` from `source`, in its own process group, on SQLite in `workdir`."""

    def __init__(self, source: Path, workdir: Path, bot_delay: str = "0.05-0.15", memory: bool = False,
                 tracemalloc: int = 0):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"server-{self.port}.log"
        self.memory_report = workdir / f"memory-{self.port}.txt" if memory or tracemalloc else None
        self.timings = workdir / f"timings-{self.port}.json"  # written when it stops: the collector's rounds
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{workdir / f'soak-{self.port}.db'}",
               "PYTHONPATH": str(source), "TABULA_BOT_DELAY": bot_delay, "TABULA_TAKEOVER_LEVEL": "novice",
               "TABULA_RATE_LIMITS": "0", "TABULA_METRICS": "1", "TABULA_BENCHMARK": "1",
               "TABULA_TIMINGS_FILE": str(self.timings)}
        if self.memory_report is not None:
            env["TABULA_TRACEMALLOC_FILE"] = str(self.memory_report)
            env["TABULA_TRACEMALLOC_FRAMES"] = str(tracemalloc)
        env.pop("TABULA_PUBLIC_URL", None)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app", "serve", "--port", str(self.port), "--log-level", "warning"],
                cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                preexec_fn=ends_with_parent())  # (this script killed, the server goes too)

    def collector(self) -> str:
        """The cycle collector's rounds over the server's life (its timings file, written as it stopped)."""
        try:
            timings = json.loads(self.timings.read_text())
        except (OSError, ValueError):
            return "cycle collector: no timings written"
        rounds = timings["gc"]
        total = sum(r["total_ms"] for r in rounds.values())
        cpu = sum(r["cpu_ms"] for r in rounds.values())
        moves = max(1, timings["moves"])
        return (f"cycle collector: {total / 1000:.1f} s in all, {1000 * total / moves:.0f} µs per action (of CPU: "
                f"{1000 * cpu / moves:.0f} µs); rounds of generations 0, 1, 2: " + ", ".join(
                    f"{r['count']} (longest {r['longest_ms']:.0f} ms, {r.get('collected', '?')} objects freed)"
                    for r in rounds.values()))

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited:\n{self.log.read_text()}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise SystemExit("the server did not start")

    def wait_no_game(self, seconds: float) -> bool:
        """Waits until no table is in play on the server (its metrics), for at most `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                text = httpx.get(self.base + "/metrics", timeout=30).text
            except httpx.TimeoutException:  # a server slowed by --tracemalloc: still busy, ask again
                continue
            playing = re.search(r'^tabula_tables\{status="playing"\} ([0-9.e+]+)$', text, re.M)
            if playing and float(playing.group(1)) == 0:
                time.sleep(SAMPLE)  # the bot runner and the hub let the last ones go
                return True
            time.sleep(2)
        return False

    def probe_memory(self, when: str) -> None:
        """--memory: the server writes who holds its memory now (see app/observability.py)."""
        if self.memory_report is None:
            return
        with open(self.memory_report, "a", encoding="utf-8") as f:
            f.write(f"\n##### {when}\n")
        self.proc.send_signal(signal.SIGUSR2)
        time.sleep(5)  # a census (or a snapshot) of a large heap takes seconds

    def log_errors(self) -> list[str]:
        text = self.log.read_text(errors="replace")
        return [line for line in text.splitlines()
                if "Traceback" in line or "ERROR" in line or "leaked semaphore" in line]

    def children(self) -> set[int]:
        return tree(self.proc.pid) - {self.proc.pid}

    def terminate(self, group: bool) -> tuple[float, set[int]]:
        """SIGTERM to the server alone or to its process group: seconds until the server exited, and the
        processes of its tree still running 5 s after the signal."""
        pids = tree(self.proc.pid)
        started = time.monotonic()
        if group:
            os.killpg(self.proc.pid, signal.SIGTERM)
        else:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        took = time.monotonic() - started
        left = survivors(pids, max(0.0, 5.0 - took))
        for pid in left:  # leave nothing behind us either
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.proc.poll() is None:
            self.proc.wait(timeout=10)
        return took, left


class Club:
    """The clients: N tables kept in play, each seat and one spectator on the page's socket."""

    def __init__(self, server: Server, tables: int, seed: int = 23, kinds: list = KINDS, spectator_delay: int = 0):
        self.server = server
        self.tables = tables
        self.kinds = kinds
        self.spectator_delay = spectator_delay
        self.made = 0
        self.counts = Counts()
        self.stopping = asyncio.Event()
        self.live = 0
        self.random = random.Random(seed)
        # Idle connections are dropped before the server's keep-alive (uvicorn's 5 s) closes them: at the same
        # 5 s, a request sent as the server closed its connection failed (ReadError), a few per run.
        self.http = httpx.AsyncClient(base_url=server.base, timeout=60,
                                      limits=httpx.Limits(max_connections=50, max_keepalive_connections=50,
                                                          keepalive_expiry=2.0))

    async def request(self, method: str, path: str, accept: int | None = None, **kwargs) -> dict:
        """The answer's JSON; an error counted and raised, unless its status is `accept` (its JSON then)."""
        try:
            r = await self.http.request(method, path, **kwargs)
        except httpx.HTTPError as e:
            self.counts.error(f"{method} {path}: {type(e).__name__} {e}")
            raise
        if r.status_code >= 400 and r.status_code != accept:
            self.counts.error(f"{method} {path}: {r.status_code} {r.text[:200]}")
            raise RuntimeError(r.status_code)
        return r.json()

    async def socket(self, table: str, query: str, cookie: str | None, done: asyncio.Event, watch: bool) -> None:
        """One page socket, open until the table is done: counts what it receives, answers the pings."""
        url = f"ws://127.0.0.1:{self.server.port}/ws/tables/{table}/html{query}"
        headers = {"Cookie": cookie} if cookie else {}
        try:
            async with websockets.connect(url, additional_headers=headers, max_size=None,
                                          open_timeout=60) as ws:
                waiting = asyncio.ensure_future(done.wait())
                try:
                    while not done.is_set():
                        receiving = asyncio.ensure_future(ws.recv())
                        await asyncio.wait({receiving, waiting}, return_when=asyncio.FIRST_COMPLETED)
                        if not receiving.done():
                            receiving.cancel()
                            break
                        message = receiving.result()
                        self.counts.bytes += len(message.encode())
                        self.counts.messages += 1
                        if PING in message:
                            await ws.send("pong")
                        if watch and FINISHED in message:
                            done.set()
                finally:
                    waiting.cancel()
        except websockets.ConnectionClosed as e:
            if not done.is_set():
                self.counts.error(f"socket of table {table} closed: {e}")
        except (OSError, asyncio.TimeoutError, websockets.InvalidStatus) as e:
            self.counts.error(f"socket of table {table}: {type(e).__name__} {e}")

    async def new_table(self, slug: str | None = None, players: int | None = None) -> tuple[str, dict, list[str]]:
        """A table created and every seat joined (a random game and size unless given): its game, what its
        creation answered, the seats' tokens."""
        if slug is None:
            slug, counts = self.random.choice(self.kinds)
            players = self.random.choice(counts)
        self.made += 1  # every other table delays its spectators when asked
        delay = self.spectator_delay if self.made % 2 else 0
        made = await self.request("POST", "/api/tables", json={"game": slug, "players": players,
                                                               "spectator_delay": delay})
        tokens = [(await self.request("POST", f"/api/tables/{made['id']}/join",
                                       json={"invite": made["invite_key"], "name": f"P{n}"}))["token"]
                  for n in range(players)]
        return slug, made, tokens

    def stages(self, count: int, samples: int = 6) -> list[tuple[str, int, int]]:
        """The game, size and age in actions of `count` tables of an evening under way. A new table's game and
        size are drawn alike, but a longer game stays in play longer: at any moment a table is in a game of
        length L with a chance in proportion to L, and at a uniform point of it. The lengths are those of
        random games weighted as the novice bots play (`random_game`), played here by the engine."""
        games, weights = [], []
        for slug, counts in self.kinds:
            for players in counts:
                for _ in range(samples):
                    length = len(random_game(ALL_GAMES[slug], players, self.random.randrange(1 << 30), {},
                                             self.random.randrange(1 << 30))[1])
                    games.append((slug, players, length))
                    weights.append(length / len(counts))  # a game drawn 1 in len(kinds), a size 1 in len(counts)
        return [(slug, players, int(self.random.random() * length))
                for slug, players, length in self.random.choices(games, weights, k=count)]

    async def under_way(self, slug: str, players: int, age: int) -> tuple[str, dict, list[str]]:
        """A table `age` actions into its game, before any page of it is open: its players leave their seats to
        the novice bots, which play until then, and take them back."""
        while True:
            try:
                slug, made, tokens = await self.new_table(slug, players)
                table = made["id"]
                auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
                for headers in auth:
                    await self.request("POST", f"/api/tables/{table}/seat/leave", headers=headers)
                began = (await self.request("GET", f"/api/tables/{table}"))["version"]
                while (info := await self.request("GET", f"/api/tables/{table}"))["status"] == "playing" \
                        and info["version"] < began + age:
                    await asyncio.sleep(1)
                if info["status"] != "playing":  # it ended first: another, to a stage of a game as long as this
                    age = int(self.random.random() * (info["version"] - began))
                    continue
                for headers in auth:  # (a game that ends meanwhile refuses them: another table)
                    reclaimed = await self.http.post(f"/api/tables/{table}/seat/reclaim", headers=headers)
                    if reclaimed.status_code != 200:
                        break
                else:
                    await asyncio.sleep(1)  # a bot's move under way when its seat was taken back may end the game
                    if (await self.request("GET", f"/api/tables/{table}"))["status"] == "playing":
                        return slug, made, tokens
            except (RuntimeError, httpx.HTTPError):
                await asyncio.sleep(1)  # counted as an error (of the preparation); another table

    async def one_table(self, ready: tuple[str, dict, list[str]] | None = None) -> None:
        """One table from its creation (or from `ready`, made already) to the end of its game."""
        _slug, made, tokens = ready or await self.new_table()
        table = made["id"]
        done = asyncio.Event()
        sockets = [asyncio.ensure_future(self.socket(table, f"?spectate={made['spectator_key']}", None, done, True))]
        sockets += [asyncio.ensure_future(self.socket(table, "", f"tabula_seat_{table}={token}", done, False))
                    for token in tokens]
        self.live += 1
        try:
            for token in tokens:  # every player leaves: a novice bot plays their seat, their page stays open
                path = f"/api/tables/{table}/seat/leave"
                left = await self.request("POST", path, headers={"Authorization": f"Bearer {token}"}, accept=409)
                if "error" in left:  # the bots of the seats left first may end a game near its end: then no more
                    if (await self.request("GET", f"/api/tables/{table}"))["status"] != "finished":
                        self.counts.error(f"POST {path}: 409 {left['error']}")
                    break
            while not done.is_set() and not self.stopping.is_set():
                try:  # the spectator's page says when the game is over; the API too, should a message be missed
                    await asyncio.wait_for(asyncio.shield(done.wait()), 30)
                except asyncio.TimeoutError:
                    if (await self.request("GET", f"/api/tables/{table}"))["status"] != "playing":
                        done.set()
            if not self.stopping.is_set():
                self.counts.games += 1
        finally:
            done.set()
            await asyncio.gather(*sockets)
            self.live -= 1

    async def keep_one_table(self, ready: tuple[str, dict, list[str]] | None = None) -> None:
        while not self.stopping.is_set():
            try:
                await self.one_table(ready)
            except (RuntimeError, httpx.HTTPError):
                await asyncio.sleep(1)  # counted as an error; the next table
            ready = None

    def sample(self, started: float) -> Sample:
        pid = self.server.proc.pid
        text = httpx.get(self.server.base + "/metrics", timeout=300).text
        actions = sum(float(v) for v in ACTIONS_METRIC.findall(text))
        children = self.server.children()
        return Sample(time.monotonic() - started, actions, cpu_seconds(pid), rss_mb(pid), heap_mb(pid),
                      sum(rss_mb(c) for c in children), len(os.listdir(f"/proc/{pid}/fd")),
                      self.counts.bytes, self.counts.messages, self.live, self.counts.games)


def interval(a: Sample, b: Sample) -> dict[str, float]:
    actions = b.actions - a.actions
    seconds = b.at - a.at
    return {"rate": actions / seconds if seconds else float("nan"), "cpu_ms": 1000 * (b.cpu - a.cpu) / actions if actions else float("nan"),
            "per_action": (b.bytes - a.bytes) / actions if actions else float("nan"),
            "per_message": (b.bytes - a.bytes) / (b.messages - a.messages) if b.messages > a.messages else 0.0}


def show(a: Sample, b: Sample, errors: int) -> None:
    i = interval(a, b)
    print(f"{b.at:6.0f} s  tables {b.tables:4d}  games {b.games:5d}  actions/s {i['rate']:6.1f}"
          f"  CPU/action {i['cpu_ms']:6.2f} ms  RSS {b.rss:6.1f} MB (heap {b.heap:5.1f})"
          f" + children {b.children_rss:6.1f} MB"
          f"  fds {b.fds:5d}  bytes/action {i['per_action']:7.0f}  bytes/message {i['per_message']:6.0f}"
          f"  errors {errors}", flush=True)


def at(samples: list[Sample], seconds: float) -> Sample:
    """The first sample taken at or after `seconds`."""
    return next((s for s in samples if s.at >= seconds), samples[-1])


def slope_per_minute(samples: list[Sample]) -> float:
    """Least squares: the server's RSS growth in MB per minute."""
    if len(samples) < 2:
        return 0.0
    xs, ys = [s.at / 60 for s in samples], [s.rss for s in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


async def soak(server: Server, tables: int, seconds: float, kinds: list = KINDS, spectator_delay: int = 0,
               fresh: bool = False) -> None:
    club = Club(server, tables, kinds=kinds, spectator_delay=spectator_delay)
    loop = asyncio.get_running_loop()
    ready: list = [None] * tables
    if not fresh:  # the evening under way: the first tables at every stage of their games (not timed)
        began = time.monotonic()
        ready = await asyncio.gather(*(club.under_way(*stage) for stage in club.stages(tables)))
        print(f"{tables} tables under way in {time.monotonic() - began:.0f} s; errors meanwhile (not counted in the"
              f" run's): {len(club.counts.errors)}", flush=True)
        for line in club.counts.errors[:5]:
            print("   ", line)
        club.counts.errors.clear()
    started = time.monotonic()
    players = [loop.create_task(club.keep_one_table(first)) for first in ready]
    # "A minute" of the full run, a fifth of a shorter one (whole samples).
    window = SAMPLE * max(1, round(min(60.0, seconds / 5) / SAMPLE))
    samples = [await asyncio.to_thread(club.sample, started)]
    while time.monotonic() - started < seconds:
        await asyncio.sleep(SAMPLE - (time.monotonic() - started) % SAMPLE)
        samples.append(await asyncio.to_thread(club.sample, started))
        show(samples[-2], samples[-1], len(club.counts.errors))
        if samples[-2].at < 2 * window <= samples[-1].at:
            await asyncio.to_thread(server.probe_memory, "warm-up")
    await asyncio.to_thread(server.probe_memory, "end")
    club.stopping.set()
    await asyncio.gather(*players)
    await club.http.aclose()
    await asyncio.sleep(10)  # the server notices every socket gone (presence, its channels)
    left = await asyncio.to_thread(club.sample, started)
    await asyncio.to_thread(server.probe_memory, "every client left")
    # Their tables go on with bots alone: once every game ended (if within 2 minutes), nothing should be left.
    ended = await asyncio.to_thread(server.wait_no_game, 120)
    over = await asyncio.to_thread(club.sample, started) if ended else None
    await asyncio.to_thread(server.probe_memory, "every game ended" if ended else "2 minutes later")
    warm = at(samples, 2 * window)
    after_warm = [s for s in samples if s.at >= warm.at]
    cpu = [interval(a, b)["cpu_ms"] for a, b in zip(samples, samples[1:]) if b.actions > a.actions]
    second = interval(at(samples, window), at(samples, 2 * window))["rate"]
    last = interval(at(samples, seconds - window), samples[-1])["rate"]
    total = interval(samples[0], samples[-1])
    growth = 100 * (samples[-1].rss - warm.rss) / warm.rss
    print(f"\n{tables} tables for {seconds / 60:.1f} min: {club.counts.games} games, "
          f"{samples[-1].actions - samples[0].actions:.0f} actions, {total['rate']:.1f} actions/s; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"server CPU per action: median {statistics.median(cpu):.2f} ms over the {len(cpu)} samples "
          f"(target <= 1 ms)")
    print(f"action rate: second window {second:.1f}/s, last {last:.1f}/s = {100 * last / second:.0f} % "
          f"(target >= 90 %; windows of {window:.0f} s)")
    print(f"server RSS: {warm.rss:.1f} MB at warm-up ({warm.at:.0f} s), {samples[-1].rss:.1f} MB at the end: "
          f"{growth:+.1f} %, {slope_per_minute(after_warm):+.2f} MB/min (targets <= 10 %, <= 1 MB/min); "
          f"children {samples[-1].children_rss:.1f} MB")
    print(f"of the server's RSS, the C allocator's main heap: {warm.heap:.1f} MB at warm-up, {samples[-1].heap:.1f} MB "
          f"at the end ({samples[-1].heap - warm.heap:+.1f} MB); Python's small objects and the rest "
          f"{warm.rss - warm.heap:.1f} → {samples[-1].rss - samples[-1].heap:.1f} MB")
    print(f"after every client left: {left.rss:.1f} MB = warm-up {100 * (left.rss - warm.rss) / warm.rss:+.1f} % "
          f"(target <= +10 %); fds {left.fds}")
    if over is not None:
        print(f"after every game ended: {over.rss:.1f} MB = warm-up {100 * (over.rss - warm.rss) / warm.rss:+.1f} %"
              f" (target <= +10 %)")
    if server.memory_report is not None:
        print(f"who holds the memory: {server.memory_report}")
    print(f"page updates: {total['per_action']:.0f} bytes per action, {total['per_message']:.0f} per message")
    took, alive = server.terminate(group=False)
    print(f"SIGTERM to the server alone: it exited in {took:.1f} s; survivors after 5 s: {len(alive)}")
    print(server.collector())
    errors = club.counts.errors + server.log_errors()
    print(f"errors: {len(errors)}")
    for line in errors[:20]:
        print("   ", line)


async def group_stop(source: Path, workdir: Path) -> None:
    """A small server with its bot worker busy and page sockets open gets SIGTERM on its process group."""
    server = Server(source, workdir)
    await asyncio.to_thread(server.wait_ready)
    club = Club(server, 3)
    players = [asyncio.create_task(club.keep_one_table()) for _ in range(club.tables)]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (len(server.children()) < 2 or club.counts.messages < 20):
        await asyncio.sleep(0.2)
    took, alive = await asyncio.to_thread(server.terminate, True)
    club.stopping.set()
    await asyncio.gather(*players, return_exceptions=True)
    await club.http.aclose()
    log = [line for line in server.log_errors() if "Traceback" in line or "leaked semaphore" in line]
    print(f"SIGTERM to the process group: the server exited in {took:.1f} s; survivors after 5 s: {len(alive)};"
          f" tracebacks or leaked semaphores in its log: {len(log)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="20 tables for 1 minute")
    parser.add_argument("--tables", type=int)
    parser.add_argument("--minutes", type=float)
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--bot-delay", default="0.05-0.15", help="TABULA_BOT_DELAY of the server (default 0.05-0.15)")
    parser.add_argument("--games", help="the games played, comma-separated slugs (default: the three games; "
                        "bench_cards is a short benchmark game)")
    parser.add_argument("--spectator-delay", type=int, default=0, metavar="VERSIONS",
                        help="every other table shows its spectators the game this many versions behind")
    parser.add_argument("--fresh", action="store_true",
                        help="every table starts at its game's first action (the default: the first tables are "
                        "at every stage of their games, as at a club's evening under way)")
    parser.add_argument("--memory", action="store_true", help="write who holds the server's memory")
    parser.add_argument("--tracemalloc", type=int, default=0, metavar="FRAMES",
                        help="--memory, and trace allocations from warm-up on (slow)")
    args = parser.parse_args()
    kinds = KINDS
    if args.games:
        players = {slug: counts for slug, counts in [*KINDS, ("bench_cards", (2,))]}
        kinds = [(slug, players[slug]) for slug in args.games.split(",")]
    tables = args.tables or (20 if args.short else 200)
    minutes = args.minutes or (1.0 if args.short else 10.0)
    workdir = Path(tempfile.mkdtemp(prefix="tabula-soak-"))
    print(f"{tables} tables, {minutes} min, serving {args.source.resolve()}; logs in {workdir}", flush=True)
    server = Server(args.source.resolve(), workdir, args.bot_delay, args.memory, args.tracemalloc)
    try:
        server.wait_ready()
        asyncio.run(soak(server, tables, 60 * minutes, kinds, args.spectator_delay, args.fresh))
        asyncio.run(group_stop(args.source.resolve(), workdir))
    finally:
        if server.proc.poll() is None:
            os.killpg(server.proc.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
