"""A live table page always equals the same page reloaded (the property of the page road).

Each game's golden playthrough and random games to their end are played through the page's forms, with
every seat and a spectator on the page's HTML websocket; after every action, each one's page, built from
its first page plus every out-of-band swap it received, equals (normalised DOM) a fresh GET of it.
"""

from __future__ import annotations

import os

import pytest

from app.pages import render
from games import REGISTRY
from tests.games.golden import GOLDENS

from .live_page import InProcessSite, play_checked

pytestmark = pytest.mark.asyncio

# At least 20 random games of each game in CI; TABULA_LIVE_GAMES to run more (or fewer) by hand. They run in
# batches, one test each, so that the suite's workers share this, its longest work (tests/run.sh runs pytest-xdist).
RANDOM_GAMES = int(os.environ.get("TABULA_LIVE_GAMES") or 20)
BATCH = 4


@pytest.fixture
async def site(tmp_path):
    async with InProcessSite(tmp_path) as running:
        yield running


@pytest.mark.parametrize("slug", sorted(GOLDENS))
async def test_golden_playthrough_live_page_equals_reload(site, slug):
    golden = GOLDENS[slug]
    await play_checked(site, slug, golden.players, golden.options, golden.seed, golden.policy_seed)


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, RANDOM_GAMES, BATCH))
@pytest.mark.parametrize("slug", sorted(REGISTRY))
async def test_random_games_live_page_equals_reload(site, slug, first):
    game = REGISTRY[slug]
    for n in range(first, min(first + BATCH, RANDOM_GAMES)):
        players = game.min_players + n % (game.max_players - game.min_players + 1)
        lang = "fr" if n % 2 else "en"
        options = {o.name: o.choices[n % len(o.choices)] for o in game.options}
        # In one game of five (at every player count), moves are taken back now and then: an undo rewrites the
        # end of the log (checked here) and makes a game longer (this test is the suite's longest).
        undo_weight = 0.2 if n % 5 == 0 else 0.0
        await play_checked(site, slug, players, options, seed=1000 + n, policy_seed=n, lang=lang,
                           undo_weight=undo_weight)


async def test_a_log_longer_than_the_page_shows_live_page_equals_reload(site, monkeypatch):
    """The log grows by its new lines and drops the lines pushed out of the page's LOG_LINES."""
    monkeypatch.setattr(render, "LOG_LINES", 4)
    golden = GOLDENS["cesar_cleopatre"]
    await play_checked(site, "cesar_cleopatre", golden.players, golden.options, golden.seed, golden.policy_seed)
