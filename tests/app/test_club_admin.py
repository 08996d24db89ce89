"""The admin page acts: open any table as a spectator, end a game (abandoned, no scores), remove a player
(a bot takes the seat for good), run the clean-up. Each action needs an admin session, is written to the
audit log (who, when, what) shown on the page, and the table's players see its result live."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from sqlalchemy import text
from websockets.sync.client import connect

from .hardening import edge_server, full_table

TOKEN = "club-admin-token-1234"


@pytest.fixture
def club(tmp_path):
    with edge_server(tmp_path, admin_token=TOKEN, benchmark=True, bot_delay=(0.0, 0.0), rate_limits=False,
                     lobby_expiry_hours=1 / 3600) as server:
        yield server


@contextmanager
def admin(server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as http:
        assert http.post("/admin", data={"token": TOKEN}).status_code == 303
        yield http


def audit(server) -> list[dict]:
    with server.db.connect() as conn:
        return [dict(r) for r in conn.execute(text("SELECT * FROM audit_log ORDER BY id")).mappings()]


@contextmanager
def socket(server, table, credential: str):
    with connect(f"{server.base.replace('http', 'ws')}/ws/tables/{table.id}?token={credential}") as ws:
        assert json.loads(ws.recv())["type"] == "full"
        yield ws


def until(ws, predicate) -> dict:
    while True:
        msg = json.loads(ws.recv(timeout=20))
        if predicate(msg):
            return msg


ACTIONS = [("get", "/admin/tables/{id}/watch"), ("post", "/admin/tables/{id}/end"),
           ("post", "/admin/tables/{id}/seats/0/remove"), ("post", "/admin/cleanup")]


@pytest.mark.parametrize("method, path", ACTIONS)
def test_every_admin_action_is_refused_without_a_session(club, method, path):
    with httpx.Client(base_url=club.base, timeout=30) as http:
        table = full_table(http, "bench_cards")
        before = club.row(table.id)
        for cookie in ({}, {"Cookie": "tabula_admin=forged.value.sig"}):
            r = http.request(method, path.format(id=table.id), headers=cookie)
            assert r.status_code == 401, r.text
    assert club.row(table.id) == before
    assert audit(club) == []


def test_ending_a_game_is_audited_and_its_players_see_it_at_once(club):
    with httpx.Client(base_url=club.base, timeout=30) as http, admin(club) as boss:
        table = full_table(http, "bench_cards")
        page_socket = f"{club.base.replace('http', 'ws')}/ws/tables/{table.id}/html?spectate={table.spectate}"
        with socket(club, table, table.tokens[1]) as player, connect(page_socket) as page:
            page.recv(timeout=20)  # the page's regions
            r = boss.post(f"/admin/tables/{table.id}/end")
            assert r.status_code == 303
            until(player, lambda m: m["type"] == "patch" and any(
                op["path"] == "/table/status" and op["value"] == "abandoned" for op in m["patch"]))
            while 'data-status="abandoned"' not in page.recv(timeout=20):
                pass  # the page's socket brings the ended table too
        assert http.get(f"/api/tables/{table.id}").json()["status"] == "abandoned"
        assert boss.post(f"/admin/tables/{table.id}/end").status_code == 409  # over already: nothing more
        [entry] = audit(club)
        assert entry["action"] == "end" and entry["table_id"] == table.id and entry["who"].startswith("admin session")
        page = boss.get("/admin").text
        assert "ended as abandoned" in page and entry["who"] in page


def test_removing_a_player_gives_the_seat_to_a_bot_for_good(club):
    with httpx.Client(base_url=club.base, timeout=30) as http, admin(club) as boss:
        table = full_table(http, "bench_cards")
        with socket(club, table, table.tokens[0]) as removed, socket(club, table, table.tokens[1]) as other:
            r = boss.post(f"/admin/tables/{table.id}/seats/0/remove", data={"level": "novice"})
            assert r.status_code == 303
            refusal = until(removed, lambda m: m["type"] == "error")
            assert refusal["status"] == 403
            until(other, lambda m: m["type"] == "patch" and any(
                op["path"].startswith("/table/seats/0") and "novice" in json.dumps(op) for op in m["patch"]))
        view = http.get(f"/api/tables/{table.id}/view", headers={"Authorization": f"Bearer {table.tokens[0]}"})
        assert view.status_code == 403  # the removed player's token no longer opens the seat
        seat = http.get(f"/api/tables/{table.id}").json()["seats"][0]
        assert seat["bot"] == "novice" and not seat["takeover"]
        [entry] = audit(club)
        assert entry["action"] == "remove" and entry["detail"] == "seat 0 given to the novice bot"
        assert boss.post(f"/admin/tables/{table.id}/seats/0/remove").status_code == 409  # a bot has it


def test_an_admin_opens_a_private_table_as_a_spectator(club):
    with httpx.Client(base_url=club.base, timeout=30) as http, admin(club) as boss:
        table = full_table(http, "bench_cards")
        r = boss.get(f"/admin/tables/{table.id}/watch")
        assert r.status_code == 303 and r.headers["location"].startswith(f"/t/{table.id}/watch?key=")
        page = boss.get(r.headers["location"])
        assert page.status_code == 200
        assert boss.get("/admin/tables/nosuchtable123/watch").status_code == 404
    [entry] = audit(club)
    assert entry["action"] == "spectate" and entry["table_id"] == table.id


def test_the_clean_up_runs_from_the_page_and_the_figures_show(club):
    with httpx.Client(base_url=club.base, timeout=30) as http, admin(club) as boss:
        waiting = http.post("/api/tables", json={"game": "bench_cards", "players": 2}).json()["id"]
        while waiting not in boss.get("/admin").text.split('id="admin-expire"')[1]:
            time.sleep(0.2)  # until the table is older than the expiry (one second here)
        r = boss.post("/admin/cleanup")
        assert r.status_code == 303
        assert http.get(f"/api/tables/{waiting}").status_code == 404
        page = boss.get("/admin").text
        assert "1 waiting table(s) deleted" in page and "Server figures" in page
    [entry] = audit(club)
    assert entry["action"] == "cleanup" and entry["table_id"] is None
