"""uvicorn's HTTP protocol (httptools), letting go of what a connection upgraded to a websocket leaves behind."""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol. Its parser holds the protocol's methods (its callbacks), and the protocol its
    parser; a connection that ends as HTTP breaks that (`connection_lost`), but one upgraded to a websocket
    hands its transport to the websocket's protocol and was left with it: a cycle holding the request's scope
    and headers, 22 objects for every socket opened, which only the cycle collector freed."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  (the websocket's protocol reads the connection now)
