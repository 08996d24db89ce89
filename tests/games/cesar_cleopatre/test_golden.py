"""The golden playthrough of César & Cléopâtre: every seat's and the spectator's view at every step of one
seeded game must stay exactly as committed (regenerate with make_golden.py and review the diff)."""

from __future__ import annotations

import json

from .make_golden import GOLDEN, VIEWERS, lines, patch

from .position import GAME


def test_golden_playthrough_is_unchanged():
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    actual = list(lines())
    assert len(actual) == len(expected), "the game took a different number of steps"
    for number, (got, want) in enumerate(zip(actual, expected)):
        assert got == want, f"line {number + 1} of {GOLDEN.name} differs (regenerate with make_golden.py)"


def test_golden_file_replays_to_full_views_of_a_finished_game():
    """The stored differences rebuild every view; the last ones are those of a finished game with an outcome."""
    rows = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    views = rows[0]["views"]
    for row in rows[1:]:
        views = [patch(old, change) for old, change in zip(views, row["views"])]
    assert len(views) == len(VIEWERS)
    assert all(v["finished"] and v["outcome"] is not None and v["game"] == GAME.slug for v in views)
    assert views[0]["outcome"] == views[2]["outcome"]
    assert views[0]["mission"] is not None and views[2]["mission"] is None
