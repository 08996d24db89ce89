"""The tables service: the only code that reads and writes the rows of a table (the table, its seats, the
action log, the seat changes, presence), with SQLAlchemy Core on the tables of app/models.py; only the hot
path of a move keeps hand-written statements. The bot runner, the turn timer, the clean-up and the realtime
hub go through its methods.

Every public method owns its transaction. The one write path for a move is `act`:

    check (against this process's snapshot of the table) -> apply through the engine contract
    -> one atomic write that only succeeds if the table is still at the version the move was computed
       from (the snapshot, the new version and the log row together) -> commit -> publish -> acknowledge

The snapshot is the committed table as this process last read or wrote it; it is never ahead of the
database, and it is read again whenever it may be behind (see `act`). The write is a compare-and-set on
the table's version: on Postgres one statement (an UPDATE ... WHERE version = :seen that row-locks the
table, chained to the INSERT of the log row); on SQLite the same in one transaction under a per-process
write lock. Two writers that computed from the same version cannot both succeed: the second finds the
version changed and writes nothing (409). Moves of different tables that wait at the same time share one
statement and one commit (commits.py: group commit), so a move costs a share of one round trip. Nothing
changes on any error, and a move is acknowledged only after its commit.

Views leave the server only through `client_view`, which is built from `game.view(state, seat)` and the
public table facts (seat names, status); the state itself never reaches a client.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import json
import logging
import re
import secrets
import time
import unicodedata
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import Any, Awaitable, Callable, Mapping, Sequence

import orjson
from sqlalchemy import Connection, bindparam, delete, false, func, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine

from games.core import UNDO, Game, IllegalAction

from ..db import PostgresWriters, SqliteReaders, SqliteWriter
from ..models import (ABANDONED, ENDED, FINISHED, LOBBY, PLAYING, RECLAIM, SPECTATOR_SEAT, TAKEOVER, ActionLog,
                      AuditEntry, Presence, Seat, SeatChange, Table)
from .bot_seats import bot_names, hidden_token_hash, seat_levels
from .commits import MAX_IN_FLIGHT, GroupCommitter
from .credentials import KEY_BYTES, TOKEN_BYTES, hash_token, same_secret, well_formed
from .errors import BadRequest, Conflict, EngineFailure, Forbidden, Illegal, NotFound
from .records import BadRecord, make_record, replay_record
from .timers import MAX_TURN_SECONDS, turn_deadline

log = logging.getLogger("tabula.tables")

TABLE_ID_BYTES = 12  # table ids: 96 bits, unguessable enough for a URL
NAME_MAX = 40
ACTION_MAX_BYTES = 16_384
MAX_SPECTATOR_DELAY = 50  # actions: enough to hide a few rounds, short enough to replay on every move
CACHE_TABLES = 1024  # tables in play held by the snapshot cache (see SnapshotCache)
CACHE_IDLE_SECONDS = 300.0  # a table nobody used for this long leaves the snapshot cache
LIVE = (LOBBY, PLAYING)  # the statuses of a table that can still change

# The rows of a table, for SQLAlchemy Core (the hot path of a move keeps its hand-written statements below).
TABLES, SEATS, ACTIONS, SEAT_CHANGES, PRESENCE, AUDIT = (
    model.__table__ for model in (Table, Seat, ActionLog, SeatChange, Presence, AuditEntry))


def now() -> datetime:
    return datetime.now(timezone.utc)


_std_compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_std_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
_COMPACT = orjson.OPT_NON_STR_KEYS
_CANONICAL = orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS


def compact(obj: Any) -> str:
    """Compact JSON text (UTF-8, no spaces), as every message on the wire. orjson writes the same text as
    `json.dumps(obj, separators=(",", ":"), ensure_ascii=False)` several times faster; what it refuses
    (integers beyond 64 bits) goes to the standard library."""
    try:
        return orjson.dumps(obj, option=_COMPACT).decode()
    except TypeError:
        return _std_compact(obj)


def canonical_action(action: dict[str, Any]) -> str:
    """An action's stored form: compact JSON with sorted keys."""
    try:
        return orjson.dumps(action, option=_CANONICAL).decode()
    except TypeError:
        return _std_canonical(action)


@dataclass(eq=False)
class Snapshot:
    """A committed table at one version, decoded once and shared by every reader in this process.
    Never mutated once published; views are computed at most once per seat."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: str
    version: int
    state: dict[str, Any] | None
    seat_names: tuple[str | None, ...]
    seat_hashes: tuple[str | None, ...]
    invite_key: str
    spectator_key: str
    # Who plays each seat when not its person (a bot's level, else None), and which seats a bot took over
    # from their player (app/services/bots.py); the turn timer (seconds) and the deadline (ISO) of the
    # decision under way (app/services/timers.py).
    seat_bots: tuple[str | None, ...] = ()
    seat_takeovers: tuple[bool, ...] = ()
    turn_timer: int | None = None
    deadline: str | None = None
    # Every change of who plays a seat so far, oldest first: {"version", "seat", "kind", "reason", "level", "at"}
    # (models.SeatChange), for the log of the page: what happened at a timeout, who took a seat back.
    seat_changes: tuple[dict[str, Any], ...] = ()
    # Who may watch (without spectators the spectator key opens nothing), how many versions behind the game
    # spectators see it (`spectator_snapshot`), and whether the open tables list it.
    spectators_allowed: bool = True
    spectator_delay: int = 0
    private: bool = False
    views: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    # What each seat's views at this table remember between versions (`Game.view`), handed from each snapshot
    # to the next by `_apply`: a seat's view projects only the log entries new since its last view, and keeps
    # that view's objects for the parts that did not change. It lives and dies with the table's snapshot in the
    # cache; per seat, the log it last saw (the state's own list), the list of its visible entries and its last
    # view (the same objects as in the views), and the entries' projections, made once for every seat: a few kB
    # besides the views the snapshot holds anyway.
    view_memo: dict[int | None, Any] = field(default_factory=dict, repr=False)
    # The seats' facts and the seat changes in the table part of the views (`client_view`): one list of each
    # for every seat's view, handed on by `_apply` (a move changes no seat). Not copied by `dataclasses.replace`.
    seat_facts: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = field(default=None, init=False,
                                                                                 repr=False)


@dataclass(frozen=True)
class Audit:
    """One admin action for the audit log: who did it, what, to which table, with what detail."""

    who: str
    action: str
    table_id: str | None = None
    detail: str = ""

    def row(self) -> dict[str, Any]:
        return {"who": self.who[:80], "action": self.action, "table_id": self.table_id, "detail": self.detail}


@dataclass(frozen=True)
class Identity:
    """Who is calling: a seat (number and its token hash) or a spectator (seat None)."""

    table_id: str
    seat: int | None
    token_hash: str | None


class SnapshotCache:
    """The latest committed snapshot of each table in play that this process touched: its decoded state and
    the views computed from it. It pays on every move (a move is checked and applied against it without
    reading or decoding the state again) and on every view (computed once per seat and version).

    Beside it, for the tables that delay their spectators, the spectators' snapshot (`spectator_snapshot`):
    the replay of the game goes on from it, so each new version costs the few actions since, not the game.

    Bound: tables in play only (a finished table is dropped from it as soon as it ends: it is read again
    from the database on the rare visit after the game), used in the last `idle` seconds (a table left
    alone costs one decode when someone comes back), and at most `size` of them, the least recently used
    going first; a delayed snapshot only beside its table's and going with it. A snapshot weighs about
    100 kB (decoded state and views), so the bound caps the cache near 100 MB (200 with every table
    delayed) even on a club with more live tables than that."""

    def __init__(self, size: int = CACHE_TABLES, idle: float = CACHE_IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.size = size
        self.idle = idle
        self.clock = clock
        self._items: OrderedDict[str, Snapshot] = OrderedDict()  # the least recently used first
        self._used: dict[str, float] = {}
        self._delayed: dict[str, Snapshot] = {}

    def get(self, table_id: str, version: int | None = None) -> Snapshot | None:
        self._expire()
        snap = self._items.get(table_id)
        if snap is None or (version is not None and snap.version != version):
            return None
        self._items.move_to_end(table_id)
        self._used[table_id] = self.clock()
        return snap

    def _expire(self) -> None:
        """Drops the tables nobody used for `idle` seconds (the least recently used come first)."""
        too_old = self.clock() - self.idle
        while self._items and self._used[next(iter(self._items))] < too_old:
            self.drop(next(iter(self._items)))

    def tables(self) -> list[str]:
        """The ids of the tables held, the least recently used first."""
        return list(self._items)

    def delayed_tables(self) -> list[str]:
        """The ids of the tables whose spectators' snapshot is held."""
        return list(self._delayed)

    def drop(self, table_id: str) -> None:
        self._items.pop(table_id, None)
        self._used.pop(table_id, None)
        self._delayed.pop(table_id, None)

    def delayed(self, table_id: str) -> Snapshot | None:
        """The spectators' snapshot of a table that delays them, as last built."""
        return self._delayed.get(table_id)

    def put_delayed(self, snap: Snapshot) -> None:
        """Keeps the spectators' snapshot of a table whose own snapshot is held (not otherwise: it would
        outlive it)."""
        if snap.id in self._items:
            self._delayed[snap.id] = snap

    def put(self, snap: Snapshot) -> Snapshot:
        """Keeps `snap` if the table is in play (and newer than what is held); returns the newest known."""
        current = self._items.get(snap.id)
        if current is not None and current.version > snap.version:
            return current  # never go back in time
        if snap.status not in LIVE:
            self.drop(snap.id)
            return snap
        self._items[snap.id] = snap
        self._items.move_to_end(snap.id)
        self._used[snap.id] = self.clock()
        self._expire()
        while len(self._items) > self.size:
            self.drop(next(iter(self._items)))
        return snap


def clean_name(raw: Any) -> str:
    if not isinstance(raw, str):
        raise BadRequest("A display name is needed.")
    name = unicodedata.normalize("NFC", raw).strip()
    name = re.sub(r"\s+", " ", name)
    if not name:
        raise BadRequest("A display name is needed.")
    if len(name) > NAME_MAX:
        raise BadRequest("A display name has at most {max} characters.", {"max": NAME_MAX})
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadRequest("A display name cannot contain control characters.")
    return name


def check_action_input(version: Any, action: Any) -> None:
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise BadRequest("\"version\" must be the table version you saw (a whole number).")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest("\"action\" must be an object with a \"type\".")
    if len(canonical_action(action)) > ACTION_MAX_BYTES:
        raise BadRequest("That action is too large.")


# The write of the hot path, for a batch of moves (see commits.py): each move is a compare-and-set of its
# table's row (only if it is still at the version the move was computed from, and still playing) chained
# to the insert of its log row, all in one statement (one round trip, one commit). Postgres reports which
# tables it wrote; a move whose table had moved on wrote nothing.
_PG_ACT_MANY = (
    "WITH input AS ("
    " SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::boolean[],"
    " $7::int[], $8::text[], $10::timestamptz[]) AS i(id, old, new, state, status, finished, seat, action,"
    " deadline)),"
    # The rows are locked in the order of their ids, as every statement that locks several tables rows
    # does (the presence writer too): two of them can wait for each other, never deadlock.
    # (FOR NO KEY UPDATE: the lock an update takes, which the foreign keys' checks of other writes do not wait for.)
    " locked AS (SELECT t.id FROM tables t WHERE t.id = ANY($1::text[]) ORDER BY t.id FOR NO KEY UPDATE),"
    " moved AS ("
    " UPDATE tables t SET state = i.state, version = i.new, status = i.status, updated_at = $9,"
    " deadline_at = i.deadline,"
    " finished_at = CASE WHEN i.finished THEN $9 ELSE t.finished_at END"
    " FROM input i JOIN locked l ON l.id = i.id"
    " WHERE t.id = i.id AND t.version = i.old AND t.status = 'playing'"
    " RETURNING t.id, i.new, i.seat, i.action)"
    " INSERT INTO actions (table_id, version, seat, action, created_at)"
    " SELECT id, new, seat, action, $9 FROM moved RETURNING table_id"
)
_PG_ACT_ONE = (  # _PG_ACT_MANY for a batch of one move (same parameters, not arrays)
    "WITH moved AS ("
    " UPDATE tables t SET state = $4, version = $3, status = $5, updated_at = $9, deadline_at = $10,"
    " finished_at = CASE WHEN $6 THEN $9 ELSE t.finished_at END"
    " WHERE t.id = $1 AND t.version = $2 AND t.status = 'playing' RETURNING t.id)"
    " INSERT INTO actions (table_id, version, seat, action, created_at)"
    " SELECT id, $3, $7, $8, $9 FROM moved RETURNING table_id"
)
_SQLITE_CAS_SQL = (  # sqlite3's own parameters: the committer's writer is not SQLAlchemy's
    "UPDATE tables SET state = :state, version = :new, status = :status, updated_at = :at,"
    " deadline_at = :deadline, finished_at = CASE WHEN :finished THEN :at ELSE finished_at END"
    " WHERE id = :id AND version = :old AND status = 'playing'"
)
_SQLITE_LOG_SQL = (
    "INSERT INTO actions (table_id, version, seat, action, created_at) VALUES (:id, :new, :seat, :action, :at)"
)


async def _pg_write_moves(pg: Any, moves: list[dict[str, Any]]) -> set[str]:
    """One batch on an asyncpg connection: the ids of the tables whose move was written."""
    if len(moves) == 1:  # no load: the simpler statement is 0.1 ms quicker (no arrays, no lock order)
        m = moves[0]
        rows = await pg.fetch(_PG_ACT_ONE, m["id"], m["old"], m["new"], m["state"], m["status"], m["finished"],
                              m["seat"], m["action"], m["at"], m["deadline"])
    else:
        rows = await pg.fetch(
            _PG_ACT_MANY, [m["id"] for m in moves], [m["old"] for m in moves], [m["new"] for m in moves],
            [m["state"] for m in moves], [m["status"] for m in moves], [m["finished"] for m in moves],
            [m["seat"] for m in moves], [m["action"] for m in moves], moves[0]["at"], [m["deadline"] for m in moves])
    return {r[0] for r in rows}


async def _pg_prepare_writes(pg: Any) -> None:
    """Both statements of `_pg_write_moves` run once for no table (nothing is written): asyncpg keeps them
    prepared on this connection."""
    nothing = {"id": "", "old": 0, "new": 0, "state": "", "status": "", "finished": False, "seat": 0, "action": "",
               "at": now(), "deadline": None}
    for moves in ([nothing], [nothing, nothing]):  # the one-move statement, the batch's
        await _pg_write_moves(pg, moves)


def _sqlite_write_moves(connection: Any, moves: list[dict[str, Any]]) -> set[str]:
    """One batch on a sqlite3 connection, inside the writer's transaction: the ids of the tables written."""
    written = {m["id"] for m in moves if connection.execute(_SQLITE_CAS_SQL, m).rowcount == 1}
    connection.executemany(_SQLITE_LOG_SQL, [m for m in moves if m["id"] in written])
    return written


_VERSION_SQL = text("SELECT version FROM tables WHERE id = :id")
_TABLE_SQL = text(
    "SELECT id, game, players, options, status, version, state, invite_key, spectator_key, turn_timer,"
    " deadline_at, spectators_allowed, spectator_delay, private FROM tables WHERE id = :id"
)
_SEATS_SQL = text(
    "SELECT number, name, token_hash, bot_level, bot_takeover FROM seats WHERE table_id = :id ORDER BY number"
)
_CHANGES_SQL = (select(SEAT_CHANGES.c.version, SEAT_CHANGES.c.seat, SEAT_CHANGES.c.kind, SEAT_CHANGES.c.reason,
                       SEAT_CHANGES.c.level, SEAT_CHANGES.c.created_at)
                .where(SEAT_CHANGES.c.table_id == bindparam("id")).order_by(SEAT_CHANGES.c.version, SEAT_CHANGES.c.seat))


# Conditions on a list of values, each built once, the list passed as the parameter `ids` at each execution: an
# `in_` built at each call leaves its parameters in cycles (SQLAlchemy keeps a parameter's clones, itself
# among them) that only the cycle collector frees, a few for every socket opened or closed.
TABLES_AMONG = TABLES.c.id.in_(bindparam("ids", expanding=True))
SEATS_AMONG = SEATS.c.table_id.in_(bindparam("ids", expanding=True))
ACTIONS_AMONG = ACTIONS.c.table_id.in_(bindparam("ids", expanding=True))
SEAT_CHANGES_AMONG = SEAT_CHANGES.c.table_id.in_(bindparam("ids", expanding=True))
PRESENCE_AMONG = PRESENCE.c.table_id.in_(bindparam("ids", expanding=True))
TABLE_LIVE = TABLES.c.status.in_(LIVE)


def _snapshot_rows(conn: Any, table_id: str, known_version: int | None = None) -> tuple[Any, list[Any], list[Any]] | None:
    """The rows a table's snapshot is made of (`TablesService._snapshot`); None when its version is still
    `known_version` (the snapshot cached is current). One read, in one hop (`TablesService._read`)."""
    if known_version is not None:
        version = conn.execute(_VERSION_SQL, {"id": table_id}).scalar()
        if version is None:
            raise NotFound("There is no such table.")
        if version == known_version:
            return None
    row = conn.execute(_TABLE_SQL, {"id": table_id}).first()
    if row is None:
        raise NotFound("There is no such table.")
    return row, conn.execute(_SEATS_SQL, {"id": table_id}).all(), conn.execute(_CHANGES_SQL, {"id": table_id}).all()


_COMMITTED_SQL = select(TABLES.c.id, TABLES.c.version, TABLES.c.rematch_id).where(TABLES_AMONG)


def _committed_rows(conn: Any, table_ids: list[str]) -> dict[str, tuple[int, str | None]]:
    """The version and the rematch of each of these tables as committed (`TablesService.committed`)."""
    found: dict[str, tuple[int, str | None]] = {}
    for start in range(0, len(table_ids), 500):  # (well under any database's limit of bound parameters)
        rows = conn.execute(_COMMITTED_SQL, {"ids": table_ids[start:start + 500]})
        found.update((row.id, (row.version, row.rematch_id)) for row in rows)
    return found


# A commit hook gets the new snapshot and, for an action, what its caller passed as `acknowledge` (opaque here:
# the hub uses it to acknowledge the action inside the patch that carries it).
CommitHook = Callable[[Snapshot, Any], Awaitable[None]]
FACTS = ("rematch", "rematch_watch_key")  # the names of TablesService.facts


class Timings:
    """Where the time of the moves goes, summed over this process's life (for tests/bench): seconds
    spent in each part of the write path, and the number of moves. Each part costs one clock read."""

    PARTS = ("engine", "commit", "publish", "views", "push")

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(self.PARTS, 0.0)
        self.moves = 0

    def add(self, part: str, seconds: float) -> None:
        self.seconds[part] += seconds

    def as_dict(self) -> dict[str, Any]:
        n = max(1, self.moves)
        return {"moves": self.moves,
                "us_per_move": {part: round(1e6 * s / n, 1) for part, s in self.seconds.items()}}


class TablesService:
    """Create, join, leave, act, read and replay tables. One per process, shared by all requests."""

    def __init__(self, engine: AsyncEngine, games: Mapping[str, Game], *, is_postgres: bool):
        self.engine = engine
        self.games = dict(games)
        self.is_postgres = is_postgres
        # Postgres: statements of the hot path run outside explicit transactions (each is atomic).
        self.autocommit = engine.execution_options(isolation_level="AUTOCOMMIT") if is_postgres else engine
        self.cache = SnapshotCache()
        # One lock per table while someone holds or waits for it (weak: it goes with its last user).
        self._table_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._write_lock = asyncio.Lock()  # SQLite: one writer per process
        self.on_commit: list[CommitHook] = []
        # Called with a table's id after a commit that changed its facts (`facts`) without a new version.
        self.on_facts: list[Callable[[str], Awaitable[None]]] = []
        # Called with (game, seconds the commit took) after each move's commit (app/observability.py).
        self.on_move: list[Callable[[str, float], None]] = []
        # Called with a move's new snapshot while its commit is on its way (GroupCommitter's `meanwhile`): work
        # that prepares the delivery (the views), never tells anyone.
        self.on_writing: list[Callable[[Snapshot], None]] = []
        # SQLite has one writer: a second batch in flight would only wait for the first (`_write_many`'s lock),
        # where it could have joined the next batch; one at a time, each transaction and disk flush carries
        # every move that came meanwhile (side_by_side.sh at T=50 and 200: +15-30 % moves/s).
        self.committer = GroupCommitter(self._write_many, max_in_flight=MAX_IN_FLIGHT if is_postgres else 1)
        # The committer's own connections (app/db.py says why they are not SQLAlchemy's).
        self._batch_writer = PostgresWriters(engine, MAX_IN_FLIGHT, _pg_prepare_writes) if is_postgres else SqliteWriter(engine)
        self._readers = None if is_postgres else SqliteReaders.for_engine(engine)
        self.timings = Timings()

    # ------------------------------------------------------------------------------------- helpers

    def game(self, slug: str) -> Game:
        game = self.games.get(slug)
        if game is None:
            raise NotFound("This table's game is not offered on this server.")
        return game

    def table_lock(self, table_id: str) -> asyncio.Lock:
        lock = self._table_locks.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._table_locks[table_id] = lock
        return lock

    async def _publish(self, snap: Snapshot, acknowledge: Any = None) -> None:
        for hook in self.on_commit:
            await hook(snap, acknowledge)

    def client_view(self, snap: Snapshot, seat: int | None) -> dict[str, Any]:
        """What one seat (None: a spectator) sees of the table at this version: public table facts and
        the game's own view for that seat. Computed once per seat and version."""
        view = snap.views.get(seat)
        if view is None:
            game = self.game(snap.game)
            if snap.seat_facts is None:
                snap.seat_facts = ([_seat_facts(snap, n) for n in range(len(snap.seat_names))],
                                   list(snap.seat_changes))
            seats, seat_changes = snap.seat_facts
            view = {
                "table": {
                    "id": snap.id,
                    "game": snap.game,
                    "status": snap.status,
                    "players": snap.players,
                    "seats": seats,
                    "you": seat,
                    "turn_timer": snap.turn_timer,
                    "deadline": snap.deadline,
                    "seat_changes": seat_changes,
                },
                "game": game.view(snap.state, seat, snap.view_memo) if snap.state is not None else None,
            }
            snap.views[seat] = view
        return view

    async def _load(self, table_id: str) -> Snapshot:
        return self._snapshot(*await self._read(_snapshot_rows, table_id))

    def _snapshot(self, row: Any, seats: Sequence[Any], changes: Sequence[Any]) -> Snapshot:
        """The table of these rows (`_snapshot_rows`), now the cache's."""
        options = row.options if isinstance(row.options, dict) else json.loads(row.options)
        game = self.game(row.game)
        snap = Snapshot(
            id=row.id, game=row.game, players=row.players, options=options, status=row.status,
            version=row.version, state=game.decode(row.state) if row.state is not None else None,
            seat_names=tuple(s.name for s in seats), seat_hashes=tuple(s.token_hash for s in seats),
            invite_key=row.invite_key, spectator_key=row.spectator_key,
            seat_bots=tuple(s.bot_level for s in seats), seat_takeovers=tuple(bool(s.bot_takeover) for s in seats),
            turn_timer=row.turn_timer, deadline=_iso(row.deadline_at),
            seat_changes=tuple({"version": c.version, "seat": c.seat, "kind": c.kind, "reason": c.reason,
                                "level": c.level, "at": _iso(c.created_at)} for c in changes),
            spectators_allowed=bool(row.spectators_allowed), spectator_delay=row.spectator_delay,
            private=bool(row.private),
        )
        return self.cache.put(snap)

    async def current(self, table_id: str) -> Snapshot:
        """The table as committed now (from the cache when its version is still current)."""
        cached = self.cache.get(table_id)
        rows = await self._read(_snapshot_rows, table_id, None if cached is None else cached.version)
        return cached if rows is None else self._snapshot(*rows)

    async def committed(self, table_ids: Sequence[str]) -> dict[str, tuple[int, str | None]]:
        """The version and the rematch (None until linked) of each of these tables as committed now, in one read,
        without waiting for a move under way; a table deleted meanwhile is left out."""
        return await self._read(_committed_rows, list(table_ids)) if table_ids else {}

    async def _read(self, read: Callable[..., Any], *args: Any) -> Any:
        """`read(conn, *args)`, reads written as plain calls: on SQLite in one hop to a reader's thread
        (`SqliteReaders`), on Postgres through the pool (asyncpg needs no thread)."""
        if self._readers is None:
            async with self.autocommit.connect() as conn:
                return await conn.run_sync(read, *args)
        return await self._readers.run(read, *args)

    async def at_least(self, table_id: str, version: int) -> Snapshot:
        """A snapshot at `version` or later: from the cache if it has it, else from the database."""
        cached = self.cache.get(table_id)
        if cached is not None and cached.version >= version:
            return cached
        return await self._load(table_id)

    # ------------------------------------------------------------------------------------ identity

    async def identify(self, table_id: str, credential: str | None) -> Identity:
        """A seat token or the table's spectator key -> who is calling. 404 / 403 otherwise."""
        snap = await self.current(table_id)
        if not credential:
            raise Forbidden("This needs a seat token or the spectator key.")
        if not well_formed(credential):
            raise Forbidden("That seat token or spectator key is not valid for this table.")
        if same_secret(credential, snap.spectator_key):
            if not snap.spectators_allowed:
                raise Forbidden("This table does not allow spectators.")
            return Identity(table_id, None, None)
        digest = hash_token(credential)
        number = _seat_of(snap, digest)
        if number is not None:
            return Identity(table_id, number, digest)
        raise Forbidden("That seat token or spectator key is not valid for this table.")

    # ------------------------------------------------------------------------------------ lifecycle

    async def create(self, game_slug: str, players: int, options: dict[str, Any] | None = None,
                     turn_timer: int | None = None, bots: Any = None, *, spectators_allowed: bool = True,
                     spectator_delay: int = 0, private: bool = False) -> Snapshot:
        """A new table. `bots` gives seats to bots ({"1": "strong"} or one level or None per seat); a table
        of bots only starts at once (a demo table). `turn_timer`: seconds per decision (None: no timer).
        `spectators_allowed`, `spectator_delay` (versions behind the game), `private` (never listed)."""
        game = self.games.get(game_slug)
        if game is None:
            raise BadRequest("There is no game {game} here.", {"game": repr(game_slug)})
        if not isinstance(players, int) or isinstance(players, bool) or \
                not game.min_players <= players <= game.max_players:
            raise BadRequest("{game} is played by {min} to {max} players.",
                             {"game": game.title, "min": game.min_players, "max": game.max_players})
        try:
            resolved = game.resolve_options(options or {})
        except ValueError as e:
            raise BadRequest(str(e)) from None
        if turn_timer is not None and (not isinstance(turn_timer, int) or isinstance(turn_timer, bool)
                                       or not 1 <= turn_timer <= MAX_TURN_SECONDS):
            raise BadRequest("A turn timer is between one second and one day.")
        if not isinstance(spectator_delay, int) or isinstance(spectator_delay, bool) \
                or not 0 <= spectator_delay <= MAX_SPECTATOR_DELAY:
            raise BadRequest("A spectator delay is between 0 and {max} actions.", {"max": MAX_SPECTATOR_DELAY})
        levels = seat_levels(bots, players)
        names = bot_names(levels)
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        seed = secrets.randbits(63)
        at = now()
        # Nobody to wait for: a table of bots only starts at once.
        state = game.setup(players, seed, resolved) if all(levels) else None
        async with self._writer() as conn:
            await conn.execute(insert(TABLES).values(
                id=table_id, game=game_slug, players=players, options=resolved, seed=seed,
                status=LOBBY if state is None else PLAYING, version=0, rules_version=game.rules_version,
                state=None if state is None else game.encode(state), invite_key=secrets.token_urlsafe(KEY_BYTES),
                spectator_key=secrets.token_urlsafe(KEY_BYTES), spectators=0, turn_timer=turn_timer,
                created_at=at, updated_at=at, started_at=None if state is None else at,
                spectators_allowed=bool(spectators_allowed), spectator_delay=spectator_delay, private=bool(private)))
            await conn.execute(insert(SEATS), [
                {"table_id": table_id, "number": n, "name": names[n], "connected": False,
                 "token_hash": hidden_token_hash() if levels[n] else None, "joined_at": at if levels[n] else None,
                 "bot_level": levels[n], "bot_takeover": False} for n in range(players)])
        snap = await self._load(table_id)
        if state is not None:
            await self._publish(snap)  # the bots start playing
        return snap

    async def join(self, table_id: str, invite_key: Any, name: Any, seat: Any = None) -> tuple[int, str]:
        """Claims a free seat with the invite key; returns (seat number, the new secret seat token).
        The game starts (setup with the secret seed) when the last seat is claimed."""
        name = clean_name(name)
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise BadRequest("\"seat\" must be a seat number.")
        if not isinstance(invite_key, str) or not invite_key:
            raise Forbidden("Joining needs the table's invite key.")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        async with self.table_lock(table_id):
            async with self._writer() as conn:
                row = (await conn.execute(
                    select(TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.seed, TABLES.c.status,
                           TABLES.c.version, TABLES.c.invite_key, TABLES.c.turn_timer)
                    .where(TABLES.c.id == table_id).with_for_update())).first()
                if row is None:
                    raise NotFound("There is no such table.")
                if not same_secret(invite_key, row.invite_key):
                    raise Forbidden("That invite key is not valid for this table.")
                if row.status != LOBBY:
                    raise Conflict("This table has already started.")
                seats = (await conn.execute(select(SEATS.c.number, SEATS.c.token_hash, SEATS.c.bot_level)
                                            .where(SEATS.c.table_id == table_id).order_by(SEATS.c.number))).all()
                free = [s.number for s in seats if s.token_hash is None]
                if seat is None:
                    if not free:
                        raise Conflict("Every seat at this table is taken.")
                    seat = free[0]
                elif not 0 <= seat < row.players:
                    raise BadRequest("There is no such seat at this table.")
                elif seat not in free:
                    raise Conflict("That seat is taken.")
                at = now()
                await conn.execute(update(SEATS).where(SEATS.c.table_id == table_id, SEATS.c.number == seat)
                                   .values(name=name, token_hash=hash_token(token), joined_at=at))
                changes: dict[str, Any] = {"version": row.version + 1, "updated_at": at}
                if len(free) == 1:  # the last free seat: the game starts
                    game = self.game(row.game)
                    options = row.options if isinstance(row.options, dict) else json.loads(row.options)
                    state = game.setup(row.players, row.seed, options)
                    deadline = turn_deadline(row.turn_timer, [s.bot_level for s in seats], game.to_act(state), at)
                    changes.update(status=PLAYING, state=game.encode(state), started_at=at, deadline_at=deadline)
                await conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(**changes))
            snap = await self._load(table_id)
            await self._publish(snap)
        return seat, token

    async def leave(self, table_id: str, credential: str | None) -> int:
        """Gives a seat back before the game starts; returns the new table version."""
        if not credential:
            raise Forbidden("Leaving needs your seat token.")
        if not well_formed(credential):
            raise Forbidden("That seat token is not valid for this table.")
        digest = hash_token(credential)
        async with self.table_lock(table_id):
            async with self._writer() as conn:
                row = (await conn.execute(select(TABLES.c.status, TABLES.c.version)
                                          .where(TABLES.c.id == table_id).with_for_update())).first()
                if row is None:
                    raise NotFound("There is no such table.")
                number = (await conn.execute(select(SEATS.c.number).where(
                    SEATS.c.table_id == table_id, SEATS.c.token_hash == digest))).scalar()
                if number is None:
                    raise Forbidden("That seat token is not valid for this table.")
                if row.status != LOBBY:
                    raise Conflict("The game has started: seats can only be left before the start.")
                await conn.execute(update(SEATS).where(SEATS.c.table_id == table_id, SEATS.c.number == number)
                                   .values(name=None, token_hash=None, joined_at=None))
                await conn.execute(update(TABLES).where(TABLES.c.id == table_id)
                                   .values(version=row.version + 1, updated_at=now()))
            snap = await self._load(table_id)
            await self._publish(snap)
        return snap.version

    async def change_seats(self, snap: Snapshot, changes: dict[int, str | None], reason: str, *,
                           evict: bool = False, audit: Audit | None = None) -> Snapshot | None:
        """One new version in which the seats of `changes` pass to a bot (a level) or back to their player
        (None), if the table is still playing at `snap.version` (else nothing is written: None). Each seat
        that changes hands is a row of the seat changes (see models.SeatChange). The caller holds the
        table's lock. The deadline restarts for the new version. `evict`: the player is removed (their
        token no longer opens the seat, which stays the bot's); `audit`: the admin action, written with it."""
        game = self.game(snap.game)
        seat_bots = list(snap.seat_bots)
        for seat, level in changes.items():
            seat_bots[seat] = level
        at = now()
        new_version = snap.version + 1
        async with self._writer() as conn:
            moved = await conn.execute(
                update(TABLES).where(TABLES.c.id == snap.id, TABLES.c.version == snap.version,
                                     TABLES.c.status == PLAYING)
                .values(version=new_version, updated_at=at,
                        deadline_at=turn_deadline(snap.turn_timer, seat_bots, game.to_act(snap.state), at)))
            if moved.rowcount != 1:
                return None
            for seat, level in sorted(changes.items()):
                await conn.execute(update(SEATS).where(SEATS.c.table_id == snap.id, SEATS.c.number == seat)
                                   .values(bot_level=level, bot_takeover=level is not None and not evict,
                                           **({"token_hash": hidden_token_hash()} if evict else {})))
            if audit is not None:
                await conn.execute(insert(AUDIT).values(at=at, **audit.row()))
            await conn.execute(insert(SEAT_CHANGES), [
                {"table_id": snap.id, "version": new_version, "seat": seat, "kind": TAKEOVER if level else RECLAIM,
                 "reason": reason, "level": level, "created_at": at} for seat, level in sorted(changes.items())])
        new = await self._load(snap.id)
        await self._publish(new)
        return new

    # ----------------------------------------------------------------------------- the write path

    async def act(self, table_id: str, credential: str | None, version: Any, action: Any, *,
                  token_hash: str | None = None, acknowledge: Any = None) -> int:
        """Applies one action for the seat holding `credential` (or `token_hash`) if the table is still at
        `version`; returns the new version once it is committed and published.

        The checks run against this process's snapshot of the table, which is never ahead of the database;
        when the caller claims a later version than the snapshot's (another process moved the table on), or
        the table is not playing, the snapshot is read again first. Seats never change once a game has
        started, so the seat check holds on any snapshot of a playing table; the version check is made
        again, atomically, by the database write (a compare-and-set), so a snapshot that fell behind can
        only cost a 409, never a lost or doubled move."""
        check_action_input(version, action)
        if token_hash is None and not credential:
            raise Forbidden("Acting needs your seat token.")
        if token_hash is None and not well_formed(credential):
            raise Forbidden("That seat token is not valid for this table.")
        digest = token_hash or hash_token(credential)
        async with self.table_lock(table_id):
            snap = self.cache.get(table_id)
            if snap is None or snap.status != PLAYING or version > snap.version:
                snap = await self._load(table_id)
            seat = _seat_of(snap, digest)
            if seat is None:
                raise Forbidden("That seat token is not valid for this table.")
            if snap.status != PLAYING or version != snap.version:
                message = ("The game has not started yet." if snap.status == LOBBY else
                           "The game is over." if snap.status in ENDED else
                           "The table has moved on since that version; here is the current view.")
                raise Conflict(message, snap.version, self.client_view(snap, seat))
            new_snap, params = self._apply(snap, seat, action)
            # The commit and the push go on even if this caller goes away meanwhile: a committed move is
            # always published.
            await asyncio.shield(self._commit(new_snap, params, seat, acknowledge))
        return new_snap.version

    def _apply(self, snap: Snapshot, seat: int, action: dict[str, Any]) -> tuple[Snapshot, dict[str, Any]]:
        started = time.perf_counter()
        game = self.game(snap.game)
        if seat not in game.to_act(snap.state):
            raise Forbidden("It is not your turn to act.")
        try:
            new_state = game.apply_marked(snap.state, seat, action)
        except IllegalAction as e:
            raise Illegal(str(e) or "That move is not allowed now.", (e.code, e.args)) from None
        except Exception:  # an engine bug: nothing was written; say nothing about the state
            log.exception("engine %s failed on an action at table %s version %s", snap.game, snap.id,
                          snap.version)
            raise EngineFailure("The game engine failed on this action; nothing was changed.") from None
        # Keep the canonical form (what every process reads back from the database), so that the
        # bytes a seat receives never depend on which process computed them or on dict order.
        new_state, encoded = game.canonical_after(new_state, snap.state)
        finished = game.finished(new_state)
        at = now()
        deadline = turn_deadline(snap.turn_timer, snap.seat_bots, game.to_act(new_state), at) \
            if snap.turn_timer else None
        if snap.deadline is not None and deadline is not None and (action == UNDO or game.can_undo(new_state, seat)):
            # A step that may be taken back, or taking one back, does not restart the turn's clock: placing and
            # taking back in a loop must not hold the table forever (RULES 0.6).
            deadline = datetime.fromisoformat(snap.deadline)
        params = {
            "id": snap.id, "old": snap.version, "new": snap.version + 1, "state": encoded,
            "status": FINISHED if finished else PLAYING, "finished": finished, "at": at,
            "seat": seat, "action": canonical_action(action), "deadline": deadline,
        }
        new_snap = Snapshot(
            id=snap.id, game=snap.game, players=snap.players, options=snap.options, status=params["status"],
            version=params["new"], state=new_state, seat_names=snap.seat_names, seat_hashes=snap.seat_hashes,
            invite_key=snap.invite_key, spectator_key=snap.spectator_key, seat_bots=snap.seat_bots,
            seat_takeovers=snap.seat_takeovers, turn_timer=snap.turn_timer, deadline=_iso(deadline),
            seat_changes=snap.seat_changes,
            spectators_allowed=snap.spectators_allowed, spectator_delay=snap.spectator_delay, private=snap.private,
            view_memo=snap.view_memo,
        )
        new_snap.seat_facts = snap.seat_facts
        self.timings.add("engine", time.perf_counter() - started)
        return new_snap, params

    async def _commit(self, new_snap: Snapshot, params: dict[str, Any], seat: int, acknowledge: Any = None) -> None:
        started = time.perf_counter()
        written = await self.committer.write(params, partial(self._writing, new_snap) if self.on_writing else None)
        committed = time.perf_counter()
        self.timings.add("commit", committed - started)
        if not written:
            snap = await self._load(new_snap.id)
            raise Conflict("The table has moved on since that version; here is the current view.",
                           snap.version, self.client_view(snap, seat))
        for observe in self.on_move:
            observe(new_snap.game, committed - started)
        self.cache.put(new_snap)
        await self._publish(new_snap, acknowledge)
        self.timings.add("publish", time.perf_counter() - committed)
        self.timings.moves += 1

    async def open_writer(self) -> None:
        """Opens the committer's connections now (at the server's start) rather than on the first move; if the
        database cannot be reached yet, the first move tries again (and /readyz says so meanwhile)."""
        try:
            await self._batch_writer.open()
        except Exception as e:
            log.warning("the committer's connections could not be opened yet: %s", e)

    def _writing(self, new_snap: Snapshot) -> None:
        for prepare in self.on_writing:
            prepare(new_snap)

    async def _write_many(self, moves: list[dict[str, Any]]) -> set[str]:
        """One batch of the group committer: the ids of the tables whose move was written."""
        if self.is_postgres:
            return await self._batch_writer.run(_pg_write_moves, moves)
        async with self._write_lock:  # SQLite: one writer at a time in this process
            return await self._batch_writer.run(_sqlite_write_moves, moves)

    def _writer(self):
        """A write transaction: on SQLite also the process-wide writer lock."""
        return _Writer(self)

    async def _write_sync(self, write: Callable[..., Any], *args: Any) -> Any:
        """`write(conn, *args)`, a write transaction written as plain calls: on SQLite it runs on the committer's
        thread in one hop (`SqliteWriter.run_sync`), where through aiosqlite each statement is a hop; the writes
        that come while games are played (the sockets' presence) then hold SQLite's one write lock for their
        statements alone (0.4-0.5 ms) where they held it across their hops (8-16 ms at one table), each move of
        the process waiting behind them."""
        if self.is_postgres:
            async with self._writer() as conn:
                return await conn.run_sync(write, *args)
        async with self._write_lock:
            return await self._batch_writer.run_sync(write, *args)

    # ------------------------------------------------------------------------------------- reading

    async def view(self, table_id: str, credential: str | None) -> tuple[int, dict[str, Any]]:
        ident = await self.identify(table_id, credential)
        snap = await self.seen_by(await self.current(table_id), ident.seat)
        return snap.version, self.client_view(snap, ident.seat)

    def held(self) -> dict[str, int]:
        """The tables this service keeps in memory, by cache (the /metrics gauge tabula_held)."""
        return {"snapshots": len(self.cache.tables()), "spectator_snapshots": len(self.cache.delayed_tables()),
                "table_locks": len(self._table_locks)}

    async def seen_by(self, snap: Snapshot, seat: int | None) -> Snapshot:
        """The table as `seat` may see it: the current snapshot for a seat, the delayed one for spectators."""
        return snap if seat is not None else await self.spectator_snapshot(snap)

    async def spectator_snapshot(self, snap: Snapshot) -> Snapshot:
        """The table as its spectators see it: `spectator_delay` versions behind while the game is played
        (the whole game once it is over). Rebuilt from the stored action log, never from a copy kept in
        memory: every server process then shows spectators the same thing, a restart loses nothing, and no
        new state is stored. The replay goes on from the last delayed snapshot of the table (kept beside
        its own in the cache), so each new version costs the few actions since, not the whole game."""
        if snap.spectator_delay <= 0 or snap.status != PLAYING:
            return snap
        target = max(0, snap.version - snap.spectator_delay)
        held = self.cache.delayed(snap.id)
        if held is not None and held.version == target:
            return held
        game = self.game(snap.game)
        if held is not None and held.version < target and held.state is not None:
            state, after = held.state, held.version
        else:
            state, after = game.setup(snap.players, await self.seed(snap.id), snap.options), -1
        async with self.autocommit.connect() as conn:
            rows = (await conn.execute(select(ACTIONS.c.seat, ACTIONS.c.action).where(
                ACTIONS.c.table_id == snap.id, ACTIONS.c.version > after, ACTIONS.c.version <= target)
                .order_by(ACTIONS.c.version))).all()
        for row in rows:
            state = game.apply_marked(state, row.seat, json.loads(row.action))
        state = game.decode(game.encode(state))  # the canonical form, as every snapshot holds it
        # The seat changes the delayed game has not reached yet are not shown either.
        delayed = dataclasses.replace(snap, version=target, state=state, deadline=None, views={},
                                      seat_changes=tuple(c for c in snap.seat_changes if c["version"] <= target))
        self.cache.put_delayed(delayed)
        return delayed

    async def summary(self, table_id: str) -> dict[str, Any]:
        """Public facts about a table (anyone with its id may read them)."""
        async with self.autocommit.connect() as conn:
            row = (await conn.execute(select(
                TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.status, TABLES.c.version,
                TABLES.c.spectators, TABLES.c.turn_timer, TABLES.c.deadline_at, TABLES.c.created_at,
                TABLES.c.started_at, TABLES.c.finished_at, TABLES.c.spectators_allowed, TABLES.c.spectator_delay,
                TABLES.c.private).where(TABLES.c.id == table_id))).first()
            if row is None:
                raise NotFound("There is no such table.")
            seats = (await conn.execute(select(
                SEATS.c.number, SEATS.c.name, SEATS.c.connected, SEATS.c.bot_level, SEATS.c.bot_takeover,
                SEATS.c.away, SEATS.c.presence_since)
                .where(SEATS.c.table_id == table_id).order_by(SEATS.c.number))).all()
        game = self.games.get(row.game)
        return {
            "id": row.id,
            "game": row.game,
            "title_en": game.title_en if game else row.game,
            "title_fr": game.title_fr if game else row.game,
            "title_it": game.title_it if game else row.game,
            "players": row.players,
            "options": row.options if isinstance(row.options, dict) else json.loads(row.options),
            "status": row.status,
            "version": row.version,
            "seats": [{"number": s.number, "name": s.name, "taken": s.name is not None,
                       "connected": bool(s.connected), "bot": s.bot_level,
                       "takeover": bool(s.bot_takeover)} for s in seats],
            "spectators": row.spectators,
            "presence": presence_of(seats, row.spectators),
            "turn_timer": row.turn_timer,
            "deadline": _iso(row.deadline_at),
            "created_at": _iso(row.created_at),
            "started_at": _iso(row.started_at),
            "finished_at": _iso(row.finished_at),
            "spectators_allowed": bool(row.spectators_allowed),
            "spectator_delay": row.spectator_delay,
            "private": bool(row.private),
        }

    async def log(self, table_id: str, credential: str | None) -> dict[str, Any]:
        """The log as the caller may see it: during play, the game-log entries its view shows and its own
        actions; once the game is over, every action with its seat and the seed (a full replay)."""
        ident = await self.identify(table_id, credential)
        snap = await self.current(table_id)
        view = self.client_view(await self.seen_by(snap, ident.seat), ident.seat)
        over = snap.status == FINISHED  # an abandoned game keeps its secrets
        actions = select(ACTIONS.c.version, ACTIONS.c.seat, ACTIONS.c.action, ACTIONS.c.created_at) \
            .where(ACTIONS.c.table_id == table_id).order_by(ACTIONS.c.version)
        async with self.autocommit.connect() as conn:
            if over:
                rows = (await conn.execute(actions)).all()
                seed = (await conn.execute(select(TABLES.c.seed).where(TABLES.c.id == table_id))).scalar()
            elif ident.seat is not None:
                rows = (await conn.execute(actions.where(ACTIONS.c.seat == ident.seat))).all()
                seed = None
            else:
                rows, seed = [], None
        body: dict[str, Any] = {
            "version": snap.version,
            "status": snap.status,
            "you": ident.seat,
            "entries": view["game"]["log"] if view["game"] else [],
            "actions": [{"version": r.version, "seat": r.seat, "action": json.loads(r.action),
                         "at": _iso(r.created_at)} for r in rows],
        }
        if over:
            body["seed"] = seed
            body["options"] = snap.options
            body["players"] = snap.players
        return body

    # -------------------------------------------------------------------------------------- replay

    async def replay(self, table_id: str) -> str | None:
        """Replays a table's log from its seed; None when it reproduces the snapshot, else what differs."""
        async with self.autocommit.connect() as conn:
            row = (await conn.execute(select(
                TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.seed, TABLES.c.status,
                TABLES.c.version, TABLES.c.state).where(TABLES.c.id == table_id))).first()
            if row is None:
                raise NotFound("There is no such table.")
            actions = (await conn.execute(select(ACTIONS.c.version, ACTIONS.c.seat, ACTIONS.c.action)
                                          .where(ACTIONS.c.table_id == table_id)
                                          .order_by(ACTIONS.c.version))).all()
            changes = (await conn.execute(select(SEAT_CHANGES.c.version)
                                          .where(SEAT_CHANGES.c.table_id == table_id))).scalars().all()
        return replay_problem(self.games, row, actions, changes)

    async def listing(self, limit: int = 500) -> list[dict[str, Any]]:
        """Public facts of the most recently active tables, for the club's admin page."""
        async with self.autocommit.connect() as conn:
            rows = (await conn.execute(select(
                TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.status, TABLES.c.version,
                TABLES.c.spectators, TABLES.c.created_at, TABLES.c.updated_at)
                .order_by(TABLES.c.updated_at.desc(), TABLES.c.id).limit(limit))).all()
            seats = await self._seats_of(conn, [r.id for r in rows])
        return [{"id": r.id, "game": r.game, "players": r.players, "status": r.status, "version": r.version,
                 "spectators": r.spectators, "created_at": _iso(r.created_at), "updated_at": _iso(r.updated_at),
                 "seats": seats[r.id]} for r in rows]

    @staticmethod
    async def _seats_of(conn: Any, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """The seats of these tables, for the admin's lists: number, name, whether it is connected, and the
        bot playing it (its level, and whether it took the seat over from its player)."""
        seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        if ids:
            for s in (await conn.execute(select(SEATS.c.table_id, SEATS.c.number, SEATS.c.name, SEATS.c.connected,
                                                SEATS.c.bot_level, SEATS.c.bot_takeover)
                                         .where(SEATS_AMONG)
                                         .order_by(SEATS.c.table_id, SEATS.c.number), {"ids": list(ids)})).all():
                seats[s.table_id].append({"number": s.number, "name": s.name, "connected": bool(s.connected),
                                          "bot": s.bot_level, "takeover": bool(s.bot_takeover)})
        return seats

    async def open_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        """The tables anyone may find, newest activity first: the public tables that allow spectators, waiting
        for players or in play. A private table is never among them, nor a table without spectators. Public
        facts only, with the turn number of a game in play (1 + the actions played so far)."""
        turns = (select(func.count()).where(ACTIONS.c.table_id == TABLES.c.id)
                 .correlate(TABLES).scalar_subquery().label("turns"))
        async with self.autocommit.connect() as conn:
            rows = (await conn.execute(select(
                TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.status, TABLES.c.spectators,
                TABLES.c.spectators_allowed, TABLES.c.spectator_delay, turns)
                .where(TABLES.c.private == false(), TABLES.c.spectators_allowed, TABLE_LIVE)
                .order_by(TABLES.c.updated_at.desc(), TABLES.c.id).limit(limit))).all()
            seats = await self._seats_of(conn, [r.id for r in rows])
        return [{"id": r.id, "game": r.game, "players": r.players, "status": r.status, "spectators": r.spectators,
                 "spectators_allowed": bool(r.spectators_allowed), "spectator_delay": r.spectator_delay,
                 "turn": r.turns + 1 if r.status == PLAYING else 0, "seats": seats[r.id], "free": sum(s["name"] is None for s in seats[r.id])}
                for r in rows if self.games.get(r.game) is not None]

    async def count_by_status(self) -> dict[str, int]:
        """How many tables have each status (for the server's figures)."""
        async with self.autocommit.connect() as conn:
            rows = (await conn.execute(select(TABLES.c.status, func.count()).group_by(TABLES.c.status))).all()
        return {status: n for status, n in rows}

    async def table_ids(self) -> list[str]:
        async with self.autocommit.connect() as conn:
            return list((await conn.execute(select(TABLES.c.id).order_by(TABLES.c.created_at, TABLES.c.id))).scalars())

    # ------------------------------------------------------------------------------ game records

    async def records(self, only: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The game records (app/services/records.py) of every finished table, or of the ended tables named
        in `only` (a table still in play has no record: its seed is secret). Oldest first."""
        wanted = select(TABLES).order_by(TABLES.c.created_at, TABLES.c.id)
        async with self.autocommit.connect() as conn:
            if only:
                rows = (await conn.execute(wanted.where(TABLES_AMONG), {"ids": list(only)})).mappings().all()
                found = {r["id"]: r for r in rows}
                for table_id in only:
                    if table_id not in found:
                        raise NotFound("There is no table {table}.", {"table": repr(table_id)})
                    if found[table_id]["status"] not in ENDED:
                        raise Conflict("The table {table} is still in play: only ended games have records.",
                                       {"table": repr(table_id)})
            else:
                rows = (await conn.execute(wanted.where(TABLES.c.status == FINISHED))).mappings().all()
            ids = [r["id"] for r in rows]
            seats = (await conn.execute(select(SEATS).where(SEATS_AMONG).order_by(SEATS.c.number),
                                        {"ids": ids})).mappings().all()
            actions = (await conn.execute(select(ACTIONS).where(ACTIONS_AMONG).order_by(ACTIONS.c.version),
                                          {"ids": ids})).mappings().all()
            changes = (await conn.execute(select(SEAT_CHANGES).where(SEAT_CHANGES_AMONG)
                                          .order_by(SEAT_CHANGES.c.version, SEAT_CHANGES.c.seat),
                                          {"ids": ids})).mappings().all()
        by_table: dict[str, dict[str, list[dict[str, Any]]]] = {i: {"s": [], "a": [], "c": []} for i in ids}
        for s in seats:
            by_table[s["table_id"]]["s"].append({**s, "bot": s["bot_level"]})
        for a in actions:
            by_table[a["table_id"]]["a"].append({**a, "action": json.loads(a["action"]), "at": _iso(a["created_at"])})
        for c in changes:
            by_table[c["table_id"]]["c"].append({**c, "at": _iso(c["created_at"])})
        def facts(r: Any) -> dict[str, Any]:
            options = r["options"] if isinstance(r["options"], dict) else json.loads(r["options"])
            return {**r, "options": options, **{k: _iso(r[k]) for k in ("created_at", "started_at", "finished_at")}}

        return [make_record(facts(r), by_table[r["id"]]["s"], by_table[r["id"]]["a"], by_table[r["id"]]["c"])
                for r in rows]

    async def load_record(self, record: Any) -> bool:
        """Loads a game record exported by another server (checked first: BadRecord says what is wrong);
        False when a table with its id is already here. Its seats get tokens nobody holds (the game is over)
        and the table new invite and spectator keys."""
        replayed = replay_record(self.games, record)
        problem = replay_problem(self.games, replayed, replayed.actions, replayed.seat_changes)
        if problem:
            raise BadRecord(f"The record does not hold together: {problem}.")
        at = now()

        def when(value: str | None) -> datetime | None:
            return None if value is None else datetime.fromisoformat(value)

        async with self._writer() as conn:
            if (await conn.execute(select(TABLES.c.id).where(TABLES.c.id == record["id"]))).first():
                return False
            await conn.execute(insert(TABLES).values(
                id=record["id"], game=record["game"], players=record["players"], options=record["options"],
                seed=record["seed"], status=record["status"], version=record["version"],
                rules_version=record["rules_version"], state=replayed.state,
                invite_key=secrets.token_urlsafe(KEY_BYTES), spectator_key=secrets.token_urlsafe(KEY_BYTES),
                spectators=0, turn_timer=record["turn_timer"],
                created_at=when(record["created_at"]) or at, updated_at=at,
                started_at=when(record["started_at"]), finished_at=when(record["finished_at"])))
            await conn.execute(insert(SEATS), [
                {"table_id": record["id"], "number": s["number"], "name": s["name"], "connected": False,
                 "token_hash": hidden_token_hash(), "joined_at": None, "bot_level": s["bot"], "bot_takeover": False}
                for s in record["seats"]])
            if record["actions"]:
                await conn.execute(insert(ACTIONS), [
                    {"table_id": record["id"], "version": a["version"], "seat": a["seat"],
                     "action": canonical_action(a["action"]), "created_at": when(a["at"]) or at}
                    for a in record["actions"]])
            if record["seat_changes"]:
                await conn.execute(insert(SEAT_CHANGES), [
                    {"table_id": record["id"], "version": c["version"], "seat": c["seat"], "kind": c["kind"],
                     "reason": c["reason"], "level": c["level"], "created_at": when(c["at"]) or at}
                    for c in record["seat_changes"]])
        return True

    # -------------------------------------------------------------------------- the bots and timers

    async def seed(self, table_id: str) -> int:
        """The table's secret seed (the bots' decisions derive theirs from it)."""
        async with self.autocommit.connect() as conn:
            seed = (await conn.execute(select(TABLES.c.seed).where(TABLES.c.id == table_id))).scalar()
        if seed is None:
            raise NotFound("There is no such table.")
        return seed

    async def quiet_bot_tables(self, since: datetime, limit: int = 1000) -> list[Any]:
        """Playing tables with a seat played by a bot where nothing happened since `since`: (id, version)."""
        has_bot = select(SEATS.c.table_id).where(SEATS.c.table_id == TABLES.c.id, SEATS.c.bot_level.is_not(None))
        async with self.autocommit.connect() as conn:
            return (await conn.execute(select(TABLES.c.id, TABLES.c.version).where(
                TABLES.c.status == PLAYING, TABLES.c.updated_at <= since, has_bot.exists())
                .order_by(TABLES.c.updated_at).limit(limit))).all()

    async def expired_deadlines(self, at: datetime, limit: int = 500) -> list[Any]:
        """Playing tables whose turn deadline is at or before `at`: (id, version)."""
        async with self.autocommit.connect() as conn:
            return (await conn.execute(select(TABLES.c.id, TABLES.c.version).where(
                TABLES.c.deadline_at.is_not(None), TABLES.c.deadline_at <= at, TABLES.c.status == PLAYING)
                .order_by(TABLES.c.deadline_at).limit(limit))).all()

    # ------------------------------------------------------------------------------- stale tables

    async def stale_tables(self, lobby_before: datetime, idle_before: datetime,
                           limit: int = 500) -> dict[str, list[dict[str, Any]]]:
        """The tables a clean-up would touch: "expire", tables still waiting for players created before
        `lobby_before`; "abandon", games where nothing happened since `idle_before` (a bot acts as soon as
        it is its turn, so a game standing still is one no person played). Oldest first, public facts."""
        columns = (TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.status, TABLES.c.version,
                   TABLES.c.created_at, TABLES.c.updated_at)
        async with self.autocommit.connect() as conn:
            expire = (await conn.execute(select(*columns).where(
                TABLES.c.status == LOBBY, TABLES.c.created_at <= lobby_before)
                .order_by(TABLES.c.created_at, TABLES.c.id).limit(limit))).all()
            abandon = (await conn.execute(select(*columns).where(
                TABLES.c.status == PLAYING, TABLES.c.updated_at <= idle_before)
                .order_by(TABLES.c.updated_at, TABLES.c.id).limit(limit))).all()
            seats = await self._seats_of(conn, [r.id for r in (*expire, *abandon)])
        def facts(r: Any) -> dict[str, Any]:
            return {"id": r.id, "game": r.game, "players": r.players, "status": r.status, "version": r.version,
                    "created_at": _iso(r.created_at), "updated_at": _iso(r.updated_at), "seats": seats[r.id]}

        return {"expire": [facts(r) for r in expire], "abandon": [facts(r) for r in abandon]}

    async def expire_lobby(self, table_id: str, before: datetime) -> bool:
        """Deletes a table that is still waiting for players and was created before `before` (its seats and
        presence rows go with it); False if it started or was deleted meanwhile."""
        async with self.table_lock(table_id):
            async with self._writer() as conn:
                gone = await conn.execute(delete(TABLES).where(
                    TABLES.c.id == table_id, TABLES.c.status == LOBBY, TABLES.c.created_at <= before))
            self.cache.drop(table_id)
        return gone.rowcount == 1

    async def abandon(self, table_id: str, version: int, audit: Audit | None = None) -> Snapshot | None:
        """Ends a game nobody plays (or an admin ends) as abandoned, with no scores: one new version, if the
        table is still playing at `version` (else nothing is written: None). Its log stays, so the replay
        check still holds. `audit`: the admin action, written with it."""
        at = now()
        async with self.table_lock(table_id):
            async with self._writer() as conn:
                moved = await conn.execute(update(TABLES).where(
                    TABLES.c.id == table_id, TABLES.c.version == version, TABLES.c.status == PLAYING)
                    .values(status=ABANDONED, version=version + 1, updated_at=at, finished_at=at, deadline_at=None))
                if moved.rowcount == 1 and audit is not None:
                    await conn.execute(insert(AUDIT).values(at=at, **audit.row()))
            if moved.rowcount != 1:
                return None
            snap = await self._load(table_id)
            await self._publish(snap)
        return snap

    # ------------------------------------------------------------------------------- admin actions

    async def admin_end(self, table_id: str, audit: Audit) -> Snapshot:
        """An admin ends a game in play as abandoned (no scores); its players see it at once."""
        snap = await self.current(table_id)
        if snap.status != PLAYING:
            raise Conflict("Only a game in play can be ended (a waiting table is deleted by the clean-up).")
        ended = await self.abandon(table_id, snap.version, audit)
        if ended is None:
            raise Conflict("The table moved on meanwhile; look again and retry.")
        return ended

    async def admin_remove(self, table_id: str, seat: int, level: str, audit: Audit) -> Snapshot:
        """An admin removes the player of a seat from a game in play: a bot of `level` takes the seat for
        good (the player's link no longer opens it, and their open pages are told so)."""
        async with self.table_lock(table_id):
            snap = await self.current(table_id)
            if snap.status != PLAYING:
                raise Conflict("Players can only be removed from a game in play.")
            if not 0 <= seat < snap.players:
                raise BadRequest("There is no such seat at this table.")
            if snap.seat_bots[seat] and not snap.seat_takeovers[seat]:
                raise Conflict("A bot plays that seat already.")
            new = await self.change_seats(snap, {seat: level}, "removed", evict=True, audit=audit)
        if new is None:
            raise Conflict("The table moved on meanwhile; look again and retry.")
        return new

    async def admin_spectator_key(self, table_id: str, audit: Audit) -> str:
        """The table's spectator key for an admin who opens it (even a private table); the look is audited."""
        snap = await self.current(table_id)
        await self.write_audit(audit)
        return snap.spectator_key

    async def write_audit(self, audit: Audit) -> None:
        async with self._writer() as conn:
            await conn.execute(insert(AUDIT).values(at=now(), **audit.row()))

    async def audit_log(self, limit: int = 200) -> list[dict[str, Any]]:
        """The latest admin actions, newest first."""
        async with self.autocommit.connect() as conn:
            rows = (await conn.execute(select(AUDIT).order_by(AUDIT.c.id.desc()).limit(limit))).mappings().all()
        return [{**r, "at": _iso(r["at"])} for r in rows]

    # -------------------------------------------------------------------------------------- presence

    async def write_presence(self, instance: str, counts: Mapping[str, Mapping[int | None, tuple[int, int]]],
                             ttl: float) -> dict[str, dict[str, Any]]:
        """Replaces the presence rows of server process `instance` for these tables by its current counts of
        connections per seat (None: spectators), each (open, of which in a tab not hidden), then sets each
        table's connected and away seats and spectator count from the rows of every process seen within `ttl`
        seconds; a seat whose presence changes remembers since when. Returns what each table now shows
        (`presence_of`)."""
        return await self._write_sync(_write_presence, instance, counts, ttl)

    async def read_presence(self, table_id: str) -> dict[str, Any]:
        """Who is at the table as the database knows it (`presence_of`)."""
        async with self.autocommit.connect() as conn:
            seats = (await conn.execute(select(SEATS.c.number, SEATS.c.connected, SEATS.c.away,
                                               SEATS.c.presence_since)
                                        .where(SEATS.c.table_id == table_id).order_by(SEATS.c.number))).all()
            spectators = (await conn.execute(select(TABLES.c.spectators)
                                             .where(TABLES.c.id == table_id))).scalar() or 0
        return presence_of(seats, spectators)

    async def refresh_presence(self, instance: str, ttl: float) -> list[str]:
        """Keeps the presence rows of server process `instance` alive and deletes those of processes silent
        for `ttl` seconds; returns the tables whose rows were deleted (their presence must be written again)."""
        return await self._write_sync(_refresh_presence, instance, ttl)

    # ------------------------------------------------------------------- replay viewer and rematch

    async def history(self, table_id: str) -> dict[str, Any]:
        """What the replay viewer rebuilds a table's steps from (app/services/replays.py): the table's row (its
        seed included: the caller never hands it out while the game runs), its action log and its seat changes,
        each in version order."""
        async with self.autocommit.connect() as conn:
            row = (await conn.execute(select(
                TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.seed, TABLES.c.status,
                TABLES.c.version, TABLES.c.turn_timer, TABLES.c.rematch_id).where(TABLES.c.id == table_id))).first()
            if row is None:
                raise NotFound("There is no such table.")
            actions = (await conn.execute(select(ACTIONS.c.version, ACTIONS.c.seat, ACTIONS.c.action)
                                          .where(ACTIONS.c.table_id == table_id)
                                          .order_by(ACTIONS.c.version))).all()
            changes = (await conn.execute(select(SEAT_CHANGES.c.version, SEAT_CHANGES.c.seat, SEAT_CHANGES.c.kind,
                                                 SEAT_CHANGES.c.level)
                                          .where(SEAT_CHANGES.c.table_id == table_id)
                                          .order_by(SEAT_CHANGES.c.version, SEAT_CHANGES.c.seat))).all()
        options = row.options if isinstance(row.options, dict) else json.loads(row.options)
        return {"row": row, "options": options,
                "actions": [{"version": a.version, "seat": a.seat, "action": json.loads(a.action)} for a in actions],
                "seat_changes": [{"version": c.version, "seat": c.seat, "kind": c.kind, "level": c.level}
                                 for c in changes]}

    async def link_rematch(self, table_id: str, rematch_id: str) -> str:
        """Links a finished table to the table of its rematch, once: a conditional write that only succeeds
        while no rematch is linked, so two offers at the same time cannot both link theirs. Returns the
        rematch now linked (the caller's, or the one that came first)."""
        async with self._writer() as conn:
            made = (await conn.execute(update(TABLES).where(
                TABLES.c.id == table_id, TABLES.c.status == FINISHED,
                TABLES.c.rematch_id.is_(None)).values(rematch_id=rematch_id))).rowcount == 1
            linked = (await conn.execute(select(TABLES.c.rematch_id).where(TABLES.c.id == table_id))).scalar()
        if linked is None:
            raise Conflict("Only a finished game can be played again.")
        if made:  # committed: the open end screens learn of it (the link bumps no version)
            for hook in self.on_facts:
                await hook(table_id)
        return linked

    async def facts(self, table_id: str) -> dict[str, str | None]:
        """What a table's page shows besides its versions, the same for every reader: its rematch (None until
        one is linked) and the key that watches it (None when the rematch allows no spectators or is private,
        then the spectators of this table get no way to it)."""
        async with self.autocommit.connect() as conn:
            rematch_id = (await conn.execute(select(TABLES.c.rematch_id)
                                             .where(TABLES.c.id == table_id))).scalar()
            watch = None if rematch_id is None else (await conn.execute(
                select(TABLES.c.spectator_key).where(TABLES.c.id == rematch_id,
                                                     TABLES.c.spectators_allowed.is_(True),
                                                     TABLES.c.private.is_(False)))).scalar()
        return dict(zip(FACTS, (rematch_id, watch)))

    async def drop_unlinked_rematch(self, table_id: str) -> None:
        """Deletes a rematch table that lost the race to be linked (still waiting, nobody seated by a person)."""
        async with self._writer() as conn:
            await conn.execute(delete(TABLES).where(TABLES.c.id == table_id, TABLES.c.status == LOBBY))
        self.cache.drop(table_id)


def replay_problem(games: Mapping[str, Game], row: Any, actions: list[Any],
                   seat_changes: Sequence[int] = ()) -> str | None:
    """Compares a stored snapshot with the replay of its log; a sentence for the admin if they differ.
    `seat_changes`: the versions that changed who plays a seat (a bot taking over, its player taking it
    back) rather than the game. An abandoned table has one more version, the one that ended it."""
    game = games.get(row.game)
    if game is None:
        return f"game {row.game!r} is not installed"
    if row.status == LOBBY:
        if actions or row.state is not None:
            return "a table in the lobby has a state or actions"
        return None
    options = row.options if isinstance(row.options, dict) else json.loads(row.options)
    try:
        state = game.setup(row.players, row.seed, options)
        last = None
        for entry in actions:
            if last is not None and entry.version <= last:
                return f"log versions are not increasing at {entry.version}"
            last = entry.version
            state = game.apply_marked(state, entry.seat, json.loads(entry.action))
    except (IllegalAction, ValueError, KeyError) as e:
        return f"the log does not replay: {e}"
    final = max([*([] if last is None else [last]), *seat_changes], default=None)
    if final is not None and row.status == ABANDONED:
        final += 1  # the clean-up's version, which ended the game (TablesService.abandon)
    if final is not None and final != row.version:
        return f"the last logged change is version {final} but the table is at {row.version}"
    if game.encode(state) != row.state and (
            # a table played (in part) before log entries were marked with their mover
            game.encode(game.unmarked(state)) != game.encode(game.unmarked(game.decode(row.state)))):
        return "the snapshot differs from the replay of the log"
    if (row.status == FINISHED) != game.finished(state):
        return f"the status {row.status!r} does not match the replayed game"
    return None


def presence_of(seats: Sequence[Any], spectators: int) -> dict[str, Any]:
    """Who is at a table, as every page and socket shows it: the seats with a socket open ("connected"), of
    which those whose every tab is hidden ("away"), since when each seat is as it is (ISO, by seat number;
    None: never connected) and the spectator count. `seats`: rows with number, connected, away and
    presence_since, in seat order."""
    return {"connected": [s.number for s in seats if s.connected],
            "away": [s.number for s in seats if s.connected and s.away],
            "since": [_iso(s.presence_since) for s in seats],
            "spectators": spectators}


def _seat_facts(snap: Snapshot, n: int) -> dict[str, Any]:
    """A seat in the table part of a view: its number and name; a seat played by a bot also has "bot" (the
    level) and, when the bot took it over from its player, "takeover": true."""
    facts: dict[str, Any] = {"number": n, "name": snap.seat_names[n]}
    if n < len(snap.seat_bots) and snap.seat_bots[n]:
        facts["bot"] = snap.seat_bots[n]
        if n < len(snap.seat_takeovers) and snap.seat_takeovers[n]:
            facts["takeover"] = True
    return facts


def _seat_of(snap: Snapshot, digest: str) -> int | None:
    for number, seat_hash in enumerate(snap.seat_hashes):
        if seat_hash is not None and hmac.compare_digest(seat_hash, digest):
            return number
    return None


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.isoformat()


PRESENCE_LOCKS = 72_615_002  # Postgres: the first key of a table's presence lock (the second: its id's hash)


def _write_presence(conn: Connection, instance: str, counts: Mapping[str, Mapping[int | None, tuple[int, int]]],
                    ttl: float) -> dict[str, dict[str, Any]]:
    """`TablesService.write_presence`, inside its transaction (`_write_sync`)."""
    at = now()
    ids = sorted(counts)
    if conn.dialect.name == "postgresql":
        # One process at a time writes a table's presence, the later reading the rows of the earlier (the sums
        # count every process's rows): a lock of its own per table, in the order of the ids. Not the table's row,
        # which every move of the table waited for while this transaction's round trips went by.
        conn.execute(text("SELECT pg_advisory_xact_lock(:space, hashtext(id)) FROM unnest(CAST(:ids AS text[])) AS id"
                          " ORDER BY id"), {"space": PRESENCE_LOCKS, "ids": ids})
    # FOR KEY SHARE (Postgres): the tables cannot be deleted meanwhile, and a move's update does not wait for it.
    existing = set(conn.execute(select(TABLES.c.id).where(TABLES_AMONG).order_by(TABLES.c.id)
                                .with_for_update(read=True, key_share=True), {"ids": ids}).scalars())
    tables = [t for t in ids if t in existing]
    if not tables:
        return {}
    conn.execute(delete(PRESENCE).where(PRESENCE.c.instance == instance, PRESENCE_AMONG), {"ids": tables})
    rows = [{"instance": instance, "table_id": table_id, "seat": SPECTATOR_SEAT if seat is None else seat,
             "connections": n, "visible": visible, "seen_at": at}
            for table_id in tables for seat, (n, visible) in counts[table_id].items() if n > 0]
    if rows:
        conn.execute(insert(PRESENCE), rows)
    live = conn.execute(
        select(PRESENCE.c.table_id, PRESENCE.c.seat, func.sum(PRESENCE.c.connections).label("n"),
               func.sum(PRESENCE.c.visible).label("visible"))
        .where(PRESENCE_AMONG, PRESENCE.c.seen_at > at - timedelta(seconds=ttl))
        .group_by(PRESENCE.c.table_id, PRESENCE.c.seat), {"ids": tables}).all()
    spectators = {t: 0 for t in tables}
    now_is: dict[tuple[str, int], tuple[bool, bool]] = {}  # (connected, away) of the seats with a socket
    for r in live:
        if r.seat == SPECTATOR_SEAT:
            spectators[r.table_id] += int(r.n)
        elif r.n > 0:
            now_is[(r.table_id, r.seat)] = (True, not r.visible)
    # The rows whose count changed are locked here, in the order of their ids, as the batched move writes lock
    # theirs: the two can wait for each other, never deadlock.
    conn.execute(update(TABLES).where(TABLES.c.id == bindparam("t"), TABLES.c.spectators != bindparam("n"))
                 .values(spectators=bindparam("n")),
                 [{"t": t, "n": n} for t, n in spectators.items()])
    seats = select(SEATS.c.table_id, SEATS.c.number, SEATS.c.connected, SEATS.c.away,
                   SEATS.c.presence_since).where(SEATS_AMONG).order_by(SEATS.c.number)
    changed = [{"t": s.table_id, "n": s.number, "c": c, "a": a}
               for s in conn.execute(seats, {"ids": tables}).all()
               for c, a in [now_is.get((s.table_id, s.number), (False, False))]
               if (bool(s.connected), bool(s.away)) != (c, a)]
    if changed:
        conn.execute(update(SEATS).where(SEATS.c.table_id == bindparam("t"), SEATS.c.number == bindparam("n"))
                     .values(connected=bindparam("c"), away=bindparam("a"), presence_since=at.replace(microsecond=0)),
                     changed)
    by_table: dict[str, list[Any]] = {t: [] for t in tables}
    for s in conn.execute(seats, {"ids": tables}).all():
        by_table[s.table_id].append(s)
    return {t: presence_of(by_table[t], spectators[t]) for t in tables}


def _refresh_presence(conn: Connection, instance: str, ttl: float) -> list[str]:
    """`TablesService.refresh_presence`, inside its transaction (`_write_sync`)."""
    at = now()
    cutoff = at - timedelta(seconds=ttl)
    conn.execute(update(PRESENCE).where(PRESENCE.c.instance == instance).values(seen_at=at))
    stale = conn.execute(select(PRESENCE.c.table_id).distinct().where(PRESENCE.c.seen_at <= cutoff)).scalars().all()
    if stale:
        conn.execute(delete(PRESENCE).where(PRESENCE.c.seen_at <= cutoff))
    return list(stale)


class _Writer:
    """`async with service._writer() as conn`: a transaction that commits on success and rolls back on
    any error; on SQLite it also holds the per-process writer lock (SQLite has one writer at a time)."""

    def __init__(self, service: TablesService):
        self.service = service
        self._locked = False
        self._ctx = None

    async def __aenter__(self):
        if not self.service.is_postgres:
            await self.service._write_lock.acquire()
            self._locked = True
        try:
            self._ctx = self.service.engine.begin()
            return await self._ctx.__aenter__()
        except BaseException:
            self._release()
            raise

    async def __aexit__(self, *exc):
        try:
            return await self._ctx.__aexit__(*exc)
        finally:
            self._release()

    def _release(self) -> None:
        if self._locked:
            self._locked = False
            self.service._write_lock.release()
