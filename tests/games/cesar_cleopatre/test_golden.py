"""The golden playthrough of César & Cléopâtre (tests/games/golden.py): every seat's and the spectator's view
at every step of one seeded game must stay exactly as committed."""

from __future__ import annotations

from tests.games.golden import assert_replays_to_a_finished_game, assert_unchanged, replay

SLUG = "cesar_cleopatre"


def test_golden_playthrough_is_unchanged():
    assert_unchanged(SLUG)


def test_golden_file_replays_to_a_finished_game_and_the_missions_stay_secret():
    final = assert_replays_to_a_finished_game(SLUG)
    assert final["0"]["outcome"] == final["1"]["outcome"] == final["spectator"]["outcome"]
    _, steps = replay(SLUG)
    for _, views in steps:
        assert views["0"]["mission"] is not None and views["spectator"]["mission"] is None
