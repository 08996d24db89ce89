"""Telling the other server processes that a table changed.

The process that commits a change delivers it to its own websockets directly (hub.py); a publisher only
carries the news to *other* processes. With SQLite there is one process, so there is nothing to carry.
With Postgres, `LISTEN/NOTIFY` on one channel: the payload is a table id and a version (or a presence
change), never anything from a state.

Notifications go out on a dedicated connection with `synchronous_commit = off`: a NOTIFY is only a
hint (the move itself was committed durably before), and this keeps the notify's commit from waiting
for a disk flush while it holds Postgres's notification lock.

New versions go out together, `V INSTANCE TABLE:VERSION ...` (only the latest version of each table), at
most one notification every NOTIFY_INTERVAL: the first version after a quiet spell goes at the end of the
event loop's turn (a player whose opponent is on another process does not wait for a timer), and the ones
that follow within the interval wait for its end and go as one. So a busy server sends at most 200
notifications a second, not one per move: each costs a round trip here and a transaction in Postgres, and
every listening process (this one included) wakes up for it. Only other processes need them, and they
re-read the table anyway. (It was a fixed 20 ms gathering: two processes at one table measured 61 moves/s
and an opponent p50 of 152 ms.)
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from sqlalchemy.engine import make_url

log = logging.getLogger("tabula.pubsub")

CHANNEL = "tabula"
NOTIFY_INTERVAL = 0.005  # seconds: at most one version notification per interval
MAX_PAYLOAD = 7_900  # Postgres refuses notification payloads of 8000 bytes or more
Handler = Callable[[str], Awaitable[None]]


def version_payloads(instance: str, versions: dict[str, int]) -> list[str]:
    """`V INSTANCE TABLE:VERSION ...` notifications carrying these versions, each under MAX_PAYLOAD."""
    out: list[str] = []
    head = f"V {instance}"
    current = head
    for table_id, version in versions.items():
        item = f" {table_id}:{version}"
        if len(current) + len(item) > MAX_PAYLOAD:
            out.append(current)
            current = head
        current += item
    if current != head:
        out.append(current)
    return out


class LocalPublisher:
    """One process: local delivery already happened, nothing else to tell."""

    def __init__(self, instance: str = "") -> None:
        self.instance = instance

    def publish_version(self, table_id: str, version: int) -> None:
        return None

    async def start(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        return None

    def publish(self, payload: str) -> None:
        return None

    async def stop(self) -> None:
        return None


class PostgresPublisher:
    def __init__(self, database_url: str, instance: str = ""):
        self.instance = instance
        self._versions: dict[str, int] = {}
        self._flush_at: asyncio.TimerHandle | None = None
        self._flushed_at = float("-inf")  # loop time of the last version notification
        self.dsn = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []
        self._handler: Handler | None = None
        self._on_reconnect: Callable[[], Awaitable[None]] | None = None
        self._listening = asyncio.Event()
        self._stopping = False

    async def start(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        self._handler = handler
        self._on_reconnect = on_reconnect
        self._tasks = [asyncio.create_task(self._listen(), name="tabula-listen"),
                       asyncio.create_task(self._send(), name="tabula-notify")]
        try:
            await asyncio.wait_for(self._listening.wait(), timeout=15)
        except asyncio.TimeoutError:
            log.warning("LISTEN connection is not up yet; will keep trying")

    def publish(self, payload: str) -> None:
        self._queue.put_nowait(payload)

    def publish_version(self, table_id: str, version: int) -> None:
        """Tells the other processes, within NOTIFY_INTERVAL, that this table reached this version."""
        if self._versions.get(table_id, -1) < version:
            self._versions[table_id] = version
        if self._flush_at is None:
            loop = asyncio.get_running_loop()
            wait = max(0.0, self._flushed_at + NOTIFY_INTERVAL - loop.time())
            self._flush_at = loop.call_later(wait, self._flush_versions)

    def _flush_versions(self) -> None:
        self._flush_at = None
        self._flushed_at = asyncio.get_running_loop().time()
        versions, self._versions = self._versions, {}
        for payload in version_payloads(self.instance, versions):
            self._queue.put_nowait(payload)

    async def stop(self) -> None:
        self._stopping = True
        if self._flush_at is not None:
            self._flush_at.cancel()
            self._flush_versions()
        # Let queued notifications go out (briefly), then stop.
        for _ in range(50):
            if self._queue.empty():
                break
            await asyncio.sleep(0.02)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _connect(self):
        import asyncpg

        return await asyncpg.connect(self.dsn, server_settings={
            "application_name": "tabula-pubsub", "synchronous_commit": "off"})

    async def _listen(self) -> None:
        first = True
        while not self._stopping:
            conn = None
            try:
                conn = await self._connect()
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c: lost.set())
                await conn.add_listener(CHANNEL, self._received)
                self._listening.set()
                if not first and self._on_reconnect:
                    await self._on_reconnect()  # we may have missed notifications meanwhile
                first = False
                await lost.wait()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database went away: retry
                log.warning("LISTEN connection failed (%s); retrying", e)
                await asyncio.sleep(1)
            finally:
                if conn is not None and not conn.is_closed():
                    conn.terminate()

    def _received(self, _conn, _pid, _channel, payload: str) -> None:
        if self._handler is not None:
            asyncio.get_running_loop().create_task(self._handler(payload))

    async def _send(self) -> None:
        conn = None
        try:
            while True:
                payload = await self._queue.get()
                batch = [payload]
                while not self._queue.empty():
                    batch.append(self._queue.get_nowait())
                for attempt in range(3):
                    try:
                        if conn is None or conn.is_closed():
                            conn = await self._connect()
                        await conn.execute("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", CHANNEL, batch)
                        break
                    except asyncio.CancelledError:
                        raise
                    except Exception as e:
                        log.warning("NOTIFY failed (%s); retrying", e)
                        if conn is not None:
                            conn.terminate()
                            conn = None
                        await asyncio.sleep(0.2 * (attempt + 1))
        finally:
            if conn is not None and not conn.is_closed():
                conn.terminate()
