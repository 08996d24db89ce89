"""Undo on the table page (issue 18, RULES 0.6): a player takes back a card placed face down in César &
Cléopâtre (RULES 1.4.9) and a die placed in César jouait-il aux dés before passing the dice (RULES 3.3.5),
by clicking the page's controls; the Undo control comes by Tab right after the move's controls, with a
visible focus; the other seat's page follows live. While the dice wait to be passed, the roll panel says so.
"""

from __future__ import annotations

import pytest

from app.pages.controls import compact

from .test_pages import act, api_view, new_full_table, seat_client
from .test_turnflow import wait_version

UNDO = {"type": "undo"}


def button(action: dict) -> str:
    """The page's button of a legal action."""
    return f"form.act button[name=action][value='{compact(action)}']"


def open_seat(browser, site, table_id: str, token: str):
    """A browser context of its own (the seat cookie is per table), with the seat's page open."""
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(f"{site.base}/t/{table_id}/seat/{token}")
    page.wait_for_function("() => document.documentElement.classList.contains('js')")
    return context, page


def tab_reaches_undo_from(page, control: str) -> None:
    """Tab from the move's last control lands on Undo, which shows its focus (an outline)."""
    page.locator(control).focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.value") == compact(UNDO), "Undo comes next by Tab"
    outline = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                            " return [s.outlineStyle, parseFloat(s.outlineWidth)]; }")
    assert outline[0] != "none" and outline[1] >= 2, f"no visible focus: {outline}"


# ---------------------------------------------------------------------------------- César & Cléopâtre

def past_the_setup(site, table_id: str, tokens: list[str]) -> tuple[int, int, dict]:
    """Both seats place their set-up cards through the API: (seat to act, version, its game view)."""
    while True:
        version, view = api_view(site, table_id, tokens[0])
        seat = view["game"]["to_act"][0]
        version, view = api_view(site, table_id, tokens[seat])
        if view["game"]["phase"] != "setup":
            return seat, version, view["game"]
        act(site, table_id, tokens[seat], version, view["game"]["legal_actions"][0])


def hand(page) -> list[str]:
    """The cards of the seat's own hand, by their names."""
    return sorted(page.eval_on_selector_all(".cc-bottom .cc-hand .card", "els => els.map(e => e.ariaLabel)"))


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_a_card_placed_face_down_is_taken_back_by_clicking_undo_and_the_other_seat_sees_it(site, browser):
    table_id, tokens, _ = new_full_table(site, "cesar_cleopatre", 2)
    seat, version, game = past_the_setup(site, table_id, tokens)
    place = next(a for a in game["legal_actions"] if a["type"] == "place" and a["face"] == "down")
    mine, page = open_seat(browser, site, table_id, tokens[seat])
    theirs, other = open_seat(browser, site, table_id, tokens[1 - seat])
    try:
        held = hand(page)
        other_hand = other.locator(".cc-top .cc-hand").inner_html()
        page.locator(f".cc-hand [data-pick='inf:{place['value']}']").first.click()
        page.locator(button(place)).click()
        wait_version(page, version + 1)
        wait_version(other, version + 1)
        assert len(hand(page)) == len(held) - 1, "the card left the hand"
        # the move's controls (the draws) and then Undo
        draws = [a for a in api_view(site, table_id, tokens[seat])[1]["game"]["legal_actions"] if a != UNDO]
        tab_reaches_undo_from(page, button(draws[-1]))
        page.locator(button(UNDO)).click()
        wait_version(page, version + 2)
        assert hand(page) == held, "the card is back in hand"
        assert "took back a move" in page.locator("#tb-log").inner_text()
        wait_version(other, version + 2)
        assert other.locator(".cc-top .cc-hand").inner_html() == other_hand, "the other seat sees it back too"
        assert "took back a move" in other.locator("#tb-log").inner_text()
    finally:
        mine.close()
        theirs.close()


# ---------------------------------------------------------------------------------- Alea Iacta Est

def rolled(page) -> list[str]:
    """The values of the dice the roll panel shows."""
    return sorted(page.eval_on_selector_all("#al-roll .dice svg.die",
                                            "els => els.map(e => e.getAttribute('aria-label'))"))


def forum_placement(game: dict) -> dict:
    return next(a for a in game["legal_actions"]
                if a["type"] == "place" and a["building"] == "forum" and len(a["dice"]) == 1)


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_a_die_placed_is_taken_back_by_clicking_undo_before_passing_the_dice_and_the_other_seat_sees_it(
        site, browser):
    table_id, tokens, _ = new_full_table(site, "alea_iacta_est", 2)
    version, view = api_view(site, table_id, tokens[0])
    seat = view["game"]["to_act"][0]
    place = forum_placement(api_view(site, table_id, tokens[seat])[1]["game"])
    mine, page = open_seat(browser, site, table_id, tokens[seat])
    theirs, other = open_seat(browser, site, table_id, tokens[1 - seat])
    try:
        dice = rolled(page)
        assert rolled(other) == dice and len(dice) == 8
        page.locator(f"#al-roll [data-pick='dice:{place['dice'][0]}']").first.click()
        page.locator(button(place)).click()
        wait_version(page, version + 1)
        wait_version(other, version + 1)
        assert rolled(page) == [] and rolled(other) == []
        assert "pass the dice" in page.locator("#al-roll").inner_text()
        tab_reaches_undo_from(page, button({"type": "end_turn"}))
        page.locator(button(UNDO)).click()
        wait_version(page, version + 2)
        assert rolled(page) == dice, "the die is back among the rolled ones"
        assert "took back a move" in page.locator("#tb-log").inner_text()
        wait_version(other, version + 2)
        assert rolled(other) == dice
        assert "took back a move" in other.locator("#tb-log").inner_text()
    finally:
        mine.close()
        theirs.close()


@pytest.mark.parametrize("lang, mover_says, other_says", [
    ("en-US", "Your dice are placed: pass the dice to the next player", "has placed dice and is about to pass"),
    ("fr-FR", "Vos dés sont placés : passez les dés au joueur suivant", "a placé des dés et va passer les dés"),
])
def test_while_the_dice_wait_to_be_passed_the_roll_panel_says_so(site, lang, mover_says, other_says):
    table_id, tokens, spectator_key = new_full_table(site, "alea_iacta_est", 2)
    version, view = api_view(site, table_id, tokens[0])
    seat = view["game"]["to_act"][0]
    act(site, table_id, tokens[seat], version, forum_placement(api_view(site, table_id, tokens[seat])[1]["game"]))
    headers = {"Accept-Language": lang}
    with seat_client(site, table_id, tokens[seat], headers) as client:
        assert mover_says in client.get(f"/t/{table_id}").text
    with seat_client(site, table_id, tokens[1 - seat], headers) as client:
        page = client.get(f"/t/{table_id}").text
    watched = site.http.get(f"/t/{table_id}/watch?key={spectator_key}", headers=headers).text
    for shown in (page, watched):
        assert f"P{seat} {other_says}" in shown and "No dice rolled" not in shown and "Aucun dé lancé" not in shown
