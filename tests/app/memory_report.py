"""What the server keeps after many games, and who holds it (a measurement, not a test):

    .venv/bin/python -m tests.app.memory_report [GAMES]

Plays GAMES bots-only games (the three games in turn, novice bots, 15 at a time) in this process with the
tables service, the realtime hub and the bot runner, after a warm-up of 6 games; then prints how much
memory tracemalloc saw grow, per game, how many snapshots the cache holds, and the largest holders."""

from __future__ import annotations

import asyncio
import gc
import sys
import tempfile
import tracemalloc

import games
from app.config import Settings
from app.db import make_async_engine, migrate
from app.models import PLAYING
from app.realtime.hub import Hub
from app.services.bots import BotRunner
from app.services.tables import TablesService
from games.core.bots import Budget

KINDS = [("cesar_cleopatre", 2), ("ave_cesar", 3), ("alea_iacta_est", 3)]
WARM_UP = 6
AT_ONCE = 15


async def main(count: int) -> None:
    settings = Settings(database_url=f"sqlite:///{tempfile.mkdtemp()}/memory.db")
    migrate(settings)
    engine = make_async_engine(settings)
    service = TablesService(engine, games.REGISTRY, is_postgres=False)
    hub = Hub(service, database_url=settings.database_url, is_postgres=False, heartbeat=20)
    runner = BotRunner(service, delay=(0, 0), workers=0, budget=Budget(iterations=None, seconds=0.05))
    await hub.start()
    await runner.start()

    async def play(n: int) -> None:
        slug, players = KINDS[n % len(KINDS)]
        snap = await service.create(slug, players, bots=["novice"] * players)
        while (await service.current(snap.id)).status == PLAYING:
            await asyncio.sleep(0.05)

    async def games_from(first: int, last: int) -> None:
        for start in range(first, last, AT_ONCE):
            await asyncio.gather(*(play(n) for n in range(start, min(start + AT_ONCE, last))))

    try:
        await games_from(0, WARM_UP)
        gc.collect()
        tracemalloc.start(6)
        before = tracemalloc.take_snapshot()
        start = tracemalloc.get_traced_memory()[0]
        await games_from(WARM_UP, WARM_UP + count)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
        print(f"{count} games: traced memory grew by {grown / 1e6:.2f} MB ({grown / count / 1e3:.1f} kB per game);"
              f" the snapshot cache holds {len(service.cache.tables())} table(s)")
        for stat in tracemalloc.take_snapshot().compare_to(before, "traceback")[:5]:
            print(f"{stat.size_diff / 1e6:.2f} MB in {stat.count_diff} blocks, allocated at")
            for line in stat.traceback.format()[-4:]:
                print("   ", line)
    finally:
        await runner.stop()
        await hub.stop()
        await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 15))
