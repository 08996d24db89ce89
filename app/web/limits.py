"""Rate limits per client and per seat, with 429 and Retry-After past them.

The counting is done by `limits` (moving windows, in this process's memory): table creation per client,
actions per seat, admin login attempts per client. The websocket connections a client holds open at once are
a plain count. Several server processes each count their own clients (a client's share is per process).
"""

from __future__ import annotations

import math
import time
from collections import Counter

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from ..config import Settings
from ..i18n import N_


class RateLimited(Exception):
    """Too many requests of one kind: a 429 with `Retry-After` (seconds)."""

    def __init__(self, retry_after: int, message: str):
        super().__init__(message)
        self.retry_after = retry_after
        self.message = message  # English, a msgid of the catalogs


TOO_MANY_TABLES = N_("You created many tables in a short time: wait a little before the next one.")
TOO_MANY_ACTIONS = N_("Too many actions in a short time: wait a moment.")
TOO_MANY_LOGINS = N_("Too many login attempts: wait before trying again.")
TOO_MANY_MESSAGES = N_("Too many chat messages in a short time: wait a few seconds.")
TOO_MANY_SOCKETS = N_("Too many live connections from your address: close some pages.")


SOCKET_RETRY_SECONDS = 5  # an open connection has no window to wait for: a short pause, then try again


def client_of(conn: HTTPConnection) -> str:
    """Who a request comes from: its address (behind a proxy, uvicorn's --proxy-headers sets it)."""
    return conn.client.host if conn.client else "unknown"


class RateLimits:
    def __init__(self, settings: Settings):
        self.enabled = settings.rate_limits
        self.tables = parse(settings.limit_tables)
        self.actions = parse(settings.limit_actions)
        self.logins = parse(settings.limit_logins)
        self.chat = parse(settings.limit_chat)
        self.max_sockets = settings.max_sockets
        self._window = MovingWindowRateLimiter(MemoryStorage())
        self._sockets: Counter[str] = Counter()

    def held(self) -> dict[str, int]:
        """The keys the limits keep (per client, per seat of a table; each expires with its window), and the
        clients with an open socket, for the /metrics gauge tabula_held."""
        storage = self._window.storage
        return {"limit_keys": len(set(storage.events) | set(storage.storage)), "socket_clients": len(self._sockets)}

    async def hit(self, item: RateLimitItem, key: str, message: str, always: bool = False) -> None:
        """Counts one more of `item` for `key`; RateLimited when that is one too many. `always`: a rule of
        the site rather than a protection of the server, counted even when the limits are off."""
        if not (self.enabled or always) or await self._window.hit(item, key):
            return
        stats = await self._window.get_window_stats(item, key)
        raise RateLimited(max(1, math.ceil(stats.reset_time - time.time())), message)

    async def table_created(self, conn: HTTPConnection) -> None:
        await self.hit(self.tables, client_of(conn), TOO_MANY_TABLES)

    async def action(self, table_id: str, token_hash: str) -> None:
        """One action of a seat (known by its token's hash), by any road: API, page form or websocket."""
        await self.hit(self.actions, f"{table_id}:{token_hash}", TOO_MANY_ACTIONS)

    async def chat_message(self, table_id: str, sender: str) -> None:
        """One chat message of a sender (a seat, or a spectator's address) at a table."""
        await self.hit(self.chat, f"chat:{table_id}:{sender}", TOO_MANY_MESSAGES, always=True)

    async def login_attempt(self, conn: HTTPConnection) -> None:
        await self.hit(self.logins, client_of(conn), TOO_MANY_LOGINS)

    def open_socket(self, client: str) -> None:
        """Counts one more open websocket of the client; RateLimited past the maximum (then not counted)."""
        if self.enabled and self._sockets[client] >= self.max_sockets:
            raise RateLimited(SOCKET_RETRY_SECONDS, TOO_MANY_SOCKETS)
        self._sockets[client] += 1

    def close_socket(self, client: str) -> None:
        self._sockets[client] -= 1
        if self._sockets[client] <= 0:
            del self._sockets[client]


def rate_limits(conn: HTTPConnection) -> RateLimits:
    return conn.app.state.limits
