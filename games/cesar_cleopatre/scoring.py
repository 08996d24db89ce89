"""The final score of César & Cléopâtre (RULES 1.10), line by line in both languages."""

from __future__ import annotations

from typing import Any

from games.core import State, score_line

from .components import (
    ALL_POINTS, GROUP_INDEX, GROUP_NAMES, GROUP_SIZE, GROUPS, MAJORITY, MAJORITY_POINTS, MISSION_POINTS,
    MISSION_THRESHOLD, PATRICIAN_POINTS,
)


def score(state: State) -> dict[str, Any]:
    """RULES 1.10: 1 per patrician, +1 majority, +1 the whole group, +2 the mission (at least 3)."""
    scores = []
    breakdown = []
    for p in (0, 1):
        lines = []
        for gi, group in enumerate(GROUPS):
            n = state["won"][p][gi]
            en, fr = GROUP_NAMES[group][0], GROUP_NAMES[group][1]
            size = GROUP_SIZE[gi]
            if n:
                lines.append(score_line(f"{en}: {n} of {size}", f"{fr} : {n} sur {size}", n * PATRICIAN_POINTS))
            if n >= MAJORITY[size]:
                lines.append(score_line(f"{en}: majority", f"{fr} : majorité", MAJORITY_POINTS))
            if n == size:
                lines.append(score_line(f"{en}: all of them", f"{fr} : la totalité", ALL_POINTS))
        mission = state["missions"][p]
        en, fr = GROUP_NAMES[mission][0], GROUP_NAMES[mission][1]
        if state["won"][p][GROUP_INDEX[mission]] >= MISSION_THRESHOLD:
            lines.append(score_line(f"Secret mission achieved ({en})", f"Mission secrète réussie ({fr})",
                                    MISSION_POINTS))
        else:
            lines.append(score_line(f"Secret mission missed ({en})", f"Mission secrète manquée ({fr})", 0))
        breakdown.append(lines)
        scores.append(sum(line["points"] for line in lines))
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
