"""The golden playthrough of Alea Iacta Est (tests/games/golden.py): one seeded 4-player game, every seat's
and the spectator's view at every step. Any change in what a seat sees shows up here."""

from __future__ import annotations

from tests.games.golden import assert_replays_to_a_finished_game, assert_unchanged

SLUG = "alea_iacta_est"


def test_golden_playthrough_4_players_is_unchanged():
    assert_unchanged(SLUG)


def test_golden_file_replays_to_a_finished_game():
    final = assert_replays_to_a_finished_game(SLUG)
    assert len(final) == 5
