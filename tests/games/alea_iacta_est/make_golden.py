"""Regenerates the golden playthrough of Alea Iacta Est (tests/games/golden.py describes the file):

    .venv/bin/python tests/games/alea_iacta_est/make_golden.py

One 4-player game with the default options.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.alea_iacta_est import AleaIactaEst  # noqa: E402
from tests.games.golden import golden_lines, write  # noqa: E402

GOLDEN = pathlib.Path(__file__).with_name("golden_4p.jsonl")
PLAYERS, SEED, POLICY_SEED = 4, 20090, 7
OPTIONS = {}


def lines() -> list[str]:
    return golden_lines(AleaIactaEst(), PLAYERS, SEED, OPTIONS, POLICY_SEED)


if __name__ == "__main__":
    write(GOLDEN, lines())
