"""The golden files' format (tests/games/golden.py): the stored changes rebuild the views exactly."""

from __future__ import annotations

from tests.games.golden import diff, patch


def test_golden_diff_and_patch_are_inverse():
    old = {"a": [1, 2], "b": {"c": 1, "d": 2}, "e": None}
    new = {"a": [1, 2, 3], "b": {"c": 1, "d": 5}, "e": [0]}
    change = diff(old, new)
    assert change == {"~": {"a": {"+": [3]}, "b": {"~": {"d": {"=": 5}}}, "e": {"=": [0]}}}
    assert patch(old, change) == new
    assert patch(new, diff(new, old)) == old
