"""Security headers on every response (pages, API, static files, errors, redirects): a CSP with scripts from
the site only and the page's own websocket, no framing, no Referer to other sites (the spectator key sits in
URLs), no MIME sniffing; HSTS only when the public address is https. No template has an inline script or
event handler."""

from __future__ import annotations

import re

import httpx
import pytest

from app.config import project_root

from .hardening import edge_server, full_table


def directives(csp: str) -> dict[str, list[str]]:
    return {part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()}


def check_headers(r: httpx.Response, host: str) -> None:
    csp = directives(r.headers["content-security-policy"])
    assert csp["script-src"] == ["'self'"], r.url
    assert "'unsafe-inline'" not in csp.get("script-src", []) + csp.get("default-src", [])
    assert csp["frame-ancestors"] == ["'none'"] and r.headers["x-frame-options"] == "DENY"
    assert f"ws://{host}" in csp["connect-src"] and "'self'" in csp["connect-src"]
    assert r.headers["referrer-policy"] == "same-origin"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_every_kind_of_response_carries_the_headers(tmp_path):
    with edge_server(tmp_path, rate_limits=False) as live, httpx.Client(base_url=live.base, timeout=20) as http:
        host = live.base.removeprefix("http://")
        table = full_table(http)
        responses = [
            http.get("/"), http.get("/rules/ave_cesar"), http.get(f"/t/{table.id}/watch?key={table.spectate}"),
            http.get(f"/api/tables/{table.id}"), http.get("/api/tables/nope"), http.get("/static/tabula.js"),
            http.get("/static/nope.css"), http.get("/nope"), http.get("/openapi.json"),
            http.get(f"/t/{table.id}/seat/{table.tokens[0]}"),  # a redirect
            http.post("/tables/new", data={}, headers={"Origin": "https://evil.example"}),  # refused at the edge
            http.post("/api/tables", content=b"{" * 10, headers={"Content-Type": "application/json"}),
        ]
        for r in responses:
            check_headers(r, host)
            assert "strict-transport-security" not in r.headers
        docs = http.get("/docs")
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
        nonce = re.search(r"'nonce-([^']+)'", docs.headers["content-security-policy"]).group(1)
        assert f'<script nonce="{nonce}">' in docs.text and "<script>" not in docs.text
        # Swagger UI is served from the site itself (vendored), never from a CDN.
        assert "https://" not in docs.text
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', docs.text):
            assert http.get(asset).status_code == 200, asset


def test_hsts_when_the_public_address_is_https(tmp_path):
    with edge_server(tmp_path, rate_limits=False, public_url="https://games.club.example") as live:
        r = httpx.get(live.base + "/", timeout=20)
        assert r.headers["strict-transport-security"].startswith("max-age=")
        connect = directives(r.headers["content-security-policy"])["connect-src"]
        assert "wss://games.club.example" in connect and not any(s.startswith("ws://") for s in connect)


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
EVENT_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
HTMX_EVAL = re.compile(r"\bhx-on\b|hx-on:|js:|javascript:", re.I)


@pytest.mark.parametrize("template", sorted(p.relative_to(project_root()).as_posix()
                                            for p in (project_root() / "templates").rglob("*.html")))
def test_no_template_has_an_inline_script_or_handler(template):
    text = (project_root() / template).read_text(encoding="utf-8")
    assert not INLINE_SCRIPT.search(text), "an inline <script>: the CSP blocks it; move it to static/"
    assert not EVENT_HANDLER.search(text), "an inline event handler: the CSP blocks it"
    assert not HTMX_EVAL.search(text), "htmx code in an attribute needs eval, which the CSP blocks"
