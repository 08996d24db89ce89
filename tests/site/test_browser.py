"""Whole games in headless Chromium, against a real server process (tests/site/conftest.py).

For each registered game, one browser context per seat and one spectator: the first player creates the
table from the lobby, the others join through the invite link, and everyone plays a seeded game to the end
by clicking the page's own controls (a scripted policy picks, with a seeded generator, among the legal
controls the page shows: a card or dice first when a control asks for it, then the button). On the way it
checks that every page follows each version live without reloading, that each seat sees its own secrets
and nobody else's, that a page whose socket drops catches up by itself, that every control has an
accessible name, and that every page ends with the score breakdown and the winner. A mid-game screenshot
per game, for a seat and for the spectator, goes to tests/artifacts/.
"""

from __future__ import annotations

import json
import random
import re
import time

import httpx
import pytest

from games import REGISTRY

from .conftest import ARTIFACTS, SiteServer
from .live_page import first_difference

pytestmark = [pytest.mark.browser, pytest.mark.timeout(360)]

NAMES = ["Livia", "Marcus", "Julia", "Titus", "Aulus"]
GAMES = [("cesar_cleopatre", 2), ("ave_cesar", 3), ("alea_iacta_est", 4)]
SCREENSHOT_AT = {"cesar_cleopatre": 40, "ave_cesar": 30, "alea_iacta_est": 45}
DROP_SOCKET_AT = 12  # the spectator's socket is closed here; the page must catch up by itself

# The scripted policy: a weight per action type, shared among the controls of that type (so that a select
# with forty amounts weighs as much as one button). It keeps games short without deciding anything the
# page does not offer. A move is taken back now and then (RULES 0.6).
WEIGHTS = {
    "cesar_cleopatre": {"place": 4, "draw": 2, "refill": 2, "castle": 3, "passive": 0.15, "play_action": 0.6,
                        "discard": 0.6, "veto": 0.4, "allow": 1, "end_turn": 1, "undo": 0.1},
    "ave_cesar": {"sell_senator": 0.02, "bid": 0.5, "end_bids": 1, "accept_senator": 0.6, "decline_senator": 1,
                  "auction": 0.6, "extortion": 1, "counters": 0.6, "sell": 1.5, "quaestor_sale": 0.5,
                  "buy_senator": 1.5, "end_counters": 0.5, "join_counters": 0.3, "decline_counters": 1, "undo": 0.1},
    "alea_iacta_est": {"reroll": 0.05, "place": 1, "undo": 0.1},
}

CONTROLS_JS = """() => Array.from(document.querySelectorAll('#tb-body form.act')).map((f, i) => {
  const sel = f.querySelector('select[name=action]');
  const btn = f.querySelector('button[type=submit]');
  return {i: i, pick: f.dataset.needPick || null, select: !!sel,
          actions: sel ? Array.from(sel.options).map(o => o.value) : [btn.value],
          asks: sel ? Array.from(sel.options).filter(o => o.dataset.confirm).map(o => o.value)
                    : (f.dataset.confirm ? [btn.value] : [])};
})"""

UNNAMED_JS = """() => {
  const bad = [];
  const controls = document.querySelectorAll(
    'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [tabindex]:not([tabindex="-1"])');
  for (const el of controls) {
    let name = (el.getAttribute('aria-label') || '').trim();
    if (!name && el.getAttribute('aria-labelledby')) {
      name = el.getAttribute('aria-labelledby').split(/\\s+/)
        .map(id => (document.getElementById(id) || {}).textContent || '').join(' ').trim();
    }
    if (!name && el.labels && el.labels.length) name = Array.from(el.labels).map(l => l.textContent).join(' ').trim();
    if (!name) name = (el.getAttribute('title') || '').trim();
    if (!name && !['SELECT', 'INPUT', 'TEXTAREA'].includes(el.tagName)) name = el.textContent.trim();
    if (!name && el.tagName === 'INPUT' && ['submit', 'button'].includes(el.type)) name = (el.value || '').trim();
    if (!name) bad.push(el.outerHTML.slice(0, 160));
  }
  return bad;
}"""


# ------------------------------------------------------------------------------------------ helpers

def summary(site: SiteServer, table_id: str) -> dict:
    return httpx.get(f"{site.base}/api/tables/{table_id}", timeout=10).json()


def api_view(site: SiteServer, table_id: str, token: str | None = None, spectate: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    params = {"spectate": spectate} if spectate else {}
    r = httpx.get(f"{site.base}/api/tables/{table_id}/view", headers=headers, params=params, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["view"]


def seat_token(context, table_id: str) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == f"tabula_seat_{table_id}")


def mark(page) -> None:
    """A marker that a reload would lose: the page must stay the same document all game long."""
    page.evaluate("() => { window.__tabulaMarker = 'still-here'; }")


def assert_not_reloaded(page) -> None:
    assert page.evaluate("() => window.__tabulaMarker") == "still-here", f"{page.url} was reloaded"


VERSION_JS = """() => { const e = document.getElementById('tb-version');
  return e ? [Number(e.dataset.version), e.dataset.myTurn === '1', e.dataset.status] : [-1, false, ''] }"""


def page_state(page) -> tuple[int, bool, str]:
    """(version shown, my turn, table status) as the page shows them now."""
    return tuple(page.evaluate(VERSION_JS))


def wait_version(page, version: int, timeout: float = 15_000) -> tuple[int, bool, str]:
    state = page_state(page)
    if state[0] < version:
        page.wait_for_function(
            "v => { const e = document.getElementById('tb-version'); return e && Number(e.dataset.version) >= v; }",
            arg=version, timeout=timeout, polling=15)
        state = page_state(page)
    return state


# The live page's parts the socket keeps fresh, and the same page fetched afresh (by the page itself: same
# cookies, same language) and parsed by the browser; what the page's script adds for the reader's own clicks
# (the selection of a card or dice, htmx's transient classes, what its clock counts) is left out of both.
# Both are written in the canonical form of live_page.Node.normal (attributes sorted, whitespace runs as one
# space, comments dropped) by the browser itself: parsing whole pages in Python after every action of every
# seat made this test too slow for a slow CI machine.
LIVE_AND_RELOADED_JS = """async () => {
  const strip = (root) => {
    root.querySelectorAll('[id^="pk-"]').forEach((e) => e.removeAttribute('id'));
    root.querySelectorAll('[data-pick-hint]').forEach((e) => { e.textContent = e.dataset.hintNone; });
    root.querySelectorAll('[data-ticker]').forEach((e) => { e.textContent = ''; });  // the page's clock
    [root, ...root.querySelectorAll('*')].forEach((e) => {
      e.removeAttribute('aria-pressed');
      e.classList.remove('picked', 'shown', 'htmx-settling', 'htmx-swapping', 'htmx-added', 'htmx-request');
      if (e.hasAttribute('class') && !e.classList.length) e.removeAttribute('class');
      if (e.getAttribute('style') === '') e.removeAttribute('style');
    });
    return root;
  };
  const words = (text) => text.split(/\\s+/).filter(Boolean).join(' ');
  const normal = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return words(node.data);
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const tag = node.tagName.toLowerCase();
    const attrs = [...node.attributes].map((a) => [a.name, a.value]).sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([k, v]) => ` ${k}="${words(v)}"`).join('');
    const inner = [...(tag === 'template' ? node.content : node).childNodes].map(normal).join('');
    return `<${tag}${attrs}>${inner}</${tag}>`;
  };
  const ids = ['tb-version', 'tb-body'];
  const live = ids.map((id) => normal(strip(document.getElementById(id).cloneNode(true))));
  const html = await (await fetch(location.href, {credentials: 'same-origin'})).text();
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return [live.join('\\n'), ids.map((id) => normal(strip(doc.getElementById(id)))).join('\\n')];
}"""


def assert_live_equals_reload(page, where: str) -> None:
    """The page as the socket's swaps made it equals (normalised DOM) the same page reloaded. A version's
    changes come in one message with its version, but who is connected is not versioned: a socket that just
    came or went shows on every page a moment later, so a difference gets a few chances to go away."""
    for _ in range(20):
        live, reloaded = page.evaluate(LIVE_AND_RELOADED_JS)
        if live == reloaded:
            return
        page.wait_for_timeout(150)
    raise AssertionError(f"{where}: the live page differs from a reload\n" + first_difference(live, reloaded))


def assert_named(page, where: str) -> None:
    bad = page.evaluate(UNNAMED_JS)
    assert not bad, f"controls without an accessible name on {where}: {bad}"


def choose(slug: str, controls: list[dict], rng: random.Random) -> tuple[dict, str]:
    candidates = [(c, a) for c in controls for a in c["actions"]]
    assert candidates, "the acting seat's page shows no control"
    kinds: dict[str, int] = {}
    for _, a in candidates:
        kinds[json.loads(a)["type"]] = kinds.get(json.loads(a)["type"], 0) + 1
    table = WEIGHTS.get(slug, {})
    weights = []
    for _, a in candidates:
        kind = json.loads(a)["type"]
        weights.append(table.get(kind, 1.0) / kinds[kind])
    return rng.choices(candidates, weights=weights)[0]


def do_pick(page, key: str) -> None:
    """Click what the control asks for first: one card ("inf:3") or several things ("dice:3,5,5")."""
    page.keyboard.press("Escape")
    group, _, values = key.partition(":")
    multi = page.locator(f'[data-pick^="{group}:"][data-pick-multi]').count() > 0
    if not multi:
        page.locator(f'[data-pick="{key}"]').first.click()
        return
    for value in values.split(","):
        page.locator(f'[data-pick="{group}:{value}"][aria-pressed="false"]').first.click()


def play_one(page, slug: str, rng: random.Random) -> str:
    controls = page.evaluate(CONTROLS_JS)
    control, action = choose(slug, controls, rng)
    form = page.locator("#tb-body form.act").nth(control["i"])
    if control["pick"]:
        do_pick(page, control["pick"])
    if control["select"]:
        form.locator("select").select_option(value=action)
        form.locator("button[type=submit]").click()
    else:
        button = form.locator("button")
        button.wait_for(state="visible", timeout=5000)
        button.click()
    if action in control["asks"]:  # a final move asks first: the player says yes
        page.locator("#tb-ask [data-ask=yes]").click()
    return action


# ------------------------------------------------------------------------------------------ secrets

def check_secrets(slug: str, seat_pages: list, spectator, views: list[dict]) -> None:
    """Each seat's page shows its own secrets (as its view has them) and only counts of the others'."""
    n = len(seat_pages)
    if slug == "cesar_cleopatre":
        for s, page in enumerate(seat_pages):
            g = views[s]["game"]
            opp = 1 - s
            assert page.locator("#cc-bottom .cc-hand .card.inf").count() == len(g["hand"]["influence"])
            assert page.locator("#cc-bottom .cc-hand .card.act").count() == len(g["hand"]["action"])
            hc = g["hand_counts"][opp]
            assert page.locator("#cc-top .cc-hand .card.back").count() == hc["influence"] + hc["action"]
            assert page.locator("#cc-top .cc-hand .card.inf, #cc-top .cc-hand .card.act").count() == 0
            assert page.locator("#cc-board .hidden-own").count() == sum(len(grp["mine"]) for grp in g["groups"])
            if g["missions"] is None:
                assert page.locator("#cc-bottom .card.mission:not(.back)").count() == 1
                assert page.locator("#cc-top .card.mission.back").count() == 1
        assert spectator.locator("#cc-board .hidden-own").count() == 0
        assert spectator.locator(".cc-hand .card.inf, .cc-hand .card.act").count() == 0
        assert spectator.locator(".card.mission:not(.back)").count() == 0
    elif slug == "ave_cesar":
        for s, page in enumerate(seat_pages):
            g = views[s]["game"]
            money = page.locator("[data-private=money]")
            assert money.count() == 1 and money.inner_text().split()[0] == str(g["you"]["money"])
            assert page.locator("#ac-me [data-private=hand] .rcard").count() == len(g["you"]["hand"])
            for other in range(n):
                if other == s or g["table"][other]["out"]:
                    continue
                card = page.locator("#ac-players article.ac-player").nth(other)
                assert card.locator(".rcard.back").count() == sum(g["table"][other]["hand_hidden_bands"])
        assert spectator.locator("[data-private]").count() == 0
    elif slug == "alea_iacta_est":
        for s, page in enumerate(seat_pages):
            g = views[s]["game"]
            assert page.locator("[data-private=senate] .senate-card").count() == len(g["own_senate"])
            for other in range(n):
                if other != s:
                    card = page.locator("#al-players article.al-player").nth(other)
                    assert card.locator(".senate-back").count() == g["senate_counts"][other]
                    assert card.locator(".senate-card").count() == 0
        assert spectator.locator("[data-private]").count() == 0
        assert spectator.locator(".senate-card").count() == 0


# -------------------------------------------------------------------------------------------- tests

def test_every_registered_game_is_covered():
    assert {slug for slug, _ in GAMES} == set(REGISTRY)


# A whole game of 100 to 250 clicks, each followed by the live-equals-reload check of every page: 2 to 3 minutes
# on a quick machine, more than the module's 6 on CI's slowest.
@pytest.mark.timeout(900)
@pytest.mark.parametrize("slug,players", GAMES)
def test_a_whole_seeded_game_played_by_clicking_in_every_seat_with_a_spectator(site, browser, slug, players):
    rng = random.Random(f"tabula-{slug}")
    started = time.monotonic()
    contexts = []

    def new_page(locale: str = "en-US"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return context, page

    try:
        # The lobby: create a table with a name and the player count.
        ctx0, first = new_page()
        first.goto(site.base + "/")
        assert_named(first, "the lobby")
        card = first.locator(f"#game-{slug}")
        card.get_by_label("Your name").fill(NAMES[0])
        if card.locator("select[name=players]").count():
            card.locator("select[name=players]").select_option(str(players))
        card.get_by_role("button", name="Create a table").click()
        first.wait_for_url(re.compile(r"/t/[^/?]+$"))
        table_id = first.url.rsplit("/", 1)[1]
        assert first.locator("#tb-version").get_attribute("data-status") == "lobby"
        assert_named(first, "the waiting room")
        invite = first.locator("#link-invite").input_value()
        watch = first.locator("#link-watch").input_value()
        assert "/join?key=" in invite and "/watch?key=" in watch
        first.wait_for_function("() => document.querySelector('.presence.on')")  # its socket is up
        mark(first)
        seat_pages, seat_contexts = [first], [ctx0]

        # A spectator arrives; everyone sees the count, live.
        _, spectator = new_page()
        spectator.goto(watch)
        mark(spectator)
        first.locator("#tb-spectators").get_by_text(re.compile(r"^1 spectator")).wait_for()

        # The others join through the invite link; the waiting room fills live.
        for i in range(1, players):
            context, page = new_page("fr-FR" if i == 1 else "en-US")
            page.goto(invite)
            if i == 1:  # a French browser gets the French page
                assert page.locator("html").get_attribute("lang") == "fr"
                page.get_by_label("Votre nom").fill(NAMES[i])
                page.get_by_role("button", name="Prendre place").click()
            else:
                assert_named(page, "the join page")
                page.get_by_label("Your name").fill(NAMES[i])
                page.get_by_role("button", name="Take a seat").click()
            page.wait_for_url(re.compile(rf"/t/{table_id}$"))
            mark(page)
            seat_pages.append(page)
            seat_contexts.append(context)
            if i < players - 1:
                first.locator("#tb-seats").get_by_text(NAMES[i]).wait_for()

        # Full table: the game starts by itself and every page switches to it without a reload.
        for page in seat_pages + [spectator]:
            page.wait_for_function("() => document.getElementById('tb-version').dataset.status === 'playing'")
        tokens = [seat_token(c, table_id) for c in seat_contexts]
        spectate = watch.split("key=", 1)[1]

        bound = REGISTRY[slug].action_bound(players)
        actions = 0
        version = summary(site, table_id)["version"]
        while True:
            # Every page follows every version live (no reload); each says whose turn it is.
            states = [wait_version(page, version) for page in seat_pages]
            spectator_state = wait_version(spectator, version)
            assert {st[0] for st in states} | {spectator_state[0]} == {version}
            for s, page in enumerate(seat_pages):
                assert_live_equals_reload(page, f"{slug} after {actions} actions, seat {s}")
            assert_live_equals_reload(spectator, f"{slug} after {actions} actions, the spectator")
            if spectator_state[2] == "finished":
                break
            to_act = [s for s, st in enumerate(states) if st[1]]
            assert to_act, "a running game waits for somebody"
            if actions % 10 == 0 or actions == SCREENSHOT_AT[slug]:
                # The pages agree with the server: only the seats that may act show controls.
                views = [api_view(site, table_id, token=t) for t in tokens]
                assert views[0]["game"]["to_act"] == to_act
                for s, page in enumerate(seat_pages):
                    shown = page.locator("#tb-body form.act").count()
                    assert (shown > 0) == (s in to_act), f"seat {s} shows {shown} controls, to_act {to_act}"
                    assert page.title().startswith("▶") == (s in to_act)  # "your turn" in the tab title
                assert spectator.locator("#tb-body form.act").count() == 0
            if actions == SCREENSHOT_AT[slug]:
                check_secrets(slug, seat_pages, spectator, views)
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                seat_pages[0].screenshot(path=str(ARTIFACTS / f"{slug}-seat.png"), full_page=True)
                spectator.screenshot(path=str(ARTIFACTS / f"{slug}-spectator.png"), full_page=True)
                for s, page in enumerate(seat_pages):
                    assert_named(page, f"the {slug} table (seat {s})")
                assert_named(spectator, f"the {slug} table (spectator)")
            if actions == DROP_SOCKET_AT:
                # The spectator's connection drops; it must reconnect and catch up on its own.
                spectator.evaluate("() => document.getElementById('tb')['htmx-internal-data'].webSocket.socket.close()")

            seat = rng.choice(to_act)
            play_one(seat_pages[seat], slug, rng)
            try:
                version = wait_version(seat_pages[seat], version + 1, timeout=10_000)[0]
            except Exception:
                flash = seat_pages[seat].locator("#tb-flash").inner_text()
                pytest.fail(f"the action was not taken (flash: {flash!r}); server: {site.errors()}")
            actions += 1
            assert actions <= bound

        # The end: every page shows the score breakdown and the winner, and none was reloaded.
        print(f"{slug}: {actions} actions in {time.monotonic() - started:.0f} s")
        outcome = api_view(site, table_id, spectate=spectate)["game"]["outcome"]
        names = NAMES[:players]
        for page in seat_pages + [spectator]:
            board = page.locator("#tb-outcome")
            board.wait_for(state="visible")
            assert board.locator(".breakdown").count() == players
            assert board.locator("tfoot .total").all_inner_texts() == [str(s) for s in outcome["scores"]]
            heading = board.locator("h2").inner_text()
            assert all(names[w] in heading for w in outcome["winners"])
            assert page.locator("#tb-body form.act").count() == 0
            assert_not_reloaded(page)
        assert "l'emporte" in seat_pages[1].locator("#tb-outcome h2").inner_text() or len(outcome["winners"]) > 1
        assert not site.errors(), site.errors()
    finally:
        for context in contexts:
            context.close()


def test_every_control_of_the_other_pages_has_an_accessible_name_and_the_table_works_by_keyboard(site, browser):
    from .conftest import ADMIN_TOKEN
    from .test_pages import api_view, new_full_table, play_randomly

    context = browser.new_context(locale="fr-FR")
    try:
        page = context.new_page()
        for path in ("/", "/rules/cesar_cleopatre", "/rules/ave_cesar", "/rules/alea_iacta_est", "/admin"):
            page.goto(site.base + path)
            assert page.locator("html").get_attribute("lang") == "fr"
            assert_named(page, path)
        page.get_by_label("Jeton d'administration").fill(ADMIN_TOKEN)
        page.keyboard.press("Enter")
        page.locator("table.admin-tables").wait_for()
        assert_named(page, "the admin page")

        # A César & Cléopâtre table past the setup, Cléopâtre to play: everything by keyboard.
        table_id, tokens, _ = new_full_table(site, "cesar_cleopatre")
        rng = random.Random(4)
        while api_view(site, table_id, tokens[0])[1]["game"]["phase"] == "setup":
            play_randomly(site, table_id, tokens, rng, steps=1)
        context.add_cookies([{"name": f"tabula_seat_{table_id}", "value": tokens[0], "url": site.base}])
        page.goto(f"{site.base}/t/{table_id}")
        version = page_state(page)[0]
        card = page.locator("#cc-bottom button.pick").first
        card.focus()
        page.keyboard.press("Enter")
        assert card.get_attribute("aria-pressed") == "true"
        place = page.locator("#cc-board form.act.shown button").first
        place.focus()
        page.keyboard.press("Enter")
        wait_version(page, version + 1)
        page.keyboard.press("Escape")
        assert_named(page, "the table after a move")
    finally:
        context.close()
