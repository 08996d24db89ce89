"""Open tables: who may find a table (the home page's list and GET /api/open-tables), what a plain table link
shows without a seat, the table settings of the creation form, spectators refused everywhere when a table
allows none, and the spectator delay (spectators never see a version newer than the current one minus N)."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from sqlalchemy import text
from websockets.sync.client import connect

from games import REGISTRY
from games.core import rng
from games.core.conformance import random_step

from .hardening import edge_server

TOKEN_FIELDS = ("invite_key", "spectator_key")


def create(http: httpx.Client, game: str = "bench_cards", players: int = 2, **settings) -> dict:
    r = http.post("/api/tables", json={"game": game, "players": players, **settings})
    assert r.status_code == 201, r.text
    return r.json()


def join(http: httpx.Client, table: dict, name: str) -> str:
    r = http.post(f"/api/tables/{table['id']}/join", json={"invite": table["invite_key"], "name": name})
    assert r.status_code == 201, r.text
    return r.json()["token"]


def stored_spectator_key(server, table_id: str) -> str:
    with server.db.connect() as conn:
        return conn.execute(text("SELECT spectator_key FROM tables WHERE id = :t"), {"t": table_id}).scalar()


def listed(http: httpx.Client) -> set[str]:
    """The tables the API lists, checked against the home page and its live fragment."""
    api = {t["id"] for t in http.get("/api/open-tables").json()}
    for page in (http.get("/").text, http.get("/tables/open").text):
        assert set(re.findall(r'data-table="([^"]+)"', page)) == api
    return api


@pytest.fixture
def server(tmp_path):
    with edge_server(tmp_path, benchmark=True, rate_limits=False, bot_delay=(0.0, 0.0)) as running:
        yield running


def test_only_public_tables_with_spectators_are_listed_live_with_their_facts(server):
    with httpx.Client(base_url=server.base, timeout=30) as http:
        public = create(http)
        private = create(http, private=True)
        closed = create(http, spectators_allowed=False)
        assert listed(http) == {public["id"]}
        for table in (public, private, closed):
            for n in range(2):
                join(http, table, f"P{n}")
        assert listed(http) == {public["id"]}
        entry, = http.get("/api/open-tables").json()
        assert entry["status"] == "playing" and entry["turn"] == 1 and entry["spectators"] == 0
        assert [s["name"] for s in entry["seats"]] == ["P0", "P1"]
        fragment = http.get("/tables/open", headers={"Accept-Language": "fr"}).text
        assert 'hx-trigger="every 5s"' in fragment and "tour 1" in fragment and "P0, P1" in fragment
        # A bots-only demo table runs at once: it is listed as in play, with its turn number.
        demo = create(http, "bench_cards", 2, bots=["novice", "novice"])
        assert demo["id"] in listed(http)


def test_a_table_without_spectators_has_no_spectator_link_and_every_spectator_road_refuses(server):
    with httpx.Client(base_url=server.base, timeout=30) as http:
        table = create(http, spectators_allowed=False)
        assert table["spectator_key"] is None and table["spectator_url"] is None
        assert table["spectators_allowed"] is False
        t = table["id"]
        key = stored_spectator_key(server, t)
        tokens = [join(http, table, "P0")]
        for page in (http.get(f"/t/{t}", headers={"Cookie": f"tabula_seat_{t}={tokens[0]}"}).text,  # waiting room
                     http.get(f"/t/{t}/join", params={"key": table["invite_key"]}).text):
            assert "/watch?key=" not in page and key not in page
        tokens.append(join(http, table, "P1"))
        for path in (f"/api/tables/{t}/view", f"/api/tables/{t}/log", f"/api/tables/{t}/chat"):
            assert http.get(path, params={"spectate": key}).status_code == 403, path
            assert http.get(path, headers={"Authorization": f"Bearer {key}"}).status_code == 403, path
        assert http.post(f"/api/tables/{t}/chat", params={"spectate": key},
                         json={"text": "hi", "name": "Titus"}).status_code == 403
        assert http.get(f"/t/{t}/watch", params={"key": key}).status_code == 403
        assert http.get(f"/t/{t}/seat/{key}").status_code == 403
        for socket in (f"/ws/tables/{t}?spectate={key}", f"/ws/tables/{t}/html?spectate={key}"):
            with connect(server.base.replace("http", "ws") + socket) as ws:
                try:
                    while True:
                        ws.recv(timeout=10)
                except Exception as closed:
                    assert getattr(closed, "rcvd", None) is not None and closed.rcvd.code == 4403, socket
        page = http.get(f"/t/{t}", headers={"Cookie": f"tabula_seat_{t}={tokens[0]}"}).text
        assert "/watch?key=" not in page and key not in page and "allows no spectators" in page
        open_page = http.get(f"/t/{t}").text
        assert "/watch?key=" not in open_page and key not in open_page
        assert t not in listed(http)


def test_a_plain_table_link_offers_to_join_or_watch_and_a_private_one_gives_no_key(server):
    with httpx.Client(base_url=server.base, timeout=30) as http:
        public = create(http, players=3, game="alea_iacta_est")
        join(http, public, "Livia")
        r = http.get(f"/t/{public['id']}")
        assert r.status_code == 200 and "Livia" in r.text
        assert f'href="/t/{public["id"]}/join?key={public["invite_key"]}"' in r.text
        assert f'href="/t/{public["id"]}/watch?key={public["spectator_key"]}"' in r.text
        french = http.get(f"/t/{public['id']}", headers={"Accept-Language": "fr"}).text
        assert "Prendre une place libre" in french and "Regarder en spectateur" in french
        private = create(http, private=True)
        r = http.get(f"/t/{private['id']}")
        assert r.status_code == 200 and "private" in r.text
        assert not any(private[k] in r.text for k in TOKEN_FIELDS)
        assert http.get("/t/no-such-table").status_code == 404


def test_the_creation_form_sets_spectators_delay_privacy_and_the_turn_timer(server):
    with httpx.Client(base_url=server.base, timeout=30) as http:
        r = http.post("/tables/new", data={"game": "bench_cards", "players": "2", "name": "Livia",
                                           "spectators": "no", "spectator_delay": "3", "private": "yes",
                                           "turn_minutes": "2"})
        assert r.status_code == 303
        info = http.get(f"/api/tables/{r.headers['location'].rsplit('/', 1)[1]}").json()
        assert (info["spectators_allowed"], info["spectator_delay"], info["private"], info["turn_timer"]) == \
            (False, 3, True, 120)
        r = http.post("/tables/new", data={"game": "bench_cards", "players": "2", "name": "Livia"})
        info = http.get(f"/api/tables/{r.headers['location'].rsplit('/', 1)[1]}").json()
        assert (info["spectators_allowed"], info["spectator_delay"], info["private"], info["turn_timer"]) == \
            (True, 0, False, None)
        home = http.get("/").text
        for field in ('name="spectators"', 'name="spectator_delay"', 'name="private"', 'name="turn_minutes"'):
            assert field in home
        count = len(http.get("/api/open-tables").json())
        with server.db.connect() as conn:
            tables = conn.execute(text("SELECT count(*) FROM tables")).scalar()
        for bad in ({"spectator_delay": "abc"}, {"spectator_delay": "51"}, {"spectator_delay": "-1"},
                    {"turn_minutes": "x"}, {"turn_minutes": "100000"}):
            r = http.post("/tables/new", data={"game": "bench_cards", "players": "2", **bad})
            assert r.status_code == 400, bad
        assert 'max="50"' in home
        r = http.post("/tables/new", data={"game": "bench_cards", "players": "2", "spectator_delay": "51"},
                      headers={"Accept-Language": "fr"})
        assert "Le retard des spectateurs est de 0 à 50 actions." in r.text
        assert http.post("/api/tables", json={"game": "bench_cards", "players": 2,
                                              "spectator_delay": 51}).status_code in (400, 422)
        assert http.post("/api/tables", json={"game": "bench_cards", "players": 2,
                                              "private": "yes"}).status_code in (400, 422)
        with server.db.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM tables")).scalar() == tables
        assert len(http.get("/api/open-tables").json()) == count


DELAY = 3
STEPS = 20


@pytest.mark.parametrize("slug", sorted(REGISTRY))
def test_spectators_never_see_a_version_newer_than_the_current_one_minus_the_delay(server, slug):
    """Over a random game: the spectator's API view, page and both sockets stay DELAY versions behind while
    the game is played, and show exactly what a spectator saw at that version (replayed once it is over)."""
    game = REGISTRY[slug]
    players = game.min_players
    with httpx.Client(base_url=server.base, timeout=30) as http:
        table = create(http, slug, players, spectator_delay=DELAY)
        tokens = [join(http, table, f"P{n}") for n in range(players)]
        t, key = table["id"], table["spectator_key"]
        ws_base = server.base.replace("http", "ws")
        seen: dict[int, dict] = {}  # the spectator's game view by the version it was shown at
        holder = {"rng": rng.seed_state(len(slug))}
        with connect(f"{ws_base}/ws/tables/{t}?spectate={key}") as json_ws, \
                connect(f"{ws_base}/ws/tables/{t}/html?spectate={key}") as html_ws:
            latest = {"json": 0, "html": 0}  # the newest version each socket showed
            for step in range(STEPS):
                current = http.get(f"/api/tables/{t}").json()
                body = http.get(f"/api/tables/{t}/view", params={"spectate": key}).json()
                page = http.get(f"/t/{t}/watch", params={"key": key}).text
                shown = int(re.search(r'data-version="(\d+)"', page).group(1))
                if current["status"] == "playing":
                    assert body["version"] == max(0, current["version"] - DELAY)
                    assert shown == body["version"]
                else:
                    assert body["version"] == current["version"]
                seen[body["version"]] = body["view"]["game"]
                for kind, ws in (("json", json_ws), ("html", html_ws)):
                    latest[kind] = max(latest[kind], drain(ws, current, DELAY))
                if current["status"] != "playing":
                    break
                with server.db.connect() as conn:
                    stored = conn.execute(text("SELECT state FROM tables WHERE id = :t"), {"t": t}).scalar()
                seat, action = random_step(game, game.decode(stored), holder)
                r = http.post(f"/api/tables/{t}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                              json={"version": current["version"], "action": action})
                assert r.status_code == 200, r.text
        # What the spectator saw at each version is the spectator's view of the game at that version.
        with server.db.connect() as conn:
            seed = conn.execute(text("SELECT seed FROM tables WHERE id = :t"), {"t": t}).scalar()
            log = conn.execute(text("SELECT version, seat, action FROM actions WHERE table_id = :t ORDER BY version"),
                               {"t": t}).all()
        state = game.setup(players, seed, table["options"])
        at = {players: state}
        for version, seat, action in log:
            state = game.apply_marked(state, seat, json.loads(action))
            at[version] = state
        for version, view in seen.items():
            before = max((v for v in at if v <= version), default=players)  # before the start: the deal
            assert view == json.loads(json.dumps(game.view(at[before], None))), f"version {version}"
        assert len(seen) > 3
        assert latest["json"] > players and latest["html"] > players, latest  # the sockets did follow the game


def drain(ws, current: dict, delay: int) -> int:
    """Reads what a spectator socket sent so far: no version newer than the current one minus the delay.
    Returns the newest version it showed (0: none)."""
    newest = 0
    while True:
        try:
            raw = ws.recv(timeout=0.1)
        except TimeoutError:
            return newest
        if raw.startswith("{"):
            msg = json.loads(raw)
            version = msg.get("version")
            if msg["type"] == "ping":
                ws.send('{"type": "pong"}')
        else:
            found = re.search(r'id="tb-version"[^>]*data-version="(\d+)"', raw)
            version = int(found.group(1)) if found else None
            if raw.startswith('<span id="tb-ping"'):
                ws.send("pong")
        if version is not None:
            newest = max(newest, version)
            if current["status"] == "playing":
                assert version <= current["version"] - delay or version == 0, (version, current["version"])
