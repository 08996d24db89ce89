"""Live updates over the websocket: full view on connect, per-seat JSON Patches that reproduce the view at
every version (for every game), several tabs per seat, since/resync, acting over the socket, presence,
heartbeats, and refused connections."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from games import ALL_GAMES
from games.core import rng
from games.core.conformance import random_step

from .client import Socket, create, create_full, view

pytestmark = pytest.mark.asyncio

MAX_ACTIONS = 120  # per game in these tests: enough to cover every kind of turn of the bench game


def player_counts(game):
    return sorted({game.min_players, game.max_players})


def cases():
    for slug, game in ALL_GAMES.items():
        for players in player_counts(game):
            yield pytest.param(slug, players, id=f"{slug}-{players}p")


@pytest.mark.parametrize("slug,players", list(cases()))
async def test_patches_reproduce_every_view_at_every_version(live, slug, players):
    game = ALL_GAMES[slug]
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http, slug, players)
        sockets = {seat: await Socket.open(live.ws_base, table.id, f"?token={table.tokens[seat]}", f"seat{seat}")
                   for seat in range(players)}
        second_tab = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}", "seat0-tab2")
        spectator = await Socket.open(live.ws_base, table.id, f"?spectate={table.spectate}", "spectator")
        everyone = [*sockets.values(), second_tab, spectator]
        for s in everyone:
            await s.until(lambda m: m["type"] == "full")
        holder = {"rng": rng.seed_state(99)}
        state = None
        version = players  # one version per join
        for _ in range(MAX_ACTIONS):
            state = game.decode(live.row(table.id)["table"]["state"])
            if game.finished(state):
                break
            seat, action = random_step(game, state, holder)
            sock = sockets[seat]
            await sock.send({"type": "act", "id": version, "version": version, "action": action})
            reply = await sock.reply(version)
            assert reply == {"type": "ack", "version": version + 1, "id": version}, reply
            version += 1
            stored = game.decode(live.row(table.id)["table"]["state"])
            for s in everyone:
                await s.at_version(version)
                assert s.version == version
            for seat_n, s in sockets.items():
                assert s.view["game"] == game.view(stored, seat_n)
            assert second_tab.view == sockets[0].view
            assert spectator.view["game"] == game.view(stored, None)
            if version % 10 == 0:  # and the HTTP view agrees with the socket's copy
                assert (await view(http, table, table.tokens[1]))["view"] == sockets[1].view
        assert all(s.gaps == 0 for s in everyone)
        for s in everyone:
            await s.close()


async def test_several_tabs_same_patch_bytes_and_since_resync(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http)
        tab1 = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}")
        tab2 = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}")
        for s in (tab1, tab2):
            await s.until(lambda m: m["type"] == "full")
        r = await http.post(f"/api/tables/{table.id}/actions", json={"version": 2, "action": {
            "type": "play", "index": 0}}, headers={"Authorization": f"Bearer {table.tokens[0]}"})
        assert r.status_code == 200
        p1 = await tab1.until(lambda m: m["type"] == "patch")
        p2 = await tab2.until(lambda m: m["type"] == "patch")
        assert p1 == p2 and p1["from"] == 2 and p1["version"] == 3
        assert tab1.raw[-1] == tab2.raw[-1]  # the same bytes: computed once per seat
        await tab2.close()
        # Reconnect with since = the current version: nothing to resend.
        again = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}&since=3")
        assert (await again.until(lambda m: m["type"] in ("full", "synced"))) == {"type": "synced", "version": 3}
        # Reconnect from an older version: a full view.
        old = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}&since=1")
        full = await old.until(lambda m: m["type"] in ("full", "synced"))
        assert full["type"] == "full" and full["version"] == 3 and full["view"] == tab1.view
        # A client that wants a full view asks for one.
        await old.send({"type": "sync"})
        assert (await old.until(lambda m: m["type"] == "full"))["view"] == tab1.view
        for s in (tab1, again, old):
            await s.close()


async def test_acting_over_the_socket_gives_http_statuses(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http)
        before = live.row(table.id)
        p0 = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}")
        p1 = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[1]}")
        watcher = await Socket.open(live.ws_base, table.id, f"?spectate={table.spectate}")
        for s in (p0, p1, watcher):
            await s.until(lambda m: m["type"] == "full")
        play = {"type": "play", "index": 0}
        cases = [
            (p0, {"version": 1, "action": play}, 409),
            (p0, {"version": 2, "action": {"type": "play", "index": 9}}, 422),
            (p0, {"version": "x", "action": play}, 400),
            (p0, {"version": 2, "action": "play"}, 400),
            (p1, {"version": 2, "action": play}, 403),
            (watcher, {"version": 2, "action": play}, 403),
        ]
        for n, (sock, payload, status) in enumerate(cases):
            await sock.send({"type": "act", "id": f"r{n}", **payload})
            reply = await sock.reply(f"r{n}")
            assert reply["type"] == "error" and reply["status"] == status, (payload, reply)
            assert live.row(table.id) == before
            if status == 409:
                assert reply["version"] == 2 and reply["view"] == p0.view
        await p0.send({"type": "nonsense"})
        assert (await p0.until(lambda m: m["type"] == "error"))["status"] == 400
        await p0.ws.send("not json")
        assert (await p0.until(lambda m: m["type"] == "error"))["status"] == 400
        await p0.send({"type": "ping"})
        await p0.until(lambda m: m["type"] == "pong")
        for s in (p0, p1, watcher):
            await s.close()


async def test_presence_and_spectator_count(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http)
        p0 = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}")
        await p0.until(lambda m: m["type"] == "presence" and m["connected"] == [0])
        watcher = await Socket.open(live.ws_base, table.id, f"?spectate={table.spectate}")
        await p0.until(lambda m: m["type"] == "presence" and m["spectators"] == 1)
        p1 = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[1]}")
        await watcher.until(lambda m: m["type"] == "presence" and m["connected"] == [0, 1])
        info = (await http.get(f"/api/tables/{table.id}")).json()
        assert [s["connected"] for s in info["seats"]] == [True, True] and info["spectators"] == 1
        await p1.close()
        await watcher.until(lambda m: m["type"] == "presence" and m["connected"] == [0])
        info = (await http.get(f"/api/tables/{table.id}")).json()
        assert [s["connected"] for s in info["seats"]] == [True, False]
        await watcher.close()
        await p0.until(lambda m: m["type"] == "presence" and m["spectators"] == 0)
        await p0.close()


async def test_server_heartbeats(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http)
        sock = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}")
        await sock.until(lambda m: m["type"] == "ping", timeout=5)  # the test server beats every second
        await sock.close()


async def test_refused_connections(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http)
        for query, status, code in [("?token=nope", 403, 4403), ("", 403, 4403), (f"?token={table.invite}", 403, 4403)]:
            sock = await Socket.open(live.ws_base, table.id, query)
            msg = await sock.next()
            assert msg["type"] == "error" and msg["status"] == status
            await sock.ws.wait_closed()
            assert sock.ws.close_code == code
        sock = await Socket.open(live.ws_base, "no-such-table", f"?token={table.tokens[0]}")
        assert (await sock.next())["status"] == 404
        await sock.ws.wait_closed()
        assert sock.ws.close_code == 4404


async def test_lobby_updates_and_a_given_up_seat_loses_its_socket(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create(http, players=2)
        a = (await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": "A"})).json()
        sock = await Socket.open(live.ws_base, table.id, f"?token={a['token']}")
        first = await sock.until(lambda m: m["type"] == "full")
        assert first["view"]["game"] is None and first["view"]["table"]["status"] == "lobby"
        watcher = await Socket.open(live.ws_base, table.id, f"?spectate={table.spectate}")
        await watcher.until(lambda m: m["type"] == "full")
        await http.post(f"/api/tables/{table.id}/leave", headers={"Authorization": f"Bearer {a['token']}"})
        msg = await sock.until(lambda m: m["type"] == "error")
        assert msg["status"] == 403
        await sock.ws.wait_closed()
        assert sock.ws.close_code == 4403
        await watcher.at_version(2)
        assert watcher.view["table"]["seats"][0]["name"] is None
        for name in ("B", "C"):
            await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": name})
        await watcher.at_version(4)
        assert watcher.view["table"]["status"] == "playing" and watcher.view["game"]["hand"] is None
        await watcher.close()
