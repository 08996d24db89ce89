"""The final score of César & Cléopâtre (RULES 1.10), line by line in both languages."""

from __future__ import annotations

from typing import Any

from games.core import State, score_line

from .components import (
    ALL_POINTS, GROUP_INDEX, GROUP_NAMES, GROUP_SIZE, GROUPS, MAJORITY, MAJORITY_POINTS, MISSION_POINTS,
    MISSION_THRESHOLD, PATRICIAN_POINTS,
)


def seat_lines(won: list[int], mission: str | None) -> list[dict[str, Any]]:
    """One player's score lines (RULES 1.10) from the patricians won in each group and the secret mission
    (None while it is secret: its lines come at the end). Also the running score of the page."""
    lines = []
    for gi, group in enumerate(GROUPS):
        n = won[gi]
        en, fr = GROUP_NAMES[group][0], GROUP_NAMES[group][1]
        size = GROUP_SIZE[gi]
        if n:
            lines.append(score_line(f"{en}: {n} of {size}", f"{fr} : {n} sur {size}", n * PATRICIAN_POINTS))
        if n >= MAJORITY[size]:
            lines.append(score_line(f"{en}: majority", f"{fr} : majorité", MAJORITY_POINTS))
        if n == size:
            lines.append(score_line(f"{en}: all of them", f"{fr} : la totalité", ALL_POINTS))
    if mission is not None:
        en, fr = GROUP_NAMES[mission][0], GROUP_NAMES[mission][1]
        if won[GROUP_INDEX[mission]] >= MISSION_THRESHOLD:
            lines.append(score_line(f"Secret mission achieved ({en})", f"Mission secrète réussie ({fr})",
                                    MISSION_POINTS))
        else:
            lines.append(score_line(f"Secret mission missed ({en})", f"Mission secrète manquée ({fr})", 0))
    return lines


def points(view: dict[str, Any]) -> list[int]:
    """The running score a view shows: the lines of `seat_lines` its reader can know (the missions once
    they are shown, at the end)."""
    missions = view["missions"] or [None, None]
    return [sum(line["points"] for line in seat_lines(view["won"][p], missions[p])) for p in (0, 1)]


def score(state: State) -> dict[str, Any]:
    """RULES 1.10: 1 per patrician, +1 majority, +1 the whole group, +2 the mission (at least 3)."""
    breakdown = [seat_lines(state["won"][p], state["missions"][p]) for p in (0, 1)]
    scores = [sum(line["points"] for line in lines) for lines in breakdown]
    winners = [p for p in (0, 1) if scores[p] == max(scores)]
    tiebreak = None
    if len(winners) == 2 and state["options"]["tiebreak_patricians"]:  # RULES 1.10 (PROPOSED option)
        count = [sum(state["won"][p]) for p in (0, 1)]
        if count[0] != count[1]:
            winners = [0 if count[0] > count[1] else 1]
            tiebreak = {"en": f"Equal scores; more patricians won ({max(count)} against {min(count)}).",
                        "fr": f"Scores égaux ; plus de patriciens recrutés ({max(count)} contre {min(count)})."}
        else:
            tiebreak = {"en": "Equal scores and equal patricians: a draw.",
                        "fr": "Scores et patriciens égaux : match nul."}
    return {"scores": scores, "winners": winners, "breakdown": breakdown, "tiebreak": tiebreak}
