"""The rematch (app/services/rematch.py): a new table of the same game, player count and options, a fresh seed,
the seats turned by one so that another player starts, each player who accepts seated there with a new token;
bots stay bots; the old table links to the new one once, however many ask at the same time."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from sqlalchemy import text

from games import REGISTRY
from games.core import rng
from games.core.conformance import pick

from .client import bearer, create_full, play_random
from .hardening import edge_server

@pytest.mark.asyncio
async def test_rematch_seats_every_accepting_player_at_one_new_table_turned_by_one(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=30) as http:
        table = await create_full(http, "cesar_cleopatre", 2)
        url = f"/api/tables/{table.id}/rematch"
        assert (await http.post(url, headers=bearer(table.tokens[0]))).status_code == 409  # still playing
        await play_random(live, http, table, REGISTRY["cesar_cleopatre"])
        assert (await http.post(url, headers=bearer(table.spectate))).status_code == 403
        assert (await http.post(url)).status_code == 403
        assert (await http.post("/api/tables/nosuchtable/rematch", headers=bearer(table.tokens[0]))).status_code == 404
        assert (await http.get(url)).status_code == 404  # no rematch yet
        # Both players ask at the same time: one table, each in the seat after theirs.
        answers = await asyncio.gather(*(http.post(url, headers=bearer(t)) for t in table.tokens))
        assert [a.status_code for a in answers] == [201, 201], [a.text for a in answers]
        seated = [a.json() for a in answers]
        assert seated[0]["table"] == seated[1]["table"] != table.id
        assert [s["seat"] for s in seated] == [1, 0]
        new = (await http.get(f"/api/tables/{seated[0]['table']}")).json()
        assert new["status"] == "playing" and new["game"] == "cesar_cleopatre"
        assert [s["name"] for s in new["seats"]] == ["P1", "P0"]
        assert live.row(new["id"])["table"]["seed"] != live.row(table.id)["table"]["seed"]
        for s in seated:  # the new tokens open the new seats; the old ones do not
            view = (await http.get(f"/api/tables/{s['table']}/view", headers=bearer(s["token"]))).json()
            assert view["view"]["table"]["you"] == s["seat"]
        assert (await http.get(f"/api/tables/{new['id']}/view", headers=bearer(table.tokens[0]))).status_code == 403
        again = await http.post(url, headers=bearer(table.tokens[0]))
        assert again.status_code == 409, again.text
        with live.db.connect() as conn:
            linked = conn.execute(text("SELECT rematch_id FROM tables WHERE id = :id"), {"id": table.id}).scalar()
        assert linked == new["id"]
        assert (await http.get(url)).json() == {"table": new["id"]}  # the old table links to the new one


@pytest.mark.asyncio
async def test_a_seat_nobody_took_waits_behind_the_invite_link(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=30) as http:
        table = await create_full(http, "cesar_cleopatre", 2)
        await play_random(live, http, table, REGISTRY["cesar_cleopatre"])
        r = await http.post(f"/api/tables/{table.id}/rematch", headers=bearer(table.tokens[1]))
        assert r.status_code == 201, r.text
        assert r.json()["seat"] == 0
        new = (await http.get(f"/api/tables/{r.json()['table']}")).json()
        assert new["status"] == "lobby" and [s["taken"] for s in new["seats"]] == [True, False]
        with live.db.connect() as conn:
            invite = conn.execute(text("SELECT invite_key FROM tables WHERE id = :id"), {"id": new["id"]}).scalar()
        joined = await http.post(f"/api/tables/{new['id']}/join", json={"invite": invite, "name": "Newcomer"})
        assert joined.status_code == 201 and joined.json()["seat"] == 1


@pytest.mark.asyncio
async def test_the_rematch_keeps_the_table_settings(live):
    settings = {"spectators_allowed": False, "spectator_delay": 2, "private": True, "turn_timer": 90}
    async with httpx.AsyncClient(base_url=live.base, timeout=30) as http:
        table = await create_full(http, "cesar_cleopatre", 2, **settings)
        await play_random(live, http, table, REGISTRY["cesar_cleopatre"])
        r = await http.post(f"/api/tables/{table.id}/rematch", headers=bearer(table.tokens[0]))
        assert r.status_code == 201, r.text
        new = (await http.get(f"/api/tables/{r.json()['table']}")).json()
        assert {key: new[key] for key in settings} == settings


def test_bots_stay_bots_in_their_turned_seats(tmp_path):
    with edge_server(tmp_path, bot_delay=(0.0, 0.0), bot_workers=0, rate_limits=False) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        r = http.post("/api/tables", json={"game": "cesar_cleopatre", "players": 2, "bots": {"1": "novice"}})
        table_id, invite = r.json()["id"], r.json()["invite_key"]
        token = http.post(f"/api/tables/{table_id}/join", json={"invite": invite, "name": "Livia"}).json()["token"]
        game = REGISTRY["cesar_cleopatre"]
        holder = {"rng": rng.seed_state(5)}
        deadline = time.monotonic() + 120
        while True:
            body = http.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()
            if body["view"]["game"]["finished"]:
                break
            assert time.monotonic() < deadline, "the game did not end"
            if 0 in body["view"]["game"]["to_act"]:
                action = pick(holder, body["view"]["game"]["legal_actions"])
                http.post(f"/api/tables/{table_id}/actions", headers=bearer(token),
                          json={"version": body["version"], "action": action})
            else:
                time.sleep(0.02)
        seated = http.post(f"/api/tables/{table_id}/rematch", headers=bearer(token)).json()
        assert seated["seat"] == 1
        new = http.get(f"/api/tables/{seated['table']}").json()
        assert [s["bot"] for s in new["seats"]] == ["novice", None]
        assert new["status"] == "playing"  # the bot's seat and the player's: nobody to wait for


