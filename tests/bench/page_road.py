"""The page road's server CPU per action, in process and without a database or a network.

Random games of each game are played; after every action the table's channel brings every seat and one
spectator, each on the page's HTML websocket, to the new version (the per-seat views, their JSON patches,
the changed regions rendered as HTML and "sent" to a socket that only counts bytes). Prints the CPU time
per action (µs) and the bytes sent per action, by game.

    .venv/bin/python tests/bench/page_road.py [GAMES_PER_KIND]
"""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sqlalchemy.ext.asyncio import create_async_engine  # noqa: E402

from app.realtime.hub import Channel  # noqa: E402
from app.services.tables import Snapshot, TablesService  # noqa: E402
from games import REGISTRY  # noqa: E402
from games.core import rng  # noqa: E402
from games.core.conformance import random_step  # noqa: E402

LINKS = {"seat": "http://x/t/T/seat/S", "invite": "http://x/t/T/join?key=I", "spectator": "http://x/t/T/watch?key=K",
         "spectate_key": None}


class CountingSocket:
    def __init__(self) -> None:
        self.bytes = 0
        self.messages = 0

    async def send_text(self, text: str) -> None:
        self.bytes += len(text.encode())
        self.messages += 1


def html_connection(socket, snap: Snapshot, seat, service: TablesService):
    """A page's socket at this table, as the HTML websocket route makes it (attached by the channel)."""
    from app.pages.socket import PageConnection

    game = service.game(snap.game)
    return PageConnection(socket, snap.id, seat, snap.seat_hashes[seat] if seat is not None else None, lang="en",
                          game=game, links=LINKS, title=(game.title_en, game.title_fr, game.title_it),
                          presence={"connected": list(range(snap.players)), "spectators": 1})


async def play(service: TablesService, slug: str, players: int, seed: int) -> tuple[int, float, int]:
    game = REGISTRY[slug]
    state = game.setup(players, seed, {})
    snap = Snapshot(id=f"T{seed}", game=slug, players=players, options={}, status="playing", version=1, state=state,
                    seat_names=tuple(f"P{n}" for n in range(players)),
                    seat_hashes=tuple(f"h{n}" for n in range(players)), invite_key="I", spectator_key="K")
    channel = Channel(SimpleNamespace(service=service), snap.id)
    await channel._advance_to(snap)
    sockets = []
    for seat in [*range(players), None]:
        socket = CountingSocket()
        sockets.append(socket)
        conn = html_connection(socket, snap, seat, service)
        await conn.synced(snap.version, service.client_view(snap, seat))
        channel.conns.setdefault(seat, set()).add(conn)
    holder = {"rng": rng.seed_state(seed)}
    actions, cpu = 0, 0.0
    while not game.finished(state):
        seat, action = random_step(game, state, holder)
        state = game.apply(state, seat, action)
        snap = replace(snap, version=snap.version + 1, state=state,
                       status="finished" if game.finished(state) else "playing", views={})
        started = time.process_time()
        await channel._advance_to(snap)
        cpu += time.process_time() - started
        actions += 1
    return actions, cpu, sum(s.bytes for s in sockets)


async def main(per_kind: int) -> None:
    service = TablesService(create_async_engine("sqlite+aiosqlite://"), REGISTRY, is_postgres=False)
    print(f"{'game':<16} {'players':>7} {'actions':>8} {'µs/action':>10} {'bytes/action':>13}")
    for slug, game in REGISTRY.items():
        for players in (game.min_players, game.max_players):
            total_actions, total_cpu, total_bytes = 0, 0.0, 0
            for n in range(per_kind):
                actions, cpu, sent = await play(service, slug, players, 7000 + n)
                total_actions += actions
                total_cpu += cpu
                total_bytes += sent
            print(f"{slug:<16} {players:>7} {total_actions:>8} {1e6 * total_cpu / total_actions:>10.0f}"
                  f" {total_bytes / total_actions:>13.0f}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
