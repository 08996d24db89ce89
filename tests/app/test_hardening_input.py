"""Bad input at the edge: JSON nested too deeply or too large gets a 400/413 with a sentence on every road
(the JSON API, the table page's action form, the option fields of the create form, the websocket) and
changes nothing; an unknown game is not echoed back; an unexpected exception is a logged 500 page that says
nothing of the internals."""

from __future__ import annotations

import asyncio
import json
import logging

import httpx
import pytest
from websockets.sync.client import connect

from app.config import Settings
from app.main import create_app
from app.web.bodies import MAX_DEPTH, BadJSON, check_json

from .hardening import deep, edge_server, full_table, seat_to_act

DEEP = 5000  # a few thousand "[" made json.loads raise RecursionError


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with edge_server(tmp_path_factory.mktemp("input"), rate_limits=False) as live:
        yield live


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.base, timeout=20) as client:
        yield client


def test_deep_json_to_the_api_is_a_400_with_a_sentence(server, http):
    table = full_table(http)
    token, version, _ = seat_to_act(http, table)
    before = server.row(table.id)
    for path, body in ((f"/api/tables/{table.id}/actions", f'{{"version": {version}, "action": {deep(DEEP)}}}'),
                       ("/api/tables", f'{{"game": "ave_cesar", "players": 3, "options": {deep(DEEP)}}}'),
                       (f"/api/tables/{table.id}/join", deep(DEEP))):
        r = http.post(path, content=body, headers={"Authorization": f"Bearer {token}",
                                                   "Content-Type": "application/json"})
        assert r.status_code == 400, (path, r.status_code, r.text[:200])
        assert "nested too deeply" in r.json()["error"]
    assert server.row(table.id) == before


def test_deep_json_in_the_page_forms_is_refused_and_changes_nothing(server, http):
    table = full_table(http)
    token, version, _ = seat_to_act(http, table)
    before = server.row(table.id)
    http.cookies.set(f"tabula_seat_{table.id}", token)
    r = http.post(f"/t/{table.id}/act", data={"version": str(version), "action": deep(DEEP)},
                  headers={"HX-Request": "true"})
    assert r.status_code == 200 and "flash" in r.text  # the refusal, in the flash region
    assert server.row(table.id) == before

    tables = server.db.connect().exec_driver_sql("SELECT count(*) FROM tables").scalar()
    r = http.post("/tables/new", data={"game": "ave_cesar", "players": "3", "name": "Livia",
                                       "opt_influence": deep(DEEP)}, headers={"Accept": "text/html"})
    assert r.status_code == 400
    assert "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[" not in r.text  # not echoed whole
    assert server.db.connect().exec_driver_sql("SELECT count(*) FROM tables").scalar() == tables


def test_deep_json_on_the_websocket_is_an_error_message_and_the_socket_stays(server, http):
    table = full_table(http)
    token, version, action = seat_to_act(http, table)
    before = server.row(table.id)
    with connect(f"{server.ws_base}/ws/tables/{table.id}?token={token}", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "full"
        ws.send(f'{{"type": "act", "id": 1, "version": {version}, "action": {deep(DEEP)}}}')
        reply = next_reply(ws)
        assert reply["status"] == 400 and "nested too deeply" in reply["error"]
        assert server.row(table.id) == before
        ws.send(json.dumps({"type": "act", "id": 2, "version": version, "action": action}))
        assert next_reply(ws)["type"] == "ack"  # the same socket still acts


def next_reply(ws) -> dict:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] in ("ack", "error"):
            return msg


@pytest.mark.parametrize("text, refused", [
    (deep(MAX_DEPTH), False),
    (deep(MAX_DEPTH + 1), True),
    ("{" * MAX_DEPTH + '"a":1' + "}" * MAX_DEPTH, False),
    ('{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), True),
    ("[" + ",".join(["[]"] * 100) + "]", False),  # many brackets, two deep
    (json.dumps(["[" * 100, "{" * 100]), False),  # brackets inside strings do not nest
    ("[" * MAX_DEPTH + json.dumps("[" * 100) + "]" * MAX_DEPTH, False),
    ("[" * (MAX_DEPTH + 1) + '"]]"' + "]" * (MAX_DEPTH + 1), True),
])
def test_json_is_refused_exactly_when_nested_deeper_than_the_limit(text, refused):
    """Whatever shortcut the check takes, it refuses what nests deeper than MAX_DEPTH and nothing else."""
    if refused:
        with pytest.raises(BadJSON, match="nested too deeply"):
            check_json(text)
    else:
        assert check_json(text) == text


def test_a_body_over_the_limit_is_413_before_it_is_parsed(tmp_path):
    with edge_server(tmp_path, rate_limits=False, max_body=4096) as live, \
            httpx.Client(base_url=live.base, timeout=20) as http:
        big = json.dumps({"game": "ave_cesar", "players": 3, "options": {"x": "a" * 10_000}})
        r = http.post("/api/tables", content=big, headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "That request is too large."
        # Sent in pieces with no length announced: counted as it comes.
        r = http.post("/api/tables", content=iter([big[:3000].encode(), big[3000:].encode()]),
                      headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        r = http.post("/tables/new", data={"game": "ave_cesar", "players": "3", "name": "x" * 10_000})
        assert r.status_code == 413
        assert live.db.connect().exec_driver_sql("SELECT count(*) FROM tables").scalar() == 0


def test_an_unknown_game_is_not_echoed_back(server, http):
    name = "no_such_game_" + "x" * 500
    r = http.post("/api/tables", json={"game": name, "players": 2})
    assert r.status_code == 400 and "x" * 40 not in r.text
    r = http.post("/api/tables", json={"game": "ave_cesar", "players": 3, "options": {"influence": "y" * 500}})
    assert r.status_code == 400 and "y" * 40 not in r.text
    r = http.post("/api/tables", json={"game": "ave_cesar", "players": 3, "bots": {"z" * 500: "novice"}})
    assert r.status_code == 400 and "z" * 40 not in r.text


def test_an_unexpected_exception_is_a_logged_500_page_with_no_internals(tmp_path, caplog):
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'crash.db'}")
    app = create_app(settings)

    @app.get("/crash")
    async def crash() -> None:
        raise RuntimeError("secret internals at /srv/tabula/app.py line 42")

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)

    async def fetch(accept: str) -> httpx.Response:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.get("/crash", headers={"Accept": accept})

    with caplog.at_level(logging.ERROR, logger="tabula"):
        page = asyncio.run(fetch("text/html"))
        api = asyncio.run(fetch("application/json"))
    assert page.status_code == 500 and page.headers["content-type"].startswith("text/html")
    assert "went wrong" in page.text and "secret internals" not in page.text and "RuntimeError" not in page.text
    assert "Content-Security-Policy" in page.headers
    assert api.status_code == 500 and "secret internals" not in api.text and api.json()["error"]
    assert any("secret internals" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
