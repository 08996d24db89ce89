"""A move the rules refuse reaches the page in its reader's language: the page renders the refusal's code and
arguments with the game's own text (`Game.refusal_text`), never by matching the English sentence."""

from __future__ import annotations

import json

import pytest
from markupsafe import escape

from games import REGISTRY
from games.core import IllegalAction

from .live_page import InProcessSite

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("slug", ["cesar_cleopatre", "ave_cesar", "alea_iacta_est"])
async def test_a_refusal_reaches_the_page_in_the_readers_language(tmp_path, slug):
    """The page shows the rules' refusal through the game's own text in the reader's language (its code and
    arguments, never by matching the English sentence)."""
    game = REGISTRY[slug]
    async with InProcessSite(tmp_path) as site:
        table_id, viewers = await site.table(slug, game.min_players, seed=7)
        snap = await site.service.current(table_id)
        seat = sorted(game.to_act(snap.state))[0]
        legal = game.legal_actions(snap.state, seat)
        shaped = next((a for a in legal if len(a) > 1), legal[0])
        # A legal action's shape with impossible values (or an argument it does not take).
        action = {**shaped, **{k: 999 for k in shaped if k != "type"}} if len(shaped) > 1 else {**shaped, "x": 1}
        try:
            game.apply(snap.state, seat, action)
        except IllegalAction as refused:
            expected = game.refusal_text(refused.code, refused.args, "fr", list(snap.seat_names))
            english = str(refused)
        else:
            raise AssertionError(f"{action} was not refused")
        r = await site.http.post(f"/t/{table_id}/act?lang=fr", data={"version": str(snap.version),
                                                                   "action": json.dumps(action)},
                                 headers={"HX-Request": "true",
                                          "Cookie": f"tabula_seat_{table_id}={viewers[seat].credential}"})
        assert str(escape(expected)) in r.text and expected != english, r.text
