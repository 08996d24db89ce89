"""The final score of César & Cléopâtre (RULES 1.10), line by line in both languages."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core import State, fill, score_line

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
        name = GROUP_NAMES[group]["many"]
        size = GROUP_SIZE[gi]
        if n:
            lines.append(score_line(fill({"en": "{group}: {n} of {size}", "fr": "{group} : {n} sur {size}",
                                          "it": "{group}: {n} su {size}"}, group=name, n=n, size=size),
                                    n * PATRICIAN_POINTS))
        if n >= MAJORITY[size]:
            lines.append(score_line(fill({"en": "{group}: majority", "fr": "{group} : majorité",
                                          "it": "{group}: maggioranza"}, group=name), MAJORITY_POINTS))
        if n == size:
            lines.append(score_line(fill({"en": "{group}: all of them", "fr": "{group} : la totalité",
                                          "it": "{group}: tutti quanti"}, group=name), ALL_POINTS))
    if mission is not None:
        name = GROUP_NAMES[mission]["many"]
        if won[GROUP_INDEX[mission]] >= MISSION_THRESHOLD:
            lines.append(score_line(fill({"en": "Secret mission achieved ({group})",
                                          "fr": "Mission secrète réussie ({group})",
                                          "it": "Missione segreta compiuta ({group})"}, group=name), MISSION_POINTS))
        else:
            lines.append(score_line(fill({"en": "Secret mission missed ({group})",
                                          "fr": "Mission secrète manquée ({group})",
                                          "it": "Missione segreta fallita ({group})"}, group=name), 0))
    return lines


def points(view: dict[str, Any]) -> list[int]:
    """The running score a view shows: the lines of `seat_lines` its reader can know (the missions once
    they are shown, at the end)."""
    missions = view["missions"] or [None, None]
    return [_points(tuple(view["won"][p]), missions[p]) for p in (0, 1)]


@lru_cache(maxsize=1024)  # every reader's page asks at nearly every action; a few hundred holdings in all
def _points(won: tuple[int, ...], mission: str | None) -> int:
    return sum(line["points"] for line in seat_lines(list(won), mission))


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
            tiebreak = fill({"en": "Equal scores; more patricians won ({most} against {least}).",
                             "fr": "Scores égaux ; plus de patriciens recrutés ({most} contre {least}).",
                             "it": "Punteggi pari; più patrizi conquistati ({most} contro {least})."},
                            most=max(count), least=min(count))
        else:
            tiebreak = {"en": "Equal scores and equal patricians: a draw.",
                        "fr": "Scores et patriciens égaux : match nul.",
                        "it": "Punteggi e patrizi pari: pareggio."}
    return {"scores": scores, "winners": winners, "breakdown": breakdown, "tiebreak": tiebreak}
