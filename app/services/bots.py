"""Bots at tables: the bot runner, and bots taking a seat over from its player and back (the seats a new
table gives to bots are in bot_seats.py).

Who plays a seat is in `seats.bot_level`: None for the person seated there, else the level of the bot that
plays it. A *bot seat* was given to a bot when the table was created: it has a bot name ("Bot (strong)")
and the hash of a token nobody holds. A seat a bot *took over* (`seats.bot_takeover`: its turn timer ran
out, or its player left the started game) keeps its player's name and token, so the player takes it back
with the same seat link (`reclaim`). Each change of hands is a new table version (every view shows who
plays each seat) and a row of `seat_changes`, written by one compare-and-set like an action
(`TablesService.change_seats`).

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
import signal
import threading
from contextlib import contextmanager
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta
from multiprocessing import get_context
from multiprocessing.connection import wait
from typing import Any

from games.core.bots import LEVELS, Budget, derive_seed, make_bot
from games.core.game import Action, State, clone

from .. import observability
from ..i18n import N_
from ..models import LOBBY, PLAYING
from .errors import Conflict, Forbidden, NotFound, ServiceError
from .tables import Snapshot, TablesService, now

log = logging.getLogger("tabula.bots")

TIMEOUT = "timeout"  # reasons of a seat change (models.SeatChange)
LEFT = "left"
ABSENT = "absent"  # the others handed the seat of a player disconnected on their turn to a bot
RETURNED = "returned"
RETRIES = 5  # a person's seat change that keeps meeting new versions gives up after this many tries
SEED_CACHE = 4096
POOL_STOP_SECONDS = 2.0  # how long a stopping server waits for the decision under way in its bot worker


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
    return level


# ---------------------------------------------------------------------------------- seat changes


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
        if await service.change_seats(snap, seats, TIMEOUT) is None:
            return False
    log.info("turn timer: a %s bot took over seat(s) %s of table %s", level, sorted(seats), table_id)
    return True


# What each seat-only request says without a seat token, and to a spectator (whole sentences: msgids).
NEEDS_SEAT = {
    "leave": (N_("Leaving needs your seat token."), N_("Leaving needs your seat token (a spectator has no seat).")),
    "propose": (N_("Proposing a bot needs your seat token."),
                N_("Proposing a bot needs your seat token (a spectator has no seat).")),
    "take_back": (N_("Taking your seat back needs your seat token."),
                  N_("Taking your seat back needs your seat token (a spectator has no seat).")),
}


async def _seat_of(service: TablesService, table_id: str, credential: str | None, doing: str) -> int:
    if not credential:
        raise Forbidden(NEEDS_SEAT[doing][0])
    ident = await service.identify(table_id, credential)
    if ident.seat is None:
        raise Forbidden(NEEDS_SEAT[doing][1])
    return ident.seat


async def leave_game(service: TablesService, table_id: str, credential: str | None, level: str) -> dict[str, Any]:
    """A player leaves: before the start the seat is free again (`TablesService.leave`); once the game has
    started, a bot of `level` plays the seat until its player takes it back (`reclaim`)."""
    seat = await _seat_of(service, table_id, credential, "leave")
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
            new = await service.change_seats(snap, {seat: level}, LEFT)
            if new is None:
                continue
        return {"version": new.version, "bot": level}
    raise Conflict("The table is busy; try again.")


async def take_absent_seat(service: TablesService, table_id: str, credential: str | None, seat: int, level: str,
                           absent_seconds: float) -> dict[str, Any]:
    """Another player proposes that a bot of `level` plays `seat`, whose player has been disconnected for
    `absent_seconds` while the game waits for them (counted from the start of the game for a player who
    never connected); refused, with nothing changed, otherwise. The player takes the seat back by their
    seat link (`reclaim`)."""
    me = await _seat_of(service, table_id, credential, "propose")
    for _ in range(RETRIES):
        async with service.table_lock(table_id):
            summary = await service.summary(table_id)  # presence, and the start of the game
            snap = await service.current(table_id)
            if snap.status != PLAYING:
                raise Conflict("The game is not being played.")
            if not 0 <= seat < len(snap.seat_bots):
                raise NotFound("There is no such seat.")
            if seat == me:
                raise Forbidden("You cannot propose a bot for your own seat: leave the game instead.")
            if snap.seat_bots[seat] is not None:
                raise Conflict("A bot plays that seat already.")
            if seat not in service.game(snap.game).to_act(snap.state):
                raise Conflict("The game is not waiting for that player.")
            presence = summary["presence"]
            if seat in presence["connected"]:
                raise Conflict("That player is connected.")
            gone = presence["since"][seat] or summary["started_at"]
            if gone is None or now() - datetime.fromisoformat(gone) < timedelta(seconds=absent_seconds):
                raise Conflict("That player has not been disconnected long enough yet.")
            new = await service.change_seats(snap, {seat: level}, ABSENT)
            if new is None:
                continue
        log.info("seat %s of table %s handed to a %s bot: its player was away", seat, table_id, level)
        return {"version": new.version, "bot": level}
    raise Conflict("The table is busy; try again.")


async def reclaim(service: TablesService, table_id: str, credential: str | None) -> dict[str, Any]:
    """The player of a seat a bot took over takes it back (their seat link). Harmless when the seat is
    already theirs: `reclaimed` says whether anything changed."""
    seat = await _seat_of(service, table_id, credential, "take_back")
    for _ in range(RETRIES):
        async with service.table_lock(table_id):
            snap = await service.current(table_id)
            if snap.status != PLAYING or not snap.seat_takeovers[seat]:
                return {"version": snap.version, "reclaimed": False}
            new = await service.change_seats(snap, {seat: None}, RETURNED)
            if new is None:
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
    kill -9) exits at once instead of waiting forever for work. The worker was born with these signals
    blocked (`_spawning`), so that one sent while it started waited until now, to be ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), name="tabula-parent-watch",
                         daemon=True).start()


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _spawning():
    """While the pool may start a worker (in the thread that submits to it): the stop signals are blocked in
    this thread, so the worker starts with them blocked (a signal mask is inherited and kept across exec)
    and ignores them from its first instruction; one sent to this process meanwhile is held for an
    instant and then delivered."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


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
            # busy (or still starting) after that is killed, and the pool's shutdown then ends at once.
            stopped = asyncio.ensure_future(asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True))
            try:
                await asyncio.wait_for(asyncio.shield(stopped), POOL_STOP_SECONDS)
            except asyncio.TimeoutError:
                log.info("the bot worker was still busy after %s s: killed", POOL_STOP_SECONDS)
                for worker in multiprocessing.active_children():
                    worker.kill()
                await stopped

    def held(self) -> dict[str, int]:
        """The tables this runner keeps something of, by kind (the /metrics gauge tabula_held)."""
        return {"bot_tasks": len(self._tasks), "bot_dirty": len(self._dirty), "bot_seeds": len(self._seeds),
                "bot_idle": len(self._idle)}

    # --------------------------------------------------------------------------------- waking

    async def committed(self, snap: Snapshot, acknowledge: Any = None) -> None:
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
        deciding = loop.time()
        action = await self._decide(snap.game, snap.state, seat, level, seed)
        observability.bot_decided(level, loop.time() - deciding)
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
                with _spawning():
                    deciding = loop.run_in_executor(pool, decide, slug, arg, seat, level, seed, self.budget)
                return await deciding
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
            seed = await self.service.seed(table_id)
            if len(self._seeds) >= SEED_CACHE:
                self._seeds.clear()
            self._seeds[table_id] = seed
        return seed

    # ---------------------------------------------------------------------------------- sweep

    async def sweep(self, stale_after: float | None = None) -> int:
        """Wakes the bots of playing tables where a bot is to act and nothing happened for `stale_after`
        seconds (0: every such table); returns how many tables it woke."""
        stale_after = self.stale_after if stale_after is None else stale_after
        woken = 0
        for row in await self.service.quiet_bot_tables(now() - timedelta(seconds=stale_after)):
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
