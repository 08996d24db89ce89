"""The pages people really use, under load: T tables of a real game played the way the browser page plays.

    .venv/bin/python tests/bench/page_driver.py --url http://127.0.0.1:8000 --tables 10 [--game cesar_cleopatre]
        [--server-pid PID] [--seed 1] [--timeout 300] [--out FILE]

Each table is made over the JSON API (not measured), then every seat opens its table page (`GET /t/ID` with
its seat cookie) and the spectator the watch page, and each holds the page's HTML websocket
(`/ws/tables/ID/html`), applying every message as htmx does (the live-page tests' `swap`). A seat whose page
says it is its turn (`#tb-version[data-my-turn]`) picks one of the actions its page offers (each legal
action is a form's button or a select's option) and posts it as htmx posts the form (`POST /t/ID/act`,
`HX-Request`, the seat cookie, `confirmed=yes` as after the page's dialog). Writes a result in
tests/bench/driver.js's shape: moves/s over the whole run, the opponent's latency (the mover's post to the
other seats' pages showing the new version), bytes of page updates (the text htmx receives; the socket
offers permessage-deflate, so the wire carries less), the server's CPU per move. Asserts nothing: a
benchmark, run by run_tabula.py `--page-at` (side_by_side.sh: PAGE_AT).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.site.live_page import swap  # noqa: E402  (htmx's swaps, as the live-page tests apply them)

VERSION = re.compile(r'<span id="tb-version"[^>]*\sdata-version="(\d+)"[^>]*\sdata-my-turn="(\d)"'
                     r'[^>]*\sdata-status="(\w+)"')
CHOICES = re.compile(r'<button type="submit" name="action" value="([^"]*)"|<option value="([^"]*)"')
SOCKET = re.compile(r'ws-connect="([^"]+)"')
PING = 'id="tb-ping"'
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int | None) -> float | None:
    if not pid:
        return None
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def summary(values: list[float]) -> dict[str, float | int | None]:
    if not values:
        return {"n": 0, "mean": None, "p50": None, "p95": None, "p99": None}
    v = sorted(values)
    pick = lambda q: round(v[min(len(v) - 1, int(q * len(v)))], 3)  # noqa: E731
    return {"n": len(v), "mean": round(statistics.fmean(v), 3), "p50": pick(0.5), "p95": pick(0.95), "p99": pick(0.99)}


@dataclass
class Table:
    id: str
    posted: dict[int, tuple[float, int]] = field(default_factory=dict)  # version -> (when, seat) of its move


@dataclass
class Run:
    base: str
    go: asyncio.Event = field(default_factory=asyncio.Event)
    random: random.Random = field(default_factory=random.Random)
    opponent: list[float] = field(default_factory=list)
    player_bytes: list[int] = field(default_factory=list)
    spectator_bytes: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refused: int = 0
    finished: int = 0
    ended_at: float = 0.0


async def reader(run: Run, table: Table, seat: int | None, path: str, cookie: str, ready: asyncio.Queue) -> None:
    """One page (a seat's or the spectator's), open until its game is over, with its own HTTP connection as a
    browser's page has (one client shared by every page made the driver the bottleneck: httpx checks every
    connection of its pool at every request; tests/bench/RESULTS.md, 2026-11-30)."""
    async with httpx.AsyncClient(base_url=run.base, timeout=120) as http:
        await read_page(run, http, table, seat, path, cookie, ready)


async def read_page(run: Run, http: httpx.AsyncClient, table: Table, seat: int | None, path: str, cookie: str,
                    ready: asyncio.Queue) -> None:
    headers = {"Cookie": cookie} if cookie else {}
    page = (await http.get(path, headers=headers)).text
    url = html.unescape(SOCKET.search(page).group(1))
    shown = int(VERSION.search(page).group(1))
    async with websockets.connect(run.base.replace("http", "ws", 1) + url, additional_headers=headers,
                                  max_size=None, open_timeout=120) as ws:
        await ready.put(seat)
        await run.go.wait()
        while True:
            version, my_turn, status = VERSION.search(page).groups()
            version = int(version)
            if version != shown:
                shown = version
                moved = table.posted.get(version - 1)
                if moved is not None and seat != moved[1]:
                    if seat is not None:
                        run.opponent.append(1000 * (time.perf_counter() - moved[0]))
            if status != "playing":
                if seat is None:
                    run.finished += 1
                    run.ended_at = time.perf_counter()
                return
            if seat is not None and my_turn == "1" and version not in table.posted:
                live = page[page.index('id="tb-body"'):]
                choices = [html.unescape(a or b) for a, b in CHOICES.findall(live)]
                if choices:
                    table.posted[version] = (time.perf_counter(), seat)
                    r = await http.post(f"/t/{table.id}/act", headers={"HX-Request": "true", "Cookie": cookie},
                                        data={"version": str(version), "action": run.random.choice(choices),
                                              "confirmed": "yes"})
                    if r.status_code != 200:
                        run.errors.append(f"act {r.status_code}")
                    elif "flash show" in r.text:
                        run.refused += 1  # e.g. the table moved on (an opponent's simultaneous move)
                        table.posted.pop(version, None)
            message = await ws.recv()
            if PING in message:
                await ws.send("pong")
                continue
            (run.player_bytes if seat is not None else run.spectator_bytes).append(len(message.encode()))
            page = swap(page, message)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--game", default="cesar_cleopatre")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--server-pid", type=int, default=0)
    parser.add_argument("--storage", default="postgres")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--label", default="")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    async with httpx.AsyncClient(base_url=args.url, timeout=120) as http:  # the tables' setup
        run = Run(args.url, random=random.Random(args.seed))
        tables: list[Table] = []
        readers = []
        ready: asyncio.Queue = asyncio.Queue()
        for _ in range(args.tables):  # setup, not measured
            made = (await http.post("/api/tables", json={"game": args.game, "players": args.players})).json()
            table = Table(made["id"])
            tables.append(table)
            for n in range(args.players):
                token = (await http.post(f"/api/tables/{table.id}/join",
                                         json={"invite": made["invite_key"], "name": f"P{n}"})).json()["token"]
                readers.append(reader(run, table, n, f"/t/{table.id}", f"tabula_seat_{table.id}={token}", ready))
            readers.append(reader(run, table, None, f"/t/{table.id}/watch?key={made['spectator_key']}", "", ready))
        tasks = [asyncio.ensure_future(r) for r in readers]
        for _ in tasks:  # every page loaded and its socket open
            await ready.get()
        cpu0, started, driver0 = cpu_seconds(args.server_pid), time.perf_counter(), time.process_time()
        run.go.set()
        done, pending = await asyncio.wait(tasks, timeout=args.timeout)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                run.errors.append(f"{type(task.exception()).__name__}: {task.exception()}"[:200])
        cpu1, driver1 = cpu_seconds(args.server_pid), time.process_time()
    wall = (run.ended_at or time.perf_counter()) - started
    moves = sum(len(t.posted) for t in tables)
    status = "ok" if run.finished == args.tables and not run.errors else \
        f"{run.finished} of {args.tables} finished, {len(run.errors)} errors"
    result = {
        "label": args.label or f"page-T{args.tables}", "status": status, "server_name": "tabula",
        "storage": args.storage, "client": "page", "game": args.game, "matches": args.tables,
        "spectators_per_match": 1, "moves_total": moves, "matches_finished": run.finished,
        "play_wall_s": round(wall, 3), "moves_per_s": round(moves / wall, 1) if wall > 0 else None,
        "latency_ms": {"opponent": summary(run.opponent)},
        "update_bytes": {"player": summary(run.player_bytes), "spectator": summary(run.spectator_bytes),
                         "player_text": summary(run.player_bytes)},
        "server": None if cpu0 is None else {
            "pids": [args.server_pid], "cpu_s_play": round(cpu1 - cpu0, 2),
            "cpu_util_play": round((cpu1 - cpu0) / wall, 2),
            "cpu_ms_per_move": round(1000 * (cpu1 - cpu0) / max(1, moves), 3)},
        # Its own CPU, as driver.js reports it: at 1.0 of a core, the latencies are the driver's queue.
        "driver": {"cpu_s_play": round(driver1 - driver0, 2), "cpu_util_play": round((driver1 - driver0) / wall, 2)},
        "refused": run.refused, "errors": run.errors[:5], "error_count": len(run.errors),
    }
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0 if status == "ok" else 3


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
