"""Regenerates the golden playthrough of César & Cléopâtre (tests/games/golden.py describes the file):

    .venv/bin/python tests/games/cesar_cleopatre/make_golden.py

One 2-player game with the action pile arranged by its owners, so that the setup decisions are
recorded too.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.cesar_cleopatre import CesarCleopatre  # noqa: E402
from tests.games.golden import golden_lines, write  # noqa: E402

GOLDEN = pathlib.Path(__file__).with_name("golden.jsonl")
PLAYERS, SEED, POLICY_SEED = 2, 19970101, 31
OPTIONS = {"action_pile": "arrange"}


def lines() -> list[str]:
    return golden_lines(CesarCleopatre(), PLAYERS, SEED, OPTIONS, POLICY_SEED)


if __name__ == "__main__":
    write(GOLDEN, lines())
