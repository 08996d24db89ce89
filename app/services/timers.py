"""The turn timer: nobody blocks a table.

A table may have a timer (`tables.turn_timer`, seconds per decision; the lobby offers minutes, the API
also takes seconds). While a seat played by a person is to act, the table's `deadline_at` is the time of
the last committed version plus the timer: every write that commits a version sets it in the same
statement (an action in tables.py, the start of the game, a seat changing hands in bots.py), so the
deadline moves with the table and is never left behind by a crash. Windows out of turn (a veto, joining a
Counters action, sealed bids) are decisions like any other: the deadline runs whenever a person is among
the seats that may act. When only bots are to act, or the game is over, there is no deadline.

Each server process runs a `TurnTimer` that looks for expired deadlines every `TABULA_TIMER_INTERVAL`
seconds (and at once when the process starts, so deadlines that expired while no server ran are handled
after a restart). An expired deadline hands every person's seat that is to act to a bot (bots.expire);
the hand-over is a compare-and-set on the version the deadline belongs to, so a move that arrived just in
time wins, and several processes finding the same deadline write it once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import Any, Awaitable, Callable, Iterable, Protocol, Sequence

from .periodic import Periodic

log = logging.getLogger("tabula.timers")

MINUTE = 60
MAX_TURN_SECONDS = 86_400  # one day per decision


class Deadlines(Protocol):
    """What the timer needs of the tables service (typed here, so that this module imports none of it)."""

    async def expired_deadlines(self, at: datetime) -> list[Any]: ...


Expire = Callable[[Any, str, int], Awaitable[object]]


def turn_deadline(turn_timer: int | None, seat_bots: Sequence[str | None], to_act: Iterable[int],
                  at: datetime) -> datetime | None:
    """The deadline of the decision that starts at `at`: `at + turn_timer` when a seat played by a person
    (no bot level) is among the seats to act; None without a timer or when only bots are to act."""
    if not turn_timer:
        return None
    if any(seat >= len(seat_bots) or seat_bots[seat] is None for seat in to_act):
        return at + timedelta(seconds=turn_timer)
    return None


def turn_seconds(minutes: int | None = None, seconds: int | None = None) -> int | None:
    """A timer given in minutes (the lobby) or seconds (the API, tests) -> seconds; None: no timer."""
    if minutes is not None and seconds is not None:
        raise ValueError("Give the turn timer in minutes or in seconds, not both.")
    if minutes is not None:
        return minutes * MINUTE
    return seconds


class TurnTimer(Periodic):
    """The task of one server process that hands expired turns to bots (its first look is at once:
    deadlines that expired while the server was down)."""

    name = "tabula-turn-timer"

    def __init__(self, service: Deadlines, expire: Expire, *, interval: float = 1.0):
        super().__init__(interval)
        self.service = service
        self.expire = expire

    async def round(self) -> int:
        return await self.check()

    async def check(self, at: datetime | None = None) -> int:
        """Hands every expired turn to bots; returns how many tables changed hands."""
        changed = 0
        for row in await self.service.expired_deadlines(at or datetime.now(timezone.utc)):
            try:
                if await self.expire(self.service, row.id, row.version):
                    changed += 1
            except Exception:  # one broken table must not stop the timer of the others
                log.exception("turn timer of table %s failed", row.id)
        return changed
