"""The websocket of a table: live views for a seat or a spectator, and actions (see PROTOCOL.md)."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.datastructures import QueryParams
from starlette.websockets import WebSocketDisconnect

from .. import observability
from ..i18n import pick_lang
from ..pages.socket import PageConnection, presence_digest
from ..realtime.hub import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, Connection, Hub, InlineAck
from ..services.errors import Conflict, NotFound, ServiceError
from ..services.tables import FACTS, TablesService, compact
from ..web.bodies import BadJSON, parse_json
from ..web.limits import RateLimited, rate_limits
from .api import base_url, seat_cookie
from .pages import table_links

router = APIRouter()
log = logging.getLogger("tabula.ws")

MAX_MESSAGE = 32_768


def _same_origin(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser
    return urlsplit(origin).netloc == ws.headers.get("host")


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    service: TablesService = ws.app.state.service
    hub: Hub = ws.app.state.hub
    await ws.accept()
    params = ws.query_params
    credential = params.get("token") or params.get("spectate")
    if not credential:
        auth = ws.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            credential = auth[7:].strip()
    credential = credential or _page_cookie(ws, table_id)
    since = _since(params)
    try:
        ident = await service.identify(table_id, credential)
    except ServiceError as e:
        await ws.send_text(compact({"type": "error", "status": e.status, "error": e.message}))
        await ws.close(code=CLOSE_NOT_FOUND if isinstance(e, NotFound) else CLOSE_FORBIDDEN)
        return
    conn = Connection(ws, table_id, ident.seat, ident.token_hash)
    try:
        if not await hub.attach(conn, since):
            await ws.send_text(compact({"type": "error", "status": 403, "error": "This seat was given up."}))
            await ws.close(code=CLOSE_FORBIDDEN)
            return
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None and message.get("bytes") is not None:
                raw = message["bytes"].decode("utf-8", "replace")
            conn.last_seen = _now()
            observability.socket_message("in", raw or "")
            try:
                await _handle(service, hub, conn, raw or "")
            except Exception as e:  # never leak details; keep the connection
                observability.error(type(e))
                log.exception("websocket message failed at table %s", table_id)
                await conn.send(compact({"type": "error", "status": 500, "error": "Internal error."}))
    except WebSocketDisconnect:
        pass
    finally:
        conn.closed = True
        hub.detach(conn)


@router.websocket("/ws/tables/{table_id}/html")
async def table_html_socket(ws: WebSocket, table_id: str) -> None:
    """The table page's socket (htmx websocket extension): the parts of the page that changed, as HTML for
    out-of-band swaps (app/pages/socket.py). It takes the page's seat cookie (same origin only) or
    `?spectate=KEY`, and `since=VERSION` (the version the page shows)."""
    service: TablesService = ws.app.state.service
    hub: Hub = ws.app.state.hub
    await ws.accept()
    params = ws.query_params
    credential = params.get("spectate") or _page_cookie(ws, table_id)
    since = _since(params)
    try:
        ident = await service.identify(table_id, credential)
        summary = await service.summary(table_id)
        base = base_url(ws)  # type: ignore[arg-type]  (a websocket's base is ws://: the links are http://)
        base = "http" + base[2:] if base.startswith("ws") else base
        links = await table_links(base, service, table_id, credential, ident.seat is not None)
    except ServiceError as e:
        await ws.close(code=CLOSE_NOT_FOUND if isinstance(e, NotFound) else CLOSE_FORBIDDEN)
        return
    if links.get("rematch") and links["rematch"] != params.get("rematch"):
        # The rematch was linked after the page was rendered: the socket starts from the page's links (no
        # rematch) and the hub sends the rematch once attached.
        links.update(dict.fromkeys(FACTS))
    if params.get("presence") not in (None, presence_digest(summary["presence"])):
        # Someone came or went between the page's load and its socket: the socket's presence is newer than the
        # page's, so "nothing changed since" would leave the page showing the old one. The whole page comes.
        since = None
    game = service.game(summary["game"])
    conn = PageConnection(
        ws, table_id, ident.seat, ident.token_hash, lang=pick_lang(ws.cookies, ws.headers, params.get("lang")),
        game=game, links=links, title=(game.title_en, game.title_fr, game.title_it),
        presence=summary["presence"], chat_seen=params.get("chat"))
    try:
        # The page shows `since`: when nothing changed since, the hub says "synced" and nothing is sent;
        # otherwise (a reconnect after a gap) the whole body comes again.
        if not await hub.attach(conn, since):
            await ws.close(code=CLOSE_FORBIDDEN)
            return
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            conn.last_seen = _now()  # the page answers every ping (any message counts)
            observability.socket_message("in", message.get("text") or "")
            if message.get("text") in TAB_HIDDEN:  # the page's tab was hidden or shown again
                hub.set_hidden(conn, TAB_HIDDEN[message["text"]])
    except WebSocketDisconnect:
        pass
    finally:
        conn.closed = True
        hub.detach(conn)


# What the table page says when its tab is hidden or shown again (static/tabula.js).
TAB_HIDDEN = {compact({"type": "away"}): True, compact({"type": "back"}): False}


def _page_cookie(ws: WebSocket, table_id: str) -> str | None:
    """The page's own seat cookie; refused from other sites (no cross-site websocket hijacking)."""
    return ws.cookies.get(seat_cookie(table_id)) if _same_origin(ws) else None


def _since(params: QueryParams) -> int | None:
    """`since=VERSION`: the version the client already shows."""
    raw = params.get("since")
    return int(raw) if raw and raw.isdigit() else None


def _now() -> float:
    return asyncio.get_running_loop().time()


async def _handle(service: TablesService, hub: Hub, conn: Connection, raw: str) -> None:
    try:
        msg = parse_json(raw, MAX_MESSAGE)
    except BadJSON as e:
        await conn.send(compact({"type": "error", "status": e.status, "error": e.message}))
        return
    if not isinstance(msg, dict):
        await conn.send(compact({"type": "error", "status": 400, "error": "Messages are JSON objects."}))
        return
    kind = msg.get("type")
    if kind == "ping":
        await conn.send(compact({"type": "pong"}))
    elif kind == "pong":
        return
    elif kind == "sync":
        channel = hub.channel(conn.table_id)
        if channel is not None:
            await channel.resync(conn)
    elif kind == "act":
        request_id = msg.get("id")
        # "ack": "patch": acknowledged inside the patch that carries the move (one message, not two).
        inline = InlineAck(conn, request_id) if msg.get("ack") == "patch" and request_id is not None else None
        if conn.seat is None:
            reply = {"type": "error", "status": 403, "error": "Spectators cannot act."}
        else:
            try:
                await rate_limits(conn.ws).action(conn.table_id, conn.token_hash or "")
                version = await service.act(conn.table_id, None, msg.get("version"), msg.get("action"),
                                            token_hash=conn.token_hash, acknowledge=inline)
                reply = {"type": "ack", "version": version}
            except RateLimited as e:
                reply = {"type": "error", "status": 429, "error": e.message, "retry_after": e.retry_after}
            except Conflict as e:
                observability.error(type(e))
                reply = {"type": "error", "status": e.status, **e.body()}
            except ServiceError as e:
                observability.error(type(e))
                reply = {"type": "error", "status": e.status, "error": e.message}
        if inline is not None and inline.delivered and reply["type"] == "ack":
            return
        if request_id is not None:
            reply["id"] = request_id
        await conn.send(compact(reply))
    else:
        await conn.send(compact({"type": "error", "status": 400, "error": "Unknown message type."}))
