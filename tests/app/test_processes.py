"""Real server processes: two processes on one Postgres (LISTEN/NOTIFY), SIGKILL and restart, the replay
check command, and the websockets' compression."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys

import httpx
import pytest
import websockets
from sqlalchemy import text

from app.config import Settings
from app.db import make_sync_engine
from app.services.tables import replay_problem
from app.web.protocol import CLIENT_WINDOW_BITS, JSON_SERVER_WINDOW_BITS, SERVER_WINDOW_BITS
from games import ALL_GAMES

from tests.conftest import BACKENDS, fresh_database_url
from tests.processes import ROOT

from .client import Socket, bearer, create_full
from .conftest import ServerProcess

pytestmark = pytest.mark.asyncio
GAME = ALL_GAMES["bench_cards"]


def stored(url: str, table_id: str):
    engine = make_sync_engine(Settings(database_url=url))
    try:
        with engine.connect() as conn:
            row = conn.execute(text("SELECT game, players, options, seed, status, version, state FROM tables"
                                    " WHERE id = :id"), {"id": table_id}).first()
            actions = conn.execute(text("SELECT version, seat, action FROM actions WHERE table_id = :id"
                                        " ORDER BY version"), {"id": table_id}).all()
        return row, actions
    finally:
        engine.dispose()


async def test_two_processes_share_one_postgres_through_listen_notify(postgres_server, processes, tmp_path):
    url = postgres_server.create_database("two")
    a = ServerProcess(url, tmp_path).start()
    b = ServerProcess(url, tmp_path).start()  # both migrate at once: the advisory lock serialises them
    processes += [a, b]
    a.wait_ready()
    b.wait_ready()
    async with httpx.AsyncClient(base_url=a.base, timeout=20) as on_a, \
            httpx.AsyncClient(base_url=b.base, timeout=20) as on_b:
        table = await create_full(on_a)
        s0 = await Socket.open(a.base.replace("http", "ws"), table.id, f"?token={table.tokens[0]}", "seat0@A")
        s1 = await Socket.open(b.base.replace("http", "ws"), table.id, f"?token={table.tokens[1]}", "seat1@B")
        watcher = await Socket.open(b.base.replace("http", "ws"), table.id, f"?spectate={table.spectate}", "spec@B")
        for s in (s0, s1, watcher):
            await s.until(lambda m: m["type"] == "full")
        # Presence crosses processes too: the seat connected to A shows up on B.
        await s1.until(lambda m: m["type"] == "presence" and m["connected"] == [0, 1] and m["spectators"] == 1)

        version = 2
        for move in range(GAME.action_bound(2)):
            seat = move % 2
            # Alternate the process the move goes to; both sides and the spectator must follow.
            http = on_a if move % 3 else on_b
            if move % 4 == 0:  # and every fourth move, both processes are offered the same version at once
                r1, r2 = await asyncio.gather(*(
                    client.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                                json={"version": version, "action": {"type": "play", "index": i}})
                    for i, client in enumerate((on_a, on_b))))
                assert sorted([r1.status_code, r2.status_code]) == [200, 409]
            else:
                r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                                    json={"version": version, "action": {"type": "play", "index": move % 5}})
                assert r.status_code == 200, r.text
            version += 1
            for s in (s0, s1, watcher):
                await s.at_version(version)
            row, actions = stored(url, table.id)
            state = GAME.decode(row.state)
            assert s0.view["game"] == GAME.view(state, 0)
            assert s1.view["game"] == GAME.view(state, 1)
            assert watcher.view["game"] == GAME.view(state, None)
        assert s1.view["game"]["finished"] is True
        row, actions = stored(url, table.id)
        assert [v for v, _s, _a in actions] == list(range(3, version + 1))
        assert replay_problem(ALL_GAMES, row, actions) is None
        for s in (s0, s1, watcher):
            await s.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_sigkill_between_actions_loses_no_acknowledged_move(backend, postgres_server, processes, tmp_path):
    url = fresh_database_url(backend, postgres_server, tmp_path, "kill")
    server = ServerProcess(url, tmp_path).start().wait_ready()
    processes.append(server)
    acknowledged: list[int] = []
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        table = await create_full(http)
        sock = await Socket.open(server.base.replace("http", "ws"), table.id, f"?token={table.tokens[1]}")
        await sock.until(lambda m: m["type"] == "full")
        version = 2
        for move in range(17):
            r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[move % 2]),
                                json={"version": version, "action": {"type": "play", "index": move % 5}})
            assert r.status_code == 200
            version = r.json()["version"]
            acknowledged.append(version)
        await sock.at_version(version)
        seen = sock.version
        # One more move is in flight while the process is killed: it may or may not have been committed.
        in_flight = asyncio.create_task(http.post(
            f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[1]),
            json={"version": version, "action": {"type": "play", "index": 0}}))
        await asyncio.sleep(0.005)
        server.kill()
        try:
            r = await in_flight
            if r.status_code == 200:
                acknowledged.append(r.json()["version"])
        except httpx.HTTPError:
            pass
        with pytest.raises(Exception):
            await sock.until(lambda m: False, timeout=5)

    row, actions = stored(url, table.id)
    logged = [v for v, _s, _a in actions]
    assert set(acknowledged) <= set(logged), "an acknowledged move was lost"
    assert logged == list(range(3, row.version + 1))
    assert replay_problem(ALL_GAMES, row, actions) is None

    restarted = ServerProcess(url, tmp_path, port=server.port).start().wait_ready()
    processes.append(restarted)
    async with httpx.AsyncClient(base_url=restarted.base, timeout=20) as http:
        sock = await Socket.open(restarted.base.replace("http", "ws"), table.id,
                                 f"?token={table.tokens[1]}&since={seen}")
        first = await sock.until(lambda m: m["type"] in ("full", "synced"))
        current = row.version
        if current == seen:
            assert first == {"type": "synced", "version": seen}
        else:
            assert first["type"] == "full" and first["version"] == current
        assert sock.version in (None, current) and (sock.view is None or sock.view["game"] == GAME.view(
            GAME.decode(row.state), 1))
        # The game goes on after the restart.
        seat = GAME.to_act(GAME.decode(row.state))
        (seat,) = seat
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                            json={"version": current, "action": {"type": "play", "index": 0}})
        assert r.status_code == 200
        await sock.until(lambda m: m.get("version") == current + 1)
        await sock.close()
    row, actions = stored(url, table.id)
    assert replay_problem(ALL_GAMES, row, actions) is None


async def test_replay_check_command_reports_tampered_snapshots(postgres_server, processes, tmp_path):
    url = postgres_server.create_database("replay")
    server = ServerProcess(url, tmp_path).start().wait_ready()
    processes.append(server)
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        tables = [await create_full(http) for _ in range(3)]
        for n, table in enumerate(tables):
            moves = GAME.action_bound(2) if n == 0 else 5 * n
            for move in range(moves):
                r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[move % 2]),
                                    json={"version": 2 + move, "action": {"type": "play", "index": move % 5}})
                assert r.status_code == 200
        await http.post("/api/tables", json={"game": "bench_cards", "players": 2})  # one still in the lobby
    env = {"DATABASE_URL": url, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    run = lambda: subprocess.run([sys.executable, "-m", "app", "replay-check"], cwd=tmp_path, env=env,
                                 capture_output=True, text=True, timeout=120)
    ok = run()
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "checked 4 table(s): 4 ok, 0 differ" in ok.stdout

    engine = make_sync_engine(Settings(database_url=url))
    try:
        with engine.begin() as conn:
            state = json.loads(conn.execute(text("SELECT state FROM tables WHERE id = :id"),
                                            {"id": tables[1].id}).scalar())
            state["scores"][0] += 1
            conn.execute(text("UPDATE tables SET state = :s WHERE id = :id"),
                         {"s": GAME.encode(state), "id": tables[1].id})
    finally:
        engine.dispose()
    bad = run()
    assert bad.returncode == 1
    assert f"MISMATCH {tables[1].id}: the snapshot differs from the replay of the log" in bad.stdout
    assert "1 differ" in bad.stdout


async def test_the_server_compresses_its_websockets_with_its_own_settings(processes, tmp_path):
    """`tabula serve` compresses what it sends as `app.web.protocol` says for each kind of socket (the page's in a
    window of 2**13 bytes, the JSON API's in 2**11), not with uvicorn's fixed settings, and a client that takes
    permessage-deflate (every browser) reads every message of both."""
    server = ServerProcess(fresh_database_url("sqlite", None, tmp_path, "deflate"), tmp_path).start().wait_ready()
    processes.append(server)
    ws_base = server.base.replace("http", "ws")
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        table = await create_full(http)
        watcher = await Socket.open(ws_base, table.id, f"?spectate={table.spectate}")
        page = await websockets.connect(f"{ws_base}/ws/tables/{table.id}/html?spectate={table.spectate}",
                                        max_size=None)
        for ws, window in ((watcher.ws, JSON_SERVER_WINDOW_BITS), (page, SERVER_WINDOW_BITS)):
            offered = ws.response.headers["Sec-WebSocket-Extensions"]
            assert offered.startswith("permessage-deflate")
            assert f"server_max_window_bits={window}" in offered
            assert f"client_max_window_bits={CLIENT_WINDOW_BITS}" in offered
        await watcher.until(lambda m: m["type"] == "full")
        version = 2
        for move in range(12):
            r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[move % 2]),
                                json={"version": version, "action": {"type": "play", "index": move % 5}})
            assert r.status_code == 200, r.text
            version = r.json()["version"]
        await watcher.at_version(version)
        assert watcher.gaps == 0
        row, _actions = stored(server.database_url, table.id)
        assert watcher.view["game"] == GAME.view(GAME.decode(row.state), None)
        shown = 0  # the page socket's newest version element, inflated from its compressed messages
        while shown < version:
            found = re.search(r'id="tb-version"[^>]*data-version="(\d+)"', await asyncio.wait_for(page.recv(), 20))
            shown = int(found.group(1)) if found else shown
        await watcher.close()
        await page.close()
