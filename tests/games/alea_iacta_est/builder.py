"""A compact position builder for the Alea Iacta Est rule tests.

`position(players, ...)` starts a real game (so every field exists and is consistent) and then overrides
only what a test names, in the rulebook's own terms: the roll of the player to act, dice on buildings,
chips, provinces and patricians on offer or won, the top of the piles. Seats are 0..players-1.
"""

from __future__ import annotations

from typing import Any

from games.alea_iacta_est import AleaIactaEst
from games.alea_iacta_est.components import DICE_PER_PLAYER

GAME = AleaIactaEst()


def position(players: int = 4, *, seed: int = 1, start: int = 0, turn: int | None = None,
             rolled: list[int] | None = None, unplaced: dict[int, int] | None = None,
             templum: dict[int, list[int]] | None = None, senatus: dict[int, list[int]] | None = None,
             castrum: dict[int, dict[int, int]] | None = None, forum: list[tuple[int, int]] | None = None,
             latrina: dict[int, int] | None = None, chips: dict[int, int] | None = None,
             fortuna_drawn: dict[int, list[int]] | None = None, fortuna_pile: list[int] | None = None,
             fortuna_discard: list[int] | None = None, senate_deck: list[str] | None = None,
             province_offer: list[str] | None = None, patrician_offer: list[str] | None = None,
             round: int | None = None) -> dict[str, Any]:
    state = GAME.setup(players, seed)
    state["log"] = []
    state["start"] = start
    if round is not None:
        state["round"] = round
    for seat, dice in (templum or {}).items():
        state["templum"][seat] = sorted(dice)
    for seat, dice in (senatus or {}).items():
        state["senatus"][seat] = sorted(dice)
    for seat, combos in (castrum or {}).items():
        for value, count in combos.items():
            state["castrum"][seat][value - 1] = count
    if forum is not None:
        state["forum"] = [[s, v] for s, v in forum]
    for seat, count in (latrina or {}).items():
        state["latrina"][seat] = count
    for seat, count in (chips or {}).items():
        state["chips"][seat] = count
    for seat, tiles in (fortuna_drawn or {}).items():
        state["fortuna_drawn"][seat] = list(tiles)
    if fortuna_pile is not None:
        state["fortuna_pile"] = list(fortuna_pile)
    if fortuna_discard is not None:
        state["fortuna_discard"] = list(fortuna_discard)
        state["fortuna_discard_by"] = [0] * len(fortuna_discard)
    if senate_deck is not None:
        state["senate_deck"] = list(senate_deck)
    # Tiles named on offer are taken out of the face-down pile, which gets the tiles they replace.
    if province_offer is not None:
        rest = state["province_offer"] + state["province_pile"]
        state["province_pile"] = [p for p in rest if p not in province_offer]
        state["province_offer"] = list(province_offer)
    if patrician_offer is not None:
        rest = state["patrician_offer"] + state["patrician_pile"]
        state["patrician_pile"] = [p for p in rest if p not in patrician_offer]
        state["patrician_offer"] = list(patrician_offer)
    # Dice not on a building nor in the Latrina are unplaced, unless a test says otherwise.
    for seat in range(players):
        placed = (len(state["templum"][seat]) + len(state["senatus"][seat]) + sum(state["castrum"][seat])
                  + sum(1 for s, _ in state["forum"] if s == seat) + state["latrina"][seat])
        state["unplaced"][seat] = (unplaced or {}).get(seat, DICE_PER_PLAYER - placed)
    state["turn"] = start if turn is None else turn
    if rolled is not None:
        state["rolled"] = sorted(rolled)
        state["unplaced"][state["turn"]] = len(rolled)
    else:
        state["rolled"] = sorted(state["rolled"])[:state["unplaced"][state["turn"]]]
    return state


def act(state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """Apply through the public contract (generic guards and legality included); a placement is followed by
    passing the dice (RULES 3.3.5), which the tests of the other rules take for granted."""
    state = GAME.apply(state, seat, action)
    if waits_for_end_turn(state, seat):
        state = GAME.apply(state, seat, {"type": "end_turn"})
    return state


def waits_for_end_turn(state: dict[str, Any], seat: int) -> bool:
    return state["phase"] == "turn" and state["turn"] == seat and not state["rolled"]


def place(building: str, *dice: int) -> dict[str, Any]:
    return {"type": "place", "building": building, "dice": sorted(dice)}


def placements(state: dict[str, Any], building: str) -> list[list[int]]:
    """The dice the player to act may legally place in `building`."""
    seat = GAME.actors(state)[0]
    return [a["dice"] for a in GAME.legal_actions(state, seat) if a["type"] == "place" and a["building"] == building]


def log_keys(state: dict[str, Any]) -> list[str]:
    return [e["key"] for e in state["log"]]


def finish_turns(state: dict[str, Any], building: str = "forum") -> dict[str, Any]:
    """Play every remaining turn of the round by placing one die in `building` (the Forum always takes one)."""
    while state["phase"] == "turn":
        seat = state["turn"]
        state = act(state, seat, place(building, state["rolled"][0]))
    return state
