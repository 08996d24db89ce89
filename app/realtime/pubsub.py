"""Telling the other server processes that a table changed.

The process that commits a change delivers it to its own websockets directly (hub.py); a publisher only
carries the news to *other* processes. With SQLite there is one process, so there is nothing to carry.
With Postgres, `LISTEN/NOTIFY` on one channel: the payload is a table id and a version (or a presence
change), never anything from a state.

Notifications go out on a dedicated connection with `synchronous_commit = off`: a NOTIFY is only a
hint (the move itself was committed durably before), and this keeps the notify's commit from waiting
for a disk flush while it holds Postgres's notification lock.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from sqlalchemy.engine import make_url

log = logging.getLogger("tabula.pubsub")

CHANNEL = "tabula"
Handler = Callable[[str], Awaitable[None]]


class LocalPublisher:
    """One process: local delivery already happened, nothing else to tell."""

    async def start(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        return None

    def publish(self, payload: str) -> None:
        return None

    async def stop(self) -> None:
        return None


class PostgresPublisher:
    def __init__(self, database_url: str):
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

    async def stop(self) -> None:
        self._stopping = True
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
