"""The tables service: the only code that writes tables, seats and the action log.

Every public method owns its transaction. The one write path for a move is `act`:

    read (version, status, the caller's seat) -> check -> apply through the engine contract
    -> one atomic write that only succeeds if the version is still the one we read
       (the snapshot, the new version and the log row together) -> commit -> publish

On Postgres the write is a single statement (an UPDATE ... WHERE version = :seen that row-locks the
table, chained to the INSERT of the log row), so a move costs two round trips and one commit. Two
writers that read the same version cannot both succeed: the second UPDATE waits for the first one's
row lock, re-reads the row, finds the version changed and writes nothing (409). On SQLite the same
compare-and-set runs in one transaction under a per-process write lock. Either way nothing changes on
any error, and a move is acknowledged only after its commit.

Views leave the server only through `client_view`, which is built from `game.view(state, seat)` and the
public table facts (seat names, status); the state itself never reaches a client.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
import unicodedata
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable, Mapping

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from games.core import Game, IllegalAction

from ..models import FINISHED, LOBBY, PLAYING
from .errors import BadRequest, Conflict, EngineFailure, Forbidden, Illegal, NotFound

log = logging.getLogger("tabula.tables")

TOKEN_BYTES = 24  # seat tokens: 192 bits from `secrets`
KEY_BYTES = 16  # invite and spectator keys: 128 bits
TABLE_ID_BYTES = 12  # table ids: 96 bits, unguessable enough for a URL
NAME_MAX = 40
ACTION_MAX_BYTES = 16_384
CACHE_TABLES = 4096


def now() -> datetime:
    return datetime.now(timezone.utc)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def compact(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def canonical_action(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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
    views: dict[int | None, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Identity:
    """Who is calling: a seat (number and its token hash) or a spectator (seat None)."""

    table_id: str
    seat: int | None
    token_hash: str | None


class SnapshotCache:
    def __init__(self, size: int = CACHE_TABLES):
        self.size = size
        self._items: OrderedDict[str, Snapshot] = OrderedDict()

    def get(self, table_id: str, version: int | None = None) -> Snapshot | None:
        snap = self._items.get(table_id)
        if snap is None or (version is not None and snap.version != version):
            return None
        self._items.move_to_end(table_id)
        return snap

    def put(self, snap: Snapshot) -> Snapshot:
        current = self._items.get(snap.id)
        if current is not None and current.version > snap.version:
            return current  # never go back in time
        self._items[snap.id] = snap
        self._items.move_to_end(snap.id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return snap


def clean_name(raw: Any) -> str:
    if not isinstance(raw, str):
        raise BadRequest("A display name is needed.")
    name = unicodedata.normalize("NFC", raw).strip()
    name = re.sub(r"\s+", " ", name)
    if not name:
        raise BadRequest("A display name is needed.")
    if len(name) > NAME_MAX:
        raise BadRequest(f"A display name has at most {NAME_MAX} characters.")
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


# The read of the hot path: the table's version and status, and the caller's seat, in one round trip.
_AUTH_SQL = text(
    "SELECT t.version, t.status, s.number FROM tables t "
    "LEFT JOIN seats s ON s.table_id = t.id AND s.token_hash = :h WHERE t.id = :id"
)
# The same two statements in asyncpg's own placeholders, for the Postgres hot path.
_PG_AUTH = (
    "SELECT t.version, t.status, s.number FROM tables t "
    "LEFT JOIN seats s ON s.table_id = t.id AND s.token_hash = $2 WHERE t.id = $1"
)
_PG_ACT = (
    "WITH moved AS ("
    " UPDATE tables SET state = $1, version = $2, status = $3, updated_at = $4,"
    " finished_at = CASE WHEN $5::boolean THEN $4 ELSE finished_at END"
    " WHERE id = $6 AND version = $7 AND status = 'playing' RETURNING id)"
    " INSERT INTO actions (table_id, version, seat, action, created_at)"
    " SELECT id, $2, $8, $9, $4 FROM moved"
)
_SQLITE_CAS_SQL = text(
    "UPDATE tables SET state = :state, version = :new, status = :status, updated_at = :at,"
    " finished_at = CASE WHEN :finished THEN :at ELSE finished_at END"
    " WHERE id = :id AND version = :old AND status = 'playing'"
)
_SQLITE_LOG_SQL = text(
    "INSERT INTO actions (table_id, version, seat, action, created_at) VALUES (:id, :new, :seat, :action, :at)"
)
_VERSION_SQL = text("SELECT version FROM tables WHERE id = :id")
_TABLE_SQL = text(
    "SELECT id, game, players, options, status, version, state, invite_key, spectator_key "
    "FROM tables WHERE id = :id"
)
_SEATS_SQL = text("SELECT number, name, token_hash FROM seats WHERE table_id = :id ORDER BY number")


CommitHook = Callable[[Snapshot], Awaitable[None]]


class TablesService:
    """Create, join, leave, act, read and replay tables. One per process, shared by all requests."""

    def __init__(self, engine: AsyncEngine, games: Mapping[str, Game], *, is_postgres: bool):
        self.engine = engine
        self.games = dict(games)
        self.is_postgres = is_postgres
        # Postgres: statements of the hot path run outside explicit transactions (each is atomic).
        self.autocommit = engine.execution_options(isolation_level="AUTOCOMMIT") if is_postgres else engine
        self.cache = SnapshotCache()
        self._table_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._write_lock = asyncio.Lock()  # SQLite: one writer per process
        self.on_commit: list[CommitHook] = []

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

    async def _publish(self, snap: Snapshot) -> None:
        for hook in self.on_commit:
            await hook(snap)

    def client_view(self, snap: Snapshot, seat: int | None) -> dict[str, Any]:
        """What one seat (None: a spectator) sees of the table at this version: public table facts and
        the game's own view for that seat. Computed once per seat and version."""
        view = snap.views.get(seat)
        if view is None:
            game = self.game(snap.game)
            view = {
                "table": {
                    "id": snap.id,
                    "game": snap.game,
                    "status": snap.status,
                    "players": snap.players,
                    "seats": [{"number": n, "name": name} for n, name in enumerate(snap.seat_names)],
                    "you": seat,
                },
                "game": game.view(snap.state, seat) if snap.state is not None else None,
            }
            snap.views[seat] = view
        return view

    async def _load(self, table_id: str) -> Snapshot:
        async with self.autocommit.connect() as conn:
            row = (await conn.execute(_TABLE_SQL, {"id": table_id})).first()
            if row is None:
                raise NotFound("There is no such table.")
            seats = (await conn.execute(_SEATS_SQL, {"id": table_id})).all()
        options = row.options if isinstance(row.options, dict) else json.loads(row.options)
        game = self.game(row.game)
        snap = Snapshot(
            id=row.id, game=row.game, players=row.players, options=options, status=row.status,
            version=row.version, state=game.decode(row.state) if row.state is not None else None,
            seat_names=tuple(s.name for s in seats), seat_hashes=tuple(s.token_hash for s in seats),
            invite_key=row.invite_key, spectator_key=row.spectator_key,
        )
        return self.cache.put(snap)

    async def current(self, table_id: str) -> Snapshot:
        """The table as committed now (from the cache when its version is still current)."""
        cached = self.cache.get(table_id)
        if cached is not None:
            async with self.autocommit.connect() as conn:
                version = (await conn.execute(_VERSION_SQL, {"id": table_id})).scalar()
            if version is None:
                raise NotFound("There is no such table.")
            if version == cached.version:
                return cached
        return await self._load(table_id)

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
        if secrets.compare_digest(credential, snap.spectator_key):
            return Identity(table_id, None, None)
        digest = hash_token(credential)
        for number, seat_hash in enumerate(snap.seat_hashes):
            if seat_hash is not None and secrets.compare_digest(seat_hash, digest):
                return Identity(table_id, number, digest)
        raise Forbidden("That seat token or spectator key is not valid for this table.")

    # ------------------------------------------------------------------------------------ lifecycle

    async def create(self, game_slug: str, players: int, options: dict[str, Any] | None = None,
                     turn_timer: int | None = None) -> Snapshot:
        game = self.games.get(game_slug)
        if game is None:
            raise BadRequest(f"There is no game {game_slug!r} here.")
        if not isinstance(players, int) or isinstance(players, bool) or \
                not game.min_players <= players <= game.max_players:
            raise BadRequest(f"{game.title_en} is played by {game.min_players} to {game.max_players} players.")
        try:
            resolved = game.resolve_options(options or {})
        except ValueError as e:
            raise BadRequest(str(e)) from None
        if turn_timer is not None and (not isinstance(turn_timer, int) or not 10 <= turn_timer <= 86_400):
            raise BadRequest("A turn timer is between 10 seconds and one day.")
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        at = now()
        async with self._writer() as conn:
            await conn.execute(
                text("INSERT INTO tables (id, game, players, options, seed, status, version, rules_version,"
                     " state, invite_key, spectator_key, spectators, turn_timer, created_at, updated_at)"
                     " VALUES (:id, :game, :players, :options, :seed, :status, 0, :rules, NULL, :invite,"
                     " :spectate, 0, :timer, :at, :at)"),
                {"id": table_id, "game": game_slug, "players": players, "options": compact(resolved),
                 "seed": secrets.randbits(63), "status": LOBBY, "rules": game.rules_version,
                 "invite": secrets.token_urlsafe(KEY_BYTES), "spectate": secrets.token_urlsafe(KEY_BYTES),
                 "timer": turn_timer, "at": at},
            )
            await conn.execute(
                text("INSERT INTO seats (table_id, number, connected, bot_takeover)"
                     " VALUES (:id, :n, false, false)"),
                [{"id": table_id, "n": n} for n in range(players)],
            )
        return await self._load(table_id)

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
                row = (await conn.execute(text(
                    "SELECT game, players, options, seed, status, version, invite_key FROM tables WHERE id = :id"
                    + (" FOR UPDATE" if self.is_postgres else "")), {"id": table_id})).first()
                if row is None:
                    raise NotFound("There is no such table.")
                if not secrets.compare_digest(invite_key, row.invite_key):
                    raise Forbidden("That invite key is not valid for this table.")
                if row.status != LOBBY:
                    raise Conflict("This table has already started.")
                free = [r.number for r in (await conn.execute(text(
                    "SELECT number FROM seats WHERE table_id = :id AND token_hash IS NULL ORDER BY number"),
                    {"id": table_id})).all()]
                if seat is None:
                    if not free:
                        raise Conflict("Every seat at this table is taken.")
                    seat = free[0]
                elif not 0 <= seat < row.players:
                    raise BadRequest("There is no such seat at this table.")
                elif seat not in free:
                    raise Conflict("That seat is taken.")
                at = now()
                values: dict[str, Any] = {"id": table_id, "v": row.version + 1, "at": at}
                await conn.execute(text(
                    "UPDATE seats SET name = :name, token_hash = :h, joined_at = :at"
                    " WHERE table_id = :id AND number = :n"),
                    {"name": name, "h": hash_token(token), "at": at, "id": table_id, "n": seat})
                if len(free) == 1:  # the last free seat: the game starts
                    game = self.game(row.game)
                    options = row.options if isinstance(row.options, dict) else json.loads(row.options)
                    state = game.setup(row.players, row.seed, options)
                    await conn.execute(text(
                        "UPDATE tables SET status = :s, state = :state, version = :v, started_at = :at,"
                        " updated_at = :at WHERE id = :id"),
                        {**values, "s": PLAYING, "state": game.encode(state)})
                else:
                    await conn.execute(text(
                        "UPDATE tables SET version = :v, updated_at = :at WHERE id = :id"), values)
            snap = await self._load(table_id)
            await self._publish(snap)
        return seat, token

    async def leave(self, table_id: str, credential: str | None) -> int:
        """Gives a seat back before the game starts; returns the new table version."""
        if not credential:
            raise Forbidden("Leaving needs your seat token.")
        digest = hash_token(credential)
        async with self.table_lock(table_id):
            async with self._writer() as conn:
                row = (await conn.execute(text(
                    "SELECT status, version FROM tables WHERE id = :id"
                    + (" FOR UPDATE" if self.is_postgres else "")), {"id": table_id})).first()
                if row is None:
                    raise NotFound("There is no such table.")
                number = (await conn.execute(text(
                    "SELECT number FROM seats WHERE table_id = :id AND token_hash = :h"),
                    {"id": table_id, "h": digest})).scalar()
                if number is None:
                    raise Forbidden("That seat token is not valid for this table.")
                if row.status != LOBBY:
                    raise Conflict("The game has started: seats can only be left before the start.")
                await conn.execute(text(
                    "UPDATE seats SET name = NULL, token_hash = NULL, joined_at = NULL"
                    " WHERE table_id = :id AND number = :n"), {"id": table_id, "n": number})
                await conn.execute(text("UPDATE tables SET version = :v, updated_at = :at WHERE id = :id"),
                                   {"id": table_id, "v": row.version + 1, "at": now()})
            snap = await self._load(table_id)
            await self._publish(snap)
        return snap.version

    # ----------------------------------------------------------------------------- the write path

    async def act(self, table_id: str, credential: str | None, version: Any, action: Any, *,
                  token_hash: str | None = None) -> int:
        """Applies one action for the seat holding `credential` (or `token_hash`) if the table is still at
        `version`; returns the new version once it is committed and published."""
        check_action_input(version, action)
        digest = token_hash or (hash_token(credential) if credential else None)
        if digest is None:
            raise Forbidden("Acting needs your seat token.")
        async with self.table_lock(table_id):
            # One pooled connection for the read and (on Postgres) the write.
            async with self.autocommit.connect() as conn:
                if self.is_postgres:
                    # The hot path speaks to asyncpg directly (prepared statements it caches per
                    # connection), skipping SQLAlchemy's per-statement machinery.
                    pg = (await conn.get_raw_connection()).driver_connection

                    async def read() -> Any:
                        return await pg.fetchrow(_PG_AUTH, table_id, digest)

                    async def write(params: dict[str, Any]) -> bool:
                        status = await pg.execute(_PG_ACT, params["state"], params["new"], params["status"],
                                                  params["at"], params["finished"], table_id, params["old"],
                                                  params["seat"], params["action"])
                        return status == "INSERT 0 1"
                else:
                    async def read() -> Any:
                        return (await conn.execute(_AUTH_SQL, {"id": table_id, "h": digest})).first()

                    write = self._sqlite_act
                new_snap = await self._act_on(read, write, table_id, version, action)
            self.cache.put(new_snap)
            await self._publish(new_snap)
        return new_snap.version

    async def _act_on(self, read, write, table_id: str, version: int, action: dict[str, Any]) -> Snapshot:
        row = await read()
        if row is None:
            raise NotFound("There is no such table.")
        current_version, status, seat = row
        if seat is None:
            raise Forbidden("That seat token is not valid for this table.")
        if status != PLAYING or version != current_version:
            snap = await self.at_least(table_id, current_version)
            message = ("The game has not started yet." if snap.status == LOBBY else
                       "The game is over." if snap.status == FINISHED else
                       "The table has moved on since that version; here is the current view.")
            raise Conflict(message, snap.version, self.client_view(snap, seat))
        snap = self.cache.get(table_id, current_version) or await self.at_least(table_id, current_version)
        if snap.version != current_version:  # moved on between the two reads
            raise Conflict("The table has moved on since that version; here is the current view.",
                           snap.version, self.client_view(snap, seat))
        game = self.game(snap.game)
        if seat not in game.to_act(snap.state):
            raise Forbidden("It is not your turn to act.")
        try:
            new_state = game.apply(snap.state, seat, action)
        except IllegalAction as e:
            raise Illegal(str(e) or "That move is not allowed now.") from None
        except Exception:  # an engine bug: nothing was written; say nothing about the state
            log.exception("engine %s failed on an action at table %s version %s", snap.game, table_id,
                          current_version)
            raise EngineFailure("The game engine failed on this action; nothing was changed.") from None
        encoded = game.encode(new_state)
        # Keep the canonical form (what every process reads back from the database), so that the
        # bytes a seat receives never depend on which process computed them or on dict order.
        new_state = game.decode(encoded)
        finished = game.finished(new_state)
        new_version = current_version + 1
        params = {
            "id": table_id, "old": current_version, "new": new_version, "state": encoded,
            "status": FINISHED if finished else PLAYING, "finished": finished, "at": now(),
            "seat": seat, "action": canonical_action(action),
        }
        if not await write(params):
            snap = await self._load(table_id)
            raise Conflict("The table has moved on since that version; here is the current view.",
                           snap.version, self.client_view(snap, seat))
        return Snapshot(
            id=snap.id, game=snap.game, players=snap.players, options=snap.options,
            status=params["status"], version=new_version, state=new_state, seat_names=snap.seat_names,
            seat_hashes=snap.seat_hashes, invite_key=snap.invite_key, spectator_key=snap.spectator_key,
        )

    async def _sqlite_act(self, params: dict[str, Any]) -> bool:
        try:
            async with self._writer() as conn:
                if (await conn.execute(_SQLITE_CAS_SQL, params)).rowcount != 1:
                    raise _NotWritten
                await conn.execute(_SQLITE_LOG_SQL, params)
        except _NotWritten:
            return False
        return True

    def _writer(self):
        """A write transaction: on SQLite also the process-wide writer lock."""
        return _Writer(self)

    # ------------------------------------------------------------------------------------- reading

    async def view(self, table_id: str, credential: str | None) -> tuple[int, dict[str, Any]]:
        ident = await self.identify(table_id, credential)
        snap = await self.current(table_id)
        return snap.version, self.client_view(snap, ident.seat)

    async def summary(self, table_id: str) -> dict[str, Any]:
        """Public facts about a table (anyone with its id may read them)."""
        async with self.autocommit.connect() as conn:
            row = (await conn.execute(text(
                "SELECT id, game, players, options, status, version, spectators, turn_timer, created_at,"
                " started_at, finished_at FROM tables WHERE id = :id"), {"id": table_id})).first()
            if row is None:
                raise NotFound("There is no such table.")
            seats = (await conn.execute(text(
                "SELECT number, name, connected, bot_level FROM seats WHERE table_id = :id ORDER BY number"),
                {"id": table_id})).all()
        game = self.games.get(row.game)
        return {
            "id": row.id,
            "game": row.game,
            "title_en": game.title_en if game else row.game,
            "title_fr": game.title_fr if game else row.game,
            "players": row.players,
            "options": row.options if isinstance(row.options, dict) else json.loads(row.options),
            "status": row.status,
            "version": row.version,
            "seats": [{"number": s.number, "name": s.name, "taken": s.name is not None,
                       "connected": bool(s.connected), "bot": s.bot_level} for s in seats],
            "spectators": row.spectators,
            "turn_timer": row.turn_timer,
            "created_at": _iso(row.created_at),
            "started_at": _iso(row.started_at),
            "finished_at": _iso(row.finished_at),
        }

    async def log(self, table_id: str, credential: str | None) -> dict[str, Any]:
        """The log as the caller may see it: during play, the game-log entries its view shows and its own
        actions; once the game is over, every action with its seat and the seed (a full replay)."""
        ident = await self.identify(table_id, credential)
        snap = await self.current(table_id)
        view = self.client_view(snap, ident.seat)
        async with self.autocommit.connect() as conn:
            if snap.status == FINISHED:
                rows = (await conn.execute(text(
                    "SELECT version, seat, action, created_at FROM actions WHERE table_id = :id ORDER BY version"),
                    {"id": table_id})).all()
                seed = (await conn.execute(text("SELECT seed FROM tables WHERE id = :id"),
                                           {"id": table_id})).scalar()
            elif ident.seat is not None:
                rows = (await conn.execute(text(
                    "SELECT version, seat, action, created_at FROM actions WHERE table_id = :id AND seat = :s"
                    " ORDER BY version"), {"id": table_id, "s": ident.seat})).all()
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
        if snap.status == FINISHED:
            body["seed"] = seed
            body["options"] = snap.options
            body["players"] = snap.players
        return body

    # -------------------------------------------------------------------------------------- replay

    async def replay(self, table_id: str) -> str | None:
        """Replays a table's log from its seed; None when it reproduces the snapshot, else what differs."""
        async with self.autocommit.connect() as conn:
            row = (await conn.execute(text(
                "SELECT game, players, options, seed, status, version, state FROM tables WHERE id = :id"),
                {"id": table_id})).first()
            if row is None:
                raise NotFound("There is no such table.")
            actions = (await conn.execute(text(
                "SELECT version, seat, action FROM actions WHERE table_id = :id ORDER BY version"),
                {"id": table_id})).all()
        return replay_problem(self.games, row, actions)

    async def table_ids(self) -> list[str]:
        async with self.autocommit.connect() as conn:
            return list((await conn.execute(text("SELECT id FROM tables ORDER BY created_at, id"))).scalars())


def replay_problem(games: Mapping[str, Game], row: Any, actions: list[Any]) -> str | None:
    """Compares a stored snapshot with the replay of its log; a sentence for the admin if they differ."""
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
            state = game.apply(state, entry.seat, json.loads(entry.action))
    except (IllegalAction, ValueError, KeyError) as e:
        return f"the log does not replay: {e}"
    if last is not None and last != row.version:
        return f"the last logged action is version {last} but the table is at {row.version}"
    if game.encode(state) != row.state:
        return "the snapshot differs from the replay of the log"
    if (row.status == FINISHED) != game.finished(state):
        return f"the status {row.status!r} does not match the replayed game"
    return None


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.isoformat()


class _NotWritten(Exception):
    """Rolls back a compare-and-set transaction that found the version changed."""


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
