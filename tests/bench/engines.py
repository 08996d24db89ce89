"""Engine and server-action figures. Prints them; asserts nothing.

1. Engines: random full games per second for each game and player count, and the per-action cost of
   legal_actions (every seat to act) + apply + view (every seat and the spectator).
2. Server actions: the same random games played through the real write path (TablesService.act: checks,
   engine, commit, publish) with the realtime hub pushing to in-memory connections (every seat and a
   spectator), on a real database; the time of one action broken down into engine, views and patches,
   database commit (a wait: one group commit per action here, nothing else to batch with) and push (the
   websocket frames, without a network).

    .venv/bin/python tests/bench/engines.py [--games N] [--game SLUG] [--server-games N]
        [--database-url postgresql://...|sqlite:///...] [--no-server]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games import ALL_GAMES  # noqa: E402
from games.core import rng  # noqa: E402
from games.core.conformance import random_game, random_step  # noqa: E402


def engine_figures(games: int, only: list[str] | None) -> None:
    # CPU time of this process (time.process_time): the machine is shared, and the engines never wait.
    print(f"{'game':18} {'players':>7} {'games/s':>9} {'ms/game':>8} {'actions/game':>12} "
          f"{'µs legal':>9} {'µs apply':>9} {'µs view':>9}")
    for slug, game in ALL_GAMES.items():
        if only and slug not in only:
            continue
        for players in range(game.min_players, game.max_players + 1):
            started = time.process_time()
            total_actions = 0
            for seed in range(games):
                _, history = random_game(game, players, seed, {}, policy_seed=seed)
                total_actions += len(history)
            elapsed = time.process_time() - started
            # Per-action costs, measured on one more game step by step.
            legal_t = apply_t = view_t = 0.0
            _, history = random_game(game, players, 12345, {}, policy_seed=12345)
            state = game.setup(players, 12345, {})
            for seat, action in history:
                t0 = time.process_time()
                for s in game.to_act(state):
                    game.legal_actions(state, s)
                t1 = time.process_time()
                nxt = game.apply(state, seat, action)
                t2 = time.process_time()
                for s in [*range(players), None]:
                    game.view(nxt, s)
                t3 = time.process_time()
                legal_t += t1 - t0
                apply_t += t2 - t1
                view_t += t3 - t2
                state = nxt
            n = max(1, len(history))
            print(f"{slug:18} {players:>7} {games / elapsed:>9.1f} {1000 * elapsed / games:>8.2f} "
                  f"{total_actions / games:>12.1f} {1e6 * legal_t / n:>9.1f} {1e6 * apply_t / n:>9.1f} "
                  f"{1e6 * view_t / n:>9.1f}", flush=True)


class MemorySocket:
    """Stands for a websocket: keeps nothing, counts the frames and bytes the hub sends."""

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0

    async def send_text(self, message: str) -> None:
        self.frames += 1
        self.bytes += len(message.encode("utf-8"))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        return None


async def server_figures(database_url: str, games: int, only: list[str] | None) -> None:
    from app.config import Settings
    from app.db import make_async_engine, migrate_async
    from app.realtime.hub import Connection, Hub
    from app.services.tables import TablesService, hash_token

    settings = Settings(database_url=database_url, benchmark=True)
    await migrate_async(settings)
    engine = make_async_engine(settings)
    print()
    print(f"server actions on {settings.async_url.split(':')[0].split('+')[0]} (µs per action; commit is a wait)")
    print(f"{'game':18} {'players':>7} {'actions':>8} {'engine':>8} {'views+patches':>14} {'commit':>8} "
          f"{'push':>7} {'act total':>10} {'B/push':>7}")
    try:
        for slug, game in ALL_GAMES.items():
            if only and slug not in only:
                continue
            for players in range(game.min_players, game.max_players + 1):
                service = TablesService(engine, {slug: game}, is_postgres=settings.is_postgres)
                hub = Hub(service, database_url=database_url, is_postgres=settings.is_postgres, heartbeat=3600)
                await hub.start()
                total = 0.0
                actions = 0
                sockets: list[MemorySocket] = []
                for seed in range(games):
                    snap = await service.create(slug, players)
                    tokens = [(await service.join(snap.id, snap.invite_key, f"P{n}"))[1] for n in range(players)]
                    for seat in [*range(players), None]:
                        sock = MemorySocket()
                        sockets.append(sock)
                        await hub.attach(Connection(sock, snap.id, seat,  # type: ignore[arg-type]
                                                    hash_token(tokens[seat]) if seat is not None else None), None)
                    holder = {"rng": rng.seed_state(seed)}
                    snap = await service.current(snap.id)
                    while not game.finished(snap.state):
                        seat, action = random_step(game, snap.state, holder)
                        t0 = time.perf_counter()
                        await service.act(snap.id, tokens[seat], snap.version, action)
                        total += time.perf_counter() - t0
                        actions += 1
                        # A finished table leaves the cache at once (SnapshotCache): read it back then.
                        snap = service.cache.get(snap.id) or await service.current(snap.id)
                parts = service.timings.as_dict()["us_per_move"]
                frames = sum(s.frames for s in sockets)
                sent = sum(s.bytes for s in sockets)
                print(f"{slug:18} {players:>7} {actions:>8} {parts['engine']:>8.0f} {parts['views']:>14.0f} "
                      f"{parts['commit']:>8.0f} {parts['push']:>7.0f} {1e6 * total / max(1, actions):>10.0f} "
                      f"{sent / max(1, frames):>7.0f}", flush=True)
                await hub.stop()
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per game and player count")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    parser.add_argument("--server-games", type=int, default=3, help="games per game and player count through the server")
    parser.add_argument("--database-url", help="where the server figures are taken (default: a temporary SQLite file)")
    parser.add_argument("--no-server", action="store_true", help="engine figures only")
    args = parser.parse_args()
    engine_figures(args.games, args.game)
    if args.no_server:
        return
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/engines.db"
        asyncio.run(server_figures(url, args.server_games, args.game))


if __name__ == "__main__":
    main()
