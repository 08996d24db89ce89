"""The lobby offers bots (issue 8) and the site glue for them, against a real server whose bots act at once:
bot seats chosen in the create form, a bots-only demo table that opens on the spectator page and plays by
itself, leaving a started game to a bot from the table page and taking the seat back through the personal
seat link."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest

from .conftest import SiteServer

FR = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
# Bots act at once and decide in a thread with a small fixed budget (as in tests/app/test_bots_at_tables.py).
BOT_ENV = {"TABULA_BOT_DELAY": "0", "TABULA_BOT_WORKERS": "0", "TABULA_BOT_ITERATIONS": "4",
           "TABULA_BOT_SECONDS": "none", "TABULA_TAKEOVER_LEVEL": "novice", "TABULA_BOT_SWEEP": "0.5"}


@pytest.fixture(scope="module")
def bot_site(tmp_path_factory) -> Iterator[SiteServer]:
    with pytest.MonkeyPatch.context() as mp:
        for name, value in BOT_ENV.items():
            mp.setenv(name, value)
        server = SiteServer(tmp_path_factory.mktemp("bot-site")).start()
    try:
        yield server
    finally:
        server.stop()


def summary(site: SiteServer, table_id: str) -> dict:
    r = site.http.get(f"/api/tables/{table_id}")
    assert r.status_code == 200, r.text
    return r.json()


def test_the_lobby_form_offers_bot_seats_and_a_demo_table_in_both_languages(bot_site):
    page = httpx.get(bot_site.base + "/").text
    card = page.split('id="game-ave_cesar"', 1)[1].split('class="game-card"', 1)[0]
    for n in range(1, 4):  # every seat but the creator's (seat 1)
        assert f'<label for="bot-ave_cesar-{n}">Seat {n + 1}</label>' in card
        assert f'id="bot-ave_cesar-{n}" name="bot_{n}"' in card
    assert 'name="bot_0"' not in card
    assert 'value="novice"' in card and 'value="strong"' in card
    assert '<label for="demo-ave_cesar">' in card and '<label for="demo-level-ave_cesar">' in card
    fr = httpx.get(bot_site.base + "/", headers=FR).text
    assert "bot fort" in fr and "bot débutant" in fr and "Table de démonstration" in fr


def test_a_bot_seat_chosen_in_the_lobby_is_marked_at_the_table(bot_site):
    with httpx.Client(base_url=bot_site.base) as browser:
        r = browser.post("/tables/new", data={"game": "ave_cesar", "players": "3", "name": "Livia",
                                              "bot_1": "strong", "bot_2": "", "bot_3": "novice"})
        assert r.status_code == 303 and r.headers["location"].startswith("/t/")
        table_id = r.headers["location"].rsplit("/", 1)[1]
        seats = summary(bot_site, table_id)["seats"]
        assert [s["bot"] for s in seats] == [None, "strong", None]  # bot_3 is beyond the 3 players
        assert seats[0]["name"] == "Livia" and not seats[2]["taken"]
        room = browser.get(f"/t/{table_id}").text
        assert 'data-status="lobby"' in room
        seat1 = room.split('data-seat="1"', 1)[1].split("</li>", 1)[0]
        assert "bot (strong)" in seat1 and "bot-badge" in seat1
        assert "bot-badge" not in room.split('data-seat="0"', 1)[1].split("</li>", 1)[0]
        bad = browser.post("/tables/new", data={"game": "ave_cesar", "players": "3", "bot_1": "genius"})
        assert bad.status_code == 400


def test_a_bots_only_demo_table_opens_the_spectator_page_and_plays_by_itself(bot_site):
    with httpx.Client(base_url=bot_site.base) as browser:
        r = browser.post("/tables/new", data={"game": "cesar_cleopatre", "players": "2", "name": "Livia",
                                              "demo": "bots", "demo_level": "novice"})
        assert r.status_code == 303
        location = r.headers["location"]
        match = re.fullmatch(r"/t/([^/]+)/watch\?key=(.+)", location)
        assert match, location
        table_id = match.group(1)
        assert not any(name.startswith("tabula_seat_") for name in browser.cookies.keys())  # nobody seated
        watch = browser.get(location)
        assert watch.status_code == 200 and "You are watching" in watch.text
        assert 'name="action"' not in watch.text and "leave-game" not in watch.text
        info = summary(bot_site, table_id)
        assert info["status"] in ("playing", "finished")
        assert [s["bot"] for s in info["seats"]] == ["novice", "novice"]
        start = info["version"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            info = summary(bot_site, table_id)
            if info["version"] >= start + 5 or info["status"] == "finished":
                break
            time.sleep(0.2)
        assert info["version"] >= start + 5 or info["status"] == "finished", info


def test_leaving_a_started_game_to_a_bot_then_taking_the_seat_back_through_the_seat_link(bot_site):
    with httpx.Client(base_url=bot_site.base) as browser:
        r = browser.post("/tables/new", data={"game": "ave_cesar", "players": "3", "name": "Livia",
                                              "bot_1": "novice"})
        table_id = r.headers["location"].rsplit("/", 1)[1]
        token = browser.cookies.get(f"tabula_seat_{table_id}")
        assert token
        # A third player who never acts keeps the game from ending during the test.
        invite = re.search(r"/join\?key=([^\"&]+)\"", browser.get(f"/t/{table_id}").text).group(1)
        j = bot_site.http.post(f"/api/tables/{table_id}/join", json={"invite": invite, "name": "Marcus"})
        assert j.status_code == 201, j.text
        page = browser.get(f"/t/{table_id}").text
        assert 'data-status="playing"' in page
        assert f'action="/t/{table_id}/leave-game"' in page and 'name="confirm"' in page
        assert "Leave the game (a bot takes over)" in page

        # Without the confirmation nothing happens.
        r = browser.post(f"/t/{table_id}/leave-game")
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table_id}"
        assert summary(bot_site, table_id)["seats"][0]["bot"] is None
        browser.get(f"/t/{table_id}")  # shows (and clears) the sentence

        r = browser.post(f"/t/{table_id}/leave-game", data={"confirm": "yes"})
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table_id}"
        seat = summary(bot_site, table_id)["seats"][0]
        assert seat["bot"] == "novice" and seat["takeover"] is True and seat["name"] == "Livia"
        page = browser.get(f"/t/{table_id}").text
        seat0 = page.split('data-seat="0"', 1)[1].split("</li>", 1)[0]
        assert "taken over by a bot (novice)" in seat0
        assert "A bot plays your seat now" in page and "leave-game" not in page

    # Returning through the personal seat link (another device) takes the seat back.
    with httpx.Client(base_url=bot_site.base) as phone:
        r = phone.get(f"/t/{table_id}/seat/{token}")
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table_id}"
        seat = summary(bot_site, table_id)["seats"][0]
        assert seat["bot"] is None and seat["takeover"] is False
        page = phone.get(f"/t/{table_id}").text
        assert "taken over by a bot" not in page and f'action="/t/{table_id}/leave-game"' in page
        # Opening the link again is harmless.
        version = summary(bot_site, table_id)["version"]
        assert phone.get(f"/t/{table_id}/seat/{token}").status_code == 303
        assert summary(bot_site, table_id)["version"] >= version
    assert not bot_site.errors(), bot_site.errors()
