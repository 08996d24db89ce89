"""Every response code of the JSON API, and that nothing changes on any error (both databases)."""

from __future__ import annotations

import json

import httpx
import pytest

from games import BENCHMARK_GAMES

from .client import bearer, create, create_full, view

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def http(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as client:
        yield client


async def test_create_returns_the_invite_and_spectator_links(http, live):
    r = await http.post("/api/tables", json={"game": "bench_cards", "players": 2})
    assert r.status_code == 201
    body = r.json()
    assert body["status"] == "lobby" and body["version"] == 0
    assert body["invite_key"] != body["spectator_key"]
    assert len(body["id"]) >= 16 and len(body["invite_key"]) >= 22 and len(body["spectator_key"]) >= 22
    assert body["invite_url"].endswith(f"/t/{body['id']}/join?key={body['invite_key']}")
    assert body["spectator_url"].endswith(f"/t/{body['id']}/watch?key={body['spectator_key']}")
    assert [s["taken"] for s in body["seats"]] == [False, False]
    assert "seed" not in body and "state" not in body


@pytest.mark.parametrize("payload", [
    {"game": "no_such_game", "players": 2},
    {"game": "bench_cards", "players": 3},
    {"game": "bench_cards", "players": "2"},
    {"game": "bench_cards", "players": 2, "options": {"nope": 1}},
    {"players": 2},
])
async def test_create_refuses_bad_input_with_400(http, payload):
    r = await http.post("/api/tables", json=payload)
    assert r.status_code == 400
    assert set(r.json()) == {"error"}


async def test_malformed_json_is_400(http):
    r = await http.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "error" in r.json()


async def test_unknown_table_is_404_everywhere(http):
    assert (await http.get("/api/tables/nope")).status_code == 404
    assert (await http.get("/api/tables/nope/view", headers=bearer("x"))).status_code == 404
    assert (await http.get("/api/tables/nope/log", headers=bearer("x"))).status_code == 404
    assert (await http.post("/api/tables/nope/join", json={"invite": "x", "name": "A"})).status_code == 404
    assert (await http.post("/api/tables/nope/actions", headers=bearer("x"),
                            json={"version": 0, "action": {"type": "play", "index": 0}})).status_code == 404
    assert (await http.post("/api/tables/nope/leave", headers=bearer("x"))).status_code == 404


async def test_join_leave_and_start(http, live):
    table = await create(http)
    r = await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": "  Livia  "})
    assert r.status_code == 201
    first = r.json()
    assert first["seat"] == 0 and first["version"] == 1
    assert len(first["token"]) >= 32  # >= 128 bits from secrets
    assert first["seat_url"].endswith(f"/t/{table.id}/seat/{first['token']}")
    stored = live.row(table.id)
    assert first["token"] not in json.dumps(stored, default=str)  # only its hash is stored
    info = (await http.get(f"/api/tables/{table.id}")).json()
    assert info["seats"][0]["name"] == "Livia" and info["status"] == "lobby"

    # Leave before the start: the seat is free again.
    r = await http.post(f"/api/tables/{table.id}/leave", headers=bearer(first["token"]))
    assert r.status_code == 200 and r.json() == {"version": 2}
    assert (await http.get(f"/api/tables/{table.id}")).json()["seats"][0]["taken"] is False
    r = await http.post(f"/api/tables/{table.id}/leave", headers=bearer(first["token"]))
    assert r.status_code == 403

    # The game starts when every seat is taken.
    a = (await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": "A", "seat": 1})).json()
    assert a["seat"] == 1
    b = (await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": "B"})).json()
    assert b["seat"] == 0
    info = (await http.get(f"/api/tables/{table.id}")).json()
    assert info["status"] == "playing" and info["started_at"]
    current = (await view(http, table, a["token"]))
    assert current["view"]["game"]["seat"] == 1 and current["view"]["table"]["you"] == 1


async def test_join_errors_change_nothing(http, live):
    table = await create(http)
    ok = await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": "A"})
    before = live.row(table.id)
    cases = [
        ({"invite": "wrong", "name": "B"}, 403),
        ({"invite": table.spectate, "name": "B"}, 403),  # a spectator link is not an invitation
        ({"invite": table.invite, "name": ""}, 400),
        ({"invite": table.invite, "name": "x" * 41}, 400),
        ({"invite": table.invite, "name": "bad\u0007name"}, 400),
        ({"invite": table.invite, "name": "B", "seat": 0}, 409),
        ({"invite": table.invite, "name": "B", "seat": 5}, 400),
        ({"invite": table.invite}, 400),
    ]
    for payload, status in cases:
        r = await http.post(f"/api/tables/{table.id}/join", json=payload)
        assert r.status_code == status, (payload, r.text)
        assert set(r.json()) == {"error"}
        assert live.row(table.id) == before, payload
    await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": "B"})
    started = live.row(table.id)
    r = await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": "C"})
    assert r.status_code == 409
    r = await http.post(f"/api/tables/{table.id}/leave", headers=bearer(ok.json()["token"]))
    assert r.status_code == 409  # the game started
    assert live.row(table.id) == started


async def test_view_for_seats_and_spectators(http, live):
    table = await create_full(http)
    own = await view(http, table, table.tokens[0])
    assert own["version"] == 2
    assert own["view"]["game"]["hand"] is not None and own["view"]["table"]["you"] == 0
    spectator = await view(http, table, table.spectate)
    assert spectator["view"]["game"]["hand"] is None and spectator["view"]["table"]["you"] is None
    assert spectator["view"]["game"]["legal_actions"] == []
    by_query = await http.get(f"/api/tables/{table.id}/view", params={"spectate": table.spectate})
    assert by_query.json() == spectator
    assert (await http.get(f"/api/tables/{table.id}/view")).status_code == 403
    assert (await http.get(f"/api/tables/{table.id}/view", headers=bearer("nope"))).status_code == 403
    assert (await http.get(f"/api/tables/{table.id}/view", headers=bearer(table.invite))).status_code == 403
    other = await create_full(http)
    r = await http.get(f"/api/tables/{table.id}/view", headers=bearer(other.tokens[0]))
    assert r.status_code == 403  # a token of another table


async def test_actions_every_status_and_nothing_changes_on_errors(http, live):
    table = await create_full(http)
    url = f"/api/tables/{table.id}/actions"
    play = {"type": "play", "index": 0}
    before = live.row(table.id)

    async def refused(status, payload, token=table.tokens[0], **kw):
        r = await http.post(url, json=payload, headers=bearer(token) if token else {}, **kw)
        assert r.status_code == status, (payload, r.text)
        assert live.row(table.id) == before, payload
        return r.json()

    # 400: malformed input
    for payload in [{}, {"version": 2}, {"action": play}, {"version": "2", "action": play},
                    {"version": True, "action": play}, {"version": 2, "action": [1]},
                    {"version": 2, "action": {"index": 0}}, {"version": 2, "action": {"type": 5}},
                    {"version": -1, "action": play}]:
        body = await refused(400, payload)
        assert set(body) == {"error"}
    r = await http.post(url, content=b"[", headers={**bearer(table.tokens[0]), "content-type": "application/json"})
    assert r.status_code == 400 and live.row(table.id) == before
    # 403: no token, a bad token, the spectator key, the invite key, a seat that may not act now
    await refused(403, {"version": 2, "action": play}, token=None)
    await refused(403, {"version": 2, "action": play}, token="not-a-token")
    await refused(403, {"version": 2, "action": play}, token=table.spectate)
    await refused(403, {"version": 2, "action": play}, token=table.invite)
    body = await refused(403, {"version": 2, "action": play}, token=table.tokens[1])
    assert body == {"error": "It is not your turn to act."}
    # 422: the engine's sentence
    body = await refused(422, {"version": 2, "action": {"type": "play", "index": 7}})
    assert set(body) == {"error"} and body["error"]
    body = await refused(422, {"version": 2, "action": {"type": "draw"}})
    assert set(body) == {"error"}
    # 409: a stale version carries the caller's current view
    body = await refused(409, {"version": 1, "action": play})
    assert body["version"] == 2 and body["view"] == (await view(http, table, table.tokens[0]))["view"]
    body = await refused(409, {"version": 3, "action": play})
    assert body["version"] == 2
    # success, with the new version; the log grows by exactly one row
    r = await http.post(url, json={"version": 2, "action": play}, headers=bearer(table.tokens[0]))
    assert r.status_code == 200 and r.json() == {"version": 3}
    after = live.row(table.id)
    assert after["table"]["version"] == 3 and len(after["actions"]) == 1
    assert after["actions"][0][:2] == (3, 0)
    # 409 on a table that has not started
    lobby = await create(http)
    joined = (await http.post(f"/api/tables/{lobby.id}/join", json={"invite": lobby.invite, "name": "A"})).json()
    r = await http.post(f"/api/tables/{lobby.id}/actions", json={"version": 1, "action": play},
                        headers=bearer(joined["token"]))
    assert r.status_code == 409 and r.json()["view"]["game"] is None


async def test_finished_tables_stay_readable_and_refuse_actions(http, live):
    table = await create_full(http)
    version = 2
    for move in range(BENCHMARK_GAMES["bench_cards"].action_bound(2)):
        r = await http.post(f"/api/tables/{table.id}/actions", json={"version": version, "action": {
            "type": "play", "index": move % 5}}, headers=bearer(table.tokens[move % 2]))
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    info = (await http.get(f"/api/tables/{table.id}")).json()
    assert info["status"] == "finished" and info["finished_at"]
    final = await view(http, table, table.tokens[0])
    assert final["view"]["game"]["finished"] is True and final["view"]["game"]["outcome"]["scores"]
    before = live.row(table.id)
    r = await http.post(f"/api/tables/{table.id}/actions", json={"version": version, "action": {
        "type": "play", "index": 0}}, headers=bearer(table.tokens[0]))
    assert r.status_code == 409 and r.json()["error"] == "The game is over."
    assert live.row(table.id) == before
    # The log: everything once finished, with the seed, and it replays to the final view.
    log = (await http.get(f"/api/tables/{table.id}/log", params={"spectate": table.spectate})).json()
    assert len(log["actions"]) == 60 and log["seed"] == before["table"]["seed"]
    game = BENCHMARK_GAMES["bench_cards"]
    state = game.setup(log["players"], log["seed"], log["options"])
    for entry in log["actions"]:
        state = game.apply_marked(state, entry["seat"], entry["action"])
    assert game.view(state, 0) == final["view"]["game"]


async def test_log_during_play_shows_only_what_the_caller_may_see(http, live):
    table = await create_full(http)
    for version, seat in ((2, 0), (3, 1), (4, 0)):
        r = await http.post(f"/api/tables/{table.id}/actions", json={"version": version, "action": {
            "type": "play", "index": 1}}, headers=bearer(table.tokens[seat]))
        assert r.status_code == 200
    mine = (await http.get(f"/api/tables/{table.id}/log", headers=bearer(table.tokens[1]))).json()
    assert [a["version"] for a in mine["actions"]] == [4] and all(a["seat"] == 1 for a in mine["actions"])
    assert "seed" not in mine
    watching = (await http.get(f"/api/tables/{table.id}/log", headers=bearer(table.spectate))).json()
    assert watching["actions"] == [] and "seed" not in watching
    assert (await http.get(f"/api/tables/{table.id}/log")).status_code == 403
