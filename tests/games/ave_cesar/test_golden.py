"""The golden playthrough: one seeded 4-player game with the Influence variant, every seat's and the
spectator's view at every step. Regenerate with `.venv/bin/python tests/games/ave_cesar/make_golden.py`
after an intended change, and review the diff."""

import json

from . import make_golden


def test_golden_playthrough_is_unchanged():
    expected = make_golden.GOLDEN.read_text(encoding="utf-8").splitlines()
    actual = make_golden.lines()
    assert len(actual) == len(expected), "the golden game has a different length: regenerate and review"
    for number, (want, got) in enumerate(zip(expected, actual)):
        assert got == want, f"golden step {number} differs: regenerate with make_golden.py and review the diff"


def test_golden_changes_rebuild_every_view_and_each_action_was_legal_for_its_seat():
    records = [json.loads(line) for line in make_golden.GOLDEN.read_text(encoding="utf-8").splitlines()]
    views = dict(records[0]["views"])
    assert set(views) == {"0", "1", "2", "3", "spectator"}
    assert views["0"]["options"] == {"influence": True, "anti_bad_luck": False}
    assert views["spectator"]["draft"] is not None  # the Influence variant starts with the draft
    for record in records[1:]:
        seat, action = record["action"]
        assert action in views[str(seat)]["legal_actions"] and seat in views["spectator"]["to_act"]
        assert views["spectator"]["legal_actions"] == []
        for name, change in record["views"].items():
            views[name] = make_golden.patch(views[name], change)
    for name, current in views.items():
        assert current["finished"] and current["outcome"]["winners"]
        assert (current["you"] is None) == (name == "spectator")


def test_golden_diff_and_patch_are_inverse():
    old = {"a": [1, 2], "b": {"c": 1, "d": 2}, "e": None}
    new = {"a": [1, 2, 3], "b": {"c": 1, "d": 5}, "e": [0]}
    change = make_golden.diff(old, new)
    assert change == {"~": {"a": {"+": [3]}, "b": {"~": {"d": {"=": 5}}}, "e": {"=": [0]}}}
    assert make_golden.patch(old, change) == new
