"""Malformed credentials are simply not valid: a seat token, spectator key, seat cookie, invite key or admin
token with characters a real one never has (non-ASCII, control characters) or of an absurd length gets a
403/404 (a cookie is ignored), never a 500, and the websocket closes with a close frame."""

from __future__ import annotations

import secrets
from urllib.parse import quote

import httpx
import pytest
import websockets

from app.config import Settings
from app.main import create_app
from app.services.credentials import well_formed

from .client import create, create_full


# A real credential is URL-safe base64 (secrets.token_urlsafe). None of these is one.
MALFORMED = ["é", "Jérôme", "tok\u00a0en", "x" * 5000, "a\x00b", "\u2603" * 8]


def raw_cookie(name: str, value: str) -> list[tuple[bytes, bytes]]:
    """A Cookie header as a browser may send it: raw UTF-8 bytes (httpx would refuse to encode it)."""
    return [(b"cookie", f"{name}={value}".encode("utf-8"))]


def test_well_formed_credentials_are_url_safe_and_bounded():
    assert well_formed(secrets.token_urlsafe(24)) and well_formed(secrets.token_urlsafe(16))
    for bad in [*MALFORMED, "", None, 42, b"bytes", "has space", "a/b", "a+b"]:
        assert not well_formed(bad), bad


async def test_malformed_credentials_are_refused_never_a_500(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http)
        lobby = await create(http)
        before = live.row(table.id), live.row(lobby.id)
        for bad in MALFORMED:
            # The spectator key in the query, the seat token in a header (where the header allows it).
            # (The JSON API may refuse a credential by the pattern its schema documents already: a 400.)
            r = await http.get(f"/api/tables/{table.id}/view", params={"spectate": bad})
            assert r.status_code in (400, 403), (bad, r.status_code, r.text)
            r = await http.get(f"/api/tables/{table.id}/log", params={"spectate": bad})
            assert r.status_code in (400, 403), (bad, r.status_code)
            # The invite key: the JSON API, the join form and the join page.
            r = await http.post(f"/api/tables/{lobby.id}/join", json={"invite": bad, "name": "Eve"})
            assert r.status_code in (400, 403), (bad, r.status_code, r.text)
            r = await http.post(f"/t/{lobby.id}/join", data={"key": bad, "name": "Eve"})
            assert r.status_code == 403, (bad, r.status_code)
            r = await http.get(f"/t/{lobby.id}/join", params={"key": bad})
            assert r.status_code == 403, (bad, r.status_code)
            # The personal seat link.
            r = await http.get(f"/t/{table.id}/seat/{quote(bad)}")
            assert r.status_code in (403, 404), (bad, r.status_code)
        for bad in ("é", "tok en", "x" * 300):
            r = await http.post(f"/api/tables/{table.id}/actions",
                                headers=[(b"authorization", f"Bearer {bad}".encode("utf-8"))],
                                json={"version": 2, "action": {"type": "play", "index": 0}})
            assert r.status_code == 403, (bad, r.status_code)
        assert (live.row(table.id), live.row(lobby.id)) == before


async def test_a_malformed_seat_cookie_is_ignored(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http)
        cookie = f"tabula_seat_{table.id}"
        for bad in ("é", "Jérôme", "\u2603"):
            headers = raw_cookie(cookie, bad)
            home = await http.get("/", headers=headers)
            assert home.status_code == 200, (bad, home.status_code)
            page = await http.get(f"/t/{table.id}", headers=headers)
            assert page.status_code == 403, (bad, page.status_code)
            r = await http.post(f"/t/{table.id}/act", headers=headers,
                                data={"version": "2", "action": '{"type": "play", "index": 0}'})
            assert r.status_code in (303, 403), (bad, r.status_code)
            r = await http.post(f"/t/{table.id}/leave", headers=headers)
            assert r.status_code == 403, (bad, r.status_code)
            r = await http.get(f"/api/tables/{table.id}/view", headers=headers)
            assert r.status_code == 403, (bad, r.status_code)


@pytest.mark.parametrize("query", ["?token={bad}", "?spectate={bad}", "/html?spectate={bad}"])
async def test_a_malformed_credential_on_the_websocket_gets_a_close_frame(live, query):
    async with httpx.AsyncClient(base_url=live.base, timeout=20) as http:
        table = await create_full(http)
    for bad in ("%C3%A9", "J%C3%A9r%C3%B4me"):
        ws = await websockets.connect(f"{live.ws_base}/ws/tables/{table.id}{query.format(bad=bad)}",
                                      open_timeout=10)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await ws.recv()
        assert closed.value.rcvd is not None, "no close frame"
        assert closed.value.rcvd.code == 4403


async def test_a_malformed_admin_token_is_refused():
    app = create_app(Settings(database_url="sqlite://", admin_token="club-secret", migrate=False))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://club") as http:
        for bad in ("é", "club-secret\u00e9", "x" * 5000):
            r = await http.post("/admin", data={"token": bad})
            assert r.status_code == 403, (bad, r.status_code)
            r = await http.get("/admin", headers=raw_cookie("tabula_admin", bad))
            assert r.status_code == 401, (bad, r.status_code)
        r = await http.post("/admin", data={"token": "club-secret"})
        assert r.status_code == 303
