"""End-of-game scoring (RULES 3.9 and the reconstructed Senate cards of 3.10).

`score_lines` scores one player for a given assignment of patricians to provinces, line by line.
`best_assignment` finds the assignment that maximises that score (RULES 3.9.6), and among equal scores
the one that leaves the most patrician value unplaced, which is the tiebreak (3.9.7). The search is exact:
with the Senate card effects of components.py the score splits into a constant, a gain per placed patrician, a
bonus per peopled province and a bonus per province holding a couple, so each colour can be solved on
its own for each colour the joker may take (the tests compare it with brute force).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core import LANGS, State, Text, fill, score_line

from .components import (
    COLOUR_KEYS, JOKER, MAN, PATRICIAN_INFO, PROVINCE_INFO, SENATE_CARD, SENATE_ORDER,
    patrician_label, province_label, sort_patricians, sort_provinces,
)

Assignment = dict[str, list[str]]  # province id -> patrician ids placed there (at most one man, one woman)


def line(templates: Text, points: int, part: str, **args: Any) -> dict[str, Any]:
    """A breakdown line (games.core.score_line) tagged with the part of the score it belongs to."""
    return {**score_line(fill(templates, **args), points), "part": part}


def valid_assignment(provinces: list[str], patricians: list[str], assignment: Assignment) -> bool:
    """RULES 3.9.1: at most one man and one woman per province, of the province's colour; the joker holds
    a man and a woman of any one colour; each patrician in at most one province."""
    seen: set[str] = set()
    for pid, people in assignment.items():
        if pid not in provinces or len(people) > 2:
            return False
        colour = PROVINCE_INFO[pid][0]
        genders = [PATRICIAN_INFO[p][1] for p in people]
        if len(set(genders)) != len(genders):
            return False
        colours = {PATRICIAN_INFO[p][0] for p in people}
        if len(colours) > 1 or (colour is not None and colours and colours != {colour}):
            return False
        for p in people:
            if p in seen or p not in patricians:
                return False
            seen.add(p)
    return True


def card_points(card: str, first_of_kind: bool, ctx: dict[str, Any]) -> int:
    """The points one Senate card scores (RULES 3.10, reconstructed). `ctx` holds the player's figures."""
    info = SENATE_CARD[card]
    effect, points, param = info["effect"], info["points"], info["param"]
    if effect == "full_province":
        return points * ctx["couples"]
    if effect == "empty_face_value":  # restores the lost point of each empty province; a second copy adds nothing
        return ctx["empty"] if first_of_kind else 0
    if effect == "unplaced_patrician":
        return points * ctx["unplaced"]
    if effect == "fortuna_tile":
        return points * ctx["fortuna"]
    if effect == "chips_full":  # every chip counts instead of every pair; a second copy adds nothing
        return ctx["chips"] - ctx["chips"] // 2 if first_of_kind else 0
    if effect == "most_provinces":
        return points if ctx["provinces"] >= ctx["most_provinces"] else 0
    if effect == "most_patricians":
        return points if ctx["patricians"] >= ctx["most_patricians"] else 0
    if effect == "province_colours":
        return points * ctx["colours"]
    if effect == "province_value":
        return points * sum(1 for v in ctx["province_values"] if v == param)
    if effect == "placed_women":
        return points * ctx["women"]
    if effect == "placed_men":
        return points * ctx["men"]
    if effect == "low_province_peopled":
        return points * sum(1 for v in ctx["peopled_values"] if v in param)
    if effect == "flat":
        return points
    raise ValueError(f"unknown Senate card effect {effect!r}")


def score_lines(provinces: list[str], patricians: list[str], cards: list[str], fortuna: list[int],
                chips: int, assignment: Assignment, most_provinces: int, most_patricians: int
                ) -> list[dict[str, Any]]:
    """One player's breakdown for a given assignment (RULES 3.9.2-3.9.4). `most_*` are the largest
    province and patrician counts at the table (for cards VI and VII)."""
    lines = []
    placed = [p for pid in assignment for p in assignment[pid]]
    for pid in sort_provinces(provinces):
        value = PROVINCE_INFO[pid][1]
        people = sort_patricians(assignment.get(pid, []))
        name = province_label(pid)
        if people:
            who = ", ".join(patrician_label(p) for p in people)
            lines.append(line({"en": "Province {name} with {who}", "fr": "Province {name} avec {who}",
                               "it": "Provincia {name} con {who}"}, value, "provinces", name=name, who=who))
        else:
            lines.append(line({"en": "Province {name}, empty (−1)", "fr": "Province {name}, vide (−1)",
                               "it": "Provincia {name}, vuota (−1)"}, value - 1, "provinces", name=name))
    if placed:
        values = " + ".join(str(PATRICIAN_INFO[p][2]) for p in sort_patricians(placed))
        lines.append(line({"en": "Patricians in provinces: {values}", "fr": "Habitants installés : {values}",
                           "it": "Patrizi nelle province: {values}"},
                          sum(PATRICIAN_INFO[p][2] for p in placed), "patricians", values=values))
    unplaced = [p for p in sort_patricians(patricians) if p not in placed]
    if unplaced:
        who = ", ".join(patrician_label(p) for p in unplaced)
        lines.append(line({"en": "Patricians without a province (0 each): {who}",
                           "fr": "Habitants sans province (0 chacun) : {who}",
                           "it": "Patrizi senza provincia (0 ciascuno): {who}"}, 0, "patricians", who=who))
    ctx = {
        "couples": sum(1 for pid in assignment if len(assignment[pid]) == 2),
        "empty": sum(1 for pid in provinces if not assignment.get(pid)),
        "unplaced": len(unplaced),
        "fortuna": len(fortuna),
        "chips": chips,
        "provinces": len(provinces), "most_provinces": most_provinces,
        "patricians": len(patricians), "most_patricians": most_patricians,
        "colours": len({PROVINCE_INFO[pid][0] for pid in provinces if pid != JOKER}),
        "province_values": [PROVINCE_INFO[pid][1] for pid in provinces if pid != JOKER],
        "peopled_values": [PROVINCE_INFO[pid][1] for pid in provinces if pid != JOKER and assignment.get(pid)],
        "women": sum(1 for p in placed if PATRICIAN_INFO[p][1] != MAN),
        "men": sum(1 for p in placed if PATRICIAN_INFO[p][1] == MAN),
    }
    seen: set[str] = set()
    for card in sorted(cards, key=SENATE_ORDER.__getitem__):
        points = card_points(card, card not in seen, ctx)
        seen.add(card)
        info = SENATE_CARD[card]
        lines.append(line({"en": "Senate card {card}: {text}", "fr": "Carte sénat {card} : {text}",
                           "it": "Carta Senato {card}: {text}"}, points, "senate", card=card,
                          text={lang: info[lang] for lang in LANGS}))
    if fortuna:
        values = " + ".join(str(v) for v in sorted(fortuna, reverse=True))
        lines.append(line({"en": "Fortuna tiles: {values}", "fr": "Jetons « faveur divine » : {values}",
                           "it": "Tessere Fortuna: {values}"}, sum(fortuna), "fortuna", values=values))
    if chips:
        lines.append(line({"en": "Repete chips: {chips} → one point per pair",
                           "fr": "Jetons « relance » : {chips} → un point par paire",
                           "it": "Gettoni Repete: {chips} → un punto ogni due"}, chips // 2, "chips", chips=chips))
    return lines


# -------------------------------------------------------------------------------- optimal assignment

def _coefficients(cards: list[str]) -> dict[str, int]:
    """How the Senate cards change the worth of placing patricians (see the module docstring)."""
    effects: dict[str, int] = {}
    for card in set(cards):
        info = SENATE_CARD[card]
        effects.setdefault(info["effect"], 0)
        effects[info["effect"]] += info["points"] * (cards.count(card) if info["effect"] not in (
            "empty_face_value", "chips_full") else 1)
    low_values = next((SENATE_CARD[c]["param"] for c in cards
                       if SENATE_CARD[c]["effect"] == "low_province_peopled"), [])
    return {
        "man": effects.get("placed_men", 0) - effects.get("unplaced_patrician", 0),
        "woman": effects.get("placed_women", 0) - effects.get("unplaced_patrician", 0),
        "peopled": 1 - min(1, effects.get("empty_face_value", 0)),
        "low": effects.get("low_province_peopled", 0),
        "low_values": low_values,
        "couple": effects.get("full_province", 0),
    }


def _solve_colour(provinces: list[str], men: list[str], women: list[str], co: dict[str, Any]
                  ) -> tuple[tuple[int, int], Assignment]:
    """Best (score part, unplaced value) and assignment for one colour's provinces and patricians."""
    def bonus(pid: str) -> int:
        value = PROVINCE_INFO[pid][1]
        return co["peopled"] + (co["low"] if pid != JOKER and value in co["low_values"] else 0)

    by_bonus = sorted(provinces, key=lambda p: (-bonus(p), -PROVINCE_INFO[p][1], p))
    men = sorted(men, key=lambda p: -PATRICIAN_INFO[p][2])
    women = sorted(women, key=lambda p: -PATRICIAN_INFO[p][2])
    n = len(provinces)
    best: tuple[int, int] | None = None
    choice = (0, 0, 0)
    for x in range(min(len(men), n) + 1):
        gain_men = sum(PATRICIAN_INFO[p][2] + co["man"] for p in men[:x])
        for y in range(min(len(women), n) + 1):
            gain_women = sum(PATRICIAN_INFO[p][2] + co["woman"] for p in women[:y])
            unplaced = sum(PATRICIAN_INFO[p][2] for p in men[x:] + women[y:])
            for z in range(max(0, x + y - n), min(x, y) + 1):
                peopled = x + y - z
                score = gain_men + gain_women + z * co["couple"] + sum(bonus(p) for p in by_bonus[:peopled])
                if best is None or (score, unplaced) > best:
                    best, choice = (score, unplaced), (x, y, z)
    x, y, z = choice
    used = sorted(by_bonus[:x + y - z], key=lambda p: (-PROVINCE_INFO[p][1], p))
    assignment: Assignment = {}
    # The z couples first, then the men alone, then the women alone; the highest patricians go to the
    # highest provinces (any split of the same counts scores the same).
    for i, pid in enumerate(used[:z]):
        assignment[pid] = [men[i], women[i]]
    for i, pid in enumerate(used[z:x]):
        assignment[pid] = [men[z + i]]
    for i, pid in enumerate(used[x:x + y - z]):
        assignment[pid] = [women[z + i]]
    assert best is not None
    return best, assignment


def best_assignment(provinces: list[str], patricians: list[str], cards: list[str]) -> Assignment:
    """RULES 3.9.6: the assignment of patricians to provinces that maximises the player's score, and among
    those the one with the highest unplaced value (3.9.7); deterministic for equal choices."""
    found = _best_assignment(tuple(provinces), tuple(patricians), tuple(cards))
    return {pid: list(people) for pid, people in found.items()}  # the caller's own copy


# The running score (`points`) asks for every seat's assignment in every reader's view at nearly every action,
# for holdings that change a few times a game: each solved once. Bounded by holdings, about 1 kB each: the
# seats of a few hundred live tables, 1 MB at most.
@lru_cache(maxsize=1024)
def _best_assignment(provinces: tuple[str, ...], patricians: tuple[str, ...], cards: tuple[str, ...]
                     ) -> Assignment:
    co = _coefficients(list(cards))
    by_colour: dict[str, tuple[list[str], list[str], list[str]]] = {c: ([], [], []) for c in COLOUR_KEYS}
    for pid in provinces:
        colour = PROVINCE_INFO[pid][0]
        if colour is not None:
            by_colour[colour][0].append(pid)
    for pid in patricians:
        colour, gender, _ = PATRICIAN_INFO[pid]
        by_colour[colour][1 if gender == MAN else 2].append(pid)
    joker_colours: list[str | None] = [None]
    if JOKER in provinces:
        joker_colours += [c for c in COLOUR_KEYS if by_colour[c][1] or by_colour[c][2]]
    plain = {c: _solve_colour(*by_colour[c], co) for c in COLOUR_KEYS}
    best: tuple[int, int] | None = None
    result: Assignment = {}
    for joker_colour in joker_colours:
        total = [0, 0]
        assignment: Assignment = {}
        for c in COLOUR_KEYS:
            if c == joker_colour:
                provs, men, women = by_colour[c]
                value, part = _solve_colour(provs + [JOKER], men, women, co)
            else:
                value, part = plain[c]
            total[0] += value[0]
            total[1] += value[1]
            assignment.update(part)
        key = (total[0], total[1])
        if best is None or key > best:
            best, result = key, assignment
    return result


def unplaced_value(patricians: list[str], assignment: Assignment) -> int:
    """RULES 3.9.7: the tiebreak, the total value of the patricians left out of the provinces."""
    placed = {p for people in assignment.values() for p in people}
    return sum(PATRICIAN_INFO[p][2] for p in patricians if p not in placed)


def score(state: State) -> dict[str, Any]:
    n = state["players"]
    most_provinces = max(len(p) for p in state["provinces"])
    most_patricians = max(len(p) for p in state["patricians"])
    scores, breakdown, tiebreak_values = [], [], []
    for s in range(n):
        provinces, patricians = state["provinces"][s], state["patricians"][s]
        cards = state["senate_hands"][s]
        assignment = best_assignment(provinces, patricians, cards)
        lines = score_lines(provinces, patricians, cards, state["fortuna_kept"][s], state["chips"][s],
                            assignment, most_provinces, most_patricians)
        breakdown.append(lines)
        scores.append(sum(line["points"] for line in lines))
        tiebreak_values.append(unplaced_value(patricians, assignment))
    top = max(scores)
    leaders = [s for s in range(n) if scores[s] == top]
    tiebreak = None
    winners = leaders
    if len(leaders) > 1:
        # RULES 3.9.7: the higher value of patricians left out of the provinces wins; then a shared win.
        best = max(tiebreak_values[s] for s in leaders)
        winners = [s for s in leaders if tiebreak_values[s] == best]
        values = ", ".join(str(tiebreak_values[s]) for s in leaders)
        shared = {"en": " The tie remains: the victory is shared.",
                  "fr": " L'égalité persiste : la victoire est partagée.",
                  "it": " La parità resta: la vittoria è condivisa."} if len(winners) > 1 else ""
        tiebreak = fill({"en": "Tie on {top} {top:point|points}, broken by the value of patricians without a "
                               "province ({values}).{shared}",
                         "fr": "Égalité à {top} {top:point|points}, départagée par la valeur des habitants sans "
                               "province ({values}).{shared}",
                         "it": "Parità a {top} {top:punto|punti}, spareggiata dal valore dei patrizi senza "
                               "provincia ({values}).{shared}"}, top=top, values=values, shared=shared)
    return {"scores": scores, "winners": winners, "breakdown": breakdown, "tiebreak": tiebreak}


def points(view: dict[str, Any]) -> list[int]:
    """The running score a view shows, counted by `score_lines` on what its reader knows: every province,
    patrician, kept Fortuna tile and chip, and its own Senate cards (the others' count at the end). At the
    end the final scores, which count every hand."""
    if view["outcome"] is not None:
        return list(view["outcome"]["scores"])
    n = view["players"]
    most_provinces = max(len(p) for p in view["provinces"])
    most_patricians = max(len(p) for p in view["patricians"])
    return [_points(tuple(view["provinces"][s]), tuple(view["patricians"][s]),
                    tuple(view["own_senate"]) if s == view["seat"] else (), tuple(view["fortuna_kept"][s]),
                    view["chips"][s], most_provinces, most_patricians) for s in range(n)]


# Every reader's page asks for every seat's points at nearly every action, for holdings that change a few
# times a game: each counted once. Bounded by holdings (a few short tuples each), as `_best_assignment`.
@lru_cache(maxsize=1024)
def _points(provinces: tuple[str, ...], patricians: tuple[str, ...], cards: tuple[str, ...],
            fortuna: tuple[int, ...], chips: int, most_provinces: int, most_patricians: int) -> int:
    lines = score_lines(list(provinces), list(patricians), list(cards), list(fortuna), chips,
                        best_assignment(list(provinces), list(patricians), list(cards)), most_provinces,
                        most_patricians)
    return sum(line["points"] for line in lines)
