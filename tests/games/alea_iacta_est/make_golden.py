"""Regenerates the golden playthrough of Alea Iacta Est: one seeded 4-player game driven by the reproducible
random policy of the conformance suite, with every seat's and the spectator's view at every step.

    .venv/bin/python tests/games/alea_iacta_est/make_golden.py

Format (JSON lines, compact): the first line names the game, seed and policy; then one line per step:
{"step": n, "acted": [seat, action] (null at step 0), "views": {"0": ..., "1": ..., "2": ..., "3": ...,
"spectator": ...}}. At step 0 each view is given in full; afterwards as its change from the previous step:
{"changed": {key: new value for every top-level key that changed}, "log": [entries appended to the visible
log]}. A change in what any seat sees is therefore a readable diff of this file.
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.alea_iacta_est import AleaIactaEst  # noqa: E402
from games.core import rng  # noqa: E402
from games.core.conformance import random_step  # noqa: E402

GOLDEN = pathlib.Path(__file__).with_name("golden_4p.jsonl")
PLAYERS, SEED, POLICY_SEED = 4, 20090, 7


def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def delta(before: dict, after: dict) -> dict:
    assert set(before) == set(after), "a view keeps the same keys"
    assert after["log"][:len(before["log"])] == before["log"], "a visible log only grows"
    changed = {k: v for k, v in after.items() if k != "log" and before[k] != v}
    return {"changed": changed, "log": after["log"][len(before["log"]):]}


def golden_lines() -> list[str]:
    game = AleaIactaEst()
    state = game.setup(PLAYERS, SEED, {})
    holder = {"rng": rng.seed_state(POLICY_SEED)}
    seats = [*range(PLAYERS), None]
    names = [str(s) if s is not None else "spectator" for s in seats]
    lines = [dumps({"game": game.slug, "players": PLAYERS, "seed": SEED, "policy_seed": POLICY_SEED,
                    "rules_version": game.rules_version})]
    views = [game.view(state, s) for s in seats]
    lines.append(dumps({"step": 0, "acted": None, "views": dict(zip(names, views))}))
    step = 0
    while not game.finished(state):
        seat, action = random_step(game, state, holder)
        state = game.apply(state, seat, action)
        step += 1
        new = [game.view(state, s) for s in seats]
        lines.append(dumps({"step": step, "acted": [seat, action],
                            "views": {n: delta(a, b) for n, a, b in zip(names, views, new)}}))
        views = new
    return lines


def main() -> None:
    lines = golden_lines()
    GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{GOLDEN}: {len(lines) - 1} steps, {GOLDEN.stat().st_size} bytes")


if __name__ == "__main__":
    main()
