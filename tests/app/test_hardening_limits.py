"""Rate limits with 429 and Retry-After: tables created per client (API and lobby form), websocket
connections open at once per client, actions per seat (API, page form and websocket counted together)."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from websockets.sync.client import connect

from .hardening import edge_server, full_table, seat_to_act


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with edge_server(tmp_path_factory.mktemp("limits"), limit_tables="4/hour", limit_actions="3/minute",
                     max_sockets=2) as live:
        yield live


def count_tables(server) -> int:
    with server.db.connect() as conn:
        return conn.exec_driver_sql("SELECT count(*) FROM tables").scalar()


def test_table_creation_is_limited_per_client(server):
    with httpx.Client(base_url=server.base, timeout=20) as http:
        full_table(http)  # one table (counted)...
        for _ in range(3):
            r = http.post("/api/tables", json={"game": "ave_cesar", "players": 3})
            assert r.status_code == 201
        before = count_tables(server)
        r = http.post("/api/tables", json={"game": "ave_cesar", "players": 3})
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 60  # the window is an hour
        assert r.json()["error"]
        r = http.post("/tables/new", data={"game": "ave_cesar", "players": "3", "name": "Livia"},
                      headers={"Accept": "text/html"})
        assert r.status_code == 429 and "retry-after" in r.headers and "<html" in r.text
        assert count_tables(server) == before


def test_actions_are_limited_per_seat_on_every_road(tmp_path):
    with edge_server(tmp_path, limit_actions="3/minute") as live, \
            httpx.Client(base_url=live.base, timeout=20) as http:
        table = full_table(http, "alea_iacta_est", 2)
        token, version, action = seat_to_act(http, table)
        refused = {"version": version + 1000, "action": action}  # stale: refused by the service, but counted
        auth = {"Authorization": f"Bearer {token}"}
        assert http.post(f"/api/tables/{table.id}/actions", json=refused, headers=auth).status_code == 409
        http.cookies.set(f"tabula_seat_{table.id}", token)
        r = http.post(f"/t/{table.id}/act", data={"version": str(version + 1000), "action": json.dumps(action)})
        assert r.status_code == 303
        with connect(f"{live.ws_base}/ws/tables/{table.id}?token={token}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "act", "id": 1, **refused}))
            assert reply(ws, 1)["status"] == 409
            ws.send(json.dumps({"type": "act", "id": 2, "version": version, "action": action}))
            limited = reply(ws, 2)
            assert limited["status"] == 429 and limited["retry_after"] >= 1
        before = live.row(table.id)
        r = http.post(f"/api/tables/{table.id}/actions", json={"version": version, "action": action}, headers=auth)
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert live.row(table.id) == before
        # Another seat is not held back by this one.
        other = next(t for t in table.tokens if t != token)
        r = http.post(f"/api/tables/{table.id}/actions", json=refused, headers={"Authorization": f"Bearer {other}"})
        assert r.status_code in (403, 409)


def reply(ws, request_id: int) -> dict:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg.get("id") == request_id:
            return msg


def test_websocket_connections_are_limited_per_client(tmp_path):
    with edge_server(tmp_path, max_sockets=2) as live:
        body = httpx.post(live.base + "/api/tables", json={"game": "ave_cesar", "players": 3}, timeout=20).json()
        url = f"{live.ws_base}/ws/tables/{body['id']}?spectate={body['spectator_key']}"
        with connect(url, open_timeout=10) as first, connect(url, open_timeout=10) as second:
            assert json.loads(first.recv(timeout=10))["type"] == "full"
            assert json.loads(second.recv(timeout=10))["type"] == "full"
            with connect(url, open_timeout=10) as third:
                refused = json.loads(third.recv(timeout=10))
                assert refused["status"] == 429 and refused["retry_after"] >= 1
            second.close()
            for _ in range(100):  # the server gives the slot back when it sees the close
                with connect(url, open_timeout=10) as again:
                    if json.loads(again.recv(timeout=10))["type"] == "full":
                        break
                time.sleep(0.05)
            else:
                raise AssertionError("a closed connection was never given back")
