"""A compact position builder for Ave César rule tests.

    state = position(3, money=[20, 10, 10], hands={1: ["wood2"]}, senate={0: ["consul"]})

builds a consistent table: every card given to someone is taken out of its deck, everything else stays
in the decks in the setup's (seeded) order, and the table waits for `active`'s choice of action unless
`phase="event"` (then the next event, `events[0]`, is drawn and resolved at once). The events after the
given ones start with the Senate Majorities, so a turn that ends moves no money while senators are equal. `act` applies one action
through the public contract, so every generic guard runs.
"""

from __future__ import annotations

from typing import Any

from games.ave_cesar import AveCesar, components
from games.ave_cesar import rules
from games.ave_cesar.rules import CHOOSE

GAME = AveCesar()


def position(players: int = 3, *, seed: int = 1, options: dict[str, Any] | None = None, active: int = 0,
             first: int | None = None, phase: str = "choose", senators: list[int] | None = None,
             money: list[int] | None = None, hands: dict[int, list[str]] | None = None,
             known: dict[int, list[str]] | None = None, resources: dict[int, list[str]] | None = None,
             senate: dict[int, list[str]] | None = None, influence: dict[int, list[str]] | None = None,
             events: list[str] | None = None, decks: dict[int, list[str]] | None = None,
             discards: dict[int, list[str]] | None = None, senate_deck: list[str] | None = None,
             wars: int = 0) -> dict[str, Any]:
    opts = {"influence": False, "anti_bad_luck": False, **(options or {})}
    state = GAME.setup(players, seed, opts)
    n = players
    state["first"] = active if first is None else first
    state["active"] = active
    state["turn"] = 1
    state["senators"] = list(senators) if senators else [components.START_SENATORS] * n
    state["money"] = list(money) if money else [30] * n
    hands = hands or {}
    resources = resources or {}
    discards = discards or {}
    placed = {c for zone in (hands, resources, discards) for cards in zone.values() for c in cards}
    state["hands"] = [sorted(hands.get(s, [])) for s in range(n)]
    state["known"] = [sorted((known or {}).get(s, [])) for s in range(n)]
    state["resources"] = [sorted(resources.get(s, [])) for s in range(n)]
    state["discards"] = [list(discards.get(b, [])) for b in range(3)]
    if decks is not None:
        state["decks"] = [list(decks.get(b, [])) for b in range(3)]
    else:
        order = sorted(components.RESOURCES, key=lambda c: (components.RESOURCE_BAND[c], c))
        state["decks"] = [[c for c in order if components.RESOURCE_BAND[c] == b and c not in placed] for b in range(3)]
    senate = senate or {}
    state["senate"] = [sorted(senate.get(s, [])) for s in range(n)]
    rest = list(components.SENATE_DECK)
    for cards in senate.values():
        for c in cards:
            rest.remove(c)
    state["senate_deck"] = list(senate_deck) if senate_deck is not None else rest
    state["senate_discard"] = []
    state["influence"] = [sorted((influence or {}).get(s, [])) for s in range(n)]
    rest_events = list(components.EVENT_DECK)
    for e in events or []:
        rest_events.remove(e)
    # After the given events come the six Senate Majorities (no money moves while senators are equal).
    state["events"] = list(events or []) + sorted(rest_events, key=lambda e: (e != "senate_majority", e))
    state["upper_left"] = 0
    state["events_drawn"] = ["war"] * wars
    state["wars"] = wars
    for key in ("draft", "sealed", "offer", "auction", "extortion", "counters"):
        state[key] = None
    state["event"] = None
    state["log"] = []
    if phase == "event":
        state["phase"] = "event"
        rules.advance(state)
    else:
        state["phase"] = CHOOSE
    return state


def act(state: dict[str, Any], seat: int, kind: str, **args: Any) -> dict[str, Any]:
    return GAME.apply(state, seat, {"type": kind, **args})


def legal(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return GAME.legal_actions(state, seat)


def types(state: dict[str, Any], seat: int) -> set[str]:
    return {a["type"] for a in legal(state, seat)}


def keys(state: dict[str, Any]) -> list[str]:
    """The log keys so far (public and private)."""
    return [e["key"] for e in state["log"]]


def pass_all(state: dict[str, Any], kind: str) -> dict[str, Any]:
    """Every seat that must answer with `kind` (e.g. "decline_counters", "end_bids") does so, in turn."""
    while True:
        movers = [s for s in GAME.to_act(state) if {"type": kind} in legal(state, s)]
        if not movers:
            return state
        state = act(state, movers[0], kind)
