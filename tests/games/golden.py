"""Golden playthroughs (STYLE 11): one seeded game per engine, driven by the reproducible random policy of
the conformance suite (games.core.conformance.random_step), with every seat's and the spectator's view at
every step. A change in what any seat sees is a reviewable diff of the committed file; each game's
test_golden.py regenerates it in memory and compares, and its make_golden.py rewrites it after an intended
change.

Format (JSON lines, compact, sorted keys): the first line names the game, the player count, the seed, the
options, the policy seed and the rules version; then one line per step, {"step": n, "acted": [seat, action]
(null at step 0), "views": {"0": ..., "1": ..., "spectator": ...}}. At step 0 each view is given in full,
afterwards as its change from that viewer's previous view (see `diff`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.core import Game, rng
from games.core.conformance import random_step


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


def write(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(lines) - 2} steps, {path.stat().st_size // 1024} KiB")


def assert_unchanged(path: Path, lines: list[str]) -> None:
    expected = path.read_text(encoding="utf-8").splitlines()
    for number, (want, got) in enumerate(zip(expected, lines), start=1):
        assert got == want, f"line {number} of {path.name} differs: regenerate with make_golden.py and review the diff"
    assert len(lines) == len(expected), "the golden game took a different number of steps"


def replay(path: Path) -> tuple[dict[str, Any], list[tuple[list[Any] | None, dict[str, Any]]]]:
    """The header line, and for every step the action taken and the full views just before it; the last
    item holds the final views and no action."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    header, first, rest = rows[0], rows[1], rows[2:]
    views = first["views"]
    steps = []
    for row in rest:
        steps.append((row["acted"], views))
        views = {name: patch(views[name], change) for name, change in row["views"].items()}
    steps.append((None, views))
    return header, steps


def assert_replays_to_a_finished_game(path: Path) -> dict[str, Any]:
    """The stored changes rebuild every view; each action was legal for its seat and offered to nobody else;
    the last views are those of a finished game with an outcome. Returns the final views."""
    header, steps = replay(path)
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
