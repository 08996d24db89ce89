"""Bots at tables: bot seats, the bot runner, and bots taking a seat over from its player and back.

Who plays a seat is in `seats.bot_level`: None for the person seated there, else the level of the bot that
plays it. A *bot seat* was given to a bot when the table was created: it has a bot name ("Bot (strong)")
and the hash of a token nobody holds. A seat a bot *took over* (`seats.bot_takeover`: its turn timer ran
out, or its player left the started game) keeps its player's name and token, so the player takes it back
with the same seat link (`reclaim`). Each change of hands is a new table version (every view shows who
plays each seat) and a row of `seat_changes`, written by one compare-and-set like an action.

The runner (`BotRunner`, one per server process): whenever a committed version leaves a seat played by a
bot among the seats to act, that bot decides off the event loop (a process pool, or a thread), waits a
short human-like delay, and submits its action through the same write path as people
(`TablesService.act` with the seat's token hash), so it is logged, committed and published like any move.
A stale version is simply retried from the new state; losing a race with another process is fine (the
version check decides). Windows out of turn (a veto, joining Counters, sealed bids) are decisions like any
other. One task per table decides for its bots one at a time.

The bot sees the table only through `Bot.choose(game, state, seat)` (games/core/bots.py), which replaces
the state by the game's resample for that seat before anything else: it decides from what its seat may
know. Its seed comes from the table's secret seed, the version and the seat, so a table's bot play can be
reproduced from the database.

Restarts and several processes: a process hears only of its own commits, so each process also sweeps the
database for playing tables where a bot is to act and nothing happened for a while (every
`TABULA_BOT_SWEEP` seconds, and for every such table at once when it starts).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import secrets
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from multiprocessing import get_context
from multiprocessing.connection import wait
from typing import Any, Mapping, Sequence

from sqlalchemy import text

from games.core.bots import LEVELS, Budget, derive_seed, make_bot
from games.core.game import Action, State, clone

from ..models import LOBBY, PLAYING
from .errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from .tables import TOKEN_BYTES, Snapshot, TablesService, hash_token, now
from .timers import turn_deadline

log = logging.getLogger("tabula.bots")

TAKEOVER = "takeover"
RECLAIM = "reclaim"
TIMEOUT = "timeout"  # reasons of a seat change
LEFT = "left"
RETURNED = "returned"
RETRIES = 5  # a person's seat change that keeps meeting new versions gives up after this many tries
SEED_CACHE = 4096
POOL_STOP_SECONDS = 2.0  # how long a stopping server waits for the decision under way in its bot worker


# ------------------------------------------------------------------------------------- bot seats


def seat_levels(bots: Any, players: int) -> list[str | None]:
    """The `bots` of a new table -> one bot level or None (a person) per seat.

    Accepted: None; a mapping of seat number (int or its text) to level, e.g. {"1": "strong"}; or a list
    with one level or None per seat."""
    levels: list[str | None] = [None] * players
    if bots is None:
        return levels
    if isinstance(bots, Mapping):
        items = list(bots.items())
    elif isinstance(bots, (list, tuple)):
        if len(bots) != players:
            raise BadRequest(f"\"bots\" as a list has one entry per seat ({players}).")
        items = [(n, level) for n, level in enumerate(bots) if level is not None]
    else:
        raise BadRequest("\"bots\" maps seat numbers to bot levels, or lists one level (or null) per seat.")
    for key, level in items:
        try:
            seat = int(key) if not isinstance(key, bool) else -1
        except (TypeError, ValueError):
            seat = -1
        if str(key).strip() != str(seat) or not 0 <= seat < players:
            raise BadRequest(f"There is no seat {key!r} at this table.")
        if level not in LEVELS:
            raise BadRequest(f"A bot is {' or '.join(repr(name) for name in LEVELS)}, not {level!r}.")
        levels[seat] = level
    return levels


def bot_names(levels: Sequence[str | None]) -> list[str | None]:
    """Display names of bot seats: "Bot (strong)"; when several bots share a level, the seat number tells
    them apart in the game log ("Bot (novice) #2")."""
    names: list[str | None] = []
    for seat, level in enumerate(levels):
        if level is None:
            names.append(None)
        elif sum(1 for other in levels if other == level) > 1:
            names.append(f"Bot ({level}) #{seat + 1}")
        else:
            names.append(f"Bot ({level})")
    return names


def hidden_token_hash() -> str:
    """The token hash of a bot seat: of a fresh token that is thrown away, so nobody can act for it (the
    runner acts with the hash itself)."""
    return hash_token(secrets.token_urlsafe(TOKEN_BYTES))


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
    return level


# ---------------------------------------------------------------------------------- seat changes


class _Moved(Exception):
    """The table moved on before the seat change was written (nothing was)."""


async def _change_seats(service: TablesService, snap: Snapshot, changes: dict[int, str | None],
                        reason: str) -> Snapshot:
    """One new version in which the seats of `changes` pass to a bot (a level) or back to their player
    (None), if the table is still at `snap.version`; raises _Moved otherwise. The caller holds the table's
    lock. The deadline restarts for the new version."""
    game = service.game(snap.game)
    seat_bots = list(snap.seat_bots)
    for seat, level in changes.items():
        seat_bots[seat] = level
    at = now()
    deadline = turn_deadline(snap.turn_timer, seat_bots, game.to_act(snap.state), at)
    new_version = snap.version + 1
    async with service._writer() as conn:
        moved = await conn.execute(text(
            "UPDATE tables SET version = :new, updated_at = :at, deadline_at = :deadline"
            " WHERE id = :id AND version = :old AND status = 'playing'"),
            {"id": snap.id, "old": snap.version, "new": new_version, "at": at, "deadline": deadline})
        if moved.rowcount != 1:
            raise _Moved
        for seat, level in sorted(changes.items()):
            await conn.execute(text(
                "UPDATE seats SET bot_level = :level, bot_takeover = :takeover WHERE table_id = :id AND number = :n"),
                {"id": snap.id, "n": seat, "level": level, "takeover": level is not None})
            await conn.execute(text(
                "INSERT INTO seat_changes (table_id, version, seat, kind, reason, level, created_at)"
                " VALUES (:id, :v, :n, :kind, :reason, :level, :at)"),
                {"id": snap.id, "v": new_version, "n": seat, "kind": TAKEOVER if level else RECLAIM,
                 "reason": reason, "level": level, "at": at})
    new = await service._load(snap.id)
    await service._publish(new)
    return new


async def expire(service: TablesService, table_id: str, version: int, level: str) -> bool:
    """The turn timer ran out at `version`: a bot of `level` takes over every person's seat that is to act.
    False if the table has moved on meanwhile (the move arrived in time) or nobody had to be replaced."""
    async with service.table_lock(table_id):
        try:
            snap = await service.current(table_id)
        except NotFound:
            return False
        if snap.status != PLAYING or snap.version != version:
            return False
        to_act = service.game(snap.game).to_act(snap.state)
        seats = {seat: level for seat in sorted(to_act) if snap.seat_bots[seat] is None}
        if not seats:
            return False
        try:
            await _change_seats(service, snap, seats, TIMEOUT)
        except _Moved:
            return False
    log.info("turn timer: a %s bot took over seat(s) %s of table %s", level, sorted(seats), table_id)
    return True


async def _seat_of(service: TablesService, table_id: str, credential: str | None, doing: str) -> int:
    if not credential:
        raise Forbidden(f"{doing} needs your seat token.")
    ident = await service.identify(table_id, credential)
    if ident.seat is None:
        raise Forbidden(f"{doing} needs your seat token (a spectator has no seat).")
    return ident.seat


async def leave_game(service: TablesService, table_id: str, credential: str | None, level: str) -> dict[str, Any]:
    """A player leaves: before the start the seat is free again (`TablesService.leave`); once the game has
    started, a bot of `level` plays the seat until its player takes it back (`reclaim`)."""
    seat = await _seat_of(service, table_id, credential, "Leaving")
    for _ in range(RETRIES):
        snap = await service.current(table_id)
        if snap.status == LOBBY:
            return {"version": await service.leave(table_id, credential), "bot": None}
        if snap.status != PLAYING:
            raise Conflict("The game is over.")
        if snap.seat_bots[seat] is not None:  # already played by a bot
            return {"version": snap.version, "bot": snap.seat_bots[seat]}
        async with service.table_lock(table_id):
            snap = await service.current(table_id)
            if snap.status != PLAYING or snap.seat_bots[seat] is not None:
                continue
            try:
                new = await _change_seats(service, snap, {seat: level}, LEFT)
            except _Moved:
                continue
        return {"version": new.version, "bot": level}
    raise Conflict("The table is busy; try again.")


async def reclaim(service: TablesService, table_id: str, credential: str | None) -> dict[str, Any]:
    """The player of a seat a bot took over takes it back (their seat link). Harmless when the seat is
    already theirs: `reclaimed` says whether anything changed."""
    seat = await _seat_of(service, table_id, credential, "Taking your seat back")
    for _ in range(RETRIES):
        async with service.table_lock(table_id):
            snap = await service.current(table_id)
            if snap.status != PLAYING or not snap.seat_takeovers[seat]:
                return {"version": snap.version, "reclaimed": False}
            try:
                new = await _change_seats(service, snap, {seat: None}, RETURNED)
            except _Moved:
                continue
        return {"version": new.version, "reclaimed": True}
    raise Conflict("The table is busy; try again.")


# ------------------------------------------------------------------------------------ the runner


def decide(slug: str, state: State, seat: int, level: str, seed: int, budget: Budget) -> Action:
    """One bot decision (runs in a worker process or thread). The bot gets the state only through
    Bot.choose, which resamples it for `seat` first."""
    from games import ALL_GAMES

    return make_bot(level, seed, budget).choose(ALL_GAMES[slug], state, seat)


def _worker_started() -> None:
    """A bot worker process leaves its life to the server that started it: a SIGTERM or Ctrl-C sent to the
    whole process group stops the server, which then stops its pool (a worker that died first would only
    make the server start another one during its shutdown); and a worker whose server is gone (even by
    kill -9) exits at once instead of waiting forever for work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), name="tabula-parent-watch",
                         daemon=True).start()


def _exit_with(parent_sentinel: int) -> None:
    wait([parent_sentinel])  # readable once the parent process has ended
    os._exit(0)


def bot_seed(table_seed: int, version: int, seat: int) -> int:
    """The seed of the bot deciding for `seat` at `version` (secret like the table's seed)."""
    return derive_seed("table-bot", table_seed, version, seat)


def bots_to_act(service: TablesService, snap: Snapshot) -> list[int]:
    """The seats played by a bot that may act now."""
    if snap.status != PLAYING or snap.state is None or not any(snap.seat_bots):
        return []
    to_act = service.game(snap.game).to_act(snap.state)
    return sorted(seat for seat in to_act if seat < len(snap.seat_bots) and snap.seat_bots[seat])


class BotRunner:
    """Plays the bots of every table this process hears of. See the module's docstring."""

    def __init__(self, service: TablesService, *, delay: tuple[float, float] = (0.6, 1.2),
                 budget: Budget | None = None, workers: int = 1, sweep: float = 5.0):
        self.service = service
        self.delay = delay
        self.budget = budget or Budget()
        self.workers = workers
        self.sweep_interval = sweep
        # A table is looked at by the sweep when nothing happened there for this long.
        self.stale_after = delay[1] + (self.budget.seconds or 5.0) + 5.0
        self._random = random.Random()
        self._pool: Executor | None = None
        self._tasks: dict[str, asyncio.Task] = {}
        self._dirty: set[str] = set()
        # Per table in play, dropped when its game ends, and emptied whenever one reaches SEED_CACHE entries
        # (a few dozen bytes each): each table's secret seed (one read per table instead of one per bot
        # decision), and the version at which the sweep last found no bot to act (it does not look again).
        self._seeds: dict[str, int] = {}
        self._idle: dict[str, int] = {}
        self._sweeper: asyncio.Task | None = None
        self._stopping = False
        self.decisions = 0  # bot actions committed by this process

    # ------------------------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        self.service.on_commit.append(self.committed)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop(), name="tabula-bot-sweep")

    async def stop(self) -> None:
        self._stopping = True
        if self.committed in self.service.on_commit:
            self.service.on_commit.remove(self.committed)
        tasks = [t for t in (self._sweeper, *self._tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pool, self._pool = self._pool, None
        if pool is not None:
            # Decisions not started are dropped (a bot decides again after a restart); the one under way is
            # awaited for a short while, so the worker exits through the pool's own shutdown and the pool's
            # semaphores are released (no "leaked semaphore" from the resource tracker). A worker still
            # busy after that exits on its own once this process is gone (_worker_started).
            try:
                await asyncio.wait_for(asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True),
                                       POOL_STOP_SECONDS)
            except asyncio.TimeoutError:
                log.warning("the bot worker is still deciding; it stops when this process has gone")

    # --------------------------------------------------------------------------------- waking

    async def committed(self, snap: Snapshot) -> None:
        """The commit hook: a new version may leave a bot to act; a game over needs nothing kept."""
        if snap.status != PLAYING:
            self._seeds.pop(snap.id, None)
            self._idle.pop(snap.id, None)
        elif bots_to_act(self.service, snap):
            self.wake(snap.id)

    def wake(self, table_id: str) -> None:
        if self._stopping:
            return
        self._dirty.add(table_id)
        if table_id not in self._tasks:
            self._tasks[table_id] = asyncio.get_running_loop().create_task(
                self._run(table_id), name=f"tabula-bots-{table_id}")

    def busy(self, table_id: str) -> bool:
        return table_id in self._tasks

    async def idle(self) -> None:
        """Waits until no bot of this process is deciding (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def _run(self, table_id: str) -> None:
        try:
            while table_id in self._dirty and not self._stopping:
                self._dirty.discard(table_id)
                try:
                    await self._turn(table_id)
                except asyncio.CancelledError:
                    raise
                except Exception:  # a bug: log it; the sweep tries this table again later
                    log.exception("bot turn at table %s failed", table_id)
                    return
        finally:
            self._tasks.pop(table_id, None)

    async def _turn(self, table_id: str) -> None:
        """One decision of one bot at the table, if a bot is to act."""
        service = self.service
        try:
            snap = await service.current(table_id)
        except NotFound:
            return
        seats = bots_to_act(service, snap)
        if not seats:
            return
        seat = seats[0]
        level = snap.seat_bots[seat]
        loop = asyncio.get_running_loop()
        started = loop.time()
        seed = bot_seed(await self._table_seed(table_id), snap.version, seat)
        action = await self._decide(snap.game, snap.state, seat, level, seed)
        wait = self._random.uniform(*self.delay) - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        try:
            await service.act(table_id, None, snap.version, action, token_hash=snap.seat_hashes[seat])
        except (Conflict, Forbidden):
            # The table moved on (a person acted, a seat changed hands, another process's bot was
            # quicker): decide again from the new state, if a bot is still to act there.
            self._dirty.add(table_id)
            return
        except ServiceError as e:
            log.error("the %s bot of seat %s at table %s was refused (%s): %s", level, seat, table_id,
                      e.status, e.message)
            return
        self.decisions += 1

    async def _decide(self, slug: str, state: State, seat: int, level: str, seed: int) -> Action:
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            pool = self._executor()
            # A thread shares the snapshot's state with every reader: give it its own copy.
            arg = clone(state) if isinstance(pool, ThreadPoolExecutor) else state
            try:
                return await loop.run_in_executor(pool, decide, slug, arg, seat, level, seed, self.budget)
            except BrokenProcessPool:
                self._pool = None
                if self._stopping:  # never start a worker while the server stops
                    raise asyncio.CancelledError from None
                log.warning("bot worker process died; starting a new one")
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers > 0:
                # spawn: never fork a server process that has threads and an event loop.
                self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"),
                                                 initializer=_worker_started)
            else:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="tabula-bot")
        return self._pool

    async def _table_seed(self, table_id: str) -> int:
        seed = self._seeds.get(table_id)
        if seed is None:
            async with self.service.autocommit.connect() as conn:
                seed = (await conn.execute(text("SELECT seed FROM tables WHERE id = :id"), {"id": table_id})).scalar()
            if seed is None:
                raise NotFound("There is no such table.")
            if len(self._seeds) >= SEED_CACHE:
                self._seeds.clear()
            self._seeds[table_id] = seed
        return seed

    # ---------------------------------------------------------------------------------- sweep

    async def sweep(self, stale_after: float | None = None) -> int:
        """Wakes the bots of playing tables where a bot is to act and nothing happened for `stale_after`
        seconds (0: every such table); returns how many tables it woke."""
        stale_after = self.stale_after if stale_after is None else stale_after
        cutoff = now() - timedelta(seconds=stale_after)
        async with self.service.autocommit.connect() as conn:
            rows = (await conn.execute(text(
                "SELECT t.id, t.version FROM tables t WHERE t.status = :playing AND t.updated_at <= :cutoff"
                " AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.bot_level IS NOT NULL)"
                " ORDER BY t.updated_at LIMIT 1000"), {"playing": PLAYING, "cutoff": cutoff})).all()
        woken = 0
        for row in rows:
            if self.busy(row.id) or self._idle.get(row.id) == row.version:
                continue
            try:
                snap = await self.service.at_least(row.id, row.version)
            except ServiceError:
                continue
            if bots_to_act(self.service, snap):
                self.wake(row.id)
                woken += 1
            else:
                if len(self._idle) >= SEED_CACHE:
                    self._idle.clear()
                self._idle[row.id] = snap.version
        return woken

    async def _sweep_loop(self) -> None:
        first = True
        while True:
            try:
                # At start-up, resume every playing table where a bot is to act.
                await self.sweep(0.0 if first else None)
                first = False
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot sweep failed")
            await asyncio.sleep(self.sweep_interval)
