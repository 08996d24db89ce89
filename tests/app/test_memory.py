"""What the server keeps per table is released when the table is over: after many short games played to the
end (bots-only tables, the three games and the benchmark game, through the real write path and the bot
runner), no cache of the process holds a finished table, and the snapshot cache stays within its bound.
Both databases."""

from __future__ import annotations

import asyncio

import pytest

from app.config import Settings
from app.db import make_async_engine, migrate
from app.models import PLAYING
from app.realtime.hub import Hub
from app.services.bots import BotRunner
from app.services.tables import SnapshotCache, Snapshot, TablesService
from games import ALL_GAMES
from games.core.bots import Budget

KINDS = [("bench_cards", 2), ("cesar_cleopatre", 2), ("ave_cesar", 3), ("alea_iacta_est", 3)]
GAMES = 4  # per kind of game (bench_cards games are short: many more of them)


async def play_to_the_end(service: TablesService, slug: str, players: int) -> str:
    snap = await service.create(slug, players, bots=["novice"] * players)
    while (await service.current(snap.id)).status == PLAYING:
        await asyncio.sleep(0.02)
    return snap.id


@pytest.mark.asyncio
async def test_finished_tables_leave_no_trace_in_the_caches(fresh_db_url):
    settings = Settings(database_url=fresh_db_url)
    migrate(settings)
    engine = make_async_engine(settings)
    service = TablesService(engine, ALL_GAMES, is_postgres=settings.is_postgres)
    hub = Hub(service, database_url=fresh_db_url, is_postgres=settings.is_postgres, heartbeat=20)
    runner = BotRunner(service, delay=(0.0, 0.0), workers=0, budget=Budget(iterations=2, seconds=None))
    await hub.start()
    await runner.start()
    try:
        played = []
        for slug, players in KINDS:
            count = 5 * GAMES if slug == "bench_cards" else GAMES
            played += await asyncio.gather(*(play_to_the_end(service, slug, players) for _ in range(count)))
        # A table still in play stays cached (a move on it must not decode its state again).
        live = await service.create("bench_cards", 2, bots=["novice", None])
        await service.current(live.id)
        await asyncio.sleep(0.1)  # let the runner's tasks of the last commits end
        cached = service.cache.tables()
        assert not set(played) & set(cached), "the snapshot cache holds finished tables"
        assert live.id in cached
        assert not set(played) & (set(runner._seeds) | set(runner._idle) | set(runner._tasks)), \
            "the bot runner holds finished tables"
        assert not set(played) & set(hub.channels)
    finally:
        await runner.stop()
        await hub.stop()
        await engine.dispose()


def _snapshot(table_id: str, status: str, version: int = 1) -> Snapshot:
    return Snapshot(id=table_id, game="bench_cards", players=2, options={}, status=status, version=version,
                    state=None, seat_names=(None, None), seat_hashes=(None, None), invite_key="i",
                    spectator_key="s")


def test_the_snapshot_cache_keeps_only_tables_in_play_and_at_most_its_bound():
    cache = SnapshotCache(size=3)
    for n in range(5):
        cache.put(_snapshot(f"t{n}", PLAYING))
    assert cache.tables() == ["t2", "t3", "t4"]  # the least recently used went first
    cache.put(_snapshot("t3", "finished", version=2))
    assert cache.get("t3") is None and cache.tables() == ["t2", "t4"]
