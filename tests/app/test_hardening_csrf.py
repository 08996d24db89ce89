"""Cross-site requests: every unsafe request a browser sends from another site's page (its `Origin`, else its
`Referer`) is refused with 403 and changes nothing; the same from the site itself works; scripts and bots
(no `Origin`, or their seat token in `Authorization`) keep using the JSON API."""

from __future__ import annotations

import json

import httpx
import pytest

from app.main import create_app

from .hardening import EVIL, edge_server, full_table, seat_to_act


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with edge_server(tmp_path_factory.mktemp("csrf"), rate_limits=False, admin_token="club-secret") as live:
        yield live


def unsafe_routes() -> list[str]:
    """Every POST/PUT/PATCH/DELETE path the application serves (derived from its routes, not listed)."""
    from app.config import Settings

    def flat(routes):  # included routers (mounted without a prefix) hold their own routes
        for route in routes:
            if hasattr(route, "original_router"):
                yield from flat(route.original_router.routes)
            else:
                yield route

    app = create_app(Settings(database_url="sqlite://"))
    return sorted({route.path for route in flat(app.routes)
                   if getattr(route, "methods", None) and route.methods - {"GET", "HEAD", "OPTIONS"}})


@pytest.mark.parametrize("header", ["Origin", "Referer"])
def test_every_unsafe_route_refuses_another_site_and_changes_nothing(server, header):
    with httpx.Client(base_url=server.base, timeout=20) as http:
        table = full_table(http)
        token, version, action = seat_to_act(http, table)
        http.cookies.set(f"tabula_seat_{table.id}", token)
        before = server.row(table.id)
        tables = count_tables(server)
        forged = {header: EVIL + ("/page" if header == "Referer" else "")}
        paths = unsafe_routes()
        assert "/t/{table_id}/act" in paths and "/tables/new" in paths and "/admin" in paths
        for path in paths:
            url = path.replace("{table_id}", table.id)
            form = {"version": str(version), "action": json.dumps(action), "key": table.invite,
                    "name": "Mallory", "game": "ave_cesar", "players": "3", "token": "club-secret",
                    "confirm": "yes"}
            r = http.post(url, data=form, headers=forged)
            assert r.status_code == 403, (path, r.status_code, r.text[:200])
            assert "another site" in r.text and "set-cookie" not in r.headers
            r = http.post(url, json={"version": version, "action": action}, headers={"Origin": "null"})
            assert r.status_code == 403, path
        assert server.row(table.id) == before
        assert count_tables(server) == tables


def count_tables(server) -> int:
    with server.db.connect() as conn:
        return conn.exec_driver_sql("SELECT count(*) FROM tables").scalar()


def test_the_site_itself_and_scripts_may_post(server):
    with httpx.Client(base_url=server.base, timeout=20) as http:
        table = full_table(http)
        token, version, action = seat_to_act(http, table)
        # A script: no Origin at all.
        r = http.post(f"/api/tables/{table.id}/actions", json={"version": version, "action": action},
                      headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        # A bot whose page lives elsewhere, with its seat token in the header (no ambient cookie involved).
        token, version, action = seat_to_act(http, table)
        r = http.post(f"/api/tables/{table.id}/actions", json={"version": version, "action": action},
                      headers={"Authorization": f"Bearer {token}", "Origin": EVIL})
        assert r.status_code == 200, r.text
        # The site's own page.
        token, version, action = seat_to_act(http, table)
        http.cookies.set(f"tabula_seat_{table.id}", token)
        r = http.post(f"/t/{table.id}/act", data={"version": str(version), "action": json.dumps(action)},
                      headers={"Origin": server.base})
        assert r.status_code == 303
        assert http.get(f"/api/tables/{table.id}").json()["version"] == version + 1


def test_with_a_public_url_the_origin_must_be_it(tmp_path):
    with edge_server(tmp_path, rate_limits=False, public_url="https://games.club.example") as live, \
            httpx.Client(base_url=live.base, timeout=20) as http:
        form = {"game": "ave_cesar", "players": "3", "name": "Livia"}
        assert http.post("/tables/new", data=form, headers={"Origin": live.base}).status_code == 403
        assert http.post("/tables/new", data=form, headers={"Origin": "http://games.club.example"}).status_code == 403
        r = http.post("/tables/new", data=form, headers={"Origin": "https://games.club.example"})
        assert r.status_code == 303
