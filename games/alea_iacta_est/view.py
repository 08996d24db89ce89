"""The game's part of a seat's view, built as an allow-list (RULINGS 0.1, 0.4, 3.5.4).

Public: the round, the turn, the roll, every die on every building, chips, revealed and won provinces
and patricians, kept Fortuna tiles (face up), and every count (piles, face-down Fortuna tiles, Senate
cards in hand, cards in the offer). Private to `seat`: its own face-down Fortuna tiles, its own Senate
cards, and the Senate cards it is being offered. The piles' orders and contents are never shown.
"""

from __future__ import annotations

from typing import Any

from games.core import State

from .cards import SETUP


def observe(state: State, seat: int | None) -> dict[str, Any]:
    n = state["players"]
    conf = SETUP[n]
    holder = state["senate_holder"]
    phase = state["phase"]
    return {
        "round": state["round"],
        "rounds": conf["rounds"],
        "columns": conf["columns"],
        "templum_used": conf["templum"],
        "phase": phase,
        "start_seat": state["start"],
        "turn_seat": state["turn"],
        "ending": state["ending"],
        "rolled": list(state["rolled"]),
        "unplaced": list(state["unplaced"]),
        "templum": [list(t) for t in state["templum"]] if conf["templum"] else None,
        "senatus": [list(s) for s in state["senatus"]],
        "castrum": [list(c) for c in state["castrum"]],
        "forum": [list(d) for d in state["forum"]],
        "latrina": list(state["latrina"]),
        "chips": list(state["chips"]),
        "province_offer": list(state["province_offer"]),
        "patrician_offer": list(state["patrician_offer"]),
        "province_pile": len(state["province_pile"]),
        "patrician_pile": len(state["patrician_pile"]),
        "provinces": [list(p) for p in state["provinces"]],
        "patricians": [list(p) for p in state["patricians"]],
        "fortuna_pile": len(state["fortuna_pile"]),
        "fortuna_discard": len(state["fortuna_discard"]),
        "fortuna_drawn": [len(d) for d in state["fortuna_drawn"]],
        "fortuna_keep": list(state["fortuna_keep"]),
        "fortuna_kept": [list(k) for k in state["fortuna_kept"]],
        "own_fortuna": list(state["fortuna_drawn"][seat]) if seat is not None else None,
        "senate_deck": len(state["senate_deck"]) + len(state["senate_under"]),
        "senate_counts": [len(h) for h in state["senate_hands"]],
        "own_senate": list(state["senate_hands"][seat]) if seat is not None else None,
        "senate_holder": holder,
        "senate_offer_size": len(state["senate_offer"]),
        "senate_offer": list(state["senate_offer"]) if seat is not None and seat == holder else None,
        "castrum_queue": [list(c) for c in state["queue"]] if phase == "castrum" else [],
        "forum_queue": [list(d) for d in state["queue"]] if phase == "forum" else [],
    }
