"""Bots at server tables (app/services/bots.py): bot seats when a table is created, bots playing to the
end beside a person driven by the test and on their own (a demo table spectators watch), bots answering
windows out of turn, the runner deciding only through Bot.choose on what its seat may know, runners of
several processes racing on one database, and decisions in a worker process. Both databases."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.config import Settings
from app.db import make_async_engine, make_sync_engine, migrate
from app.main import served_games
from app.services.bot_seats import seat_levels
from app.services.bots import BotRunner, bot_seed, decide
from app.services.errors import BadRequest
from app.services.tables import TablesService, replay_problem
from games import ALL_GAMES, REGISTRY
from games.core.bots import Budget, make_bot

from .client import Socket, bearer
from .conftest import LiveServer, ThreadServer, free_port
from tests.conftest import BACKENDS, fresh_database_url


# The server of these tests: bots act at once, decide in a thread, and the Strong bot has a small fixed
# budget (no time cap), so that its play is reproducible.
BUDGET = Budget(iterations=4, seconds=None)
PLAY_TIMEOUT = 90.0


@dataclass
class BotServer(LiveServer):
    app: Any = None

    @property
    def runner(self) -> BotRunner:
        return self.app.state.bots


def bot_settings(url: str, **changes: Any) -> Settings:
    values = dict(database_url=url, benchmark=True, heartbeat=1.0, bot_delay=(0.0, 0.0), bot_workers=0,
                  bot_seconds=BUDGET.seconds, bot_iterations=BUDGET.iterations, takeover_level="novice",
                  timer_interval=0.1, bot_sweep=0.5)
    values.update(changes)
    return Settings(**values)


@pytest.fixture(scope="module", params=BACKENDS)
def bots_live(request, postgres_server, tmp_path_factory) -> Iterator[BotServer]:
    """A real server (uvicorn, websockets, the bot runner and the turn timer) on each kind of database."""
    url = fresh_database_url(request.param, postgres_server, tmp_path_factory.mktemp("bots"), "bots")
    settings = bot_settings(url)
    server = ThreadServer(settings, free_port())
    server.start()
    db = make_sync_engine(settings)
    try:
        yield BotServer(request.param, settings, f"http://127.0.0.1:{server.server.config.port}", db,
                        app=server.server.config.app)
    finally:
        server.stop()
        db.dispose()


@pytest.fixture
async def http(bots_live) -> httpx.AsyncClient:
    async with httpx.AsyncClient(base_url=bots_live.base, timeout=30) as client:
        yield client


# ----------------------------------------------------------------------------------------- helpers


def stored(live: LiveServer, table_id: str) -> dict[str, Any]:
    """The table row, its action log and its seat changes, as stored."""
    with live.db.connect() as conn:
        row = conn.execute(text("SELECT game, players, options, seed, status, version, state FROM tables"
                                " WHERE id = :id"), {"id": table_id}).first()
        actions = conn.execute(text("SELECT version, seat, action FROM actions WHERE table_id = :id"
                                    " ORDER BY version"), {"id": table_id}).all()
        changes = conn.execute(text("SELECT version, seat, kind, reason, level FROM seat_changes"
                                    " WHERE table_id = :id ORDER BY version, seat"), {"id": table_id}).all()
    return {"row": row, "actions": actions, "changes": changes}


def assert_replays(live: LiveServer, table_id: str) -> dict[str, Any]:
    """Log plus snapshot, checked against each other (seat changes are versions too)."""
    data = stored(live, table_id)
    assert replay_problem(ALL_GAMES, data["row"], data["actions"], [c.version for c in data["changes"]]) is None
    versions = sorted([a.version for a in data["actions"]] + list({c.version for c in data["changes"]}))
    assert versions == list(range(versions[0], data["row"].version + 1)), "every version is logged once"
    return data


def states_before(game, row, actions) -> Iterator[tuple[Any, dict[str, Any], Any]]:
    """(logged action, the state it was decided from, the version it was decided at) along the log."""
    options = row.options if isinstance(row.options, dict) else json.loads(row.options)
    state = game.setup(row.players, row.seed, options)
    for entry in actions:
        yield entry, state, entry.version - 1
        state = game.apply_marked(state, entry.seat, json.loads(entry.action))


async def create(http: httpx.AsyncClient, game: str, players: int, **extra: Any) -> dict[str, Any]:
    r = await http.post("/api/tables", json={"game": game, "players": players, **extra})
    assert r.status_code == 201, r.text
    return r.json()


async def join(http: httpx.AsyncClient, table: dict[str, Any], name: str, seat: int | None = None) -> dict[str, Any]:
    body = {"invite": table["invite_key"], "name": name}
    if seat is not None:
        body["seat"] = seat
    r = await http.post(f"/api/tables/{table['id']}/join", json=body)
    assert r.status_code == 201, r.text
    return r.json()


async def play_person(live: LiveServer, http: httpx.AsyncClient, table_id: str, token: str,
                      rnd: random.Random, timeout: float = PLAY_TIMEOUT) -> tuple[Socket, int]:
    """Plays one seat as a person would, from its live view only: whenever the view offers legal actions,
    one of them at random, until the game is over. Returns the seat's socket and how many moves it made."""
    sock = await Socket.open(live.ws_base, table_id, f"?token={token}", "person")
    await sock.until(lambda m: m["type"] == "full")
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    moves = 0
    while not sock.view["game"]["finished"]:
        assert loop.time() < end, "the game did not end in time"
        legal = sock.view["game"]["legal_actions"]
        if not legal:
            await sock.next(timeout=end - loop.time())
            continue
        r = await http.post(f"/api/tables/{table_id}/actions", headers=bearer(token),
                            json={"version": sock.version, "action": rnd.choice(legal)})
        if r.status_code == 200:
            moves += 1
            await sock.at_version(r.json()["version"])
        elif r.status_code == 409:  # a bot moved first: look again
            await sock.at_version(r.json()["version"])
        else:
            assert r.status_code == 403, r.text  # our view was behind: it is not our turn any more
            await sock.next(timeout=end - loop.time())
    return sock, moves


async def wait_finished(live: LiveServer, table_id: str, timeout: float = PLAY_TIMEOUT) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while stored(live, table_id)["row"].status != "finished":
        assert loop.time() < end, "the bots did not finish the game in time"
        await asyncio.sleep(0.05)


# ------------------------------------------------------------------------------------ bot seats


def test_bot_seats_are_given_by_seat_number_or_per_seat_list():
    assert seat_levels(None, 3) == [None, None, None]
    assert seat_levels({"1": "strong"}, 3) == [None, "strong", None]
    assert seat_levels({2: "novice", "0": "strong"}, 3) == ["strong", None, "novice"]
    assert seat_levels([None, "novice", "strong"], 3) == [None, "novice", "strong"]
    for bad in ({"3": "novice"}, {"-1": "novice"}, {"x": "novice"}, {"1": "grandmaster"}, ["novice"],
                "strong", {"1.0": "novice"}, {True: "novice"}):
        with pytest.raises(BadRequest):
            seat_levels(bad, 3)


async def test_bot_seats_are_named_and_marked_in_every_view(http, bots_live):
    table = await create(http, "ave_cesar", 4, bots={"1": "strong", "3": "novice"})
    assert table["status"] == "lobby"
    assert [(s["name"], s["bot"], s["taken"]) for s in table["seats"]] == [
        (None, None, False), ("Bot (strong)", "strong", True), (None, None, False), ("Bot (novice)", "novice", True)]
    # People take the other seats; a bot seat cannot be joined.
    r = await http.post(f"/api/tables/{table['id']}/join",
                        json={"invite": table["invite_key"], "name": "Livia", "seat": 1})
    assert r.status_code == 409
    livia = await join(http, table, "Livia")
    assert livia["seat"] == 0
    assert (await http.get(f"/api/tables/{table['id']}")).json()["status"] == "lobby"
    marcus = await join(http, table, "Marcus")
    assert marcus["seat"] == 2
    assert (await http.get(f"/api/tables/{table['id']}")).json()["status"] == "playing"
    expected = [{"number": 0, "name": "Livia"},
                {"number": 1, "name": "Bot (strong)", "bot": "strong"},
                {"number": 2, "name": "Marcus"},
                {"number": 3, "name": "Bot (novice)", "bot": "novice"}]
    for credential in (livia["token"], marcus["token"], table["spectator_key"]):
        r = await http.get(f"/api/tables/{table['id']}/view", headers=bearer(credential))
        assert r.status_code == 200
        assert r.json()["view"]["table"]["seats"] == expected
    # Two bots of one level are told apart by their seat.
    twins = await create(http, "cesar_cleopatre", 2, bots=["novice", "novice"])
    assert [s["name"] for s in twins["seats"]] == ["Bot (novice) #1", "Bot (novice) #2"]
    await wait_finished(bots_live, twins["id"])


async def test_bad_bots_and_timers_are_refused_and_create_nothing(http, bots_live):
    with bots_live.db.connect() as conn:
        before = conn.execute(text("SELECT COUNT(*) FROM tables")).scalar()
    cases = [
        {"bots": {"2": "novice"}},  # no such seat at two players
        {"bots": {"0": "genius"}},
        {"bots": ["novice"]},  # a list has one entry per seat
        {"turn_seconds": 0},
        {"turn_seconds": 86_401},
        {"turn_minutes": 0},
        {"turn_minutes": 2, "turn_seconds": 30},
    ]
    for extra in cases:
        r = await http.post("/api/tables", json={"game": "bench_cards", "players": 2, **extra})
        assert r.status_code == 400, (extra, r.text)
        assert set(r.json()) == {"error"}
    with bots_live.db.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM tables")).scalar() == before
    timed = await create(http, "bench_cards", 2, turn_minutes=3)
    assert timed["turn_timer"] == 180 and timed["deadline"] is None


# ---------------------------------------------------------------------------- playing to the end

# Windows out of turn the bots must answer like a player (RULES 0.2: the Veto of César & Cléopâtre, the
# sealed bids and Counters of Ave César); César jouait-il aux dés ? has none.
WINDOWS = {"cesar_cleopatre": {"allow", "veto"}, "ave_cesar": {"seal_bid", "join_counters", "decline_counters"},
           "alea_iacta_est": set()}


@pytest.mark.parametrize("slug", sorted(REGISTRY))
async def test_bot_seats_play_to_the_end_beside_a_person(http, bots_live, slug):
    game = ALL_GAMES[slug]
    players = game.min_players
    table = await create(http, slug, players, bots={str(n): "novice" for n in range(1, players)})
    person = await join(http, table, "Livia")
    assert person["seat"] == 0
    sock, moves = await play_person(bots_live, http, table["id"], person["token"], random.Random(7))
    data = assert_replays(bots_live, table["id"])
    assert data["row"].status == "finished"
    final = game.decode(data["row"].state)
    assert sock.view["game"] == game.view(final, 0)  # the person's live view followed every bot move
    by_seat = {seat: [a for a in data["actions"] if a.seat == seat] for seat in range(players)}
    assert len(by_seat[0]) == moves > 0
    assert all(by_seat[seat] for seat in range(1, players)), "every bot played"
    bot_types = {json.loads(a.action)["type"] for seat in range(1, players) for a in by_seat[seat]}
    if WINDOWS[slug]:
        assert bot_types & WINDOWS[slug], f"the bots never answered a window out of turn: {bot_types}"
    await sock.close()


async def test_bots_only_demo_table_plays_to_the_end_and_spectators_follow(http, bots_live):
    game = ALL_GAMES["ave_cesar"]
    runner = bots_live.runner
    runner.delay = (0.005, 0.005)  # slow enough for the spectator to see most of the game
    try:
        table = await create(http, "ave_cesar", 3, bots=["strong", "novice", "novice"])
        assert table["status"] == "playing" and table["started_at"]  # nobody to wait for
        spectator = await Socket.open(bots_live.ws_base, table["id"], f"?spectate={table['spectator_key']}",
                                      "spectator")
        await spectator.until(lambda m: m["type"] == "full")
        first = spectator.version
        assert [s["bot"] for s in spectator.view["table"]["seats"]] == ["strong", "novice", "novice"]
        await spectator.until(lambda m: spectator.view["game"]["finished"], timeout=PLAY_TIMEOUT)
    finally:
        runner.delay = (0.0, 0.0)
    data = assert_replays(bots_live, table["id"])
    final = game.decode(data["row"].state)
    assert spectator.version == data["row"].version > first
    assert spectator.view["game"] == game.view(final, None)
    assert sum(1 for raw in spectator.raw if json.loads(raw)["type"] == "patch") >= 1
    await spectator.close()
    # The runner never saw the true state: each bot move is what Bot.choose makes of a state resampled for
    # its seat (anything it could not know drawn anew), with the seed the runner derives.
    checked = 0
    for entry, state, version in states_before(game, data["row"], data["actions"]):
        level = ["strong", "novice", "novice"][entry.seat]
        seed = bot_seed(data["row"].seed, version, entry.seat)
        resampled = game.resample(state, entry.seat, 1000 + version)
        assert make_bot(level, seed, BUDGET).choose(game, resampled, entry.seat) == json.loads(entry.action)
        checked += 1
    assert checked == len(data["actions"]) > 20


async def test_runner_decides_through_bot_choose_on_what_its_seat_knows(http, bots_live):
    """The runner's decision function sees a state only through Bot.choose: its choice is the same for the
    true state and for any state its seat cannot tell apart from it, and it is what the runner played."""
    game = ALL_GAMES["cesar_cleopatre"]
    table = await create(http, "cesar_cleopatre", 2, bots={"1": "strong"})
    person = await join(http, table, "Livia")
    sock, _moves = await play_person(bots_live, http, table["id"], person["token"], random.Random(3))
    await sock.close()
    data = assert_replays(bots_live, table["id"])
    played = 0
    for entry, state, version in states_before(game, data["row"], data["actions"]):
        if entry.seat != 1 or played >= 12:
            continue
        seed = bot_seed(data["row"].seed, version, 1)
        action = json.loads(entry.action)
        assert decide("cesar_cleopatre", state, 1, "strong", seed, BUDGET) == action
        for other in (11, 12):  # the other hand and the deck drawn anew
            hidden_changed = game.resample(state, 1, other)
            assert decide("cesar_cleopatre", hidden_changed, 1, "strong", seed, BUDGET) == action
        played += 1
    assert played == 12


# ------------------------------------------------------------------------- several processes, workers


async def counted(runners: list[BotRunner], moves: int) -> None:
    """A table shows its last move once it is committed; a runner counts the move when `act` returns,
    after the push. Wait (a little) until the runners have counted `moves` decisions in all."""
    for _ in range(100):
        if sum(r.decisions for r in runners) >= moves:
            return
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_runners_of_two_processes_racing_on_one_database_finish_the_game(backend, postgres_server, tmp_path):
    """Two server processes' runners (each with its own engine, cache and locks) both play the same bots:
    only the version check decides, every version is written once, and the log replays."""
    url = fresh_database_url(backend, postgres_server, tmp_path, "race")
    settings = Settings(database_url=url, benchmark=True)
    migrate(settings)
    engines = [make_async_engine(settings) for _ in range(2)]
    services = [TablesService(e, served_games(settings), is_postgres=settings.is_postgres) for e in engines]
    # Short random delays, so that each process is sometimes the quicker one.
    runners = [BotRunner(s, delay=(0.0, 0.01), budget=BUDGET, workers=0, sweep=0.05) for s in services]
    try:
        for runner in runners:
            await runner.start()
        snap = await services[0].create("bench_cards", 2, bots=["novice", "strong"])
        # The second process hears of the table only through its sweep; make it look at once.
        runners[1].stale_after = 0.0
        live = LiveServer(backend, settings, "", make_sync_engine(settings))
        try:
            await wait_finished(live, snap.id)
            data = assert_replays(live, snap.id)
        finally:
            live.db.dispose()
        assert len(data["actions"]) == ALL_GAMES["bench_cards"].action_bound(2)
        await counted(runners, len(data["actions"]))
        assert runners[0].decisions > 0 and runners[1].decisions > 0, "both processes played"
        assert runners[0].decisions + runners[1].decisions == len(data["actions"])
    finally:
        for runner in runners:
            await runner.stop()
        for engine in engines:
            await engine.dispose()


async def test_bots_decide_in_a_worker_process(tmp_path):
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'workers.db'}", benchmark=True)
    migrate(settings)
    engine = make_async_engine(settings)
    service = TablesService(engine, served_games(settings), is_postgres=False)
    runner = BotRunner(service, delay=(0.0, 0.0), budget=BUDGET, workers=1, sweep=60)
    try:
        await runner.start()
        snap = await service.create("bench_cards", 2, bots=["novice", "strong"])
        loop = asyncio.get_running_loop()
        end = loop.time() + PLAY_TIMEOUT
        while (await service.current(snap.id)).status != "finished":
            assert loop.time() < end, "the bots did not finish in time"
            await asyncio.sleep(0.05)
        assert await service.replay(snap.id) is None
        version = (await service.current(snap.id)).version
        await counted([runner], version)
        assert runner.decisions == version
        from concurrent.futures import ProcessPoolExecutor
        assert isinstance(runner._pool, ProcessPoolExecutor)
    finally:
        await runner.stop()
        await engine.dispose()


def test_tabula_simulate_delegates_to_the_simulation_command(capsys):
    from app.cli import main

    assert main(["simulate", "--game", "bench_cards", "--games", "4", "--bots", "strong,novice",
                 "--budget", "4:none"]) == 0
    out = capsys.readouterr().out
    assert "4 games, 2 players, bots: strong, novice" in out
    assert "games/s" in out and "decision time strong" in out
