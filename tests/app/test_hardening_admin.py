"""The admin session: a signed cookie that expires and never holds the admin token; login attempts limited
per client (429 + Retry-After); any token text, even not ASCII, is simply right or wrong."""

from __future__ import annotations

import time

import httpx
import itsdangerous.timed
import pytest

from app.web.security import ADMIN_SESSION_SECONDS, admin_session, admin_session_valid

from .hardening import edge_server

TOKEN = "club-secret-token"


@pytest.fixture
def server(tmp_path):
    with edge_server(tmp_path, admin_token=TOKEN, limit_logins="3/minute") as live:
        yield live


def test_the_session_cookie_is_signed_and_holds_no_token(server):
    with httpx.Client(base_url=server.base, timeout=20) as http:
        r = http.post("/admin", data={"token": TOKEN})
        assert r.status_code == 303
        cookie = http.cookies.get("tabula_admin")
        assert cookie and TOKEN not in cookie
        assert http.get("/admin").status_code == 200
    # The raw token as the cookie (what the server used to keep) no longer opens the page; nor a forgery.
    for forged in (TOKEN, cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB")):
        r = httpx.get(server.base + "/admin", cookies={"tabula_admin": forged}, timeout=20)
        assert r.status_code == 401, forged


def test_the_session_expires(monkeypatch):
    issued = time.time() - ADMIN_SESSION_SECONDS - 60
    monkeypatch.setattr(itsdangerous.timed.time, "time", lambda: issued)
    old = admin_session(TOKEN)
    monkeypatch.undo()
    assert not admin_session_valid(TOKEN, old)
    assert admin_session_valid(TOKEN, admin_session(TOKEN))
    assert not admin_session_valid("another token", admin_session(TOKEN))  # a new token ends the sessions


def test_login_attempts_are_limited_per_client(server):
    with httpx.Client(base_url=server.base, timeout=20) as http:
        for _ in range(3):
            assert http.post("/admin", data={"token": "guess"}).status_code == 403
        r = http.post("/admin", data={"token": TOKEN}, headers={"Accept": "text/html"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "tabula_admin" not in http.cookies


def test_a_token_that_is_not_ascii_is_simply_wrong(server):
    with httpx.Client(base_url=server.base, timeout=20) as http:
        assert http.post("/admin", data={"token": "clé-secrète-ü"}).status_code == 403
        for cookie in (b"tabula_admin=%C3%A9t%C3%A9", "tabula_admin=\u00e9t\u00e9".encode("latin-1"),
                       "tabula_admin=clé".encode("utf-8")):
            assert http.get("/admin", headers={"Cookie": cookie}).status_code == 401
