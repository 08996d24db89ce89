"""The turn timer and bots taking a seat over (app/services/timers.py, bots.py): the deadline moves with
each committed version, a seat whose time runs out or whose player leaves is played by a bot (marked in
every view) until its player takes it back, and timers and bots survive a server restart (a real uvicorn
process killed and started again). Both databases."""

from __future__ import annotations

import asyncio
import io
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import httpx
import pytest

from app.cli import replay_check
from app.config import Settings
from app.db import make_sync_engine
from app.services.timers import turn_deadline, turn_seconds
from games import ALL_GAMES

from .client import Socket, bearer
from .conftest import ServerProcess
from .test_bots_at_tables import assert_replays, bots_live, create, http, join, stored  # noqa: F401 (fixtures)
from tests.conftest import BACKENDS, fresh_database_url

BENCH = ALL_GAMES["bench_cards"]  # two seats that alternate, sixty moves


def test_the_deadline_runs_only_while_a_person_is_to_act():
    at = datetime(2026, 1, 1, tzinfo=timezone.utc)
    assert turn_deadline(None, [None, None], {0}, at) is None  # no timer
    assert turn_deadline(30, [None, None], {1}, at) == at + timedelta(seconds=30)
    assert turn_deadline(30, [None, "novice"], {1}, at) is None  # only a bot is to act
    assert turn_deadline(30, [None, "novice"], {0, 1}, at) == at + timedelta(seconds=30)  # a window counts
    assert turn_deadline(30, [None, None], set(), at) is None  # the game is over
    assert turn_seconds(2, None) == 120 and turn_seconds(None, 5) == 5 and turn_seconds() is None
    with pytest.raises(ValueError):
        turn_seconds(1, 1)


async def seat_view(http: httpx.AsyncClient, table_id: str, token: str) -> dict:
    r = await http.get(f"/api/tables/{table_id}/view", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


async def until(predicate, timeout: float = 20.0, every: float = 0.05):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        assert loop.time() < end, "timed out waiting"
        await asyncio.sleep(every)


async def test_deadline_moves_with_each_committed_version(http, bots_live):
    table = await create(http, "bench_cards", 2, turn_seconds=600)
    a, b = await join(http, table, "A"), await join(http, table, "B")
    first = await seat_view(http, table["id"], a["token"])
    assert first["view"]["table"]["turn_timer"] == 600
    started = datetime.fromisoformat(first["view"]["table"]["deadline"])
    now = datetime.now(timezone.utc)
    assert now + timedelta(seconds=590) < started <= now + timedelta(seconds=600)
    r = await http.post(f"/api/tables/{table['id']}/actions", headers=bearer(a["token"]),
                        json={"version": first["version"], "action": {"type": "play", "index": 0}})
    assert r.status_code == 200
    second = await seat_view(http, table["id"], b["token"])
    moved = datetime.fromisoformat(second["view"]["table"]["deadline"])
    assert moved > started
    # Every view and the public facts show the same deadline; the database holds it.
    spectator = await seat_view(http, table["id"], table["spectator_key"])
    assert spectator["view"]["table"]["deadline"] == second["view"]["table"]["deadline"]
    assert (await http.get(f"/api/tables/{table['id']}")).json()["deadline"] == second["view"]["table"]["deadline"]


async def test_timed_out_seat_is_taken_over_and_handed_back(http, bots_live):
    table = await create(http, "bench_cards", 2, turn_seconds=2)
    a, b = await join(http, table, "A"), await join(http, table, "B")
    assert BENCH.to_act(BENCH.decode(stored(bots_live, table["id"])["row"].state)) == {0}
    watcher = await Socket.open(bots_live.ws_base, table["id"], f"?spectate={table['spectator_key']}", "spectator")
    await watcher.until(lambda m: m["type"] == "full")
    # Seat 0 does nothing: when its second is up, a bot takes the seat over and plays its move.
    await watcher.until(lambda m: watcher.view["table"]["seats"][0].get("takeover"), timeout=10)
    assert watcher.view["table"]["seats"][0] == {"number": 0, "name": "A", "bot": "novice", "takeover": True}
    await watcher.until(lambda m: watcher.view["game"]["to_act"] == [1], timeout=10)
    mine = await seat_view(http, table["id"], a["token"])
    assert mine["view"]["table"]["seats"][0]["takeover"] is True  # marked in every view, its own too
    data = stored(bots_live, table["id"])
    assert [(c.seat, c.kind, c.reason, c.level) for c in data["changes"]] == [(0, "takeover", "timeout", "novice")]
    assert [a_.seat for a_ in data["actions"]] == [0]

    # Seat 1 plays on (just in time); the bot answers for seat 0 at once, with no deadline for a bot.
    for _ in range(3):
        view = await seat_view(http, table["id"], b["token"])
        r = await http.post(f"/api/tables/{table['id']}/actions", headers=bearer(b["token"]),
                            json={"version": view["version"], "action": {"type": "play", "index": 0}})
        assert r.status_code == 200, r.text
        # The bot's answer is a later version (a message of an earlier one may show seat 1 to act too).
        await watcher.until(lambda m: watcher.version > r.json()["version"] and watcher.view["game"]["to_act"] == [1],
                            timeout=10)
    assert [a_.seat for a_ in stored(bots_live, table["id"])["actions"]] == [0, 1, 0, 1, 0, 1, 0]

    # A comes back through the seat token: the seat is theirs again, and it is theirs to play.
    r = await http.post(f"/api/tables/{table['id']}/seat/reclaim", headers=bearer(a["token"]))
    assert r.status_code == 200 and r.json()["reclaimed"] is True
    r2 = await http.post(f"/api/tables/{table['id']}/seat/reclaim", headers=bearer(a["token"]))
    assert r2.json() == {"version": r.json()["version"], "reclaimed": False}  # once is enough
    await watcher.at_version(r.json()["version"])
    assert watcher.view["table"]["seats"][0] == {"number": 0, "name": "A"}
    view = await seat_view(http, table["id"], b["token"])
    r = await http.post(f"/api/tables/{table['id']}/actions", headers=bearer(b["token"]),
                        json={"version": view["version"], "action": {"type": "play", "index": 0}})
    assert r.status_code == 200
    view = await seat_view(http, table["id"], a["token"])
    assert view["view"]["game"]["to_act"] == [0] and view["view"]["table"]["deadline"]
    r = await http.post(f"/api/tables/{table['id']}/actions", headers=bearer(a["token"]),
                        json={"version": view["version"], "action": {"type": "play", "index": 1}})
    assert r.status_code == 200, r.text  # A's own move, well within the second
    data = assert_replays(bots_live, table["id"])
    assert [(c.seat, c.kind, c.reason) for c in data["changes"]] == [(0, "takeover", "timeout"),
                                                                    (0, "reclaim", "returned")]
    out = io.StringIO()  # the admin's replay check counts seat changes as versions too
    assert await replay_check(bots_live.settings, [table["id"]], out) == 0, out.getvalue()
    # A spectator or a stranger cannot take a seat back.
    assert (await http.post(f"/api/tables/{table['id']}/seat/reclaim",
                            headers=bearer(table["spectator_key"]))).status_code == 403
    assert (await http.post(f"/api/tables/{table['id']}/seat/reclaim", headers=bearer("nope"))).status_code == 403
    await watcher.close()


async def test_a_player_who_leaves_a_started_game_is_replaced_by_a_bot(http, bots_live):
    # Before the start, leaving frees the seat.
    lobby = await create(http, "bench_cards", 2)
    first = await join(http, lobby, "A")
    r = await http.post(f"/api/tables/{lobby['id']}/seat/leave", headers=bearer(first["token"]))
    assert r.status_code == 200 and r.json()["bot"] is None
    assert (await http.get(f"/api/tables/{lobby['id']}")).json()["seats"][0]["taken"] is False

    table = await create(http, "bench_cards", 2)  # no timer: only leaving hands the seat over
    a, b = await join(http, table, "A"), await join(http, table, "B")
    r = await http.post(f"/api/tables/{table['id']}/seat/leave", headers=bearer(b["token"]))
    assert r.status_code == 200 and r.json()["bot"] == "novice"
    view = await seat_view(http, table["id"], a["token"])
    assert view["view"]["table"]["seats"][1] == {"number": 1, "name": "B", "bot": "novice", "takeover": True}
    # A plays the whole game against the bot that took B's seat.
    version = view["version"]
    for move in range(BENCH.action_bound(2) // 2):
        r = await http.post(f"/api/tables/{table['id']}/actions", headers=bearer(a["token"]),
                            json={"version": version, "action": {"type": "play", "index": 0}})
        assert r.status_code == 200, r.text

        async def bot_moved():
            v = await seat_view(http, table["id"], a["token"])
            return v if v["view"]["game"]["finished"] or v["view"]["game"]["to_act"] == [0] else None

        version = (await until(bot_moved))["version"]
    data = assert_replays(bots_live, table["id"])
    assert data["row"].status == "finished"
    assert [(c.seat, c.reason) for c in data["changes"]] == [(1, "left")]
    # After the end, leaving and taking back change nothing.
    r = await http.post(f"/api/tables/{table['id']}/seat/leave", headers=bearer(a["token"]))
    assert r.status_code == 409
    r = await http.post(f"/api/tables/{table['id']}/seat/reclaim", headers=bearer(b["token"]))
    assert r.status_code == 200 and r.json()["reclaimed"] is False


# ------------------------------------------------------------------------------------------ restart


@pytest.mark.parametrize("backend", BACKENDS)
async def test_timer_and_bots_survive_a_server_restart(backend, postgres_server, processes, tmp_path, monkeypatch):
    """A deadline that expires while no server runs is handled when a server starts again, and a bots-only
    table that was cut short by a SIGKILL goes on to the end (bots decide in a worker process here)."""
    for name, value in {"TABULA_BOT_DELAY": "0.05", "TABULA_TAKEOVER_LEVEL": "novice",
                        "TABULA_TIMER_INTERVAL": "0.2", "TABULA_BOT_WORKERS": "1",
                        "TABULA_BOT_ITERATIONS": "8", "TABULA_BOT_SECONDS": "none"}.items():
        monkeypatch.setenv(name, value)
    url = fresh_database_url(backend, postgres_server, tmp_path, "restart")
    server = ServerProcess(url, tmp_path).start().wait_ready()
    processes.append(server)
    async with httpx.AsyncClient(base_url=server.base, timeout=20) as http:
        demo = await create(http, "bench_cards", 2, bots=["novice", "strong"])

        async def demo_under_way():
            return (await http.get(f"/api/tables/{demo['id']}")).json()["version"] >= 5

        await until(demo_under_way)
        timed = await create(http, "bench_cards", 2, turn_seconds=2)
        a = await join(http, timed, "A")
        await join(http, timed, "B")
        info = (await http.get(f"/api/tables/{timed['id']}")).json()
        started, deadline = info["version"], datetime.fromisoformat(info["deadline"])
    server.kill()  # nobody is there when A's two seconds run out
    database = SimpleNamespace(db=make_sync_engine(Settings(database_url=url)))  # as the killed server left it
    try:
        killed_at = stored(database, demo["id"])["row"]
        assert killed_at.status == "playing", "the demo game ended before the kill: make it longer"
        assert stored(database, timed["id"])["row"].version == started  # no takeover before the kill
        await asyncio.sleep((deadline - datetime.now(timezone.utc)).total_seconds() + 0.3)

        restarted = ServerProcess(url, tmp_path, port=server.port).start().wait_ready()
        processes.append(restarted)
        async with httpx.AsyncClient(base_url=restarted.base, timeout=20) as http:
            async def taken_over():
                info = (await http.get(f"/api/tables/{timed['id']}")).json()
                return info if info["seats"][0]["takeover"] else None

            info = await until(taken_over)
            assert info["seats"][0]["bot"] == "novice"

            async def bot_played():
                return [x.seat for x in stored(database, timed["id"])["actions"]] == [0]

            await until(bot_played)

            async def demo_finished():
                return (await http.get(f"/api/tables/{demo['id']}")).json()["status"] == "finished"

            await until(demo_finished, timeout=60)
            r = await http.post(f"/api/tables/{timed['id']}/seat/reclaim", headers=bearer(a["token"]))
            assert r.status_code == 200 and r.json()["reclaimed"] is True
        assert_replays(database, timed["id"])
        demo_data = assert_replays(database, demo["id"])
        assert killed_at.version < demo_data["row"].version == BENCH.action_bound(2)
    finally:
        database.db.dispose()
