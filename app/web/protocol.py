"""uvicorn's protocols, as the server runs them: HTTP (httptools), letting go of what a connection upgraded to a
websocket leaves behind; websockets (websockets' sans-I/O), compressing with settings measured for each kind
of socket: the page's updates and the JSON API's patches."""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.http11 import Request
from websockets.server import ServerProtocol


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol. Its parser holds the protocol's methods (its callbacks), and the protocol its
    parser; a connection that ends as HTTP breaks that (`connection_lost`), but one upgraded to a websocket
    hands its transport to the websocket's protocol and was left with it: a cycle holding the request's scope
    and headers, 22 objects for every socket opened, which only the cycle collector freed."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  (the websocket's protocol reads the connection now)


# What the server compresses its messages with (permessage-deflate, the context kept between messages), by the
# socket's kind: the page's and the JSON API's updates differ in size by ten times. uvicorn fixes zlib's level 6,
# a window of 2**12 bytes and memLevel 5 (32 KB of zlib's memory per socket) for every socket.
# - A page's update is about 5 KB of HTML, much of it what the previous update to the same socket held: a
#   window of 2**13 reaches it. Over the page road's 4 359 updates (tests/bench/RESULTS.md, 2026-11-29 evening)
#   that took 43 µs and 474 bytes an update, against 52 µs and 720 (level 4: 36 µs and 518 bytes; a window of
#   2**14: 43 µs and 346 bytes, for 32 KB more per socket).
# - A JSON patch is a few hundred bytes, much like the one before it: a window of 2**11 reaches it, and with
#   memLevel 2 zlib's state (16 KB resident instead of 35) stays in the caches when many sockets take turns.
#   Over 36 000 patches of 200 tables of the benchmark game sent in turn (RESULTS.md, 2026-11-30 morning):
#   6.2 µs and 39.6 bytes a patch, against 16.7 µs and 37.7 with the page's settings.
# What the clients send stays in a window of 2**12.
COMPRESSION = {"level": 6, "memLevel": 5}  # the page's socket
SERVER_WINDOW_BITS = 13
JSON_COMPRESSION = {"level": 6, "memLevel": 2}  # the JSON API's socket
JSON_SERVER_WINDOW_BITS = 11
CLIENT_WINDOW_BITS = 12


def _deflate(window_bits: int, settings: dict[str, int]) -> ServerPerMessageDeflateFactory:
    return ServerPerMessageDeflateFactory(server_max_window_bits=window_bits, client_max_window_bits=CLIENT_WINDOW_BITS,
                                          compress_settings=settings)


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (websockets' sans-I/O), compressing with `COMPRESSION` in a window of
    2**SERVER_WINDOW_BITS on the page's socket (`/ws/tables/{id}/html`) and with `JSON_COMPRESSION` in
    2**JSON_SERVER_WINDOW_BITS on any other, instead of uvicorn's fixed settings."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:  # (the connection is made again, before any byte reached it)
            self.conn = ServerProtocol(extensions=[_deflate(SERVER_WINDOW_BITS, COMPRESSION)],
                                       max_size=self.config.ws_max_size, logger=logging.getLogger("uvicorn.error"))

    def handle_connect(self, event: Request) -> None:
        if self.config.ws_per_message_deflate and not event.path.partition("?")[0].endswith("/html"):
            # The handshake's request names the socket; the extension is agreed on when uvicorn accepts it.
            self.conn.available_extensions = [_deflate(JSON_SERVER_WINDOW_BITS, JSON_COMPRESSION)]
        super().handle_connect(event)
