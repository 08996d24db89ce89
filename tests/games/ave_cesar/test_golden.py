"""The golden playthrough of Ave César (tests/games/golden.py): one seeded 4-player game with the Influence
variant, every seat's and the spectator's view at every step."""

from __future__ import annotations

from tests.games.golden import assert_replays_to_a_finished_game, assert_unchanged, replay

SLUG = "ave_cesar"


def test_golden_playthrough_is_unchanged():
    assert_unchanged(SLUG)


def test_golden_file_replays_to_a_finished_game_of_the_influence_variant():
    _, steps = replay(SLUG)
    first = steps[0][1]
    assert first["0"]["options"] == {"influence": True, "anti_bad_luck": False}
    assert first["spectator"]["draft"] is not None  # the Influence variant starts with the draft
    final = assert_replays_to_a_finished_game(SLUG)
    assert all(view["outcome"]["winners"] for view in final.values())
