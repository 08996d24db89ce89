"""A quick pure-Python load driver for the benchmark workload (shared/bench/peer-boardgameio/README.md) against
a running Tabula server: T tables of the benchmark card game, 2 players + 1 spectator websockets each, every
move sent over the socket as soon as a view says it is the player's turn. Prints moves/s, the opponent
latency (move sent -> the opponent holds the new version) and the mean patch size a player receives.

The benchmark itself uses tests/bench/driver.js (node, the peer's exact phases and metrics, wire bytes
metered frame by frame); this one needs only the project's venv, for a quick look without node.

    TABULA_BENCHMARK=1 TABULA_RATE_LIMITS=0 DATABASE_URL=postgresql://... tabula serve --port 8000 &
    .venv/bin/python -m tests.bench.loadtest --url http://127.0.0.1:8000 --tables 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import httpx
import jsonpatch
import websockets


class Player:
    def __init__(self, url: str, table: str, credential: str, seat: int | None, index: int, stats: dict):
        self.url, self.table, self.credential, self.seat, self.index = url, table, credential, seat, index
        self.stats = stats
        self.view = None
        self.version = None
        self.ws = None
        self.ready = asyncio.Event()
        self.done = asyncio.Event()
        self.sent_at: dict[int, float] = stats["sent_at"].setdefault(table, {})

    async def connect(self) -> None:
        query = f"token={self.credential}" if self.seat is not None else f"spectate={self.credential}"
        self.ws = await websockets.connect(f"{self.url}/ws/tables/{self.table}?{query}", max_size=None,
                                           compression=None)

    async def run(self, go: asyncio.Event) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "full":
                self.view, self.version = msg["view"], msg["version"]
                self.ready.set()
            elif kind == "patch":
                if self.seat is not None:
                    self.stats["patch_bytes"].append(len(raw))
                self.view = jsonpatch.apply_patch(self.view, msg["patch"], in_place=True)
                self.version = msg["version"]
                sent = self.sent_at.get(self.version)
                mover = self.stats["movers"].get((self.table, self.version))
                if sent is not None and self.seat is not None and mover is not None and mover != self.seat:
                    self.stats["latency"].append(time.perf_counter() - sent)
            elif kind == "ping":
                await self.ws.send('{"type":"pong"}')
            elif kind == "error":
                self.stats["errors"] += 1
            if self.view is None:
                continue
            if self.view["game"]["finished"]:
                self.done.set()
                return
            if kind in ("full", "patch") and self.seat is not None and go.is_set() \
                    and self.seat in self.view["game"]["to_act"]:
                await self.move()

    async def move(self) -> None:
        legal = self.view["game"]["legal_actions"]
        action = legal[(self.version + self.index) % len(legal)]
        self.sent_at[self.version + 1] = time.perf_counter()
        self.stats["movers"][(self.table, self.version + 1)] = self.seat
        await self.ws.send(json.dumps({"type": "act", "version": self.version, "action": action},
                                      separators=(",", ":")))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--server-pid", type=int, help="report the server's CPU time during play")
    args = parser.parse_args()
    ws_url = args.url.replace("http://", "ws://")
    stats = {"latency": [], "patch_bytes": [], "errors": 0, "sent_at": {}, "movers": {}}
    players: list[Player] = []
    async with httpx.AsyncClient(base_url=args.url, timeout=30) as http:
        t0 = time.perf_counter()
        for i in range(args.tables):
            t = (await http.post("/api/tables", json={"game": "bench_cards", "players": 2})).json()
            for seat in range(2):
                j = (await http.post(f"/api/tables/{t['id']}/join", json={"invite": t["invite_key"],
                                                                         "name": f"p{seat}"})).json()
                players.append(Player(ws_url, t["id"], j["token"], seat, i, stats))
            players.append(Player(ws_url, t["id"], t["spectator_key"], None, i, stats))
        await asyncio.gather(*(p.connect() for p in players))
        go = asyncio.Event()
        tasks = [asyncio.create_task(p.run(go)) for p in players]
        await asyncio.gather(*(p.ready.wait() for p in players))
        setup = time.perf_counter() - t0
        cpu0 = server_cpu(args.server_pid)
        started = time.perf_counter()
        go.set()
        for p in players:
            if p.seat is not None and p.seat in p.view["game"]["to_act"]:
                await p.move()
        await asyncio.wait_for(asyncio.gather(*(p.done.wait() for p in players)), 120)
        wall = time.perf_counter() - started
        cpu = server_cpu(args.server_pid) - cpu0
        for t in tasks:
            t.cancel()
        for p in players:
            await p.ws.close()
    moves = 60 * args.tables
    lat = sorted(stats["latency"])
    q = lambda f: 1000 * lat[min(len(lat) - 1, int(f * len(lat)))]
    print(f"tables={args.tables} setup={setup:.2f}s moves={moves} wall={wall:.2f}s moves/s={moves / wall:.0f} "
          f"opp p50={q(0.5):.1f}ms p95={q(0.95):.1f}ms p99={q(0.99):.1f}ms "
          f"B/update(player)={statistics.mean(stats['patch_bytes']):.0f} errors={stats['errors']} "
          f"latency samples={len(lat)}" + (f" server CPU/move={1000 * cpu / moves:.2f}ms" if args.server_pid else ""))


def server_cpu(pid: int | None) -> float:
    if not pid:
        return 0.0
    import os

    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    asyncio.run(main())
