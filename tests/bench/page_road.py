"""The page road's server CPU per action, in process and without a database or a network.

Random games of each game are played; after every action the table's channel brings every seat and one
spectator, each on the page's HTML websocket, to the new version (the per-seat views, their JSON patches,
the changed regions rendered as HTML and "sent" to a socket that compresses them as the server's websocket
does, permessage-deflate with the server's settings, and counts bytes). Prints the CPU time per action (µs), over
the whole game and over its first and last fifths, and the bytes sent per action (HTML, and compressed on the
wire), by game.
Each action is applied by the server's own `TablesService._apply` (its new state is the canonical one, decoded
from the text the database gets), and the engines' own log memo is emptied before each, as the other tables'
actions empty it on a server of many tables.

    .venv/bin/python tests/bench/page_road.py [GAMES_PER_KIND]
    .venv/bin/python tests/bench/page_road.py --tables N [ACTIONS]   # N tables at once (default 3000 actions)
    .venv/bin/python tests/bench/page_road.py --attach [TABLES]      # the pages of a new table opened (default 10)
    .venv/bin/python tests/bench/page_road.py --regions [GAMES_PER_KIND]  # and what each region's renders cost

With `--tables`, N tables of the games in turn are in play at once, one action at each in turn, and the cycle
collector is set as the server sets it: it prints the CPU per action and the part of it the collector took.
With `--attach`, new tables of each game and size (SQLite in a temporary file) get every seat's page socket and
a spectator's attached by the hub at once: it prints the CPU of attaching them, per table. With `--regions`, it
also prints, by template, the regions rendered anew during the actions (neither kept from the reader's last
page nor taken from another reader's), their CPU and size, and how many of them gave the HTML another reader of
the same change had already rendered (what finer reads could still save); timing them adds a little to the
CPU per action printed above.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sqlalchemy.ext.asyncio import create_async_engine  # noqa: E402

from app.pages.render import PageTemplate  # noqa: E402
from app.realtime.hub import GC_THRESHOLDS, Channel  # noqa: E402
from app.services.tables import Snapshot, TablesService  # noqa: E402
from app.web.protocol import COMPRESSION, SERVER_WINDOW_BITS  # noqa: E402
from games import REGISTRY  # noqa: E402
from games.core import rng  # noqa: E402
from games.core.conformance import random_step  # noqa: E402

LINKS = {"seat": "http://x/t/T/seat/S", "invite": "http://x/t/T/join?key=I", "spectator": "http://x/t/T/watch?key=K",
         "spectate_key": None}


class CountingSocket:
    """Compresses what it is sent as the server's websocket does (permessage-deflate with the settings of
    `app.web.protocol`, the context kept between messages), and counts the bytes."""

    def __init__(self) -> None:
        self.bytes = 0
        self.wire = 0
        self.messages = 0
        self._deflate = zlib.compressobj(wbits=-SERVER_WINDOW_BITS, **COMPRESSION)

    async def send_text(self, text: str) -> None:
        data = text.encode()
        self.bytes += len(data)
        self.wire += len(self._deflate.compress(data) + self._deflate.flush(zlib.Z_SYNC_FLUSH)) - 4
        self.messages += 1


class RegionCensus:
    """The regions rendered during the actions, by template (`--regions`): count, CPU, bytes, and how many gave
    the HTML another reader of the same change had rendered."""

    def __init__(self) -> None:
        self.renders: Counter[str] = Counter()
        self.cpu: Counter[str] = Counter()
        self.bytes: Counter[str] = Counter()
        self.repeated: Counter[str] = Counter()
        self.seen: set[str] = set()  # the regions' HTML rendered for the readers of this action's change
        self.counting = False
        original = PageTemplate.render_in
        census = self

        def render_in(template: PageTemplate, parent: dict[str, Any]) -> str:
            collector = parent.get("_regions")
            if not census.counting or collector is None or collector.depth != 1:  # (1: a region, not the frame)
                return original(template, parent)
            started = time.process_time()
            html = original(template, parent)
            census.cpu[template.name] += time.process_time() - started
            census.renders[template.name] += 1
            census.bytes[template.name] += len(html)
            if html in census.seen:
                census.repeated[template.name] += 1
            census.seen.add(html)
            return html

        PageTemplate.render_in = render_in  # type: ignore[method-assign]

    def action(self, counting: bool) -> None:
        """Counts the renders of an action's page road (`counting`), or stops at its end."""
        self.counting = counting
        self.seen.clear()

    def report(self) -> None:
        total = sum(self.cpu.values())
        print(f"\n{'region template':<44} {'renders':>8} {'µs each':>8} {'bytes each':>11} {'of the CPU':>11}"
              f" {'as another reader':>18}")
        for name, cpu in self.cpu.most_common():
            n = self.renders[name]
            print(f"{name:<44} {n:>8} {1e6 * cpu / n:>8.0f} {self.bytes[name] / n:>11.0f} {100 * cpu / total:>10.1f}%"
                  f" {self.repeated[name]:>18}")
        print(f"{'all':<44} {sum(self.renders.values()):>8} {1e6 * total / max(1, sum(self.renders.values())):>8.0f}"
              f" {sum(self.bytes.values()) / max(1, sum(self.renders.values())):>11.0f} {100:>10.1f}%"
              f" {sum(self.repeated.values()):>18}")


CENSUS: RegionCensus | None = None  # `--regions`


def html_connection(socket, snap: Snapshot, seat, service: TablesService):
    """A page's socket at this table, as the HTML websocket route makes it (attached by the channel)."""
    from app.pages.socket import PageConnection

    game = service.game(snap.game)
    return PageConnection(socket, snap.id, seat, snap.seat_hashes[seat] if seat is not None else None, lang="en",
                          game=game, links=LINKS, title=(game.title_en, game.title_fr, game.title_it),
                          presence={"connected": list(range(snap.players)), "spectators": 1})


@dataclass
class Table:
    """A table in play on the page road: its snapshot, its channel with every seat's and a spectator's page
    socket, and the random policy's state."""

    game: Any
    snap: Snapshot
    channel: Channel
    sockets: list[CountingSocket]
    holder: dict[str, Any]


async def open_table(service: TablesService, slug: str, players: int, seed: int) -> Table:
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
        view = service.client_view(snap, seat)
        await conn.synced(snap.version, view)
        # What the channel's attach keeps (`Channel._view_of`), so that the first action reaches the page as a
        # change, as on a server, not as a second whole page.
        channel.views[seat] = view
        channel.conns.setdefault(seat, set()).add(conn)
    channel.spectators_at = snap.version
    return Table(game, snap, channel, sockets, {"rng": rng.seed_state(seed)})


async def step(service: TablesService, table: Table) -> float:
    """One random action at the table; the CPU time of its page road."""
    seat, action = random_step(table.game, table.snap.state, table.holder)
    table.snap, _ = service._apply(table.snap, seat, action)
    type(table.game)._log_memo.clear()
    if CENSUS is not None:
        CENSUS.action(True)
    started = time.process_time()
    await table.channel._advance_to(table.snap)
    spent = time.process_time() - started
    if CENSUS is not None:
        CENSUS.action(False)
    return spent


async def play(service: TablesService, slug: str, players: int, seed: int) -> tuple[list[float], int, int]:
    """(the CPU time of each action, the bytes sent, the bytes on the wire)."""
    table = await open_table(service, slug, players, seed)
    cpu = []
    while not table.game.finished(table.snap.state):
        cpu.append(await step(service, table))
    return cpu, sum(s.bytes for s in table.sockets), sum(s.wire for s in table.sockets)


async def many(service: TablesService, count: int, actions: int) -> None:
    """`count` tables at once, the games and player counts in turn, one action at each in turn (a new table
    where a game ended), with the cycle collector set as the server sets it: what a server of many tables
    pays per action, the collector's rounds included (they walk what every table holds)."""
    kinds = [(slug, players) for slug, game in REGISTRY.items() for players in (game.min_players, game.max_players)]
    tables = [await open_table(service, *kinds[n % len(kinds)], 100 + n) for n in range(count)]
    paused = [0.0, 0.0, 0.0]
    rounds = [0, 0, 0]
    began = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            paused[info["generation"]] += time.perf_counter() - began[0]
            rounds[info["generation"]] += 1

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    gc.callbacks.append(timed)
    cpu, done, seed = 0.0, 0, 100 + count
    try:
        while done < actions:
            for n, table in enumerate(tables):
                if table.game.finished(table.snap.state):
                    tables[n] = await open_table(service, *kinds[seed % len(kinds)], seed)
                    seed += 1
                    continue
                cpu += await step(service, table)
                done += 1
    finally:
        gc.callbacks.remove(timed)
    print(f"{count} tables, {done} actions: {1e6 * cpu / done:.0f} µs of CPU per action, of which the cycle "
          f"collector {1e6 * sum(paused) / done:.0f} µs ({rounds[0]}, {rounds[1]}, {rounds[2]} rounds of its "
          f"generations 0, 1, 2: {paused[0]:.2f}, {paused[1]:.2f}, {paused[2]:.2f} s)")


async def attaching(tables: int) -> None:
    """The CPU of the hub attaching every seat's page socket and a spectator's to a new table, all at the version
    the table started at (a new table's sockets come together), through `Hub.attach` on a real database."""
    from app.config import Settings
    from app.db import make_async_engine, migrate
    from app.realtime.hub import Hub

    url = f"sqlite:///{tempfile.mkdtemp(prefix='tabula-attach-')}/attach.db"
    settings = Settings(database_url=url)
    migrate(settings)
    service = TablesService(make_async_engine(settings), REGISTRY, is_postgres=False)
    hub = Hub(service, database_url=url, is_postgres=False, heartbeat=60)
    print(f"{'game':<16} {'players':>7} {'tables':>7} {'µs to attach every page':>24}")
    try:
        for slug, game in REGISTRY.items():
            for players in sorted({game.min_players, game.max_players}):
                cpu = 0.0
                for n in range(tables + 1):  # the first one warms up
                    snap = await service.create(slug, players)
                    for seat in range(players):
                        await service.join(snap.id, snap.invite_key, f"P{seat}")
                    snap = await service.current(snap.id)
                    conns = [html_connection(CountingSocket(), snap, seat, service) for seat in [*range(players), None]]
                    started = time.process_time()
                    for conn in conns:
                        assert await hub.attach(conn, None)
                    if n:
                        cpu += time.process_time() - started
                print(f"{slug:<16} {players:>7} {tables:>7} {1e6 * cpu / tables:>24.0f}")
    finally:
        await hub.stop()
        await service.engine.dispose()


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
    if len(sys.argv) > 1 and sys.argv[1] == "--attach":
        asyncio.run(attaching(int(sys.argv[2]) if len(sys.argv) > 2 else 10))
    elif len(sys.argv) > 1 and sys.argv[1] == "--regions":
        CENSUS = RegionCensus()
        asyncio.run(main(int(sys.argv[2]) if len(sys.argv) > 2 else 1))
        CENSUS.report()
    elif len(sys.argv) > 2 and sys.argv[1] == "--tables":
        asyncio.run(many(TablesService(create_async_engine("sqlite+aiosqlite://"), REGISTRY, is_postgres=False),
                         int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 3000))
    else:
        asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
