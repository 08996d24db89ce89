"""Regenerates the golden playthrough of Ave César:

    .venv/bin/python tests/games/ave_cesar/make_golden.py

One seeded 4-player game with the Influence variant, driven by the reproducible random policy of the
conformance suite (games.core.conformance.random_step). Every seat's and the spectator's view is recorded
at every step, as JSON lines: the first line holds the full views, each later line the action taken and,
per viewer, what changed since that viewer's previous view (see `diff`). A change in what any seat sees is
a reviewable diff of this file; test_golden.py regenerates it in memory and compares.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any, Iterator

ROOT = pathlib.Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.ave_cesar import AveCesar  # noqa: E402
from games.core import rng  # noqa: E402
from games.core.conformance import random_step  # noqa: E402

GOLDEN = pathlib.Path(__file__).with_name("golden_4p_influence.jsonl")
PLAYERS = 4
SEED = 20240501
POLICY_SEED = 7
OPTIONS = {"influence": True, "anti_bad_luck": False}


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


def viewers(players: int) -> list[tuple[str, int | None]]:
    return [(str(s), s) for s in range(players)] + [("spectator", None)]


def playthrough() -> Iterator[dict[str, Any]]:
    """The golden records, one per step."""
    game = AveCesar()
    state = game.setup(PLAYERS, SEED, OPTIONS)
    holder = {"rng": rng.seed_state(POLICY_SEED)}
    previous: dict[str, Any] = {}
    step = 0
    action: list[Any] | None = None
    while True:
        record: dict[str, Any] = {"step": step, "action": action}
        views = {}
        for name, seat in viewers(PLAYERS):
            current = game.view(state, seat)
            if step == 0:
                views[name] = current
            else:
                views[name] = diff(previous[name], current)
            previous[name] = current
        record["views"] = views
        yield record
        if game.finished(state):
            return
        seat, chosen = random_step(game, state, holder)
        state = game.apply(state, seat, chosen)
        action = [seat, chosen]
        step += 1


def lines() -> list[str]:
    return [json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            for record in playthrough()]


def main() -> None:
    text = "\n".join(lines()) + "\n"
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN} ({len(text) / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
