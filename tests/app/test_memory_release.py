"""A real server releases what it keeps of a table once the game is over and nobody watches it (issue #23):
many short games played to the end by bots, each seat's page socket and a spectator's open while it is
played (half the tables delaying their spectators), one game replayed; then every per-table cache of the
process, as /metrics shows it (tabula_held) and as a look through the server's objects finds it, holds no
finished table. And what a table's readers do while it is played (pages, sockets, moves) leaves nothing to
the cycle collector. Both databases."""

from __future__ import annotations

import asyncio
import base64
import gc
import http.client
import json
import os
import re
import socket
import time
import weakref
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import websockets

from app.config import Settings
from tests.conftest import BACKENDS, fresh_database_url

from .client import Table, bearer, create_full
from .conftest import ThreadServer, free_port

TABLES = 6  # at once, 60 moves each
PER_TABLE = {"snapshots", "spectator_snapshots", "table_locks", "bot_tasks", "bot_dirty", "bot_seeds", "bot_idle",
             "channels", "presence_counts", "presence_hidden", "presence_dirty"}
HELD = re.compile(r'^tabula_held\{cache="([a-z_]+)"\} ([0-9.e+]+)$', re.M)
# The packages that serve a request: what is found of them in the garbage is the server's.
SERVING = {"app", "games", "jinja2", "markupsafe", "sqlalchemy", "uvicorn", "httptools", "websockets", "starlette",
           "fastapi", "asyncio"}


@pytest.fixture(scope="module", params=BACKENDS)
def server(request, postgres_server, tmp_path_factory) -> Iterator[tuple[str, Any]]:
    url = fresh_database_url(request.param, postgres_server, tmp_path_factory.mktemp("memory"), "memory")
    settings = Settings(database_url=url, benchmark=True, metrics=True, heartbeat=1.0, bot_delay=(0.0, 0.0),
                        bot_workers=0, takeover_level="novice", bot_sweep=0.5)
    thread = ThreadServer(settings, free_port())
    thread.start()
    try:
        yield f"http://127.0.0.1:{thread.server.config.port}", thread.server.config.app
    finally:
        thread.stop()


async def held(http: httpx.AsyncClient) -> dict[str, float]:
    r = await http.get("/metrics")
    assert r.status_code == 200
    return {cache: float(n) for cache, n in HELD.findall(r.text)}


async def play(http: httpx.AsyncClient, base: str, n: int) -> Table:
    """One table: every seat joined, its page socket and a spectator's open, the players leave their seats to
    bots that play to the end, and the sockets close."""
    table = await create_full(http, spectator_delay=2 * (n % 2))
    ws = base.replace("http://", "ws://") + f"/ws/tables/{table.id}/html"
    sockets = [await websockets.connect(f"{ws}?spectate={table.spectate}")]
    sockets += [await websockets.connect(ws, additional_headers={"Cookie": f"tabula_seat_{table.id}={token}"})
                for token in table.tokens]
    try:
        for token in table.tokens:
            assert (await http.post(f"/api/tables/{table.id}/seat/leave", headers=bearer(token))).status_code == 200
        for _ in range(600):
            if (await http.get(f"/api/tables/{table.id}")).json()["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"table {table.id} did not finish")
        await asyncio.sleep(0.2)  # the spectator, two versions behind, sees the end too
    finally:
        for sock in sockets:
            await sock.close()
    return table


def ids_in(obj: Any, depth: int = 3, seen: set[int] | None = None) -> set[str]:
    """Every string kept as a key or item of the containers an object holds, and of the objects it holds
    (the server's own and its libraries': a cache hides nowhere)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth < 0:
        return set()
    seen.add(id(obj))
    found: set[str] = set()
    if isinstance(obj, Mapping) or hasattr(obj, "items") and hasattr(obj, "keys"):  # weak dicts, counters...
        items = list(obj.items())
        found |= {k for k, _ in items if isinstance(k, str)}
        values = [v for _, v in items]
    elif isinstance(obj, (set, frozenset, list, tuple)):
        found |= {v for v in obj if isinstance(v, str)}
        values = list(obj)
    elif hasattr(obj, "__dict__") and type(obj).__module__.split(".")[0] in ("app", "limits"):
        values = list(vars(obj).values())
    else:
        return found
    for value in values:
        if not isinstance(value, (str, bytes, int, float, type(None))):
            found |= ids_in(value, depth - 1, seen)
    return found


async def test_finished_unwatched_tables_leave_nothing_in_the_server_caches(server):
    base, app = server
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        playing = [asyncio.ensure_future(play(http, base, n)) for n in range(TABLES)]
        while not (await held(http)).get("channels"):  # while games are played, the caches hold them
            await asyncio.sleep(0.05)
        during = await held(http)
        assert during["snapshots"] >= 1 and during["channels"] >= 1, during
        played = await asyncio.gather(*playing)
        r = await http.get(f"/api/tables/{played[0].id}/replay", params={"spectate": played[0].spectate})
        assert r.status_code == 200, r.text

        # Bot tasks end and presence is written a moment after the last socket closed.
        for _ in range(100):
            now = await held(http)
            if not any(now[cache] for cache in PER_TABLE):
                break
            await asyncio.sleep(0.05)
        assert set(now) >= PER_TABLE | {"replays", "replay_steps"}
        assert {cache: n for cache, n in now.items() if cache in PER_TABLE and n} == {}, \
            "a finished table nobody watches is still held"
        assert now["replays"] == 1  # the replay viewed is kept, within its bound

        finished = {t.id for t in played}
        parts = {name: getattr(app.state, name) for name in ("service", "hub", "bots", "replays", "limits", "chat",
                                                            "timer", "cleanup")}
        holding = {name: sorted(finished & ids_in(part)) for name, part in parts.items()}
        assert {name: ids for name, ids in holding.items() if ids} == {"replays": [played[0].id]}


class _Cycle:
    """Garbage that only the cycle collector frees."""

    def __init__(self) -> None:
        self.me = self


async def test_the_cycle_collector_runs_once_the_last_socket_of_the_server_closed(server):
    """Under load the collector's full rounds are rare (app/realtime/hub.py GC_THRESHOLDS), so what cycles
    hold of long-lived objects is freed when the server has no table open any more, not at a round that may
    be minutes off."""
    base, _app = server
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        table = await create_full(http)
        ws = base.replace("http://", "ws://") + f"/ws/tables/{table.id}/html"
        sock = await websockets.connect(ws, additional_headers={"Cookie": f"tabula_seat_{table.id}={table.tokens[0]}"})
        await sock.recv()  # attached: its page
        garbage = _Cycle()
        freed = weakref.ref(garbage)
        gc.collect()  # while still reachable, it moves to the oldest generation, as a table's long-lived objects do
        del garbage
        [[] for _ in range(30_000)]  # a young round, as the server's allocations may start one at any moment
        await asyncio.sleep(0.3)
        assert freed() is not None  # nothing collects it while a table is open here
        await sock.close()
        for _ in range(40):
            if freed() is None:
                break
            await asyncio.sleep(0.05)
        assert freed() is None, "the server had no table open, and the cycle collector did not run"


async def test_the_hubs_round_leaves_nothing_to_the_cycle_collector(server):
    """The hub's presence round (every heartbeat: 1 s here) reads the version of every table watched here in one
    statement (`Hub.presence_round`): made anew at every round, with the tables' ids as its own parameters, it
    left them to the cycle collector, every round, for as long as any table was watched."""
    base, _app = server
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        table = await create_full(client)
    sock = _raw_socket(base, f"/ws/tables/{table.id}?spectate={table.spectate}")

    def watch(seconds: float) -> None:  # the table watched through rounds, its socket alive (its pings)
        for _ in range(int(seconds / 0.5)):
            _send_text(sock, '{"type":"ping"}')
            time.sleep(0.5)

    try:
        watch(2.5)  # (what is made once: the statement compiled)
        with left_to_the_collector() as left:
            watch(2.5)
    finally:
        _close(sock)
    assert not left, left.most_common(8)


@contextmanager
def left_to_the_collector() -> Iterator[Counter[str]]:
    """What the serving packages left to the cycle collector (by type) while the block ran: the collector is held
    off meanwhile, and what a collection at the end finds is counted."""
    left: Counter[str] = Counter()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # (the collections the server makes meanwhile keep what they find too)
    try:
        yield left
        gc.collect()
        left.update(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
                    if type(o).__module__.partition(".")[0] in SERVING)
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
        gc.enable()


def _raw_socket(base: str, path: str, cookie: str = "") -> socket.socket:
    """A websocket opened by hand on a plain socket (a client of no library, which leaves no garbage of its
    own), once the server answered its upgrade and sent its first message."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nCookie: {cookie}\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < 2:
        answer += sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:200]
    return sock


def _send_text(sock: socket.socket, text: str) -> None:
    """A text message on a `_raw_socket` (masked, as a client sends it; under 126 bytes)."""
    data, mask = text.encode(), os.urandom(4)
    sock.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def _close(sock: socket.socket) -> None:
    """Closes a `_raw_socket` as a browser does: a close frame (1000, masked), then the server's close."""
    mask = os.urandom(4)
    sock.sendall(bytes([0x88, 0x82]) + mask + bytes(b ^ mask[i] for i, b in enumerate((1000).to_bytes(2, "big"))))
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass
    sock.close()


def _request(base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
             status: int = 200) -> str:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"content-type": "application/json", **(headers or {})})
    answer = conn.getresponse()
    text = answer.read().decode()
    conn.close()
    assert answer.status == status, text
    return text


async def test_pages_sockets_and_moves_leave_nothing_to_the_cycle_collector(server):
    """What a table's players and spectators do, at a table of each game (load their pages, open the pages'
    sockets and the JSON one, play a move while they are open, leave; the lobby, the rules and a message page
    too) is freed as it goes, by reference counting: nothing of it waits for the cycle collector, whose rounds
    are rare under load (app/realtime/hub.py GC_THRESHOLDS) and were what grew the server's memory in the soak.
    Seen left before: each page loaded (its Jinja contexts and macros, 731 objects for a César & Cléopâtre
    seat's), each socket (uvicorn's HTTP protocol of the upgrade, 22), each `in_` condition of a statement
    (SQLAlchemy's parameters)."""
    base, _app = server
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        tables = {slug: await create_full(client, slug, 3 if slug != "cesar_cleopatre" else 2)
                  for slug in ("cesar_cleopatre", "ave_cesar", "alea_iacta_est")}

    def visit() -> None:
        _request(base, "GET", "/")
        _request(base, "GET", "/t/no-such-table", status=404)
        for slug, table in tables.items():
            _request(base, "GET", f"/rules/{slug}")
            play(table)

    def play(table: Table) -> None:
        cookies = [f"tabula_seat_{table.id}={token}" for token in table.tokens]
        for cookie in cookies:
            _request(base, "GET", f"/t/{table.id}", headers={"cookie": cookie})
        _request(base, "GET", f"/t/{table.id}/watch?key={table.spectate}")
        sockets = [_raw_socket(base, f"/ws/tables/{table.id}/html", cookie) for cookie in cookies]
        sockets.append(_raw_socket(base, f"/ws/tables/{table.id}/html?spectate={table.spectate}"))
        sockets.append(_raw_socket(base, f"/ws/tables/{table.id}?token={table.tokens[0]}"))
        for token in table.tokens:
            seen = json.loads(_request(base, "GET", f"/api/tables/{table.id}/view", headers=bearer(token)))
            if seen["view"]["game"]["legal_actions"]:
                _request(base, "POST", f"/api/tables/{table.id}/actions", headers=bearer(token),
                         body={"version": seen["version"], "action": seen["view"]["game"]["legal_actions"][0]})
                break
        for sock in sockets:
            _close(sock)
        for _ in range(100):  # the sockets detached, their presence written
            if not any(float(n) for cache, n in HELD.findall(_request(base, "GET", "/metrics"))
                       if cache in ("channels", "presence_counts", "presence_dirty")):
                break
            time.sleep(0.05)

    visit()  # (what is made once: templates compiled, statements cached)
    with left_to_the_collector() as left:
        visit()
    assert not left, left.most_common(8)

