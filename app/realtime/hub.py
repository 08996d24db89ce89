"""The realtime hub of one server process: websocket connections per table and seat.

Each table with open connections has a `Channel`. When the table reaches a new version (a move committed
here, or a NOTIFY from another process), the channel computes each connected seat's new view once,
diffs it against that seat's previous view once, and sends the same patch text to all of that seat's
connections. The spectator is just the seat `None`. A channel handles versions strictly in order under
its lock; a version it skipped (it only ever loads the latest) is covered by a patch whose `from` is the
version it last sent, so a client applies a patch only when `from` equals its own version.

Presence: each process counts its own connections per table and seat and writes them to the `presence`
table (refreshed by a heartbeat; rows of a dead process expire); the sum over live processes sets
`seats.connected` and `tables.spectators`, and a presence message goes to every connection of the table.
See PROTOCOL.md for the messages.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from datetime import timedelta
from typing import Any

from sqlalchemy import text
from starlette.websockets import WebSocket

from ..models import LOBBY, SPECTATOR_SEAT
from ..services.tables import Snapshot, TablesService, compact, now
from .diff import view_patch
from .pubsub import LocalPublisher, PostgresPublisher

log = logging.getLogger("tabula.realtime")

PRESENCE_TTL = 45.0  # seconds after which a silent process's presence rows no longer count
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TIMEOUT = 4408


class Connection:
    """One open websocket of one seat (or spectator) at one table."""

    __slots__ = ("ws", "table_id", "seat", "token_hash", "last_seen", "closed", "_lock")

    def __init__(self, ws: WebSocket, table_id: str, seat: int | None, token_hash: str | None):
        self.ws = ws
        self.table_id = table_id
        self.seat = seat
        self.token_hash = token_hash
        self.last_seen = asyncio.get_running_loop().time()
        self.closed = False
        self._lock = asyncio.Lock()

    async def send(self, message: str) -> None:
        if self.closed:
            return
        try:
            async with self._lock:
                await self.ws.send_text(message)
        except Exception:  # the peer went away; its handler cleans up
            self.closed = True

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
        self.lock = asyncio.Lock()

    @property
    def empty(self) -> bool:
        return not any(self.conns.values())

    async def attach(self, conn: Connection, since: int | None) -> bool:
        service = self.hub.service
        async with self.lock:
            snap = await service.current(self.table_id)
            if self.snapshot is None or snap.version > self.snapshot.version:
                await self._advance_to(snap)
            snap = self.snapshot
            if not self._still_seated(conn, snap):
                return False
            view = self.views.get(conn.seat)
            if view is None:
                view = self.views[conn.seat] = service.client_view(snap, conn.seat)
            if since == snap.version:
                await conn.send(compact({"type": "synced", "version": snap.version}))
            else:
                await conn.send(compact({"type": "full", "version": snap.version, "view": view}))
            if self.presence is not None:
                await conn.send(compact({"type": "presence", **self.presence}))
            self.conns.setdefault(conn.seat, set()).add(conn)
        return True

    def detach(self, conn: Connection) -> None:
        group = self.conns.get(conn.seat)
        if group is not None:
            group.discard(conn)
            if not group:
                del self.conns[conn.seat]
                self.views.pop(conn.seat, None)

    async def resync(self, conn: Connection) -> None:
        """A client asked for a full view."""
        async with self.lock:
            if self.snapshot is None:
                return
            view = self.views.get(conn.seat)
            if view is None:
                view = self.views[conn.seat] = self.hub.service.client_view(self.snapshot, conn.seat)
            await conn.send(compact({"type": "full", "version": self.snapshot.version, "view": view}))

    async def advance(self, version: int | None, snap: Snapshot | None = None) -> None:
        """Bring every connection to `version` (or to whatever is current when None)."""
        async with self.lock:
            if version is not None and self.snapshot is not None and version <= self.snapshot.version:
                return
            if snap is None or (version is not None and snap.version < version):
                snap = await (self.hub.service.current(self.table_id) if version is None
                              else self.hub.service.at_least(self.table_id, version))
            if self.snapshot is None or snap.version > self.snapshot.version:
                await self._advance_to(snap)

    async def _advance_to(self, snap: Snapshot) -> None:
        service = self.hub.service
        old = self.snapshot
        self.snapshot = snap
        revalidate = old is None or old.status == LOBBY or snap.seat_hashes != old.seat_hashes
        for seat, group in list(self.conns.items()):
            if revalidate:
                for conn in list(group):
                    if not self._still_seated(conn, snap):
                        group.discard(conn)
                        await conn.send(compact({"type": "error", "status": 403,
                                                 "error": "This seat was given up."}))
                        await conn.close(CLOSE_FORBIDDEN, "seat given up")
                if not group:
                    del self.conns[seat]
                    self.views.pop(seat, None)
                    continue
            new_view = service.client_view(snap, seat)
            previous = self.views.get(seat)
            if previous is None or old is None:
                message = compact({"type": "full", "version": snap.version, "view": new_view})
            else:
                message = compact({"type": "patch", "from": old.version, "version": snap.version,
                                   "patch": view_patch(previous, new_view)})
            self.views[seat] = new_view
            for conn in list(group):
                await conn.send(message)

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
            for group in list(self.conns.values()):
                for conn in list(group):
                    await conn.send(message)


class Hub:
    def __init__(self, service: TablesService, *, database_url: str, is_postgres: bool, heartbeat: float):
        self.service = service
        self.instance = secrets.token_hex(8)
        self.heartbeat = heartbeat
        self.channels: dict[str, Channel] = {}
        self.publisher = PostgresPublisher(database_url) if is_postgres else LocalPublisher()
        self.local_counts: dict[str, Counter] = {}
        self._presence_dirty: set[str] = set()
        self._presence_tasks: dict[str, asyncio.Task] = {}
        self._background: list[asyncio.Task] = []
        service.on_commit.append(self.committed)

    # ------------------------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
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
        tables = list(self.local_counts)
        self.local_counts.clear()
        for table_id in tables:
            try:
                await self._write_presence(table_id)
            except Exception:
                pass
        for task in list(self._presence_tasks.values()):
            task.cancel()
        await self.publisher.stop()

    # ----------------------------------------------------------------------------- table changes

    async def committed(self, snap: Snapshot) -> None:
        """Called by the service right after a commit in this process: deliver here, tell the others."""
        channel = self.channels.get(snap.id)
        if channel is not None:
            await channel.advance(snap.version, snap)
        self.publisher.publish(f"v {snap.id} {snap.version} {self.instance}")

    async def _received(self, payload: str) -> None:
        try:
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
        except Exception:
            log.exception("could not handle notification %r", payload)

    async def _catch_up(self) -> None:
        """After the LISTEN connection came back: we may have missed news, so re-read every table."""
        for channel in list(self.channels.values()):
            try:
                await channel.advance(None)
                await channel.show_presence(await self._read_presence(channel.table_id))
            except Exception:
                log.exception("catch-up of table %s failed", channel.table_id)

    # ------------------------------------------------------------------------------- connections

    async def attach(self, conn: Connection, since: int | None) -> bool:
        channel = self.channels.get(conn.table_id)
        if channel is None:
            channel = self.channels[conn.table_id] = Channel(self, conn.table_id)
        try:
            attached = await channel.attach(conn, since)
        except BaseException:
            if channel.empty:
                self.channels.pop(conn.table_id, None)
            raise
        if not attached:
            if channel.empty:
                self.channels.pop(conn.table_id, None)
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
        if was:
            counts = self.local_counts.get(conn.table_id)
            if counts is not None:
                counts[conn.seat] -= 1
                if counts[conn.seat] <= 0:
                    del counts[conn.seat]
                if not counts:
                    del self.local_counts[conn.table_id]
            self._presence_changed(conn.table_id)

    def channel(self, table_id: str) -> Channel | None:
        return self.channels.get(table_id)

    # ---------------------------------------------------------------------------------- presence

    def _presence_changed(self, table_id: str) -> None:
        self._presence_dirty.add(table_id)
        if table_id not in self._presence_tasks:
            self._presence_tasks[table_id] = asyncio.get_running_loop().create_task(self._presence_task(table_id))

    async def _presence_task(self, table_id: str) -> None:
        try:
            while table_id in self._presence_dirty:
                self._presence_dirty.discard(table_id)
                try:
                    presence = await self._write_presence(table_id)
                except Exception:
                    log.exception("presence update of table %s failed", table_id)
                    return
                channel = self.channels.get(table_id)
                if channel is not None:
                    await channel.show_presence(presence)
                self.publisher.publish(f"p {table_id} {self.instance}")
        finally:
            self._presence_tasks.pop(table_id, None)

    async def _write_presence(self, table_id: str) -> dict[str, Any]:
        counts = self.local_counts.get(table_id, Counter())
        at = now()
        async with self.service._writer() as conn:
            exists = (await conn.execute(text("SELECT 1 FROM tables WHERE id = :id"), {"id": table_id})).first()
            if exists is None:
                return {"connected": [], "spectators": 0}
            await conn.execute(text("DELETE FROM presence WHERE instance = :i AND table_id = :t"),
                               {"i": self.instance, "t": table_id})
            rows = [{"i": self.instance, "t": table_id, "s": SPECTATOR_SEAT if seat is None else seat,
                     "c": n, "at": at} for seat, n in counts.items() if n > 0]
            if rows:
                await conn.execute(text(
                    "INSERT INTO presence (instance, table_id, seat, connections, seen_at)"
                    " VALUES (:i, :t, :s, :c, :at)"), rows)
            return await self._aggregate(conn, table_id, at)

    async def _aggregate(self, conn, table_id: str, at) -> dict[str, Any]:
        cutoff = at - timedelta(seconds=PRESENCE_TTL)
        live = (await conn.execute(text(
            "SELECT seat, SUM(connections) AS n FROM presence WHERE table_id = :t AND seen_at > :cutoff"
            " GROUP BY seat"), {"t": table_id, "cutoff": cutoff})).all()
        seats = sorted(r.seat for r in live if r.seat != SPECTATOR_SEAT and r.n > 0)
        spectators = sum(int(r.n) for r in live if r.seat == SPECTATOR_SEAT)
        await conn.execute(text("UPDATE seats SET connected = false WHERE table_id = :t AND connected"),
                           {"t": table_id})
        if seats:
            await conn.execute(text("UPDATE seats SET connected = true WHERE table_id = :t AND number = :n"),
                               [{"t": table_id, "n": n} for n in seats])
        await conn.execute(text("UPDATE tables SET spectators = :n WHERE id = :t AND spectators <> :n"),
                           {"t": table_id, "n": spectators})
        return {"connected": seats, "spectators": spectators}

    async def _read_presence(self, table_id: str) -> dict[str, Any]:
        async with self.service.autocommit.connect() as conn:
            seats = (await conn.execute(text(
                "SELECT number FROM seats WHERE table_id = :t AND connected ORDER BY number"),
                {"t": table_id})).scalars().all()
            spectators = (await conn.execute(text("SELECT spectators FROM tables WHERE id = :t"),
                                             {"t": table_id})).scalar() or 0
        return {"connected": list(seats), "spectators": spectators}

    async def _presence_loop(self) -> None:
        """Keeps this process's presence rows alive, expires those of processes that died, and re-reads
        every watched table once per round in case a notification was lost."""
        interval = min(PRESENCE_TTL / 3, max(self.heartbeat, 1.0))
        while True:
            await asyncio.sleep(interval)
            try:
                at = now()
                async with self.service._writer() as conn:
                    await conn.execute(text("UPDATE presence SET seen_at = :at WHERE instance = :i"),
                                       {"at": at, "i": self.instance})
                    stale = (await conn.execute(text(
                        "SELECT DISTINCT table_id FROM presence WHERE seen_at <= :cutoff"),
                        {"cutoff": at - timedelta(seconds=PRESENCE_TTL)})).scalars().all()
                    if stale:
                        await conn.execute(text("DELETE FROM presence WHERE seen_at <= :cutoff"),
                                           {"cutoff": at - timedelta(seconds=PRESENCE_TTL)})
                for table_id in stale:
                    self._presence_changed(table_id)
                for channel in list(self.channels.values()):
                    await channel.advance(None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence round failed")

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
                            await conn.send(ping)
