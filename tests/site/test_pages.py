"""Route and template tests of the site, against a real server (tests/site/conftest.py): the lobby, creating
a table with its options, the waiting room, joining, the table page of each game for each seat and the
spectator, actions with and without JavaScript, the log and the final breakdown, rules pages, languages and
the admin page."""

from __future__ import annotations

import html
import random
import re
from html.parser import HTMLParser

import httpx
import pytest
from markupsafe import escape as markup_escape

from games import REGISTRY

from .conftest import ADMIN_TOKEN


def esc(text: str) -> str:
    """Text as the templates escape it."""
    return str(markup_escape(text))

PLAYERS = {"cesar_cleopatre": 2, "ave_cesar": 3, "alea_iacta_est": 4}
FR = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}


# ------------------------------------------------------------------------------------------ helpers

class Controls(HTMLParser):
    """Every action a page offers: the value of each action button and of each option of an action select,
    and the ids of every element."""

    def __init__(self):
        super().__init__()
        self.actions: list[str] = []
        self.ids: set[str] = set()
        self._in_select = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "button" and a.get("name") == "action":
            self.actions.append(a["value"])
        elif tag == "select" and a.get("name") == "action":
            self._in_select = True
        elif tag == "option" and self._in_select:
            self.actions.append(a["value"])

    def handle_endtag(self, tag):
        if tag == "select":
            self._in_select = False


def parse(page: str) -> Controls:
    parser = Controls()
    parser.feed(page)
    return parser


def canonical(action) -> str:
    import json

    return json.dumps(action if not isinstance(action, str) else json.loads(action), sort_keys=True)


def new_full_table(site, slug: str, players: int | None = None, options: dict | None = None):
    """A full table made through the API: (table id, [seat tokens], spectator key)."""
    players = players or PLAYERS[slug]
    r = site.http.post("/api/tables", json={"game": slug, "players": players, "options": options or {}})
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = []
    for n in range(players):
        j = site.http.post(f"/api/tables/{body['id']}/join", json={"invite": body["invite_key"], "name": f"P{n}"})
        assert j.status_code == 201, j.text
        tokens.append(j.json()["token"])
    return body["id"], tokens, body["spectator_key"]


def seat_client(site, table_id: str, token: str, headers: dict | None = None) -> httpx.Client:
    return httpx.Client(base_url=site.base, cookies={f"tabula_seat_{table_id}": token}, headers=headers or {},
                        timeout=10)


def api_view(site, table_id: str, token: str) -> tuple[int, dict]:
    r = site.http.get(f"/api/tables/{table_id}/view", headers={"Authorization": f"Bearer {token}"})
    body = r.json()
    return body["version"], body["view"]


def act(site, table_id: str, token: str, version: int, action: dict) -> None:
    r = site.http.post(f"/api/tables/{table_id}/actions", headers={"Authorization": f"Bearer {token}"},
                   json={"version": version, "action": action})
    assert r.status_code == 200, r.text


def play_randomly(site, table_id: str, tokens: list[str], rng: random.Random, steps: int | None = None) -> None:
    """Random legal actions through the API (steps, or to the end)."""
    done = 0
    while steps is None or done < steps:
        version, view = api_view(site, table_id, tokens[0])
        if view["game"]["finished"]:
            return
        seat = rng.choice(view["game"]["to_act"])
        if seat != 0:
            version, view = api_view(site, table_id, tokens[seat])
        legal = view["game"]["legal_actions"]
        weights = [0.02 if a["type"] in ("sell_senator", "reroll", "passive") else 1.0 for a in legal]
        act(site, table_id, tokens[seat], version, rng.choices(legal, weights=weights)[0])
        done += 1


# -------------------------------------------------------------------------------------------- lobby

def test_the_lobby_shows_each_game_with_its_picture_pitch_player_count_and_every_option_explained(site):
    page = httpx.get(site.base + "/").text
    for slug, game in REGISTRY.items():
        card = page.split(f'id="game-{slug}"', 1)[1].split('class="game-card"', 1)[0]
        assert "<svg" in card.split('class="game-text"')[0], f"{slug} has no picture"
        assert esc(game.title_en) in card and esc(game.pitch_en) in card
        assert f'href="/rules/{slug}"' in card
        for option in game.options:
            assert f'name="opt_{option.name}"' in card
            assert esc(option.label_en) in card and esc(option.en) in card
        if game.min_players != game.max_players:
            assert card.count("<option value=") >= game.max_players - game.min_players + 1


def test_a_french_browser_gets_the_french_lobby_and_the_switch_is_remembered(site):
    page = httpx.get(site.base + "/", headers=FR).text
    assert '<html lang="fr">' in page
    for game in REGISTRY.values():
        assert esc(game.title_fr) in page and esc(game.pitch_fr) in page
        for option in game.options:
            assert esc(option.fr) in page
    assert "Créer une table" in page
    with httpx.Client(base_url=site.base, headers=FR) as browser:
        r = browser.get("/lang/en", params={"next": "/rules/ave_cesar"})
        assert r.status_code == 303 and r.headers["location"] == "/rules/ave_cesar"
        assert '<html lang="en">' in browser.get("/").text  # the cookie wins over Accept-Language
        r = browser.get("/lang/fr", params={"next": "https://elsewhere.example/"})
        assert r.headers["location"] == "/"  # never redirected off the site
        assert '<html lang="fr">' in browser.get("/").text


def test_creating_a_table_with_a_name_opens_the_waiting_room_with_the_links(site):
    with httpx.Client(base_url=site.base) as browser:
        r = browser.post("/tables/new", data={"game": "ave_cesar", "players": "4", "name": "Livia",
                                              "opt_influence": "true"})
        assert r.status_code == 303
        table_id = r.headers["location"].rsplit("/", 1)[1]
        room = browser.get(r.headers["location"]).text
        info = browser.get(f"/api/tables/{table_id}").json()
        assert info["players"] == 4 and info["options"] == {"influence": True, "anti_bad_luck": False}
        assert 'data-status="lobby"' in room
        for link in ("link-invite", "link-seat", "link-watch"):
            assert f'id="{link}"' in room and f'data-copy="#{link}"' in room
        assert "Livia" in room and room.count("free seat") == 3
        assert 'ws-connect="/ws/tables/' + table_id + '/html?since=' in room


def test_creating_a_table_without_a_name_goes_to_the_join_page_and_options_come_from_the_form(site):
    with httpx.Client(base_url=site.base) as browser:
        r = browser.post("/tables/new", data={"game": "cesar_cleopatre", "players": "2",
                                              "opt_action_pile": '"arrange"', "opt_two_face_down": "true"})
        assert r.status_code == 303 and "/join?key=" in r.headers["location"]
        table_id = r.headers["location"].split("/")[2]
        options = browser.get(f"/api/tables/{table_id}").json()["options"]
        assert options["action_pile"] == "arrange" and options["two_face_down"] is True
        assert options["tiebreak_patricians"] is False  # an unchecked box
        join = browser.get(r.headers["location"]).text
        assert "join-form" in join and "arranged by its owner" in join
        bad = browser.post("/tables/new", data={"game": "cesar_cleopatre", "players": "2", "opt_action_pile": '"x"'})
        assert bad.status_code == 400
        assert browser.post("/tables/new", data={"game": "nope", "players": "2"}).status_code == 400


def test_joining_by_invite_then_the_personal_link_from_another_device(site):
    r = httpx.post(f"{site.base}/api/tables", json={"game": "cesar_cleopatre", "players": 2})
    body = r.json()
    table_id, invite = body["id"], body["invite_key"]
    with httpx.Client(base_url=site.base) as laptop:
        assert laptop.get(f"/t/{table_id}/join", params={"key": "nope"}).status_code == 403
        r = laptop.post(f"/t/{table_id}/join", data={"key": invite, "name": "  "})
        assert r.status_code == 400 and "A display name is needed." in r.text
        r = laptop.post(f"/t/{table_id}/join", data={"key": invite, "name": "Livia"})
        assert r.status_code == 303
        # Back on the invite link with the cookie: straight to the table.
        assert laptop.get(f"/t/{table_id}/join", params={"key": invite}).headers["location"] == f"/t/{table_id}"
        room = laptop.get(f"/t/{table_id}").text
        seat_url = re.search(r'id="link-seat" class="link" readonly value="([^"]+)"', room).group(1)
        assert "/t/" + table_id + "/seat/" in seat_url
    with httpx.Client(base_url=site.base) as phone:
        r = phone.get(seat_url.replace(site.base, ""))
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table_id}"
        assert 'data-seat="0"' in phone.get(f"/t/{table_id}").text
    with httpx.Client(base_url=site.base) as friend:
        friend.post(f"/t/{table_id}/join", data={"key": invite, "name": "Marcus"})
        assert 'data-status="playing"' in friend.get(f"/t/{table_id}").text
    with httpx.Client(base_url=site.base) as late:
        page = late.get(f"/t/{table_id}/join", params={"key": invite})
        assert "This table has started" in page.text and "join-form" not in page.text
        r = late.post(f"/t/{table_id}/join", data={"key": invite, "name": "Julia"})
        assert r.status_code == 409 and "already started" in r.text


def test_error_pages_speak_the_readers_language(site):
    page = httpx.get(f"{site.base}/t/no-such-table", headers=FR)
    assert page.status_code == 404 and esc("Cette table n'existe pas.") in page.text
    assert httpx.get(f"{site.base}/rules/nope").status_code == 404


# ------------------------------------------------------------------------------------- table pages

@pytest.mark.parametrize("slug", list(PLAYERS))
def test_the_table_page_of_each_game_shows_every_region_for_each_seat_and_the_spectator(site, slug):
    table_id, tokens, spectate = new_full_table(site, slug)
    play_randomly(site, table_id, tokens, random.Random(slug), steps=12)
    expected = {"tb-status", "tb-seats", "tb-spectators", "tb-log", "tb-outcome", "tb-version", "tb-flash", "tb-body"}
    for n, token in enumerate(tokens):
        with seat_client(site, table_id, token) as browser:
            page = browser.get(f"/t/{table_id}").text
        found = parse(page)
        assert expected <= found.ids, expected - found.ids
        assert f'data-seat="{n}"' in page and "You are watching" not in page
    watch = httpx.get(f"{site.base}/t/{table_id}/watch", params={"key": spectate}).text
    found = parse(watch)
    assert expected <= found.ids
    assert not found.actions and "You are watching" in watch and "data-private" not in watch
    assert f"spectate={spectate}" in watch  # the spectator's socket


@pytest.mark.parametrize("slug", list(PLAYERS))
def test_the_page_offers_exactly_the_legal_actions_of_the_seat(site, slug):
    """The page never decides legality: its controls are the view's legal actions, all of them, and only
    those, at every step of a game (checked for every seat that may act)."""
    table_id, tokens, _ = new_full_table(site, slug)
    rng = random.Random(f"legal-{slug}")
    for _ in range(25):
        version, view = api_view(site, table_id, tokens[0])
        if view["game"]["finished"]:
            break
        for seat, token in enumerate(tokens):
            _, seat_view = api_view(site, table_id, token)
            offered = parse(site.http.get(f"/t/{table_id}", headers={"Cookie": f"tabula_seat_{table_id}={token}"}).text).actions
            assert sorted(map(canonical, offered)) == sorted(map(canonical, seat_view["game"]["legal_actions"]))
        play_randomly(site, table_id, tokens, rng, steps=rng.randint(1, 6))


def test_actions_work_without_javascript_and_a_refusal_is_shown_once(site):
    table_id, tokens, _ = new_full_table(site, "cesar_cleopatre")
    with seat_client(site, table_id, tokens[0]) as browser:
        page = browser.get(f"/t/{table_id}").text
        version = int(re.search(r'data-version="(\d+)"', page).group(1))
        action = html.unescape(parse(page).actions[0])
        r = browser.post(f"/t/{table_id}/act", data={"version": str(version), "action": action})
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table_id}"
        assert api_view(site, table_id, tokens[0])[0] == version + 1
        # The same move again, from the old page: refused, and the page says why, once.
        r = browser.post(f"/t/{table_id}/act", data={"version": str(version), "action": action})
        assert r.status_code == 303
        page = browser.get(f"/t/{table_id}").text
        assert 'class="flash show"' in page and "moved on" in page
        assert 'class="flash show"' not in browser.get(f"/t/{table_id}").text


def test_with_htmx_an_action_returns_the_flash_region_and_a_refusal_its_sentence(site):
    table_id, tokens, _ = new_full_table(site, "cesar_cleopatre")
    hx = {"HX-Request": "true"}
    with seat_client(site, table_id, tokens[0], headers=hx) as browser:
        version, view = api_view(site, table_id, tokens[0])
        r = browser.post(f"/t/{table_id}/act", data={"version": str(version),
                                                      "action": canonical(view["game"]["legal_actions"][0])})
        assert r.status_code == 200 and r.text.startswith('<div id="tb-flash" class="flash"') and "<p>" not in r.text
        version, view = api_view(site, table_id, tokens[0])
        r = browser.post(f"/t/{table_id}/act", data={"version": str(version),
                                                      "action": '{"type": "place", "value": 9, "group": "senators", "face": "up"}'})
        assert r.status_code == 200 and 'class="flash show"' in r.text
        assert "First place one card of your setup series" in r.text
    with seat_client(site, table_id, tokens[1], headers={**hx, **FR}) as browser:
        version, _ = api_view(site, table_id, tokens[1])
        r = browser.post(f"/t/{table_id}/act", data={"version": str(version - 1), "action": '{"type": "passive"}'})
        assert "La table a changé" in r.text


@pytest.mark.parametrize("slug", list(PLAYERS))
def test_a_finished_game_shows_the_log_in_words_and_the_score_breakdown_with_the_winner(site, slug):
    table_id, tokens, spectate = new_full_table(site, slug)
    play_randomly(site, table_id, tokens, random.Random(f"end-{slug}"))
    _, view = api_view(site, table_id, tokens[0])
    outcome = view["game"]["outcome"]
    game = REGISTRY[slug]
    names = [s["name"] for s in view["table"]["seats"]]
    for lang, headers in (("en", {}), ("fr", FR)):
        page = httpx.get(f"{site.base}/t/{table_id}/watch", params={"key": spectate}, headers=headers).text
        board = page.split('id="tb-outcome"', 1)[1].split("</section>", 1)[0]
        winners = [names[w] for w in outcome["winners"]]
        heading = board.split("</h2>", 1)[0]
        assert all(w in heading for w in winners)
        for seat, lines in enumerate(outcome["breakdown"]):
            for line in lines:
                assert esc(line[lang]) in board
        totals = re.findall(r'class="pts total">(-?\d+)<', board)
        assert totals == [str(s) for s in outcome["scores"]]
        spectator_log = httpx.get(f"{site.base}/api/tables/{table_id}/view", params={"spectate": spectate}).json()
        last = spectator_log["view"]["game"]["log"][-1]
        assert esc(game.render_log(last, lang, names)) in page.split('id="tb-log"', 1)[1]
        assert "Game over" not in page or lang == "en"


def test_a_seat_sees_its_private_log_lines_and_the_others_do_not(site):
    table_id, tokens, spectate = new_full_table(site, "ave_cesar")
    _, view = api_view(site, table_id, tokens[0])
    names = [s["name"] for s in view["table"]["seats"]]
    game = REGISTRY["ave_cesar"]
    private = [e for e in view["game"]["log"] if "dealt" in game.render_log(e, "en", names)]
    assert private
    line = esc(game.render_log(private[0], "en", names))
    with seat_client(site, table_id, tokens[0]) as browser:
        assert line in browser.get(f"/t/{table_id}").text
    with seat_client(site, table_id, tokens[1]) as browser:
        assert line not in browser.get(f"/t/{table_id}").text
    assert line not in httpx.get(f"{site.base}/t/{table_id}/watch", params={"key": spectate}).text


# ------------------------------------------------------------------------------------ rules, admin

@pytest.mark.parametrize("slug", list(REGISTRY))
def test_the_rules_page_of_each_game_in_english_and_in_french(site, slug):
    en = httpx.get(f"{site.base}/rules/{slug}")
    fr = httpx.get(f"{site.base}/rules/{slug}", headers=FR)
    assert en.status_code == fr.status_code == 200
    assert '<article class="rules panel" id="rules" lang="en">' in en.text and "<h1" in en.text
    assert '<article class="rules panel" id="rules" lang="fr">' in fr.text and "<h1" in fr.text
    assert en.text.split('id="rules"')[1] != fr.text.split('id="rules"')[1]
    assert "<table>" in en.text  # markdown tables are rendered
    assert "Read in English" in fr.text and "Lire en français" in en.text


def test_the_admin_page_lists_the_tables_behind_the_admin_token(site):
    table_id, _, _ = new_full_table(site, "alea_iacta_est", players=2)
    with httpx.Client(base_url=site.base) as admin:
        r = admin.get("/admin")
        assert r.status_code == 401 and 'name="token"' in r.text
        assert admin.post("/admin", data={"token": "wrong"}).status_code == 403
        r = admin.post("/admin", data={"token": ADMIN_TOKEN})
        assert r.status_code == 303
        page = admin.get("/admin").text
        row = page.split(f"<code>{table_id}</code>", 1)[1].split("</tr>", 1)[0]
        assert "in play" in row and "P0" in row and "P1" in row and "<time" in row
        admin.post("/admin/logout")
        assert admin.get("/admin").status_code == 401
