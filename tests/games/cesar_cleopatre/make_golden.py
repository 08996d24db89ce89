"""Regenerates the golden playthrough of César & Cléopâtre:

    .venv/bin/python tests/games/cesar_cleopatre/make_golden.py

One seeded game (the action pile arranged by its owners, so that the setup decisions are recorded too),
driven by the reproducible random policy of the conformance suite (games.core.conformance.random_step).
Every seat's and the spectator's view is recorded at every step, as JSON lines: the first line holds the
full views, each later line the seat and action taken and, per viewer (seat 0, seat 1, spectator), what
changed since that viewer's previous view (see `diff`). A change in what any seat sees is a reviewable diff
of this file; test_golden.py regenerates it in memory and compares.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any, Iterator

ROOT = pathlib.Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.cesar_cleopatre import CesarCleopatre  # noqa: E402
from games.core import rng  # noqa: E402
from games.core.conformance import random_step  # noqa: E402

GOLDEN = pathlib.Path(__file__).with_name("golden.jsonl")
SEED = 19970101
POLICY_SEED = 31
OPTIONS = {"action_pile": "arrange"}
VIEWERS = (0, 1, None)


def diff(old: Any, new: Any) -> dict[str, Any]:
    """What changed from `old` to `new`, compactly: {"~": {key: change}} for a dict with the same keys,
    {"+": [items]} for a list that only grew at its end (the log), {"=": value} for anything else."""
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        return {"~": {k: diff(old[k], new[k]) for k in new if old[k] != new[k]}}
    if isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and new[:len(old)] == old:
        return {"+": new[len(old):]}
    return {"=": new}


def patch(old: Any, change: dict[str, Any]) -> Any:
    """The inverse of `diff`: patch(old, diff(old, new)) == new."""
    if "~" in change:
        return {**old, **{k: patch(old[k], c) for k, c in change["~"].items()}}
    if "+" in change:
        return old + change["+"]
    return change["="]


def lines() -> Iterator[str]:
    game = CesarCleopatre()
    state = game.setup(2, SEED, OPTIONS)
    holder = {"rng": rng.seed_state(POLICY_SEED)}
    views = [game.view(state, v) for v in VIEWERS]
    yield dump({"seed": SEED, "policy_seed": POLICY_SEED, "options": OPTIONS, "views": views})
    step = 0
    while not game.finished(state):
        seat, action = random_step(game, state, holder)
        state = game.apply(state, seat, action)
        step += 1
        new = [game.view(state, v) for v in VIEWERS]
        yield dump({"step": step, "seat": seat, "action": action,
                    "views": [diff(old, view) for old, view in zip(views, new)]})
        views = new


def dump(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main() -> None:
    text = "\n".join(lines()) + "\n"
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN} ({len(text.splitlines())} lines, {len(text.encode()) // 1024} KiB)")


if __name__ == "__main__":
    main()
