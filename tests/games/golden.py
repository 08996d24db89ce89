"""Golden playthroughs (STYLE 11): one seeded game per engine, driven by the reproducible random policy of
the conformance suite (games.core.conformance.random_step), with every seat's and the spectator's view at
every step. A change in what any seat sees is a reviewable diff of the committed file; each game's
test_golden.py regenerates it in memory and compares. After an intended change, rewrite them with

    .venv/bin/python tests/games/golden.py [SLUG ...]

and review the diff.

Format (JSON lines, compact, sorted keys): the first line names the game, the player count, the seed, the
options, the policy seed and the rules version; then one line per step, {"step": n, "acted": [seat, action]
(null at step 0), "views": {"0": ..., "1": ..., "spectator": ...}}. At step 0 each view is given in full,
afterwards as its change from that viewer's previous view (see `diff`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

if __name__ == "__main__":  # run as a script: the project's root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games import REGISTRY  # noqa: E402
from games.core import Game, rng  # noqa: E402
from games.core.conformance import random_step  # noqa: E402

HERE = Path(__file__).resolve().parent


class Golden(NamedTuple):
    file: str  # beside the game's tests: tests/games/<slug>/<file>
    players: int
    seed: int
    policy_seed: int
    options: dict[str, Any]


GOLDENS = {
    # The action piles arranged by their owners, so that the setup decisions are recorded too.
    "cesar_cleopatre": Golden("golden.jsonl", 2, 19970101, 31, {"action_pile": "arrange"}),
    "ave_cesar": Golden("golden_4p_influence.jsonl", 4, 20240501, 7, {"influence": True, "anti_bad_luck": False}),
    "alea_iacta_est": Golden("golden_4p.jsonl", 4, 20090, 7, {}),
}


def golden_path(slug: str) -> Path:
    return HERE / slug / GOLDENS[slug].file


def lines(slug: str) -> list[str]:
    """The golden file of a game as this code plays it."""
    g = GOLDENS[slug]
    return golden_lines(REGISTRY[slug], g.players, g.seed, g.options, g.policy_seed)


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


def viewers(players: int) -> dict[str, int | None]:
    """Each viewer's name in the file, and its seat (None: the spectator)."""
    return {**{str(s): s for s in range(players)}, "spectator": None}


def dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def golden_lines(game: Game, players: int, seed: int, options: dict[str, Any], policy_seed: int) -> list[str]:
    state = game.setup(players, seed, options)
    holder = {"rng": rng.seed_state(policy_seed)}
    seats = viewers(players)
    lines = [dumps({"game": game.slug, "players": players, "seed": seed, "options": options,
                    "policy_seed": policy_seed, "rules_version": game.rules_version})]
    views = {name: game.view(state, seat) for name, seat in seats.items()}
    lines.append(dumps({"step": 0, "acted": None, "views": views}))
    step = 0
    while not game.finished(state):
        seat, action = random_step(game, state, holder)
        state = game.apply(state, seat, action)
        step += 1
        new = {name: game.view(state, s) for name, s in seats.items()}
        lines.append(dumps({"step": step, "acted": [seat, action],
                            "views": {name: diff(views[name], new[name]) for name in seats}}))
        views = new
    return lines


def assert_unchanged(slug: str) -> None:
    path = golden_path(slug)
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = lines(slug)
    for number, (want, got) in enumerate(zip(expected, actual), start=1):
        assert got == want, f"line {number} of {path.name} differs: regenerate (tests/games/golden.py) and review"
    assert len(actual) == len(expected), "the golden game took a different number of steps"


def replay(slug: str) -> tuple[dict[str, Any], list[tuple[list[Any] | None, dict[str, Any]]]]:
    """The header line, and for every step the action taken and the full views just before it; the last
    item holds the final views and no action."""
    rows = [json.loads(line) for line in golden_path(slug).read_text(encoding="utf-8").splitlines()]
    header, first, rest = rows[0], rows[1], rows[2:]
    views = first["views"]
    steps = []
    for row in rest:
        steps.append((row["acted"], views))
        views = {name: patch(views[name], change) for name, change in row["views"].items()}
    steps.append((None, views))
    return header, steps


def assert_replays_to_a_finished_game(slug: str) -> dict[str, Any]:
    """The stored changes rebuild every view; each action was legal for its seat and offered to nobody else;
    the last views are those of a finished game with an outcome. Returns the final views."""
    header, steps = replay(slug)
    names = set(viewers(header["players"]))
    for acted, views in steps[:-1]:
        assert set(views) == names
        seat, action = acted
        assert action in views[str(seat)]["legal_actions"], f"step action {action} was not legal for seat {seat}"
        assert seat in views["spectator"]["to_act"] and views["spectator"]["legal_actions"] == []
    final = steps[-1][1]
    for name, view in final.items():
        assert view["finished"] and view["outcome"] is not None and view["game"] == header["game"]
        assert view["seat"] == (None if name == "spectator" else int(name))
    return final


def main(slugs: list[str]) -> None:
    for slug in slugs or GOLDENS:
        path = golden_path(slug)
        text = lines(slug)
        path.write_text("\n".join(text) + "\n", encoding="utf-8")
        print(f"wrote {path}: {len(text) - 2} steps, {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(sys.argv[1:])
