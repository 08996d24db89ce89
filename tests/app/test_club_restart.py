"""Upgrades without losing a game: two server processes on one Postgres each get SIGTERM in turn (and are
started again, as a rolling restart does) while games are played over the JSON websocket, the JSON API and
the page's forms with the page's socket open. A process that gets SIGTERM stops taking connections, closes
its sockets with 1012 (service restart), finishes what is in flight and exits cleanly; every client goes on
through the other process. In the end every acknowledged move is in the log once, at the version it was
acknowledged with, and every client shows the table's final version.

Also: migrations run once when several processes start together on a fresh database."""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import re
import subprocess
import sys

import httpx
import jsonpatch
import websockets
from sqlalchemy import text

from app.cli import replay_check
from app.config import Settings
from app.db import make_sync_engine
from tests.processes import ROOT

from tests.processes import ServerProcess as ProcessBase


class ServerProcess(ProcessBase):
    """A server process with the benchmark game, logging its lifecycle (to see how it stopped)."""

    def __init__(self, database_url, workdir, port=None):
        super().__init__(database_url, workdir, port, env={"TABULA_BENCHMARK": "1", "TABULA_HEARTBEAT": "1"},
                         log_level="info")

GONE = (httpx.TransportError, OSError, websockets.ConnectionClosed, websockets.InvalidHandshake, asyncio.TimeoutError)
PAUSE = 0.15  # seconds a player waits between two moves, so that the games outlast both restarts


class Club:
    """The two processes as a proxy sees them: a client takes the next one that answers."""

    def __init__(self, servers: list[ServerProcess]):
        self.servers = servers
        self._turn = itertools.count()
        self.acked: list[tuple[str, int, int, dict, int]] = []  # table, version, seat, action, restarts so far
        self.restarts = 0

    def base(self) -> str:
        return self.servers[next(self._turn) % len(self.servers)].base

    def ack(self, table: str, version: int, seat: int, action: dict) -> None:
        self.acked.append((table, version, seat, action, self.restarts))


async def new_table(http: httpx.AsyncClient) -> tuple[str, str, list[str]]:
    body = (await http.post("/api/tables", json={"game": "bench_cards", "players": 2})).json()
    tokens = []
    for n in range(2):
        r = await http.post(f"/api/tables/{body['id']}/join", json={"invite": body["invite_key"], "name": f"P{n}"})
        tokens.append(r.json()["token"])
    return body["id"], body["spectator_key"], tokens


async def api_view(club: Club, table: str, token: str) -> tuple[int, dict]:
    while True:
        try:
            async with httpx.AsyncClient(base_url=club.base(), timeout=10) as http:
                r = await http.get(f"/api/tables/{table}/view", headers={"Authorization": f"Bearer {token}"})
            return r.json()["version"], r.json()["view"]
        except GONE:
            await asyncio.sleep(0.05)


async def http_player(club: Club, table: str, seat: int, token: str, form: bool) -> None:
    """Plays one seat with the JSON API (or with the page's form, by its seat cookie) until the game ends."""
    while True:
        version, view = await api_view(club, table, token)
        if view["table"]["status"] != "playing":
            return
        legal = view["game"]["legal_actions"]
        if not legal:
            await asyncio.sleep(PAUSE)  # the other seat's turn
            continue
        try:
            async with httpx.AsyncClient(base_url=club.base(), timeout=10) as http:
                if form:
                    r = await http.post(f"/t/{table}/act", headers={"Cookie": f"tabula_seat_{table}={token}"},
                                        data={"version": str(version), "action": json.dumps(legal[0])})
                    acked = r.status_code == 303 and "tabula_flash" not in r.headers.get("set-cookie", "")
                else:
                    r = await http.post(f"/api/tables/{table}/actions", json={"version": version, "action": legal[0]},
                                        headers={"Authorization": f"Bearer {token}"})
                    acked = r.status_code == 200
        except GONE:
            continue  # unknown: the view will tell
        if acked:
            club.ack(table, version + 1, seat, legal[0])
        await asyncio.sleep(PAUSE)


async def socket_player(club: Club, table: str, seat: int, token: str, views: dict) -> None:
    """Plays one seat over the JSON websocket, reconnecting (with the version it has) whenever it closes."""
    version, view, ids = None, None, itertools.count()
    while True:
        query = f"?token={token}" + (f"&since={version}" if version is not None else "")
        try:
            async with websockets.connect(f"{club.base().replace('http', 'ws')}/ws/tables/{table}{query}") as ws:
                waiting: dict[int, tuple[int, dict]] = {}
                while True:
                    if view is not None and view["table"]["status"] != "playing":
                        views[(table, seat)] = (version, view)
                        return
                    legal = view["game"]["legal_actions"] if view else []
                    if legal and not waiting:
                        request = next(ids)
                        waiting[request] = (version, legal[0])
                        await ws.send(json.dumps({"type": "act", "id": request, "version": version,
                                                  "action": legal[0]}))
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if msg["type"] == "full":
                        version, view = msg["version"], msg["view"]
                    elif msg["type"] == "patch" and msg["from"] == version:
                        version, view = msg["version"], jsonpatch.apply_patch(view, msg["patch"])
                    elif msg["type"] == "patch":
                        await ws.send(json.dumps({"type": "sync"}))
                    elif msg["type"] == "ping":
                        await ws.send(json.dumps({"type": "pong"}))
                    elif msg["type"] in ("ack", "error") and msg.get("id") in waiting:
                        sent_at, action = waiting.pop(msg["id"])
                        if msg["type"] == "ack":
                            club.ack(table, msg["version"], seat, action)
                        await asyncio.sleep(PAUSE)
        except GONE:
            await asyncio.sleep(0.05)  # the server went away: another one takes the socket


async def page_watcher(club: Club, table: str, key: str, shown: dict, final: asyncio.Event) -> None:
    """The table page's socket (a spectator's), following the version the page shows; it reconnects with
    `since` as the page does after a 1012."""
    version = 0
    while True:
        try:
            async with websockets.connect(f"{club.base().replace('http', 'ws')}/ws/tables/{table}/html"
                                          f"?spectate={key}&since={version}") as ws:
                while True:
                    html = await asyncio.wait_for(ws.recv(), 2)
                    found = re.findall(r'id="tb-version"[^>]*data-version="(\d+)"', html)
                    if found:
                        version = shown[table] = int(found[-1])
        except GONE:
            if final.is_set():
                return
            await asyncio.sleep(0.05)


async def restart(club: Club, index: int) -> None:
    """SIGTERM one process, wait for its clean exit, then start it again on its port."""
    old = club.servers[index]
    old.proc.terminate()
    code = await asyncio.to_thread(old.proc.wait, 30)
    # uvicorn shuts down gracefully, then ends by the signal it caught (so the exit status tells SIGTERM).
    log = old.log.read_text()
    assert code in (0, -15) and "Application shutdown complete." in log, log
    club.restarts += 1
    new = ServerProcess(old.database_url, old.workdir, port=old.port)
    club.servers[index] = new
    await asyncio.to_thread(lambda: new.start().wait_ready())


async def test_a_rolling_restart_loses_no_acknowledged_move(postgres_server, tmp_path, processes):
    url = postgres_server.create_database("rolling")
    club = Club([ServerProcess(url, tmp_path).start(), ServerProcess(url, tmp_path).start()])
    processes.extend(club.servers)
    for server in club.servers:
        await asyncio.to_thread(server.wait_ready)
    async with httpx.AsyncClient(base_url=club.servers[0].base, timeout=10) as http:
        tables = [await new_table(http) for _ in range(3)]
    views: dict = {}
    shown: dict = {}
    final = asyncio.Event()
    (ws_table, _, ws_tokens), (api_table, _, api_tokens), (page_table, _, page_tokens) = tables
    players = [asyncio.create_task(p) for p in (
        *(socket_player(club, ws_table, n, ws_tokens[n], views) for n in range(2)),
        *(http_player(club, api_table, n, api_tokens[n], form=False) for n in range(2)),
        *(http_player(club, page_table, n, page_tokens[n], form=True) for n in range(2)))]
    watchers = [asyncio.create_task(page_watcher(club, t, key, shown, final)) for t, key, _ in tables]
    for index in (0, 1):
        while len(club.acked) < 8 * (index + 1):
            await asyncio.sleep(0.05)
        await restart(club, index)
    processes.extend(club.servers)
    await asyncio.wait_for(asyncio.gather(*players), 300)

    db = make_sync_engine(Settings(database_url=url))
    with db.connect() as conn:
        final_versions = dict(conn.execute(text("SELECT id, version FROM tables")).all())
        logged = {(r.table_id, r.version): (r.seat, json.loads(r.action))
                  for r in conn.execute(text("SELECT table_id, version, seat, action FROM actions"))}
    db.dispose()
    # Every acknowledged move is in the log, once, at its version, as it was sent.
    assert len({(t, v) for t, v, *_ in club.acked}) == len(club.acked)
    for table, version, seat, action, _ in club.acked:
        assert logged[(table, version)] == (seat, action)
    # Moves were acknowledged after each restart (the games outlasted them), on every kind of client.
    assert {restarts for *_, restarts in club.acked} >= {0, 1, 2}
    assert {t for t, *_ in club.acked} == {ws_table, api_table, page_table}
    # The log holds every version since the start (no gap, nothing twice), and replays to the snapshot.
    for table, _, _ in tables:
        assert sorted(v for t, v in logged if t == table) == list(range(3, final_versions[table] + 1))
    assert await replay_check(Settings(database_url=url), out=io.StringIO()) == 0
    # Every client ends in sync: the JSON sockets' views are the server's, the pages show the last version.
    for (table, seat), (version, view) in views.items():
        assert (version, view) == await api_view(club, table, ws_tokens[seat])
    for _ in range(200):
        if all(shown.get(t) == final_versions[t] for t, _, _ in tables):
            break
        await asyncio.sleep(0.05)
    assert {t: shown.get(t) for t, _, _ in tables} == {t: final_versions[t] for t, _, _ in tables}
    final.set()
    for watcher in watchers:
        watcher.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    for server in club.servers:
        assert not server.errors(), server.log.read_text()


def test_migrations_run_once_when_processes_start_together(postgres_server, tmp_path):
    url = postgres_server.create_database("together")
    env = {"DATABASE_URL": url, "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    started = [subprocess.Popen([sys.executable, "-m", "app", "migrate"], cwd=tmp_path, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for _ in range(4)]
    outputs = [p.communicate(timeout=120)[0].decode() for p in started]
    assert [p.returncode for p in started] == [0] * 4, outputs
    db = make_sync_engine(Settings(database_url=url))
    with db.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    db.dispose()
