"""The golden playthrough of Alea Iacta Est (tests/games/golden.py): one seeded 4-player game, every seat's
and the spectator's view at every step. Any change in what a seat sees shows up here; after an intended
change, regenerate with `.venv/bin/python tests/games/alea_iacta_est/make_golden.py` and review the diff."""

from __future__ import annotations

from tests.games.golden import assert_replays_to_a_finished_game, assert_unchanged

from .make_golden import GOLDEN, lines


def test_golden_playthrough_4_players_is_unchanged():
    assert_unchanged(GOLDEN, lines())


def test_golden_file_replays_to_a_finished_game():
    final = assert_replays_to_a_finished_game(GOLDEN)
    assert len(final) == 5
