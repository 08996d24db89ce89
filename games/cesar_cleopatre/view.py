"""What each seat may know (RULINGS 0.1, 1.7): the view, built as an allow-list, and `resample`, which
redraws everything a seat cannot know.

A seat sees its hand, its own face-down cards with their values, its mission, its setup cards and, when it
arranged it, the order of its action pile; everyone sees every face-up card, every discard, the vote-card
discards, and the counts of everything else (hand sizes by kind, reserve sizes, face-down cards per group
and player, the vote deck). The Spy's player sees the opponent's hand while he chooses. At the end both
missions and every face-down card are shown (RULES 1.9.5).
"""

from __future__ import annotations

from typing import Any

from games.core import clone, log_visible, rng

from . import knowledge as kn
from .cards import GROUP_SIZE, GROUPS, SIDES
from .rules import ZONE_DOWN, State, cards_of, mission_pool, values_of

RESAMPLE_RNG_SALT = 0x5EED_C1E0


def observe(state: State, seat: int | None) -> dict[str, Any]:
    finished = state["ended"] is not None
    own = seat is not None
    up, down = state["up"], state["down"]
    groups = []
    for gi, name in enumerate(GROUPS):
        groups.append({
            "name": name,
            "size": GROUP_SIZE[gi],
            "left": state["left"][gi],
            "up": [values_of(up[0][gi]), values_of(up[1][gi])],
            "down": [len(down[0][gi]), len(down[1][gi])],
            "mine": values_of(down[seat][gi]) if own else None,
        })
    t = state["t"]
    pending = state["pending"]
    castle = state["castle"]
    phase = state["phase"]
    arranged = state["options"]["action_pile"] == "arrange"
    spying = phase == "spy" and own and seat == state["active"]
    opp = 1 - seat if own else None
    return {
        "sides": list(SIDES),
        "phase": phase,
        "active": None if phase == "setup" else state["active"],
        "turn_number": state["turn"],
        "turn_state": {
            "started": t["started"], "mode": t["mode"], "placed": t["placed"], "action": t["action"],
            "passive": t["passive"], "discarded": t["discarded"], "drawn": len(t["drew"]), "final": t["final"],
        },
        "groups": groups,
        "won": [list(state["won"][0]), list(state["won"][1])],
        "hand": {"influence": values_of(state["hand"][seat]), "action": list(state["hand_actions"][seat])}
        if own else None,
        "hand_counts": [{"influence": len(state["hand"][p]), "action": len(state["hand_actions"][p])} for p in (0, 1)],
        "reserve_counts": [{"influence": len(state["reserve"][p]), "action": len(state["action_reserve"][p])}
                           for p in (0, 1)],
        "my_action_pile": list(reversed(state["action_reserve"][seat])) if own and arranged else None,
        "discards": [{"influence": values_of(state["discard"][p]), "action": list(state["action_discard"][p])}
                     for p in (0, 1)],
        "vote_cards": {"deck": len(state["vote_deck"]), "discard": list(state["vote_discard"]),
                       "removed": list(state["vote_removed"])},
        "mission": state["missions"][seat] if own else None,
        "missions": list(state["missions"]) if finished else None,
        "setup": [{"to_place": len(state["setup"][p]), "to_arrange": len(state["arrange"][p])} for p in (0, 1)],
        "my_setup": {"to_place": values_of(state["setup"][seat]), "to_arrange": list(state["arrange"][seat])}
        if own else None,
        "pending": dict(pending) if pending else None,
        "spied_hand": {"influence": values_of(state["hand"][opp]), "action": list(state["hand_actions"][opp])}
        if spying else None,
        "castling": {
            "seat": castle["seat"],
            "groups": [GROUPS[gi] for gi in castle["groups"]],
            "left": len(castle["cards"]),
            "cards": values_of(castle["cards"]) if own and seat == castle["seat"] else None,
        } if castle else None,
        "passes": state["passes"],
        "ended": state["ended"],
        "options": dict(state["options"]),
    }


def hidden_zones(state: State, owner: int) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """The true hidden cards of `owner`, zone by zone (influence values, then action names)."""
    influence: dict[str, list[Any]] = {"hand": values_of(state["hand"][owner]),
                                       "reserve": values_of(state["reserve"][owner]),
                                       "setup": values_of(state["setup"][owner])}
    for gi, cards in enumerate(state["down"][owner]):
        influence[ZONE_DOWN[gi]] = values_of(cards)
    if state["castle"] and state["castle"]["seat"] == owner:
        influence["castle"] = values_of(state["castle"]["cards"])
    action = {"hand": state["hand_actions"][owner], "reserve": state["action_reserve"][owner],
              "arrange": state["arrange"][owner]}
    return influence, action


def public_knowledge(state: State, owner: int) -> dict[str, list[kn.Pool]]:
    """What a spectator knows of `owner`'s hidden cards: their multiset (his whole deck minus his face-up
    cards and discards, all public) and how many sit in each zone. One pool per kind of card."""
    out = {}
    for kind, zones in zip(("influence", "action"), hidden_zones(state, owner)):
        cards = sorted(c for cards in zones.values() for c in cards)
        out[kind] = [{"cards": cards, "at": {z: len(c) for z, c in zones.items() if c}}] if cards else []
    return out


def resample(state: State, seat: int | None, seed: int) -> State:
    """A state `seat` cannot tell apart from `state`, with everything it cannot know drawn anew from `seed`:
    the opponent's hand, reserves, face-down cards, setup cards, action pile and mission (for a spectator:
    both players'), the order of the seat's own reserves (unknown to it unless it arranged its action pile),
    the vote deck order and the PRNG. The opponent's cards are dealt from the seat's knowledge pools, so the
    result agrees with everything the seat has seen (knowledge.py). Log entries the seat cannot see are
    dropped; the others are shared with `state` (log entries are never changed once written)."""
    light = dict(state)
    light["log"] = []
    new = clone(light)
    holder = {"rng": rng.seed_state(seed)}
    arranged = new["options"]["action_pile"] == "arrange"
    if seat is None:
        # A spectator knows only the public counts; the seats' knowledge in the new world is the same.
        public = [public_knowledge(new, 0), public_knowledge(new, 1)]
        new["knowledge"] = [clone(public[1]), clone(public[0])]
    for owner in (0, 1):
        if owner == seat:
            reserve = sorted(new["reserve"][owner])
            rng.shuffle(holder, reserve)
            new["reserve"][owner] = "".join(reserve)
            if not arranged:
                pile = sorted(new["action_reserve"][owner])
                rng.shuffle(holder, pile)
                new["action_reserve"][owner] = pile
            continue
        pools = public[owner] if seat is None else new["knowledge"][seat]
        zones = kn.deal(pools["influence"], holder)
        new["hand"][owner] = cards_of(zones.get("hand", ()))
        new["reserve"][owner] = "".join(map(str, zones.get("reserve", ())))  # in dealing order
        new["setup"][owner] = cards_of(zones.get("setup", ()))
        for gi in range(len(GROUPS)):
            new["down"][owner][gi] = cards_of(zones.get(ZONE_DOWN[gi], ()))
        if new["castle"] and new["castle"]["seat"] == owner:
            new["castle"]["cards"] = cards_of(zones.get("castle", ()))
        zones = kn.deal(pools["action"], holder)
        new["hand_actions"][owner] = sorted(zones.get("hand", []))
        new["action_reserve"][owner] = zones.get("reserve", [])
        new["arrange"][owner] = sorted(zones.get("arrange", []))
    if new["ended"] is None:  # at the end both missions are shown
        known = [q for q in (0, 1) if q == seat]
        missions = mission_pool(new, known)
        rng.shuffle(holder, missions)
        for q in (0, 1):
            if q != seat:
                new["missions"][q] = missions.pop()
    deck = sorted(new["vote_deck"])
    rng.shuffle(holder, deck)
    new["vote_deck"] = deck
    new["log"] = [e for e in state["log"] if log_visible(e, seat)]
    new["rng"] = rng.seed_state(seed ^ RESAMPLE_RNG_SALT)
    return new
