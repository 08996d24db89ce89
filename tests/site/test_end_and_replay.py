"""The end of a game in headless Chromium: the end screen, the replay viewer and the rematch.

For each game, two players join through the invite link in their own browser and a spectator watches; both
players then leave the game, so that bots (without delay) play it to the end. Every page gets the end screen
live: the winner, each seat's score line by line, and the ways on. The first player opens the replay from
it: at the last step, through each seat's eyes, the board is exactly that seat's final page's board (its
hand, money, mission, face-down cards); stepped with the arrow keys from the first step to the last, every
step shows its log line and what no seat saw (deck orders), with a way to look through every seat's eyes;
the slider goes to the step it is let go at.
Both players then accept the rematch from the end screen and land at the same new table, in turned seats; the
second player's and the spectator's open end screens learn of the rematch live once the first accepted it.
"""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, SiteServer
from .live_page import first_difference
from .live_page import parse as parse_dom

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

# (game, players, bots in the seats after the two players')
GAMES = [("cesar_cleopatre", 2), ("ave_cesar", 3), ("alea_iacta_est", 2)]
NAMES = ["Livia", "Marcus"]

BOARD_JS = "() => document.querySelector('.tb-main > div').outerHTML"
STEP_JS = "() => Number(document.getElementById('rp-nav').dataset.step)"
SLIDE_JS = """step => { const slider = document.getElementById('rp-step'); slider.value = step;
                       slider.dispatchEvent(new Event('change', {bubbles: true})); }"""


def board(page) -> str:
    return parse_dom(page.evaluate(BOARD_JS)).normal()


def seat_token(context, table_id: str) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == f"tabula_seat_{table_id}")


def go_to_step(page, key: str, step: int) -> None:
    with page.expect_navigation():
        page.keyboard.press(key)
    assert page.evaluate(STEP_JS) == step


@pytest.mark.parametrize("slug,players", GAMES)
def test_end_screen_replay_and_rematch(quick_site: SiteServer, browser, slug, players):
    http = quick_site.http
    created = http.post("/api/tables", json={"game": slug, "players": players,
                                             "bots": {str(s): "novice" for s in range(2, players)}}).json()
    table_id = created["id"]
    contexts = [browser.new_context(locale="en-GB") for _ in range(3)]
    try:
        seats = [c.new_page() for c in contexts[:2]]
        for page, name in zip(seats, NAMES):
            page.goto(created["invite_url"])
            page.fill("#join-name", name)
            with page.expect_navigation():
                page.click("#join-form button[type=submit]")
        spectator = contexts[2].new_page()
        spectator.goto(created["spectator_url"])
        for context in contexts[:2]:  # the players leave: bots play the game to its end
            r = http.post(f"/api/tables/{table_id}/seat/leave",
                          headers={"Authorization": f"Bearer {seat_token(context, table_id)}"})
            assert r.status_code == 200, r.text

        # The end screen, live, for the players and the spectator.
        for page in (*seats, spectator):
            page.wait_for_selector("#tb-outcome:not([hidden]) #tb-end", timeout=240_000)
            assert page.locator("#tb-outcome h2").inner_text().strip()
            assert page.locator("#tb-outcome .breakdown").count() == players
            assert page.locator("#tb-outcome .breakdown tbody tr").count() >= players
            assert page.locator("#tb-replay-link").count() == 1
        outcome = http.get(f"/api/tables/{table_id}/view", params={"spectate": created["spectator_key"]}).json()
        lines = outcome["view"]["game"]["outcome"]["breakdown"]
        for s in range(players):  # line by line as the rulebook counts
            rows = spectator.locator("#tb-outcome .breakdown").nth(s).locator("tbody tr")
            assert rows.count() == len(lines[s])
            assert [rows.nth(i).locator(".pts").inner_text() for i in range(rows.count())] == \
                [str(line["points"]) for line in lines[s]]
        assert all(p.locator("#tb-end button", has_text="Rematch").count() == 1 for p in seats)
        assert spectator.locator("#tb-end button").count() == 0

        # Each seat's final board, as a fresh page draws it.
        finals = []
        for page in seats:
            page.reload()
            finals.append(board(page))

        # The replay, at its last step, through each seat's eyes: exactly that seat's final board.
        replay = seats[0]
        with replay.expect_navigation():
            replay.click("#tb-replay-link")
        last = int(replay.locator("#rp-nav").get_attribute("data-steps")) - 1
        assert replay.evaluate(STEP_JS) == last
        for s, final in enumerate(finals):
            with replay.expect_navigation():
                replay.locator("#rp-seats a").nth(s).click()
            assert board(replay) == final, first_difference(board(replay), final)
        with replay.expect_navigation():
            replay.locator("#rp-seats a").nth(0).click()

        # From the first step to the last with the arrow keys.
        go_to_step(replay, "Home", 0)
        step_lines = []
        for step in range(1, last + 1):
            go_to_step(replay, "ArrowRight", step)
            assert replay.locator("#rp-step-log li").count() >= 1
            step_lines.append(replay.locator("#rp-step-log").inner_text())
            assert replay.locator("#rp-hidden dt").count() >= 1  # what no seat saw
            assert replay.locator("#rp-seats a").count() == players  # and every seat's eyes
            if step == last // 2:
                ARTIFACTS.mkdir(exist_ok=True)
                replay.screenshot(path=str(ARTIFACTS / f"replay-{slug}.png"), full_page=True)
        for name in NAMES:  # the takeovers are steps too
            assert any(f"A bot (novice) plays {name}'s seat now." in lines for lines in step_lines)
        go_to_step(replay, "ArrowLeft", last - 1)
        go_to_step(replay, "End", last)
        with replay.expect_navigation():  # the slider goes to its step once let go
            replay.evaluate(SLIDE_JS, last // 2)
        assert replay.evaluate(STEP_JS) == last // 2

        # The rematch, accepted by both players from the end screen; the end screens still open learn of it live.
        for page in seats:
            page.goto(f"{quick_site.base}/t/{table_id}")
        with seats[0].expect_navigation():
            seats[0].click("#tb-end button")
        seats[1].locator("#tb-end button", has_text="Join the rematch").wait_for(timeout=20_000)
        spectator.locator("#tb-rematch-link", has_text="Watch the rematch").wait_for(timeout=20_000)
        with seats[1].expect_navigation():
            seats[1].click("#tb-end button")
        new_ids = [page.url.rsplit("/t/", 1)[1] for page in seats]
        assert new_ids[0] == new_ids[1] != table_id
        for s, page in enumerate(seats):
            assert page.url == f"{quick_site.base}/t/{new_ids[0]}"
            assert page.locator("#tb").get_attribute("data-seat") == str((s + 1) % players)
        seats[1].wait_for_selector('#tb-version[data-status="playing"]', state="attached")
        seats[0].goto(f"{quick_site.base}/t/{table_id}")  # the old table leads there again
        with seats[0].expect_navigation():
            seats[0].click("#tb-end button")
        assert seats[0].url == f"{quick_site.base}/t/{new_ids[0]}"
        assert http.get(f"/api/tables/{new_ids[0]}").json()["status"] == "playing"
    finally:
        for context in contexts:
            context.close()
