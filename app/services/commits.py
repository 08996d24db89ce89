"""Group commit for the write path: moves that wait together are written together.

Every move is still its own compare-and-set (the table's row changes only if it is still at the version the
move was computed from) and its own log row, and it is acknowledged only once the transaction that holds it
has committed. What is shared is the round trip and the commit: while one batch is on its way to the
database, the moves that arrive meanwhile queue up and go in the next batch, in one statement (Postgres)
or one transaction (SQLite), so under load a commit (and its disk flush) carries many moves, and with no
load a move goes out at once, alone.

While a batch is on its way, each of its moves' `meanwhile` runs (the hub computes the new views then):
work that only prepares what will be sent once the commit is known, done while the process would
otherwise wait for the database, so that with one table it is off the time a player waits.

A move never waits behind another move of the same table: the caller holds the table's lock until its
move is written, so a batch holds at most one move per table. If a whole batch fails (a lost connection,
a deadlock with another server process), each of its moves is tried again on its own, so one bad move
cannot fail the others.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

log = logging.getLogger("tabula.commits")

MAX_BATCH = 64  # moves per statement (keeps statements and their parameter arrays small)
MAX_IN_FLIGHT = 4  # batches on their way at once (one being flushed to disk while the next ones are sent)

WriteMany = Callable[[list[dict[str, Any]]], Awaitable[set[str]]]


@dataclass
class CommitStats:
    batches: int = 0
    moves: int = 0
    largest: int = 0
    retried_alone: int = 0
    seconds: float = 0.0  # summed over the batches, from sending to the database's answer
    longest: float = 0.0  # the slowest batch, seconds

    def as_dict(self) -> dict[str, Any]:
        return {"batches": self.batches, "moves": self.moves, "largest_batch": self.largest,
                "mean_batch": round(self.moves / self.batches, 2) if self.batches else None,
                "retried_alone": self.retried_alone,
                "ms_per_batch": round(1000 * self.seconds / self.batches, 2) if self.batches else None,
                "longest_batch_ms": round(1000 * self.longest, 2)}


@dataclass
class _Pending:
    params: dict[str, Any]
    future: asyncio.Future = field(repr=False)
    meanwhile: Callable[[], None] | None = field(default=None, repr=False)


class GroupCommitter:
    """`await committer.write(params)` -> True once committed, False if the compare-and-set found the table
    at another version (nothing was written for that move). Database errors propagate to the caller."""

    def __init__(self, write_many: WriteMany, *, max_batch: int = MAX_BATCH, max_in_flight: int = MAX_IN_FLIGHT):
        self._write_many = write_many
        self.max_batch = max_batch
        self.max_in_flight = max_in_flight
        self._queue: list[_Pending] = []
        self._in_flight = 0
        self._scheduled = False
        self._tasks: set[asyncio.Task] = set()
        self.stats = CommitStats()

    async def write(self, params: dict[str, Any], meanwhile: Callable[[], None] | None = None) -> bool:
        loop = asyncio.get_running_loop()
        pending = _Pending(params, loop.create_future(), meanwhile)
        self._queue.append(pending)
        if not self._scheduled:
            # Start at the end of this turn of the event loop: the moves that arrived in the same turn
            # (one read from many sockets) go out together.
            self._scheduled = True
            loop.call_soon(self._start)
        return await pending.future

    def _start(self) -> None:
        self._scheduled = False
        while self._queue and self._in_flight < self.max_in_flight:
            batch, self._queue = self._queue[:self.max_batch], self._queue[self.max_batch:]
            self._in_flight += 1
            task = asyncio.get_running_loop().create_task(self._run(batch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, batch: list[_Pending]) -> None:
        try:
            try:
                started = time.perf_counter()
                writing = asyncio.ensure_future(self._write_many([p.params for p in batch]))
                try:
                    await asyncio.sleep(0)  # the batch's first step: its statement goes out before the work below
                    self._meanwhile(batch)
                    written = await writing
                except asyncio.CancelledError:
                    writing.cancel()
                    raise
                took = time.perf_counter() - started
                self.stats.seconds += took
                self.stats.longest = max(self.stats.longest, took)
            except asyncio.CancelledError:
                raise
            except Exception:
                if len(batch) == 1:
                    raise
                log.warning("a batch of %d moves failed; writing each on its own", len(batch), exc_info=True)
                await self._one_by_one(batch)
                return
            self._count(len(batch))
            for p in batch:
                if not p.future.done():
                    p.future.set_result(p.params["id"] in written)
        except BaseException as e:
            for p in batch:
                if not p.future.done():
                    p.future.set_exception(e if isinstance(e, Exception) else RuntimeError("commit cancelled"))
            if not isinstance(e, Exception):
                raise
        finally:
            self._in_flight -= 1
            if self._queue:
                self._start()

    @staticmethod
    def _meanwhile(batch: list[_Pending]) -> None:
        for p in batch:
            if p.meanwhile is not None:
                try:
                    p.meanwhile()
                except Exception:  # only preparation: what is sent after the commit is computed again if missing
                    log.exception("preparing a move's delivery failed")

    async def _one_by_one(self, batch: list[_Pending]) -> None:
        for p in batch:
            self.stats.retried_alone += 1
            try:
                written = await self._write_many([p.params])
            except Exception as e:
                p.future.set_exception(e)
                continue
            self._count(1)
            p.future.set_result(p.params["id"] in written)

    def _count(self, n: int) -> None:
        self.stats.batches += 1
        self.stats.moves += n
        self.stats.largest = max(self.stats.largest, n)
