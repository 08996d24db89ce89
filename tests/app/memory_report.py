"""What the server keeps after many games, and who holds it (measurements, not tests):

    .venv/bin/python -m tests.app.memory_report [GAMES]
    .venv/bin/python -m tests.app.memory_report --server [GAMES [SOURCE]]

The first plays GAMES bots-only games (the three games in turn, novice bots, 15 at a time) in this process
with the tables service, the realtime hub and the bot runner, after a warm-up of 6 games; then prints how
much memory tracemalloc saw grow, per game, how many snapshots the cache holds, and the largest holders.

The second starts a real server (`python -m app serve` from SOURCE, default this checkout, on SQLite, bots
deciding in its worker process) and prints its resident memory after a warm-up of 9 games and after GAMES
more (played 30 at a time, through the JSON API)."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import httpx

import games
from app.config import Settings
from app.db import make_async_engine, migrate
from app.models import PLAYING
from app.realtime.hub import Hub
from app.services.bots import BotRunner
from app.services.tables import TablesService
from games.core.bots import Budget
from tests.processes import ROOT, free_port

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


def server_rss(count: int, source: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/rss.db", "PYTHONPATH": str(source),
           "TABULA_BOT_DELAY": "0", "TABULA_BOT_SECONDS": "0.05", "TABULA_RATE_LIMITS": "0"}
    server = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port), "--log-level", "warning"],
                              cwd=tempfile.mkdtemp(), env=env, start_new_session=True)

    def rss_mb() -> float:
        status = Path(f"/proc/{server.pid}/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1]) / 1024

    def play(n: int) -> None:
        ids = []
        for i in range(n):
            slug, players = KINDS[i % len(KINDS)]
            ids.append(httpx.post(base + "/api/tables", json={"game": slug, "players": players,
                                                             "bots": ["novice"] * players}).json()["id"])
        while any(httpx.get(f"{base}/api/tables/{t}").json()["status"] == PLAYING for t in ids):
            time.sleep(0.5)

    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        play(9)
        warm = rss_mb()
        for start in range(0, count, 30):
            play(min(30, count - start))
        after = rss_mb()
        print(f"server RSS after the warm-up {warm:.1f} MB, after {count} more games {after:.1f} MB"
              f" (+{(after - warm) * 1024 / count:.0f} kB per game)")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--server"]:
        server_rss(int(args[1]) if len(args) > 1 else 300, Path(args[2]) if len(args) > 2 else ROOT)
    else:
        asyncio.run(main(int(args[0]) if args else 15))
