"""Regenerates the golden playthrough of Ave César (tests/games/golden.py describes the file):

    .venv/bin/python tests/games/ave_cesar/make_golden.py

One 4-player game with the Influence variant.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.ave_cesar import AveCesar  # noqa: E402
from tests.games.golden import golden_lines, write  # noqa: E402

GOLDEN = pathlib.Path(__file__).with_name("golden_4p_influence.jsonl")
PLAYERS, SEED, POLICY_SEED = 4, 20240501, 7
OPTIONS = {"influence": True, "anti_bad_luck": False}


def lines() -> list[str]:
    return golden_lines(AveCesar(), PLAYERS, SEED, OPTIONS, POLICY_SEED)


if __name__ == "__main__":
    write(GOLDEN, lines())
