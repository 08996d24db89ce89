"""The table page works under the site's Content-Security-Policy, in every game: its scripts load (htmx, the
websocket extension, the page script, the `js` class), its socket connects and follows every move live, and
the browser reports no CSP violation while the seats play a few moves by clicking the page's own controls."""

from __future__ import annotations

import random
import re

import pytest

from games import REGISTRY

from .conftest import SiteServer
from .test_browser import GAMES, page_state, play_one, wait_version

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

MOVES = 6

# Reported by the page itself (an init script is added by the browser's debugging protocol, not by the
# page, so the policy does not apply to it).
WATCH_CSP = """document.addEventListener('securitypolicyviolation', (e) => {
  (window.__csp = window.__csp || []).push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});"""


def test_every_registered_game_is_covered():
    assert {slug for slug, _ in GAMES} == set(REGISTRY)


@pytest.mark.parametrize("slug,players", GAMES)
def test_the_table_page_works_under_the_csp(site: SiteServer, browser, slug, players):
    r = site.http.post("/api/tables", json={"game": slug, "players": players})
    assert r.status_code == 201, r.text
    table = r.json()
    assert "script-src 'self'" in r.headers["content-security-policy"]
    tokens = []
    for n in range(players):
        joined = site.http.post(f"/api/tables/{table['id']}/join", json={"invite": table["invite_key"],
                                                                           "name": f"P{n}"})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])

    contexts, pages, console = [], [], []
    try:
        for token in tokens:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.add_init_script(WATCH_CSP)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.on("console", lambda msg: console.append(msg.text))
            page.goto(f"{site.base}/t/{table['id']}/seat/{token}")
            csp = page.evaluate("() => document.documentElement.classList.contains('js')")
            assert csp, "the static script that marks the page as scripted did not run"
            page.wait_for_function("() => window.htmx && document.querySelector('.presence.on')")  # socket up
            pages.append(page)

        rng = random.Random(f"csp-{slug}")
        for _ in range(MOVES):
            version = page_state(pages[0])[0]
            acting = next(p for p in pages if page_state(p)[1])
            play_one(acting, slug, rng)
            for page in pages:  # every page follows live, through its websocket
                wait_version(page, version + 1)

        violations = [v for page in pages for v in page.evaluate("() => window.__csp || []")]
        assert not violations, violations
        reported = [text for text in console if "Content Security Policy" in text or "Refused to" in text]
        assert not reported, reported
    finally:
        for context in contexts:
            context.close()


def test_the_site_s_own_forms_pass_the_cross_site_check_in_a_browser(site: SiteServer, browser):
    """A real browser's form post carries the Origin the server expects under the site's Referrer-Policy
    (with `no-referrer`, Chromium sends `Origin: null`, which the check refuses)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(site.base + "/")
        card = page.locator("#game-cesar_cleopatre")
        card.get_by_label("Your name").fill("Livia")
        card.get_by_role("button", name="Create a table").click()
        page.wait_for_url(re.compile(r"/t/[^/?]+$"))
        assert page.locator("#tb-version").get_attribute("data-status") == "lobby"
    finally:
        context.close()
