"""The site in Italian: the lobby and the table pages speak Italian (the site's catalog and the games' own
words), with no English left in the places sampled; the log and a refusal come in Italian."""

from __future__ import annotations

import json
import re

import pytest
from markupsafe import escape

from games import REGISTRY
from games.core import IllegalAction
from games.core.conformance import random_step

from .live_page import InProcessSite

pytestmark = pytest.mark.asyncio


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


async def test_the_lobby_speaks_italian_by_query_cookie_and_browser(tmp_path):
    async with InProcessSite(tmp_path) as site:
        # Each way: what the request carries, and the cookie in the client's jar (httpx deprecates per-request
        # cookies).
        for how, cookies in (({"params": {"lang": "it"}}, {}), ({}, {"tabula_lang": "it"}),
                             ({"headers": {"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}}, {})):
            site.http.cookies.clear()
            site.http.cookies.update(cookies)
            page = (await site.http.get("/", **how)).text
            assert '<html lang="it">' in page, (how, cookies)
            for game in REGISTRY.values():
                assert str(escape(game.title["it"])) in page and str(escape(game.pitch["it"])) in page
            words = text_of(page)
            assert "Giochi" in words and "Creare un tavolo" in words and "Varianti" in words
            for english in ("Create a table", "Variants", "Open tables", "Players", "Rules", "Skip to the content"):
                assert english not in words, (how, cookies, english)
        # The header offers the three languages, each named in its own.
        assert all(f'hreflang="{code}"' in page for code in ("en", "fr", "it")) and 'aria-label="IT, Italiano"' in page


async def test_a_table_page_its_log_and_a_refusal_are_in_italian(tmp_path):
    game = REGISTRY["cesar_cleopatre"]
    async with InProcessSite(tmp_path) as site:
        table_id, viewers = await site.table("cesar_cleopatre", 2, seed=11)
        holder = {"rng": 5}
        for _ in range(8):  # a few moves, so that the log has lines of several kinds
            snap = await site.service.current(table_id)
            seat, action = random_step(game, snap.state, holder)
            await site.service.act(table_id, viewers[seat].credential, snap.version, action)
        snap = await site.service.current(table_id)
        page = await site.get_page(table_id, viewers[0], "it")
        assert '<html lang="it">' in page
        words = text_of(page)
        assert "Diario della partita" in words and "Cesare e Cleopatra" in words
        for english in ("Game log", "Your turn", "Waiting for", "Rules", "The game"):
            assert english not in words, english
        log = page[page.index('id="tb-log"'):]
        names = list(snap.seat_names)
        for entry in game.view(snap.state, 0)["log"]:
            assert str(escape(game.render_log(entry, "it", names))) in log
            assert game.render_log(entry, "it", names) != game.render_log(entry, "en", names) or \
                entry["key"] in ("turn",)
        # A move out of turn, refused in Italian.
        waiting = next(s for s in range(2) if s not in game.to_act(snap.state))
        legal = game.legal_actions(snap.state, sorted(game.to_act(snap.state))[0])
        try:
            game.apply(snap.state, waiting, legal[0])
        except IllegalAction as refused:
            expected = game.refusal_text(refused.code, refused.args, "it", names)
        r = await site.http.post(f"/t/{table_id}/act?lang=it",
                                 data={"version": str(snap.version), "action": json.dumps(legal[0])},
                                 headers={"HX-Request": "true",
                                          "Cookie": f"tabula_seat_{table_id}={viewers[waiting].credential}"})
        assert expected == "Non tocca a voi giocare." and str(escape(expected)) in r.text, r.text
