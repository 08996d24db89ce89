"""Turn flow on the table page (issue 18, the page side): a move the engine marks final is asked about
first (a dialog with JavaScript, a second page without), and "your turn" reaches a player who looks
elsewhere (favicon badge, notification), with the settings kept by the browser.

The confirm step runs on a server whose Ave César marks the sale of the last senator as final
(tests/site/final_moves.py), so that it holds before and after the engines mark their final moves.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from .conftest import SiteServer
from .test_pages import act, api_view, new_full_table, seat_client

SELL = {"type": "sell_senator"}


class FinalMovesServer(SiteServer):
    module = "tests.site.final_moves"


@pytest.fixture(scope="module")
def final_site(tmp_path_factory):
    server = FinalMovesServer(tmp_path_factory.mktemp("final")).start()
    try:
        yield server
    finally:
        server.stop()


def senators(view: dict, seat: int) -> int:
    return view["game"]["table"][seat]["senators"]


def one_senator_left(site) -> tuple[str, str, int]:
    """An Ave César table where the seat to act has sold all its senators but one: (table, token, seat)."""
    table_id, tokens, _ = new_full_table(site, "ave_cesar", 3)
    _version, view = api_view(site, table_id, tokens[0])
    seat = view["game"]["to_act"][0]
    while True:
        version, view = api_view(site, table_id, tokens[seat])
        if senators(view, seat) == 1:
            return table_id, tokens[seat], seat
        act(site, table_id, tokens[seat], version, SELL)


def final_marks(view: dict) -> list:
    return [code for code in view["game"].get("confirm") or [] if code]


def test_without_javascript_the_sale_of_the_last_senator_asks_on_a_page_of_its_own_then_acts(final_site):
    table_id, token, seat = one_senator_left(final_site)
    version, view = api_view(final_site, table_id, token)
    assert final_marks(view), "the view marks the sale of the last senator as final"
    with seat_client(final_site, table_id, token) as client:
        page = client.get(f"/t/{table_id}").text
        assert 'data-confirm="' in page
        asked = client.post(f"/t/{table_id}/act", data={"version": version, "action": json.dumps(SELL)})
        assert asked.status_code == 200 and 'id="tb-confirm"' in asked.text
        assert 'name="confirmed" value="yes"' in asked.text
        assert api_view(final_site, table_id, token)[0] == version, "asking changed nothing"
        # htmx without the dialog's answer: refused with the reason, nothing changed
        refused = client.post(f"/t/{table_id}/act", headers={"HX-Request": "true"},
                              data={"version": version, "action": json.dumps(SELL)})
        assert refused.status_code == 200 and "Confirm first" in refused.text
        assert api_view(final_site, table_id, token)[0] == version
        done = client.post(f"/t/{table_id}/act", follow_redirects=False,
                           data={"version": version, "action": json.dumps(SELL), "confirmed": "yes"})
        assert done.status_code == 303
    after, view = api_view(final_site, table_id, token)
    assert after == version + 1 and senators(view, seat) == 0


def test_a_move_that_is_not_final_is_played_at_once_without_a_question(final_site):
    table_id, tokens, _ = new_full_table(final_site, "ave_cesar", 3)
    version, view = api_view(final_site, table_id, tokens[0])
    seat = view["game"]["to_act"][0]
    version, view = api_view(final_site, table_id, tokens[seat])
    marks = view["game"].get("confirm") or [None] * len(view["game"]["legal_actions"])
    assert marks[view["game"]["legal_actions"].index(SELL)] is None, "the first of five senators is not final"
    with seat_client(final_site, table_id, tokens[seat]) as client:
        r = client.post(f"/t/{table_id}/act", follow_redirects=False,
                        data={"version": version, "action": json.dumps(SELL)})
        assert r.status_code == 303
    assert api_view(final_site, table_id, tokens[seat])[0] == version + 1


def test_the_question_is_asked_in_french_to_a_french_reader(final_site):
    table_id, token, _seat = one_senator_left(final_site)
    version, _view = api_view(final_site, table_id, token)
    with seat_client(final_site, table_id, token, headers={"Accept-Language": "fr-FR"}) as client:
        asked = client.post(f"/t/{table_id}/act", data={"version": version, "action": json.dumps(SELL)})
    assert "Ce coup ne pourra pas être repris" in asked.text and "Oui, jouer ce coup" in asked.text


# ------------------------------------------------------------------------------------------ browser

def wait_version(page, version: int) -> None:
    page.wait_for_function("v => Number(document.getElementById('tb-version').dataset.version) >= v",
                           arg=version, timeout=15_000)


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_selling_the_last_senator_in_the_browser_asks_first_and_no_changes_nothing(final_site, browser):
    table_id, token, seat = one_senator_left(final_site)
    version, _view = api_view(final_site, table_id, token)
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(f"{final_site.base}/t/{table_id}/seat/{token}")
        sell_button = """#tb-body form.act[data-confirm] button[name=action][value='{"type":"sell_senator"}']"""
        page.wait_for_function("s => document.querySelector(s)", arg=sell_button)
        dialog = page.locator("#tb-ask")
        sell = page.locator(sell_button)
        sell.click()
        dialog.wait_for(state="visible")
        reason = page.locator("#tb-ask-reason").inner_text()
        assert reason.strip(), "the dialog says why"
        page.keyboard.press("Escape")  # the keyboard's "no"
        dialog.wait_for(state="hidden")
        page.wait_for_timeout(300)
        assert api_view(final_site, table_id, token)[0] == version, "no: nothing was played"
        sell.click()
        dialog.wait_for(state="visible")
        page.locator("#tb-ask [data-ask=yes]").click()
        wait_version(page, version + 1)
        after, view = api_view(final_site, table_id, token)
        assert after == version + 1 and senators(view, seat) == 0
    finally:
        context.close()


def wait_presence(site, table_id: str, token: str, seat: int, state: str) -> None:
    """Until the page of the seat holding `token` shows `seat` as `state` (on, away, off)."""
    shown = re.compile(rf'id="tb-seat-{seat}" class="seat-main[^"]*">\s*<span class="seat-chip"[^>]*></span>\s*'
                       r'<span class="presence (\w+)"')
    deadline = time.monotonic() + 10
    with seat_client(site, table_id, token) as client:
        while (found := shown.search(client.get(f"/t/{table_id}").text)) is None or found.group(1) != state:
            assert time.monotonic() < deadline, f"seat {seat} never showed as {state}: {found and found.group(1)}"
            time.sleep(0.1)


HOOKS = """
window.__notes = [];
window.__hidden = false;
Object.defineProperty(Document.prototype, 'hidden', {get() { return window.__hidden; }, configurable: true});
Object.defineProperty(Document.prototype, 'visibilityState',
                      {get() { return window.__hidden ? 'hidden' : 'visible'; }, configurable: true});
const Shown = window.Notification;
window.Notification = class extends Shown {
  constructor(title, options) { super(title, options); window.__notes.push({title: title, body: (options || {}).body}); }
};
window.__chimes = 0;  // each sound played makes an AudioContext
const Sounding = window.AudioContext;
window.AudioContext = class extends Sounding {
  constructor(options) { super(options); window.__chimes += 1; }
};
"""


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_a_hidden_tab_shows_its_seat_away_and_is_notified_and_chimed_when_the_other_seats_move_makes_it_its_turn(
        site, browser):
    table_id, tokens, _ = new_full_table(site, "cesar_cleopatre", 2)
    while True:  # past the set-up, where both seats act at once
        version, view = api_view(site, table_id, tokens[0])
        if len(view["game"]["to_act"]) == 1:
            break
        seat = view["game"]["to_act"][0]
        version, view = api_view(site, table_id, tokens[seat])
        act(site, table_id, tokens[seat], version, view["game"]["legal_actions"][0])
    mover = view["game"]["to_act"][0]
    waiter = 1 - mover
    context = browser.new_context(locale="en-US", permissions=["notifications"])
    try:
        context.add_init_script(HOOKS)
        page = context.new_page()
        page.goto(f"{site.base}/t/{table_id}/seat/{tokens[waiter]}")
        button = page.locator("#tb-alert-notify")
        assert button.get_attribute("aria-pressed") == "false", "never asked on page load"
        button.click()
        page.wait_for_function("() => document.getElementById('tb-alert-notify').getAttribute('aria-pressed') === 'true'")
        assert not page.is_checked("#tb-alert-sound"), "no sound unless chosen"
        page.check("#tb-alert-sound")
        page.wait_for_function("() => window.__chimes === 1")  # what it will sound like
        page.reload()  # the settings are kept by the browser
        page.wait_for_function("() => document.getElementById('tb-alert-notify').getAttribute('aria-pressed') === 'true'")
        assert page.is_checked("#tb-alert-sound") and page.evaluate("() => window.__chimes") == 0
        assert "favicon-turn" not in page.locator("link[rel=icon]").get_attribute("href")
        page.evaluate("() => { window.__hidden = true; document.dispatchEvent(new Event('visibilitychange')); }")
        wait_presence(site, table_id, tokens[mover], waiter, "away")  # the page told the server
        while True:  # the other seat plays until the game waits for this one
            version, view = api_view(site, table_id, tokens[mover])
            if waiter in view["game"]["to_act"]:
                break
            act(site, table_id, tokens[mover], version, view["game"]["legal_actions"][0])
        wait_version(page, version)
        page.wait_for_function("() => window.__notes.length > 0", timeout=10_000)
        note = page.evaluate("() => window.__notes[0]")
        assert note["title"].startswith("Your turn") and note["body"].startswith("Your turn")
        page.wait_for_function("() => window.__chimes === 1")  # the sound chosen, once
        assert "favicon-turn" in page.locator("link[rel=icon]").get_attribute("href")
        page.evaluate("() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }")
        wait_presence(site, table_id, tokens[mover], waiter, "on")
    finally:
        context.close()


# ------------------------------------------------------------------------------------------ turn timer

def test_everyone_sees_the_countdown_and_the_log_says_when_a_bot_played_for_a_player_out_of_time(site):
    r = site.http.post("/api/tables", json={"game": "cesar_cleopatre", "players": 2, "turn_seconds": 2})
    assert r.status_code == 201, r.text
    table = r.json()
    tokens = [site.http.post(f"/api/tables/{table['id']}/join",
                             json={"invite": table["invite_key"], "name": name}).json()["token"]
              for name in ("Livia", "Marcus")]
    watch = f"/t/{table['id']}/watch?key={table['spectator_key']}"
    for token in tokens:
        with seat_client(site, table["id"], token) as client:
            assert 'class="countdown"' in client.get(f"/t/{table['id']}").text
    assert 'data-deadline="' in site.http.get(watch).text, "the spectator sees it too"
    deadline = time.monotonic() + 20
    while "Time ran out for" not in (page := site.http.get(watch).text):
        assert time.monotonic() < deadline, "no bot took over"
        time.sleep(0.2)
    assert "a bot (strong) plays for them" in page
    with seat_client(site, table["id"], tokens[0], headers={"Accept-Language": "fr-FR"}) as client:
        assert "Temps écoulé pour" in client.get(f"/t/{table['id']}").text


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_the_page_counts_down_the_time_left_to_play(site, browser):
    r = site.http.post("/api/tables", json={"game": "cesar_cleopatre", "players": 2, "turn_seconds": 90})
    table = r.json()
    site.http.post(f"/api/tables/{table['id']}/join", json={"invite": table["invite_key"], "name": "Livia"})
    site.http.post(f"/api/tables/{table['id']}/join", json={"invite": table["invite_key"], "name": "Marcus"})
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(f"{site.base}/t/{table['id']}/watch?key={table['spectator_key']}")
        ticker = page.locator(".countdown [data-ticker]")
        page.wait_for_function("() => /^1:[0-9]{2}$/.test(document.querySelector('.countdown [data-ticker]').textContent)")
        first = ticker.inner_text()
        page.wait_for_function("t => document.querySelector('.countdown [data-ticker]').textContent !== t", arg=first)
        assert ticker.inner_text() < first, "it counts down"
        assert not page.locator(".countdown-at").is_visible(), "the deadline's clock time is for pages without script"
    finally:
        context.close()
