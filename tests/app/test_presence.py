"""Presence you can trust (issue 18): a seat whose every tab is hidden is away, each seat remembers since
when it is as it is, and the other players may hand the seat of a player disconnected on their turn for a
while to a bot (settings.absent_seconds), which the player takes back by their personal link."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets
from sqlalchemy import text

from app.config import Settings
from tests.conftest import BACKENDS, fresh_database_url

from .client import Socket, create_full, view
from .conftest import LiveServer, running

# The seats' presence is dated to the second (up to a second early): a test that must act before the absence is
# long enough has this less a second, under the load of the whole suite.
ABSENT_SECONDS = 3.0


@pytest.fixture(scope="module", params=BACKENDS)
def server(request, postgres_server, tmp_path_factory) -> Iterator[LiveServer]:
    url = fresh_database_url(request.param, postgres_server, tmp_path_factory.mktemp("presence"), "presence")
    settings = Settings(database_url=url, benchmark=True, heartbeat=1.0, absent_seconds=ABSENT_SECONDS,
                        bot_delay=(30.0, 30.0))  # the bot that takes a seat over does not move during a test
    with running(request.param, settings) as live:
        yield live


def seats(server: LiveServer, table_id: str) -> list[tuple]:
    with server.db.connect() as conn:
        return [tuple(r) for r in conn.execute(text(
            "SELECT number, connected, away, presence_since, bot_level, bot_takeover FROM seats "
            "WHERE table_id = :id ORDER BY number"), {"id": table_id})]


async def until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.05)


async def page_socket(server: LiveServer, table_id: str, token: str):
    return await websockets.connect(f"{server.ws_base}/ws/tables/{table_id}/html",
                                    additional_headers={"Cookie": f"tabula_seat_{table_id}={token}"})


async def test_a_seat_whose_every_tab_is_hidden_is_away_and_back_when_one_is_shown(server):
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        table = await create_full(http)
        first = await page_socket(server, table.id, table.tokens[0])
        second = await page_socket(server, table.id, table.tokens[0])
        watcher = await Socket.open(server.ws_base, table.id, f"?spectate={table.spectate}")
        await watcher.until(lambda m: m["type"] == "presence" and m["connected"] == [0])
        await first.send('{"type":"away"}')
        await asyncio.sleep(0.3)
        assert seats(server, table.id)[0][1:3] == (True, False), "one tab still shown: not away"
        await second.send('{"type":"away"}')
        message = await watcher.until(lambda m: m["type"] == "presence" and m.get("away") == [0])
        assert message["connected"] == [0] and message["since"][0] is not None
        assert seats(server, table.id)[0][1:3] == (True, True)
        await first.send('{"type":"back"}')
        await watcher.until(lambda m: m["type"] == "presence" and m.get("away") == [])
        await first.close()
        await second.close()
        message = await watcher.until(lambda m: m["type"] == "presence" and m["connected"] == [])
        assert message["since"][0] is not None, "since when it is disconnected"
        await watcher.close()


async def test_the_table_page_shows_connected_away_and_disconnected(server):
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        table = await create_full(http)
        async with seat_http(server, table.id, table.tokens[0]) as browser:
            page = (await browser.get(f"/t/{table.id}")).text
        assert 'class="presence off"' in page
        sock = await page_socket(server, table.id, table.tokens[1])
        await until(lambda: seats(server, table.id)[1][1])
        await sock.send('{"type":"away"}')
        await until(lambda: seats(server, table.id)[1][2])
        async with seat_http(server, table.id, table.tokens[0]) as browser:
            page = (await browser.get(f"/t/{table.id}")).text
        assert 'class="presence away"' in page and "away (another tab)" in page and "data-since=" in page
        async with seat_http(server, table.id, table.tokens[0], **{"Accept-Language": "fr-FR"}) as browser:
            fr = (await browser.get(f"/t/{table.id}")).text
        assert "absent (autre onglet)" in fr
        await sock.close()


def seat_http(server: LiveServer, table_id: str, token: str | None, **headers: str) -> httpx.AsyncClient:
    """A browser of the seat holding `token` (its page's cookie)."""
    return httpx.AsyncClient(base_url=server.base, timeout=20, headers=headers,
                             cookies={f"tabula_seat_{table_id}": token} if token else {})


ROADS = {"page": 303, "api": 200}  # where a proposal is sent, and its answer when it is taken


async def propose(server: LiveServer, table_id: str, token: str | None, seat: int, road: str) -> httpx.Response:
    """A proposal by the page's form (the seat cookie) or the JSON API (the seat token as bearer)."""
    if road == "page":
        async with seat_http(server, table_id, token) as browser:
            return await browser.post(f"/t/{table_id}/seats/{seat}/bot", follow_redirects=False)
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        return await http.post(f"/api/tables/{table_id}/seats/{seat}/bot",
                               headers={"Authorization": f"Bearer {token}"} if token else {})


@pytest.mark.parametrize("road", list(ROADS))
async def test_a_bot_may_take_the_seat_of_a_player_disconnected_on_their_turn_only_after_a_while(server, road):
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        table = await create_full(http)
        to_act = (await view(http, table, table.tokens[0]))["view"]["game"]["to_act"]
        assert len(to_act) == 1
        absent = to_act[0]
        other = 1 - absent
        sock = await Socket.open(server.ws_base, table.id, f"?token={table.tokens[absent]}")
        await until(lambda: seats(server, table.id)[absent][1])
        form = f'action="/t/{table.id}/seats/{absent}/bot"'
        async with seat_http(server, table.id, table.tokens[other]) as browser:
            assert form not in (await browser.get(f"/t/{table.id}")).text, "connected: no bot is offered"
        before = server.row(table.id)
        refusals = [
            (await propose(server, table.id, table.tokens[other], absent, road), 409),  # connected
            (await propose(server, table.id, table.tokens[other], other, road), 403),  # one's own seat
            (await propose(server, table.id, None, absent, road), 403),  # no seat
            (await propose(server, table.id, table.spectate, absent, road), 403),  # a spectator
            (await propose(server, table.id, table.tokens[other], 7, road), 404),  # no such seat
            (await propose(server, table.id, table.tokens[absent], other, road), 409),  # not the seat waited for
        ]
        await sock.close()
        await until(lambda: not seats(server, table.id)[absent][1])
        async with seat_http(server, table.id, table.tokens[other]) as browser:
            assert form in (await browser.get(f"/t/{table.id}")).text, "the others are offered a bot"
        refusals.append((await propose(server, table.id, table.tokens[other], absent, road), 409))  # not long enough
        for response, status in refusals:
            assert response.status_code == status, response.text
        assert server.row(table.id) == before, "a refused proposal changed nothing"
        await asyncio.sleep(ABSENT_SECONDS + 0.2)
        done = await propose(server, table.id, table.tokens[other], absent, road)
        assert done.status_code == ROADS[road], done.text
        if road == "api":
            assert done.json() == {"version": before["table"]["version"] + 1, "bot": "strong"}
        assert seats(server, table.id)[absent][4:] == ("strong", True)
        assert server.row(table.id)["table"]["version"] == before["table"]["version"] + 1
        again = await propose(server, table.id, table.tokens[other], absent, road)
        assert again.status_code == 409, "a bot plays it already"
        # the player comes back by their personal link and has the seat again
        back = await http.get(f"/t/{table.id}/seat/{table.tokens[absent]}", follow_redirects=False)
        assert back.status_code == 303
        assert seats(server, table.id)[absent][4:] == (None, False)
