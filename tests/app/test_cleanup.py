"""Stale tables (app/services/cleanup.py): a table that never filled expires after the lobby time, a game
nobody played for the idle time ends as abandoned (refusing moves, its log still replaying), finished games
are kept; two processes cleaning at once clean each table once; `tabula cleanup` and the admin page. Both
databases."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import text

from app.config import Settings
from app.db import make_async_engine, make_sync_engine, migrate
from app.models import ABANDONED, FINISHED, LOBBY, PLAYING
from app.services.cleanup import Cleanup
from app.services.errors import Conflict
from app.services.tables import TablesService, now
from games import ALL_GAMES
from tests.processes import ROOT

from .conftest import ThreadServer, free_port

pytestmark = pytest.mark.asyncio
GAME = ALL_GAMES["bench_cards"]
DAY = timedelta(days=1)


async def seated(service: TablesService) -> tuple[str, list[str]]:
    snap = await service.create("bench_cards", 2)
    tokens = [(await service.join(snap.id, snap.invite_key, name))[1] for name in ("Livia", "Marcus")]
    return snap.id, tokens


async def play_one(service: TablesService, table_id: str, tokens: list[str]) -> None:
    snap = await service.current(table_id)
    (seat,) = GAME.to_act(snap.state)
    await service.act(table_id, tokens[seat], snap.version, GAME.legal_actions(snap.state, seat)[0])


async def tables_of_every_kind(service: TablesService) -> dict[str, str]:
    """A table waiting for players, one in play (one move made), one finished."""
    waiting = (await service.create("bench_cards", 2)).id
    playing, tokens = await seated(service)
    await play_one(service, playing, tokens)
    finished, tokens = await seated(service)
    while (await service.current(finished)).status == PLAYING:
        await play_one(service, finished, tokens)
    return {LOBBY: waiting, PLAYING: playing, FINISHED: finished}


@pytest.fixture
async def service(fresh_db_url):
    settings = Settings(database_url=fresh_db_url)
    migrate(settings)
    engine = make_async_engine(settings)
    yield TablesService(engine, ALL_GAMES, is_postgres=settings.is_postgres)
    await engine.dispose()


async def test_stale_tables_expire_or_end_as_abandoned_and_finished_ones_stay(service):
    tables = await tables_of_every_kind(service)
    cleanup = Cleanup(service, lobby_expiry_hours=24, abandon_days=30)
    assert await cleanup.preview() == {"expire": [], "abandon": []}
    assert await cleanup.run() == {"expired": 0, "abandoned": 0}  # nothing is old yet

    # Two days later the waiting table has expired; the game in play is not idle long enough yet.
    later = now() + 2 * DAY
    preview = await cleanup.preview(later)
    assert [t["id"] for t in preview["expire"]] == [tables[LOBBY]] and preview["abandon"] == []
    assert await cleanup.run(later) == {"expired": 1, "abandoned": 0}
    assert set(await service.table_ids()) == {tables[PLAYING], tables[FINISHED]}

    # A month later the game nobody played ends as abandoned; the finished one is kept as it was.
    before = await service.current(tables[PLAYING])
    finished = await service.current(tables[FINISHED])
    month = now() + 31 * DAY
    assert [t["id"] for t in (await cleanup.preview(month))["abandon"]] == [tables[PLAYING]]
    assert await cleanup.run(month) == {"expired": 0, "abandoned": 1}
    after = await service.current(tables[PLAYING])
    assert (after.status, after.version) == (ABANDONED, before.version + 1)
    assert service.client_view(after, 0)["table"]["status"] == ABANDONED
    kept = await service.current(tables[FINISHED])
    assert (kept.status, kept.version, kept.state) == (FINISHED, finished.version, finished.state)
    (seat,) = GAME.to_act(after.state)
    with pytest.raises(Conflict):
        await service.act(after.id, None, after.version, GAME.legal_actions(after.state, seat)[0],
                          token_hash=after.seat_hashes[seat])
    for table_id in (tables[PLAYING], tables[FINISHED]):
        assert await service.replay(table_id) is None
    assert await cleanup.run(month) == {"expired": 0, "abandoned": 0}  # cleaning again changes nothing


async def test_a_move_in_time_keeps_a_game_from_being_abandoned(service):
    table_id, tokens = await seated(service)
    cleanup = Cleanup(service, abandon_days=30)
    month = now() + 31 * DAY
    stale = await cleanup.preview(month)
    await play_one(service, table_id, tokens)  # the move lands between the look and the clean-up
    for table in stale["abandon"]:
        assert await service.abandon(table["id"], table["version"]) is None
    assert (await service.current(table_id)).status == PLAYING


async def test_two_processes_cleaning_at_once_clean_each_table_once(fresh_db_url):
    settings = Settings(database_url=fresh_db_url)
    migrate(settings)
    engines = [make_async_engine(settings) for _ in range(2)]
    try:
        services = [TablesService(e, ALL_GAMES, is_postgres=settings.is_postgres) for e in engines]
        waiting = [(await services[0].create("bench_cards", 2)).id for _ in range(4)]
        playing = [(await seated(services[0]))[0] for _ in range(4)]
        versions = {t: (await services[0].current(t)).version for t in playing}
        month = now() + 31 * DAY
        done = await asyncio.gather(*(Cleanup(s).run(month) for s in services))
        assert sum(d["expired"] for d in done) == len(waiting)
        assert sum(d["abandoned"] for d in done) == len(playing)
        assert sorted(await services[1].table_ids()) == sorted(playing)
        for table_id in playing:
            snap = await services[1].current(table_id)
            assert (snap.status, snap.version) == (ABANDONED, versions[table_id] + 1)
    finally:
        for engine in engines:
            await engine.dispose()


async def test_cleanup_command_and_admin_page(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    settings = Settings(database_url=url, admin_token="club-secret", lobby_expiry_hours=0.0001)
    server = ThreadServer(settings, free_port())
    server.start()
    base = f"http://127.0.0.1:{server.server.config.port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=20) as http:
            old = (await http.post("/api/tables", json={"game": "cesar_cleopatre", "players": 2})).json()["id"]
            await asyncio.sleep(0.5)  # older than the (tiny) lobby time of this test
            assert (await http.post("/admin", data={"token": "club-secret"})).status_code == 303
            page = await http.get("/admin")
            assert page.status_code == 200 and 'id="admin-cleanup"' in page.text
            listed = page.text.split('id="admin-expire"')[1].split("</ul>")[0]
            assert old in listed
    finally:
        server.stop()
    env = {"DATABASE_URL": url, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
           "TABULA_LOBBY_EXPIRY_HOURS": "0.0001"}
    run = lambda *args: subprocess.run([sys.executable, "-m", "app", "cleanup", *args], cwd=tmp_path, env=env,
                                       capture_output=True, text=True, timeout=120)
    dry = run("--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert f"would expire {old}" in dry.stdout and "1 waiting table(s) to delete" in dry.stdout
    done = run()
    assert done.returncode == 0, done.stderr
    assert "1 waiting table(s) deleted, 0 game(s) abandoned" in done.stdout
    engine = make_sync_engine(settings)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM tables")).scalar() == 0
            assert conn.execute(text("SELECT count(*) FROM seats")).scalar() == 0
    finally:
        engine.dispose()
