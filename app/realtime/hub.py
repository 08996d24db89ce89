"""The realtime hub of one server process: websocket connections per table and seat.

Each table with open connections has a `Channel`. When the table reaches a new version (a move committed
here, or a NOTIFY from another process), the channel computes each connected seat's new view once,
diffs it against that seat's previous view once, and sends the same patch text to all of that seat's
JSON connections; the table page's connections (app/pages/socket.py) get the view itself and send HTML
(`Connection.changed`: the patch is computed only if a connection asks for it). The spectator is just the
seat `None`. A channel handles versions strictly in order under
its lock; a version it skipped (it only ever loads the latest) is covered by a patch whose `from` is the
version it last sent, so a client applies a patch only when `from` equals its own version.

Presence: each process counts its own connections per table and seat and writes them to the `presence`
table (the changes of a tenth of a second together, in one transaction; refreshed by a heartbeat; rows of
a dead process expire); the sum over live processes sets
`seats.connected` and `tables.spectators`, and a presence message goes to every connection of the table.
See PROTOCOL.md for the messages.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import json
import logging
import os
import secrets
from collections import Counter
from dataclasses import dataclass
from time import perf_counter, thread_time
from typing import Any, Callable

from starlette.websockets import WebSocket

from .. import observability
from ..models import FINISHED, LOBBY
from ..services.chat import ChatService
from ..services.tables import Snapshot, TablesService, compact
from .diff import PatchMemo, patch_message, view_patch
from .pubsub import LocalPublisher, PostgresPublisher

log = logging.getLogger("tabula.realtime")

PRESENCE_TTL = 45.0  # seconds after which a silent process's presence rows no longer count
# A move allocates thousands of short-lived containers that reference counting frees; the default
# thresholds (700, 10, 10) start a collection every few moves for little garbage. Fewer, larger rounds; but
# not so few that what cycles hold (closed HTTP connections', SQLAlchemy's bind parameters) waits long for a
# full round: a club's memory then grew two to six times as fast (tests/bench/RESULTS.md: at 100 000, and at
# 20 000 once the views stopped leaving their copies alive). The first threshold counts the containers made
# and not yet freed, so what a move leaves alive sets the cadence: 7 000 keeps that of 20 000 before.
GC_THRESHOLDS = (7_000, 20, 20)
PRESENCE_DELAY = 0.1  # seconds during which connections coming and going gather into one presence write
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TIMEOUT = 4408


class _GcPauses:
    """The cycle collector's rounds by generation, for the benchmark: count, wall time in all and longest (ms),
    the main thread's CPU in all (ms), and the objects they found unreachable (freed). The wall time is what the
    moves in flight wait through; it may also count waits for the interpreter's lock and for a core at a round's
    end, which the CPU does not."""

    def __init__(self) -> None:
        self.started = (0.0, 0.0)
        self.by_generation = {g: [0, 0.0, 0.0, 0.0, 0] for g in range(3)}

    def record(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = (perf_counter(), thread_time())
            return
        pause, cpu = perf_counter() - self.started[0], thread_time() - self.started[1]
        entry = self.by_generation[info["generation"]]
        entry[0] += 1
        entry[1] += pause
        entry[2] = max(entry[2], pause)
        entry[3] += cpu
        entry[4] += info["collected"]

    def as_dict(self) -> dict[str, Any]:
        return {f"gen{g}": {"count": n, "total_ms": round(1000 * t, 1), "longest_ms": round(1000 * m, 2),
                            "cpu_ms": round(1000 * c, 1), "collected": freed}
                for g, (n, t, m, c, freed) in self.by_generation.items()}


_GC_PAUSES = _GcPauses()


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim(0), or None elsewhere: gives the pages the C allocator kept after Python freed them
    back to the system (a few ms on a server's heap)."""
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


MALLOC_TRIM = _malloc_trim()


@dataclass(eq=False)
class InlineAck:
    """An action sent with `"ack": "patch"` (PROTOCOL.md): its connection learns that it was committed from
    the patch that brings it the move, which carries `"ack": ID`, instead of from a message of its own.
    Passed to `TablesService.act` as `acknowledge`, which hands it to the commit hooks."""

    conn: "Connection"
    id: Any
    delivered: bool = False


class Connection:
    """One open websocket of one seat (or spectator) at one table."""

    __slots__ = ("ws", "table_id", "seat", "token_hash", "last_seen", "closed", "hidden", "rematch", "_lock")

    def __init__(self, ws: WebSocket, table_id: str, seat: int | None, token_hash: str | None):
        self.ws = ws
        self.table_id = table_id
        self.seat = seat
        self.token_hash = token_hash
        self.last_seen = asyncio.get_running_loop().time()
        self.closed = False
        self.hidden = False  # the page's tab is hidden (the page says so): its seat may be away
        self.rematch: str | None = None  # the rematch this JSON client was told of (it is told once)
        self._lock = asyncio.Lock()

    async def send(self, message: str) -> None:
        if self.closed:
            return
        try:
            async with self._lock:
                await self.ws.send_text(message)
            observability.socket_message("out", message)
        except Exception:  # the peer went away; its handler cleans up
            self.closed = True

    # What the hub tells a connection; a JSON socket gets the messages of PROTOCOL.md. The page's socket
    # (app/pages/socket.py) renders HTML from the same views instead.

    async def full(self, version: int, view: dict[str, Any], shared: dict[Any, Any] | None = None) -> None:
        await self.send(compact({"type": "full", "version": version, "view": view}))

    async def synced(self, version: int, view: dict[str, Any], shared: dict[Any, Any] | None = None) -> None:
        await self.send(compact({"type": "synced", "version": version}))

    async def changed(self, version: int, view: dict[str, Any], patch: Callable[[], str],
                      shared: dict[Any, Any]) -> None:
        """The seat's view at a new version; `patch()`: the JSON patch message from its previous one."""
        await self.send(patch())

    async def show_presence(self, presence: dict[str, Any], message: str, shared: dict[Any, Any]) -> None:
        await self.send(message)

    async def ping(self, message: str) -> None:
        await self.send(message)

    async def show_chat(self, chat: dict[str, Any], shared: dict[Any, Any]) -> None:
        """The chat as this seat reads it changed (a message, a deletion, a mute)."""
        await self.send(compact({"type": "chat", **chat}))

    async def attached_chat(self, chat: Any) -> None:
        """Just attached: a JSON client reads the chat when it wants it (GET .../chat); the page's socket
        overrides this to bring its chat up to date."""

    async def show_facts(self, facts: dict[str, Any], shared: dict[Any, Any]) -> None:
        """The table's facts outside its versions changed (TablesService.facts: a rematch was linked). A JSON
        client is told of the rematch, what GET .../rematch answers (the page's socket shows every fact)."""
        if facts["rematch"] is not None and facts["rematch"] != self.rematch:
            self.rematch = facts["rematch"]
            await self.send(compact({"type": "rematch", "table": self.rematch}))

    async def attached_facts(self, service: TablesService) -> None:
        """Just attached to a finished table: a rematch linked already is told now (the page's socket brings
        the facts its page came with up to date)."""
        await self.show_facts(await service.facts(self.table_id), {})

    async def refuse(self, status: int, error: str) -> None:
        await self.send(compact({"type": "error", "status": status, "error": error}))

    async def close(self, code: int, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        try:
            await self.ws.close(code=code, reason=reason)
        except Exception:
            pass


class Channel:
    def __init__(self, hub: "Hub", table_id: str):
        self.hub = hub
        self.table_id = table_id
        self.conns: dict[int | None, set[Connection]] = {}
        self.snapshot: Snapshot | None = None
        self.views: dict[int | None, dict[str, Any]] = {}  # each seat's view at snapshot.version
        self.presence: dict[str, Any] | None = None
        # The version the spectators' view is at: behind the snapshot's when the table delays spectators.
        self.spectators_at: int | None = None
        self.chats: dict[int | None, dict[str, Any]] = {}  # the chat each seat's connections were last sent
        self.rematch: str | None = None  # the table's rematch once the channel read it (it is linked once)
        # What the pages of the snapshot's change rendered (app/pages/socket.py), lent to the connections that
        # attach before the next change: a new table's sockets come together, and each page attached used to
        # render every region alone. Replaced at each change; it holds what those pages hold anyway.
        self.shared: dict[Any, Any] = {}
        self.lock = asyncio.Lock()
        self.attaching = 0  # sockets on their way in (Hub.attach)

    @property
    def empty(self) -> bool:
        return not self.attaching and not any(self.conns.values())

    async def attach(self, conn: Connection, since: int | None) -> bool:
        service = self.hub.service
        snap = await self._read(None)
        async with self.lock:
            if self.snapshot is None or snap.version > self.snapshot.version:
                await self._advance_to(snap)
            snap = self.snapshot
            if not self._still_seated(conn, snap):
                return False
            version, view = await self._view_of(conn.seat)
            if since == version:
                await conn.synced(version, view, self.shared)
            else:
                await conn.full(version, view, self.shared)
            await conn.attached_chat(self.hub.chat)
            if snap.status == FINISHED:  # only a finished table has facts (a rematch)
                await conn.attached_facts(service)
            if self.presence is not None:
                await conn.show_presence(self.presence, compact({"type": "presence", **self.presence}), {})
            self.conns.setdefault(conn.seat, set()).add(conn)
        return True

    def detach(self, conn: Connection) -> None:
        group = self.conns.get(conn.seat)
        if group is not None:
            group.discard(conn)
            if not group:
                del self.conns[conn.seat]
                self.views.pop(conn.seat, None)
                self.chats.pop(conn.seat, None)

    async def resync(self, conn: Connection) -> None:
        """A client asked for a full view."""
        async with self.lock:
            if self.snapshot is None:
                return
            await conn.full(*await self._view_of(conn.seat), self.shared)

    async def _view_of(self, seat: int | None) -> tuple[int, dict[str, Any]]:
        """A seat's version and view at the channel's snapshot; the spectators' may be delayed."""
        view = self.views.get(seat)
        if view is None or (seat is None and self.spectators_at is None):
            shown = await self.hub.service.seen_by(self.snapshot, seat)
            view = self.views[seat] = self.hub.service.client_view(shown, seat)
            if seat is None:
                self.spectators_at = shown.version
        return (self.spectators_at if seat is None else self.snapshot.version), view

    async def advance(self, version: int | None, snap: Snapshot | None = None,
                      acknowledge: InlineAck | None = None) -> None:
        """Bring every connection to `version` (or to whatever is current when None)."""
        if version is not None and self.snapshot is not None and version <= self.snapshot.version:
            return
        if snap is None or (version is not None and snap.version < version):
            snap = await self._read(version)
        async with self.lock:
            if self.snapshot is None or snap.version > self.snapshot.version:
                await self._advance_to(snap, acknowledge)

    async def _read(self, version: int | None) -> Snapshot:
        """The table at `version` or later (None: as committed now), read while no move of this process is
        between its commit and its delivery: `TablesService.act` holds the table's lock until its commit hooks
        ran, so a move committed here reaches its connections through its own hook, with the mover's
        acknowledgement (PROTOCOL.md "ack"), never first through a re-read. Never read under the channel's
        lock: that hook takes it under the table's."""
        service = self.hub.service
        async with service.table_lock(self.table_id):
            return await (service.current(self.table_id) if version is None
                          else service.at_least(self.table_id, version))

    async def _advance_to(self, snap: Snapshot, inline: InlineAck | None = None) -> None:
        service = self.hub.service
        timings = service.timings
        old = self.snapshot
        self.snapshot = snap
        revalidate = old is None or old.status == LOBBY or snap.seat_hashes != old.seat_hashes
        memo = PatchMemo()
        shared: dict[Any, Any] = {}  # renders of this change that connections share (app/pages/socket.py)
        self.shared = shared
        # The seats the game now waits for hear first: their answer is what the table waits for next.
        acting = _acting(service, snap)
        for seat, group in sorted(self.conns.items(), key=lambda item: item[0] not in acting):
            if revalidate:
                for conn in list(group):
                    if not self._still_seated(conn, snap):
                        group.discard(conn)
                        await conn.refuse(403, "This seat was given up.")
                        await conn.close(CLOSE_FORBIDDEN, "seat given up")
                if not group:
                    del self.conns[seat]
                    self.views.pop(seat, None)
                    self.chats.pop(seat, None)
                    continue
            started = perf_counter()
            shown = await service.seen_by(snap, seat)  # spectators may see the table some versions behind
            if seat is None:
                from_version, self.spectators_at = self.spectators_at, shown.version
            else:
                from_version = None if old is None else old.version
            new_view = service.client_view(shown, seat)
            previous = self.views.get(seat)
            self.views[seat] = new_view
            sending = perf_counter()
            timings.add("views", sending - started)
            if previous is None or from_version is None:
                for conn in list(group):
                    await conn.full(shown.version, new_view, shared)
            else:
                patch = _lazy_patch(from_version, shown.version, previous, new_view, memo)
                for conn in list(group):
                    if inline is not None and conn is inline.conn and not inline.delivered:
                        inline.delivered = True  # the acting connection: its acknowledgement rides along
                        await conn.send(patch(inline.id))
                    else:
                        await conn.changed(shown.version, new_view, patch, shared)
            timings.add("push", perf_counter() - sending)
        if snap.spectator_delay and None in self.conns and self.hub.chat is not None:
            await self._show_chat(None)  # the players' chat reaches delayed spectators with the game

    async def show_chat(self) -> None:
        """The table's chat changed: every connection gets what its seat (or spectator) reads."""
        async with self.lock:
            for seat in list(self.conns):
                await self._show_chat(seat)

    async def _show_chat(self, seat: int | None) -> None:
        chat = await self.hub.chat.state(self.table_id, seat)
        if self.chats.get(seat) == chat:
            return  # not this reader's chat that changed (a spectator's message, for a player)
        self.chats[seat] = chat
        shared: dict[Any, Any] = {}
        for conn in list(self.conns.get(seat, ())):
            await conn.show_chat(chat, shared)

    async def show_facts(self) -> None:
        """The table's facts may have changed: read them once, for every connection (no more once the rematch
        is known: it never changes)."""
        async with self.lock:
            if self.empty or self.rematch is not None:
                return
            facts = await self.hub.service.facts(self.table_id)
            self.rematch = facts["rematch"]
            shared: dict[Any, Any] = {}
            for group in list(self.conns.values()):
                for conn in list(group):
                    await conn.show_facts(facts, shared)

    @staticmethod
    def _still_seated(conn: Connection, snap: Snapshot) -> bool:
        if conn.seat is None:
            return True
        return conn.seat < len(snap.seat_hashes) and snap.seat_hashes[conn.seat] == conn.token_hash

    async def show_presence(self, presence: dict[str, Any]) -> None:
        async with self.lock:
            if presence == self.presence:
                return
            self.presence = presence
            message = compact({"type": "presence", **presence})
            shared: dict[Any, Any] = {}
            for group in list(self.conns.values()):
                for conn in list(group):
                    await conn.show_presence(presence, message, shared)


def _acting(service: TablesService, snap: Snapshot) -> frozenset[int]:
    """The seats the game of `snap` waits for (none before it starts)."""
    if snap.state is None:
        return frozenset()
    return service.game(snap.game).to_act(snap.state)


def _lazy_patch(from_version: int, version: int, previous: dict[str, Any], new: dict[str, Any],
                memo: PatchMemo) -> Callable[..., str]:
    """The patch message of one seat, computed on first use (only JSON sockets use it) and then kept;
    `patch(ack)` is the same message acknowledging the action with request id `ack`."""
    ops: list[list[dict[str, Any]]] = []
    made: dict[Any, str] = {}

    def patch(ack: Any = None) -> str:
        key = None if ack is None else compact(ack)
        text = made.get(key)
        if text is None:
            if not ops:
                ops.append(view_patch(previous, new, memo))
            text = made[key] = patch_message(from_version, version, ops[0], memo, ack)
        return text

    return patch


class Hub:
    def __init__(self, service: TablesService, *, database_url: str, is_postgres: bool, heartbeat: float):
        self.service = service
        self.instance = secrets.token_hex(8)
        self.heartbeat = heartbeat
        # A channel per table with a socket open here (its snapshot, each watching seat's view and chat, each
        # page socket's last page): it pays on every change (a view and a page computed once per seat),
        # bounded by the sockets open; it goes with the table's last socket.
        self.channels: dict[str, Channel] = {}
        self._released = False  # a channel went since the last presence round: memory to give back
        self.publisher = (PostgresPublisher(database_url, self.instance) if is_postgres
                          else LocalPublisher(self.instance))
        self.local_counts: dict[str, Counter] = {}
        self.local_hidden: dict[str, Counter] = {}  # of those connections, the ones in a hidden tab
        self._presence_dirty: set[str] = set()
        self._presence_writer: asyncio.Task | None = None
        self._background: list[asyncio.Task] = []
        self.chat: ChatService | None = None
        service.on_commit.append(self.committed)
        service.on_writing.append(self.prepare)
        service.on_facts.append(self.facts_changed)

    def watch_chat(self, chat: ChatService) -> None:
        """Push every change of a table's chat to its connections (here, and through the other processes)."""
        self.chat = chat
        chat.on_change.append(self.chat_changed)

    async def chat_changed(self, table_id: str) -> None:
        channel = self.channels.get(table_id)
        if channel is not None:
            await channel.show_chat()
        self.publisher.publish(f"c {table_id} {self.instance}")

    async def facts_changed(self, table_id: str) -> None:
        """A table's facts changed (its rematch was linked): tell its connections here and in the other
        processes."""
        channel = self.channels.get(table_id)
        if channel is not None:
            await channel.show_facts()
        self.publisher.publish(f"f {table_id} {self.instance}")

    # ------------------------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        # Everything made so far (modules, the app, caches) lives as long as the process: out of the cycle
        # collector's way, a full collection scans only what serving made since, so its pauses (which
        # every move in flight waits through) stay short.
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        if os.environ.get("TABULA_TIMINGS_FILE") and _GC_PAUSES.record not in gc.callbacks:
            gc.callbacks.append(_GC_PAUSES.record)
        await self.publisher.start(self._received, self._catch_up)
        loop = asyncio.get_running_loop()
        self._background = [loop.create_task(self._heartbeat_loop(), name="tabula-heartbeat"),
                            loop.create_task(self._presence_loop(), name="tabula-presence")]

    async def stop(self) -> None:
        for task in self._background:
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        for channel in list(self.channels.values()):
            for group in list(channel.conns.values()):
                for conn in list(group):
                    await conn.close(1001, "server shutting down")
        if self._presence_writer is not None:
            self._presence_writer.cancel()
            await asyncio.gather(self._presence_writer, return_exceptions=True)
        tables = sorted(set(self.local_counts) | self._presence_dirty)
        self.local_counts.clear()
        self.local_hidden.clear()
        if tables:
            try:
                await self._write_presence(tables)
            except Exception:
                pass
        await self.publisher.stop()
        self._write_timings()

    def _write_timings(self) -> None:
        """TABULA_TIMINGS_FILE: where the benchmark wants this process's timings once it stops."""
        path = os.environ.get("TABULA_TIMINGS_FILE")
        if not path:
            return
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump({**self.service.timings.as_dict(), "commits": self.service.committer.stats.as_dict(),
                           "gc": _GC_PAUSES.as_dict()}, f)
        except OSError:
            log.warning("could not write the timings to %s", path)

    # ----------------------------------------------------------------------------- table changes

    async def committed(self, snap: Snapshot, acknowledge: InlineAck | None = None) -> None:
        """Called by the service right after a commit in this process: deliver here, tell the others."""
        channel = self.channels.get(snap.id)
        if channel is not None:
            await channel.advance(snap.version, snap, acknowledge)
        self.publisher.publish_version(snap.id, snap.version)

    def prepare(self, snap: Snapshot) -> None:
        """While a move's commit is on its way: the new views of the seats watching here (kept with the
        snapshot, so `Channel._advance_to` finds them made). A delayed spectators' view needs the action log:
        left to the delivery."""
        channel = self.channels.get(snap.id)
        if channel is not None:
            started = perf_counter()
            for seat in list(channel.conns):
                if seat is not None or snap.spectator_delay <= 0:
                    self.service.client_view(snap, seat)
            self.service.timings.add("views", perf_counter() - started)

    async def _received(self, payload: str) -> None:
        try:
            if payload.startswith("V "):  # V INSTANCE TABLE:VERSION ... (pubsub.version_payloads)
                _, instance, *items = payload.split(" ")
                if instance == self.instance:
                    return  # our own news, delivered already
                for item in items:
                    table_id, _, version = item.rpartition(":")
                    channel = self.channels.get(table_id)
                    if channel is not None:
                        try:
                            await channel.advance(int(version))
                        except Exception:  # one table's trouble must not hold back the others' news
                            log.exception("could not bring table %s to version %s", table_id, version)
                return
            kind, table_id, *rest = payload.split(" ")
            if rest and rest[-1] == self.instance:
                return  # our own news, delivered already
            channel = self.channels.get(table_id)
            if channel is None:
                return
            if kind == "v":
                await channel.advance(int(rest[0]))
            elif kind == "p":
                await channel.show_presence(await self._read_presence(table_id))
            elif kind == "c" and self.chat is not None:
                await channel.show_chat()
            elif kind == "f":
                await channel.show_facts()
        except Exception:
            log.exception("could not handle notification %r", payload)

    async def _catch_up(self) -> None:
        """After the LISTEN connection came back: we may have missed news, so re-read every table."""
        for channel in list(self.channels.values()):
            try:
                await channel.advance(None)
                await channel.show_presence(await self._read_presence(channel.table_id))
                await channel.show_facts()
            except Exception:
                log.exception("catch-up of table %s failed", channel.table_id)

    # ------------------------------------------------------------------------------- connections

    async def attach(self, conn: Connection, since: int | None) -> bool:
        channel = self.channels.get(conn.table_id)
        if channel is None:
            channel = self.channels[conn.table_id] = Channel(self, conn.table_id)
        # A socket being attached holds its channel: a reloaded page's new socket attaches while the old one
        # leaves, and the channel going with the old one would leave the new one on a channel the hub forgot.
        channel.attaching += 1
        try:
            attached = await channel.attach(conn, since)
        finally:
            channel.attaching -= 1
            if channel.empty:
                self.channels.pop(conn.table_id, None)
        if not attached:
            return False
        self.local_counts.setdefault(conn.table_id, Counter())[conn.seat] += 1
        self._presence_changed(conn.table_id)
        return True

    def detach(self, conn: Connection) -> None:
        channel = self.channels.get(conn.table_id)
        if channel is None:
            return
        was = conn in channel.conns.get(conn.seat, ())
        channel.detach(conn)
        if channel.empty:
            self.channels.pop(conn.table_id, None)
            self._released = True
            if not self.channels:
                asyncio.get_running_loop().call_soon(self._idle)
        if was:
            if conn.hidden:
                self._count_hidden(conn, -1)
            counts = self.local_counts.get(conn.table_id)
            if counts is not None:
                counts[conn.seat] -= 1
                if counts[conn.seat] <= 0:
                    del counts[conn.seat]
                if not counts:
                    del self.local_counts[conn.table_id]
            self._presence_changed(conn.table_id)

    def _idle(self) -> None:
        """The last table open here went: what cycles still hold of the tables is freed now and given back.
        Under load the collector's full rounds are rare (two in a soak's ten minutes), and what had lived long
        waits for one."""
        if self.channels:
            return
        gc.collect()
        if MALLOC_TRIM is not None:
            MALLOC_TRIM(0)

    def held(self) -> dict[str, int]:
        """The tables this hub keeps something of, by kind (the /metrics gauge tabula_held): a channel (its
        snapshot, each watching seat's view and chat, each page socket's last page) only while a socket of
        the table is open here; the presence counts likewise; tables whose presence is yet to be written."""
        return {"channels": len(self.channels), "presence_counts": len(self.local_counts),
                "presence_hidden": len(self.local_hidden), "presence_dirty": len(self._presence_dirty)}

    def channel(self, table_id: str) -> Channel | None:
        return self.channels.get(table_id)

    def set_hidden(self, conn: Connection, hidden: bool) -> None:
        """The page of this connection says its tab is hidden (or shown again): a seat whose every tab is
        hidden is away."""
        channel = self.channels.get(conn.table_id)
        if conn.hidden == hidden or channel is None or conn not in channel.conns.get(conn.seat, ()):
            return
        conn.hidden = hidden
        self._count_hidden(conn, 1 if hidden else -1)
        self._presence_changed(conn.table_id)

    def _count_hidden(self, conn: Connection, step: int) -> None:
        hidden = self.local_hidden.setdefault(conn.table_id, Counter())
        hidden[conn.seat] += step
        if hidden[conn.seat] <= 0:
            del hidden[conn.seat]
        if not hidden:
            del self.local_hidden[conn.table_id]

    # ---------------------------------------------------------------------------------- presence

    def _presence_changed(self, table_id: str) -> None:
        self._presence_dirty.add(table_id)
        if self._presence_writer is None or self._presence_writer.done():
            self._presence_writer = asyncio.get_running_loop().create_task(self._presence_flush())

    async def _presence_flush(self) -> None:
        """Writes the presence of every table whose connections changed, PRESENCE_DELAY after the first
        change, all in one transaction: the three sockets of a table that come (or go) together, and the
        tables that do so at the same time, cost one commit."""
        while self._presence_dirty:
            await asyncio.sleep(PRESENCE_DELAY)
            tables = sorted(self._presence_dirty)
            self._presence_dirty.clear()
            try:
                shown = await self._write_presence(tables)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence update of %d table(s) failed", len(tables))
                continue
            for table_id, presence in shown.items():
                channel = self.channels.get(table_id)
                if channel is not None:
                    await channel.show_presence(presence)
                self.publisher.publish(f"p {table_id} {self.instance}")

    async def _write_presence(self, tables: list[str]) -> dict[str, dict[str, Any]]:
        """Replaces this process's presence rows of these tables by its current counts (the service writes
        them and sets each table's connected seats and spectator count from every live process's rows)."""
        counts = {t: {seat: (n, n - self.local_hidden.get(t, Counter())[seat])
                      for seat, n in self.local_counts.get(t, Counter()).items()} for t in tables}
        return await self.service.write_presence(self.instance, counts, PRESENCE_TTL)

    async def _read_presence(self, table_id: str) -> dict[str, Any]:
        return await self.service.read_presence(table_id)

    async def _presence_loop(self) -> None:
        """Keeps this process's presence rows alive, expires those of processes that died, and re-reads
        every watched table (and a finished one's facts) once per round in case a notification was lost."""
        interval = min(PRESENCE_TTL / 3, max(self.heartbeat, 1.0))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.presence_round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence round failed")

    async def presence_round(self) -> None:
        """One round of `_presence_loop`."""
        stale = await self.service.refresh_presence(self.instance, PRESENCE_TTL)
        for table_id in stale:
            self._presence_changed(table_id)
        # Every watched table's version and rematch in one read that waits for no move. Read one table at a time
        # under its lock (which a move holds while it is committed), the round took a minute and a half at a
        # club's load, with this process's presence rows (45 s to live) and the trim below waiting for it
        # (tests/bench/RESULTS.md, 2026-11-30 morning). Only a channel that fell behind (a notification lost)
        # reads its table.
        for table_id, (version, rematch) in (await self.service.committed(list(self.channels))).items():
            channel = self.channels.get(table_id)
            if channel is None:
                continue
            await channel.advance(version)
            if rematch is not None and channel.rematch is None:
                await channel.show_facts()
        if self._released and MALLOC_TRIM is not None:
            # Tables went: what the C allocator kept of them goes back to the system (the soak of
            # tests/bench/RESULTS.md: a fifth of the server's memory stayed with it otherwise).
            self._released = False
            MALLOC_TRIM(0)

    # --------------------------------------------------------------------------------- heartbeats

    async def _heartbeat_loop(self) -> None:
        ping = compact({"type": "ping"})
        while True:
            await asyncio.sleep(self.heartbeat)
            deadline = asyncio.get_running_loop().time() - 3 * self.heartbeat
            for channel in list(self.channels.values()):
                for group in list(channel.conns.values()):
                    for conn in list(group):
                        if conn.last_seen < deadline:
                            await conn.close(CLOSE_TIMEOUT, "no heartbeat")
                        else:
                            await conn.ping(ping)
