"""The golden playthrough of Ave César (tests/games/golden.py): one seeded 4-player game with the Influence
variant, every seat's and the spectator's view at every step. Regenerate with
`.venv/bin/python tests/games/ave_cesar/make_golden.py` after an intended change, and review the diff."""

from __future__ import annotations

from tests.games.golden import assert_replays_to_a_finished_game, assert_unchanged, replay

from .make_golden import GOLDEN, lines


def test_golden_playthrough_is_unchanged():
    assert_unchanged(GOLDEN, lines())


def test_golden_file_replays_to_a_finished_game_of_the_influence_variant():
    _, steps = replay(GOLDEN)
    first = steps[0][1]
    assert first["0"]["options"] == {"influence": True, "anti_bad_luck": False}
    assert first["spectator"]["draft"] is not None  # the Influence variant starts with the draft
    final = assert_replays_to_a_finished_game(GOLDEN)
    assert all(view["outcome"]["winners"] for view in final.values())
