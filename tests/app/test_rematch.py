"""The rematch (app/services/rematch.py): a new table of the same game, player count and options, a fresh seed,
the seats turned by one so that another player starts, each player who accepts seated there with a new token;
bots stay bots; the old table links to the new one once, however many ask at the same time."""

from __future__ import annotations

import asyncio
import re
import time
from urllib.parse import quote

import httpx
import pytest
import websockets
from sqlalchemy import text

from games import REGISTRY
from games.core import rng
from games.core.conformance import pick

from tests.site.live_page import live_part, swap

from .client import Socket, bearer, create_full, play_random
from .conftest import ServerProcess
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


@pytest.mark.asyncio
async def test_the_json_sockets_of_a_finished_table_are_told_of_its_rematch(live):
    """A client on the JSON socket learns of the rematch as the end screens do: live when a player starts it
    (through the API here), and on connect once it exists."""
    async with httpx.AsyncClient(base_url=live.base, timeout=30) as http:
        table = await create_full(http, "cesar_cleopatre", 2)
        await play_random(live, http, table, REGISTRY["cesar_cleopatre"])
        sockets = [await Socket.open(live.ws_base, table.id, f"?token={table.tokens[1]}", "player"),
                   await Socket.open(live.ws_base, table.id, f"?spectate={table.spectate}", "spectator")]
        try:
            for sock in sockets:
                await sock.until(lambda m: m["type"] == "full")
            r = await http.post(f"/api/tables/{table.id}/rematch", headers=bearer(table.tokens[0]))
            assert r.status_code == 201, r.text
            told = {"type": "rematch", "table": r.json()["table"]}
            for sock in sockets:
                assert await sock.until(lambda m: m["type"] == "rematch") == told
            sockets.append(await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}", "late"))
            assert await sockets[-1].until(lambda m: m["type"] == "rematch") == told
        finally:
            for sock in sockets:
                await sock.ws.close()


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




def cookie_header(cookies: dict[str, str]) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}


async def page_socket(base: str, page: str, cookies: dict[str, str]):
    """The page's socket as its page opens it (its ws-connect address), on the server at `base`."""
    url = re.search(r'ws-connect="([^"]+)"', page).group(1).replace("&amp;", "&")
    return await websockets.connect(base.replace("http", "ws") + url, open_timeout=20,
                                    additional_headers=cookie_header(cookies))


@pytest.mark.asyncio
async def test_a_rematch_started_on_one_process_reaches_the_end_screens_open_on_another(postgres_server, processes,
                                                                                       tmp_path):
    url = postgres_server.create_database("rematch_two")
    a, b = ServerProcess(url, tmp_path).start(), ServerProcess(url, tmp_path).start()
    processes += [a, b]
    a.wait_ready()
    b.wait_ready()
    async with httpx.AsyncClient(base_url=a.base, timeout=20) as on_a, \
            httpx.AsyncClient(base_url=b.base, timeout=20) as on_b:
        table = await create_full(on_a, "cesar_cleopatre", 2)
        while (view := (await on_a.get(f"/api/tables/{table.id}/view", headers=bearer(table.tokens[0]))).json()
               )["view"]["table"]["status"] != "finished":
            for token in table.tokens:
                mine = (await on_a.get(f"/api/tables/{table.id}/view", headers=bearer(token))).json()
                legal = mine["view"]["game"]["legal_actions"]
                if legal:
                    r = await on_a.post(f"/api/tables/{table.id}/actions", headers=bearer(token),
                                        json={"version": mine["version"], "action": legal[0]})
                    assert r.status_code == 200, r.text
                    break
        player_cookie = {f"tabula_seat_{table.id}": table.tokens[1]}
        readers = {"player": ("/t/" + table.id, player_cookie, "Join the rematch"),
                   "spectator": (f"/t/{table.id}/watch?key={quote(table.spectate)}", {}, "Watch the rematch")}
        pages, sockets = {}, {}
        for name, (path, cookies, _words) in readers.items():
            pages[name] = (await on_b.get(path, headers=cookie_header(cookies))).text
            sockets[name] = await page_socket(b.base, pages[name], cookies)
        try:
            r = await on_a.post(f"/api/tables/{table.id}/rematch", headers=bearer(table.tokens[0]))
            assert r.status_code == 201, r.text
            for name, (path, cookies, words) in readers.items():
                # Messages come until the live page has the rematch and equals a reload (the presence of the
                # new sockets may come after the rematch); each within 20 s, or the test fails.
                for _ in range(20):
                    live = live_part(pages[name])
                    if words in live and live == live_part((await on_b.get(path, headers=cookie_header(cookies))).text):
                        break
                    pages[name] = swap(pages[name], await asyncio.wait_for(sockets[name].recv(), 20))
                else:
                    raise AssertionError(f"the {name}'s live page never got the rematch or never equalled a reload")
        finally:
            for sock in sockets.values():
                await sock.close()
