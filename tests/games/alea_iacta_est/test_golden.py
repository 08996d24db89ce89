"""The golden playthrough (STYLE 11): one seeded 4-player game, every seat's and the spectator's view at
every step. Any change in what a seat sees shows up here; after an intended change, regenerate with
`.venv/bin/python tests/games/alea_iacta_est/make_golden.py` and review the diff."""

from .make_golden import GOLDEN, golden_lines


def test_golden_playthrough_4_players_is_unchanged():
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    actual = golden_lines()
    assert len(expected) > 100, "the golden game is a whole game"
    for number, (want, got) in enumerate(zip(expected, actual)):
        assert got == want, f"golden line {number} (step {number - 1}) differs; see make_golden.py"
    assert len(actual) == len(expected)
