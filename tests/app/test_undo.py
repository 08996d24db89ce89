"""Undo over every road (RULES 0.6): it is an action like any other, by HTTP, the JSON websocket and the page's
plain form; a stale undo is a 409 and a disallowed one a 422, and neither changes anything; an undo that was
acknowledged survives a SIGKILL of the server. The game is Alea Iacta Est, whose placements wait for the dice
to be passed (RULES 3.3.5), so that a table's first move can always be taken back."""

from __future__ import annotations

import html
import json
import re

import httpx
import pytest

from app.services.tables import replay_problem
from games import ALL_GAMES

from tests.conftest import BACKENDS, fresh_database_url

from .client import Socket, bearer, create, create_full, view
from .conftest import ServerProcess
from .test_processes import stored

pytestmark = pytest.mark.asyncio
GAME = ALL_GAMES["alea_iacta_est"]
UNDO = {"type": "undo"}


def without_log(game_view: dict) -> dict:
    return {k: v for k, v in game_view.items() if k != "log"}


async def place_in_forum(http: httpx.AsyncClient, table) -> tuple[int, int, dict]:
    """The seat to act places one die in the Forum: (seat, version after, that seat's game view before)."""
    seat = (await view(http, table, table.tokens[0]))["view"]["game"]["to_act"][0]
    before = await view(http, table, table.tokens[seat])
    action = next(a for a in before["view"]["game"]["legal_actions"]
                  if a["type"] == "place" and a["building"] == "forum")
    r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                        json={"version": before["version"], "action": action})
    assert r.status_code == 200, r.text
    return seat, r.json()["version"], before["view"]["game"]


async def test_undo_over_http_restores_the_view_and_a_stale_or_disallowed_undo_changes_nothing(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http, "alea_iacta_est", 2)
        seat, version, before = await place_in_forum(http, table)
        placed = (await view(http, table, table.tokens[seat]))["view"]["game"]
        assert placed["legal_actions"] == [{"type": "end_turn"}, UNDO] and placed["confirm"] == [None, None]
        other = 1 - seat
        # Not the other seat's move to take back, and not with a stale version.
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[other]),
                            json={"version": version, "action": UNDO})
        assert r.status_code == 403
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                            json={"version": version - 1, "action": UNDO})
        assert r.status_code == 409 and r.json()["version"] == version
        assert (await view(http, table, table.tokens[seat]))["version"] == version
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                            json={"version": version, "action": UNDO})
        assert r.status_code == 200 and r.json()["version"] == version + 1
        for s in (seat, other):
            now = (await view(http, table, table.tokens[s]))["view"]["game"]
            was = before if s == seat else None
            if was is not None:
                assert without_log(now) == without_log(was)
            assert now["log"][-1] == {"key": "core.undo", "args": {"seat": seat}, "by": seat}
        log = (await http.get(f"/api/tables/{table.id}/log", headers=bearer(table.tokens[seat]))).json()
        assert "undo" in json.dumps(log)
        # Nothing left to take back: the rules refuse it, and the table stays where it was.
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                            json={"version": version + 1, "action": UNDO})
        assert r.status_code == 422 and "take back" in r.json()["error"]
        assert (await view(http, table, table.tokens[seat]))["version"] == version + 1


async def test_undo_over_the_json_websocket(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http, "alea_iacta_est", 2)
        seat, version, before = await place_in_forum(http, table)
        sock = await Socket.open(live.base.replace("http", "ws"), table.id, f"?token={table.tokens[seat]}")
        watcher = await Socket.open(live.base.replace("http", "ws"), table.id, f"?spectate={table.spectate}")
        for s in (sock, watcher):
            await s.until(lambda m: m["type"] == "full")
        assert sock.view["game"]["legal_actions"][-1] == UNDO
        await sock.send({"type": "act", "id": "u1", "version": version, "action": UNDO})
        assert (await sock.reply("u1"))["type"] == "ack"
        for s in (sock, watcher):
            await s.at_version(version + 1)
            assert s.view["game"]["log"][-1]["key"] == "core.undo"
        assert without_log(sock.view["game"]) == without_log(before)
        await sock.send({"type": "act", "id": "u2", "version": version + 1, "action": UNDO})
        refused = await sock.reply("u2")
        assert refused["type"] == "error" and refused["status"] == 422
        for s in (sock, watcher):
            await s.close()


async def test_undo_with_the_page_form(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http, "alea_iacta_est", 2)
        seat, version, before = await place_in_forum(http, table)
        seat_url = f"/t/{table.id}/seat/{table.tokens[seat]}"
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as device:
        assert (await device.get(seat_url)).status_code == 303
        page = (await device.get(f"/t/{table.id}")).text
        actions = [json.loads(html.unescape(a)) for a in re.findall(r'name="action" value="([^"]+)"', page)]
        assert UNDO in actions and "Take back your last move" in page
        r = await device.post(f"/t/{table.id}/act", data={"version": str(version), "action": json.dumps(UNDO)})
        assert r.status_code == 303
        got = (await device.get(f"/api/tables/{table.id}")).json()["version"]
        assert got == version + 1


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_acknowledged_undo_survives_a_sigkill(backend, postgres_server, processes, tmp_path):
    url = fresh_database_url(backend, postgres_server, tmp_path, "undo_kill")
    server = ServerProcess(url, tmp_path).start().wait_ready()
    processes.append(server)
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        table = await create_full(http, "alea_iacta_est", 2)
        seat, version, before = await place_in_forum(http, table)
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                            json={"version": version, "action": UNDO})
        assert r.status_code == 200
    server.kill()
    row, actions = stored(url, table.id)
    assert row.version == version + 1 and json.loads(actions[-1][2]) == UNDO
    assert replay_problem(ALL_GAMES, row, actions) is None
    state = GAME.decode(row.state)
    assert without_log(GAME.view(state, seat)) == without_log(before) and "undo" not in state
    restarted = ServerProcess(url, tmp_path, port=server.port).start().wait_ready()
    processes.append(restarted)
    async with httpx.AsyncClient(base_url=restarted.base, timeout=20) as http:
        after = await view(http, table, table.tokens[seat])
        assert after["version"] == version + 1 and without_log(after["view"]["game"]) == without_log(before)


async def test_a_step_that_may_be_taken_back_and_its_undo_keep_the_turn_clock(live):
    """With a turn timer, placing and taking back in a loop must not hold the table forever: a step that may be
    taken back and the undo keep the deadline; passing the dice starts the next player's."""
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create(http, "alea_iacta_est", 2, turn_seconds=600)
        for n in range(2):
            r = await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": f"P{n}"})
            table.tokens.append(r.json()["token"])

        async def deadline() -> str:
            return (await http.get(f"/api/tables/{table.id}")).json()["deadline"]

        started = await deadline()
        seat, version, _before = await place_in_forum(http, table)
        assert await deadline() == started
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                            json={"version": version, "action": UNDO})
        assert r.status_code == 200 and await deadline() == started
        seat, version, _before = await place_in_forum(http, table)
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                            json={"version": version, "action": {"type": "end_turn"}})
        assert r.status_code == 200 and await deadline() > started
