"""uvicorn's protocols, as the server runs them: HTTP (httptools), letting go of what a connection upgraded to a
websocket leaves behind; websockets (websockets' sans-I/O), compressing with settings measured on the pages'
updates."""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol. Its parser holds the protocol's methods (its callbacks), and the protocol its
    parser; a connection that ends as HTTP breaks that (`connection_lost`), but one upgraded to a websocket
    hands its transport to the websocket's protocol and was left with it: a cycle holding the request's scope
    and headers, 22 objects for every socket opened, which only the cycle collector freed."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  (the websocket's protocol reads the connection now)


# What the server compresses its messages with (permessage-deflate, the context kept between messages). uvicorn
# fixes zlib's level 6, a window of 2**12 bytes and memLevel 5 (32 KB of zlib's memory per socket). A page's
# update is about 5 KB of HTML, much of it what the previous update to the same socket held: a window of 2**13
# reaches it. Over the page road's 4 359 updates (tests/bench/RESULTS.md, 2026-11-29 evening) that took 43 µs
# and 474 bytes an update, against 52 µs and 720, for 16 KB more per socket. (Level 4 took 36 µs and 518 bytes
# there, but the JSON road's small patches grew from 43 to 49 bytes; a window of 2**14, 43 µs and 346 bytes,
# costs 48 KB more per socket.) What the clients send stays in a window of 2**12.
COMPRESSION = {"level": 6, "memLevel": 5}
SERVER_WINDOW_BITS = 13
CLIENT_WINDOW_BITS = 12


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (websockets' sans-I/O), compressing with `COMPRESSION` in a window of
    2**SERVER_WINDOW_BITS instead of uvicorn's fixed settings."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:  # (the connection is made again, before any byte reached it)
            self.conn = ServerProtocol(
                extensions=[ServerPerMessageDeflateFactory(server_max_window_bits=SERVER_WINDOW_BITS,
                                                           client_max_window_bits=CLIENT_WINDOW_BITS,
                                                           compress_settings=COMPRESSION)],
                max_size=self.config.ws_max_size, logger=logging.getLogger("uvicorn.error"))
