"""The conformance suite, run over every game the site serves (REGISTRY) and the benchmark game.

How many random games each game gets in CI is set here; TABULA_CONFORMANCE_SCALE multiplies it
(e.g. 10 for a long local soak).
"""

import os

import pytest

from games import ALL_GAMES
from games.core import LANGS
from games.core.bots import LEVELS
from games.core.conformance import check_words, option_sets, run_conformance

# Random full games per game in one run of the suite, spread over player counts and option sets.
GAMES_PER_RUN = {"cesar_cleopatre": 2000, "ave_cesar": 1000, "alea_iacta_est": 1000, "bench_cards": 200}
SCALE = float(os.environ.get("TABULA_CONFORMANCE_SCALE", "1"))


def cases():
    for slug, game in ALL_GAMES.items():
        configs = [(p, o) for p in range(game.min_players, game.max_players + 1) for o in option_sets(game)]
        per_config = max(1, -(-int(GAMES_PER_RUN.get(slug, 200) * SCALE) // len(configs)))  # at least the total
        for players, options in configs:
            label = "-".join(f"{k}={v}" for k, v in options.items()) or "default"
            yield pytest.param(slug, players, options, per_config, id=f"{slug}-{players}p-{label}")


@pytest.mark.parametrize("slug,players,options,count", list(cases()))
def test_conformance(slug, players, options, count):
    game = ALL_GAMES[slug]
    report = run_conformance(game, players, options, seeds=range(1, count + 1))
    assert report.games == count
    # The leak test would pass vacuously if resampling never changed anything.
    assert report.resample_changed > 0, "resampling never changed any hidden information"


@pytest.mark.parametrize("slug", list(ALL_GAMES))
def test_every_text_of_a_game_has_every_language(slug):
    check_words(ALL_GAMES[slug])


def test_every_bot_level_has_a_label_in_every_language():
    assert all(cls.label.get(lang) for cls in LEVELS.values() for lang in LANGS)
