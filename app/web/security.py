"""The edge middleware every HTTP request and websocket goes through, the error answers it and the routes
share, the API docs page under the CSP, and the admin session cookie.

In order, for a request: an unsafe method from another site is refused (403, nothing changes); a body larger
than `settings.max_body` is refused (413) before it is read whole; a JSON body is checked for depth and size
(app/web/bodies.py); every response gets the security headers; an unexpected exception becomes a logged 500
page that says nothing of the internals. A websocket is refused (close 1013) past the client's number of
open connections.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
from typing import Any
from urllib.parse import urlsplit

from itsdangerous import BadData, URLSafeTimedSerializer
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import observability
from ..config import Settings
from ..i18n import N_, page_words, pick_lang, words
from ..pages.render import render_template
from .bodies import BadJSON, check_json
from .limits import RateLimited, RateLimits, client_of

log = logging.getLogger("tabula")

ECHO_MAX = 40  # characters of a caller's input an error may repeat
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
CLOSE_TRY_LATER = 1013  # websocket close code: "try again later"
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")


# ---------------------------------------------------------------------------------------- answers

def wants_json(conn: HTTPConnection) -> bool:
    """The API and non-browser clients get `{"error": ...}`; pages get an HTML page."""
    return conn.url.path.startswith("/api/") or "text/html" not in conn.headers.get("accept", "")


def error_response(conn: HTTPConnection, status: int, message: str,
                   headers: dict[str, str] | None = None) -> Response:
    """An error as the caller reads it: JSON for the API, the site's message page (in the reader's language)
    for a browser."""
    if wants_json(conn):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    lang = pick_lang(conn.cookies, conn.headers, None)
    try:
        html = render_template("message.html", {
            "request": conn, **page_words(lang), "path": conn.url.path, "message": words(lang)(message)})
    except Exception:  # the page itself failed: a bare sentence still tells what happened
        log.exception("the error page could not be rendered")
        html = f"<!doctype html><title>Tabula</title><p>{message}</p>"
    return HTMLResponse(html, status_code=status, headers=headers)


_LONG_ECHO = re.compile(r"'[^']{%d,}'|\"[^\"]{%d,}\"|[\[{].{%d,}[\]}]|\S{%d,}" % ((ECHO_MAX,) * 4))


def clip_echo(message: str) -> str:
    """An error sentence with any long piece of the caller's input in it (a quoted value, a list or object,
    one long word) cut to a few dozen characters."""
    return _LONG_ECHO.sub(lambda m: m.group(0)[:ECHO_MAX - 8] + "…", message)


def rate_limited_response(conn: HTTPConnection, exc: RateLimited) -> Response:
    return error_response(conn, 429, exc.message, {"Retry-After": str(exc.retry_after)})


INTERNAL = N_("Something went wrong on the server. The error is logged; please try again.")
CROSS_SITE = N_("This form was sent from another site: it was refused and nothing changed.")
TOO_LARGE = N_("That request is too large.")


# ------------------------------------------------------------------------------------- the policy

def own_origin(settings: Settings, host: str | None) -> tuple[str | None, str | None]:
    """(scheme or None, host) the server answers as: TABULA_PUBLIC_URL's when set, else the request's Host
    (any scheme: TLS may end at a proxy in front)."""
    if settings.public_url:
        parts = urlsplit(settings.public_url)
        return parts.scheme.lower(), parts.netloc.lower()
    return None, (host or "").lower()


def cross_site(settings: Settings, headers: Headers) -> bool:
    """Whether an unsafe request comes from another site's page. Browsers send `Origin` on every cross-site
    POST (`Referer` is the fallback); a request with neither is a script's, and a request carrying its
    credential in `Authorization` was not made by a browser's ambient cookies, so both stay usable."""
    if headers.get("authorization", "").lower().startswith("bearer "):
        return False
    origin = headers.get("origin") or headers.get("referer")
    if origin is None:
        return False
    parts = urlsplit(origin if origin != "null" else "")
    scheme, host = own_origin(settings, headers.get("host"))
    if not host or parts.netloc.lower() != host:
        return True
    return scheme is not None and parts.scheme.lower() != scheme


def security_headers(settings: Settings, host: str | None) -> dict[str, str]:
    """The headers of every response. Scripts only from this site (no inline script); inline styles are
    allowed because the templates position board pieces with `style` attributes and htmx adds its indicator
    style; the table page's websocket is this site's own origin."""
    scheme, own_host = own_origin(settings, host)
    sockets = ""
    if own_host and _HOST.match(own_host):
        sockets = f" wss://{own_host}" if scheme == "https" else f" ws://{own_host} wss://{own_host}"
    headers = {
        "Content-Security-Policy": (
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            f"connect-src 'self'{sockets}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
            "object-src 'none'"),
        "X-Frame-Options": "DENY",
        # Not "no-referrer": with it, browsers send `Origin: null` on the site's own form posts, which the
        # cross-site check must refuse. Same-origin keeps the keys in URLs from leaking to other sites.
        "Referrer-Policy": "same-origin",
        "X-Content-Type-Options": "nosniff",
    }
    if scheme == "https":
        headers["Strict-Transport-Security"] = "max-age=31536000"
    return headers


def _is_json(headers: Headers) -> bool:
    """Bodies FastAPI would parse as JSON: a JSON media type, or none at all."""
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    return not kind or kind == "application/json" or kind.endswith("+json")


# ------------------------------------------------------------------------------------ the middleware

class Edge:
    def __init__(self, app: ASGIApp, settings: Settings, limits: RateLimits):
        self.app = app
        self.settings = settings
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        extra = security_headers(self.settings, request.headers.get("host"))
        started = False

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    if name not in headers:  # a route may set a stricter one (the docs page's CSP)
                        headers[name] = value
            await send(message)

        async def refuse(status: int, message: str) -> None:
            await error_response(request, status, message)(scope, receive, send_secured)

        if scope["method"] not in SAFE_METHODS and cross_site(self.settings, request.headers):
            await refuse(403, CROSS_SITE)
            return
        try:
            body = await self._body(request.headers, receive)
        except BadJSON as e:
            await refuse(e.status, TOO_LARGE if e.status == 413 else e.message)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        try:
            await self.app(scope, replay, send_secured)
        except Exception as e:
            observability.error(type(e))
            log.exception("unhandled error on %s %s", scope["method"], scope["path"])
            if started:
                raise
            await refuse(500, INTERNAL)

    async def _body(self, headers: Headers, receive: Receive) -> bytes:
        """The whole body, refused (BadJSON 413) past the limit before it is read whole, and checked for
        nesting when it is JSON (BadJSON 400)."""
        limit = self.settings.max_body
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise BadJSON(413, TOO_LARGE[0])
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise BadJSON(413, TOO_LARGE[0])
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and _is_json(headers):
            check_json(body, limit)
        return body

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = client_of(HTTPConnection(scope))
        try:
            self.limits.open_socket(client)
        except RateLimited as e:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(
                {"type": "error", "status": 429, "error": e.message, "retry_after": e.retry_after})})
            await send({"type": "websocket.close", "code": CLOSE_TRY_LATER})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.limits.close_socket(client)


# -------------------------------------------------------------------------------------- docs page

def docs_page(title: str, openapi_url: str) -> HTMLResponse:
    """Swagger UI, vendored under static/ like htmx (never a CDN), with its one inline script allowed by a
    nonce."""
    from fastapi.openapi.docs import get_swagger_ui_html

    nonce = secrets.token_urlsafe(16)
    page = get_swagger_ui_html(openapi_url=openapi_url, title=title, swagger_favicon_url="/static/img/favicon.svg",
                               swagger_js_url=f"{SWAGGER_UI}/swagger-ui-bundle.js",
                               swagger_css_url=f"{SWAGGER_UI}/swagger-ui.css")
    html = page.body.decode().replace("<script>", f'<script nonce="{nonce}">')
    return HTMLResponse(html, headers={"Content-Security-Policy": (
        f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")})


SWAGGER_UI = "/static/vendor/swagger-ui-5.35.0"


# ---------------------------------------------------------------------------------- admin session

ADMIN_SESSION_SECONDS = 12 * 3600


def _admin_signer(admin_token: str) -> URLSafeTimedSerializer:
    # The key is derived from the admin token: changing the token ends every session.
    key = hashlib.sha256(b"tabula admin session\0" + admin_token.encode("utf-8")).digest()
    return URLSafeTimedSerializer(key, salt="tabula-admin")


def admin_session(admin_token: str) -> str:
    """A signed session cookie value, valid for ADMIN_SESSION_SECONDS (it never holds the token)."""
    return _admin_signer(admin_token).dumps({"admin": True})


def admin_session_valid(admin_token: str | None, cookie: str | None) -> bool:
    if not admin_token or not cookie:
        return False
    try:
        data: Any = _admin_signer(admin_token).loads(cookie, max_age=ADMIN_SESSION_SECONDS)
    except BadData:
        return False
    return data == {"admin": True}

