"""The page road's server CPU per action, in process and without a database or a network.

Random games of each game are played; after every action the table's channel brings every seat and one
spectator, each on the page's HTML websocket, to the new version (the per-seat views, their JSON patches,
the changed regions rendered as HTML and "sent" to a socket that compresses them as the server's websocket
does, permessage-deflate with uvicorn's settings, and counts bytes). Prints the CPU time per action (µs), over
the whole game and over its first and last fifths, and the bytes sent per action (HTML, and compressed on the
wire), by game.
Each action is applied by the server's own `TablesService._apply` (its new state is the canonical one, decoded
from the text the database gets), and the engines' own log memo is emptied before each, as the other tables'
actions empty it on a server of many tables.

    .venv/bin/python tests/bench/page_road.py [GAMES_PER_KIND]
"""

from __future__ import annotations

import asyncio
import sys
import time
import zlib
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
    """Compresses what it is sent as uvicorn's websocket does (permessage-deflate, a window of 2**12, memLevel 5,
    the context kept between messages), and counts the bytes."""

    def __init__(self) -> None:
        self.bytes = 0
        self.wire = 0
        self.messages = 0
        self._deflate = zlib.compressobj(wbits=-12, memLevel=5)

    async def send_text(self, text: str) -> None:
        data = text.encode()
        self.bytes += len(data)
        self.wire += len(self._deflate.compress(data) + self._deflate.flush(zlib.Z_SYNC_FLUSH)) - 4
        self.messages += 1


def html_connection(socket, snap: Snapshot, seat, service: TablesService):
    """A page's socket at this table, as the HTML websocket route makes it (attached by the channel)."""
    from app.pages.socket import PageConnection

    game = service.game(snap.game)
    return PageConnection(socket, snap.id, seat, snap.seat_hashes[seat] if seat is not None else None, lang="en",
                          game=game, links=LINKS, title=(game.title_en, game.title_fr, game.title_it),
                          presence={"connected": list(range(snap.players)), "spectators": 1})


async def play(service: TablesService, slug: str, players: int, seed: int) -> tuple[list[float], int, int]:
    """(the CPU time of each action, the bytes sent, the bytes on the wire)."""
    game = REGISTRY[slug]
    state = game.decode(game.encode(game.setup(players, seed, {})))
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
    cpu = []
    while not game.finished(snap.state):
        seat, action = random_step(game, snap.state, holder)
        snap, _ = service._apply(snap, seat, action)
        type(game)._log_memo.clear()
        started = time.process_time()
        await channel._advance_to(snap)
        cpu.append(time.process_time() - started)
    return cpu, sum(s.bytes for s in sockets), sum(s.wire for s in sockets)


async def main(per_kind: int) -> None:
    service = TablesService(create_async_engine("sqlite+aiosqlite://"), REGISTRY, is_postgres=False)
    print(f"{'game':<16} {'players':>7} {'actions':>8} {'µs/action':>10} {'first fifth':>12} {'last fifth':>11}"
          f" {'bytes/action':>13} {'wire/action':>12}")
    for slug, game in REGISTRY.items():
        for players in (game.min_players, game.max_players):
            cpu, first, last, total_bytes, total_wire = [], [], [], 0, 0
            for n in range(per_kind):
                times, sent, wire = await play(service, slug, players, 7000 + n)
                fifth = max(1, len(times) // 5)
                cpu += times
                first += times[:fifth]
                last += times[-fifth:]
                total_bytes += sent
                total_wire += wire
            print(f"{slug:<16} {players:>7} {len(cpu):>8} {1e6 * sum(cpu) / len(cpu):>10.0f}"
                  f" {1e6 * sum(first) / len(first):>12.0f} {1e6 * sum(last) / len(last):>11.0f}"
                  f" {total_bytes / len(cpu):>13.0f} {total_wire / len(cpu):>12.0f}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
