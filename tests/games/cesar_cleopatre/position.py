"""A compact notation for César & Cléopâtre positions, so that rule tests start where the rule applies.

    state = position(
        groups={"aediles": "0: 2 3 3 / 1: 3 4_"},   # seat: cards; "_" marks a face-down card, P a Philosopher
        hands={0: "1 2 P", 1: "5"},                   # influence cards in hand
        actions={0: "spy veto"},                      # action cards in hand
        reserves={0: "1 2 3"},                        # influence reserve, bottom .. top
        active=0,
    )

Everything not given is empty (groups keep all their patricians unless `left` says otherwise). The result is
a state at the start of `active`'s turn, with the seats' knowledge of each other set to the public counts,
so resample and the knowledge checks work on it as on a real game. Seat 0 is Cléopâtre, seat 1 César.

The state keeps influence cards as strings of digits (components.py); `group`, `hand`, `reserve` and `discards`
read them back as lists of values for the assertions.
"""

from __future__ import annotations

from typing import Any

from games.cesar_cleopatre import CesarCleopatre
from games.cesar_cleopatre.components import GROUP_INDEX, GROUPS, cards_of, values_of
from games.cesar_cleopatre.rules import fresh_turn
from games.cesar_cleopatre.view import public_knowledge
from games.core import clone

GAME = CesarCleopatre()


def cards(text: str) -> list[int]:
    """ "1 2 P" -> [1, 2, 0] (P is a Philosopher, value 0)."""
    return [0 if c == "P" else int(c) for c in text.split()]


def group_cards(text: str) -> tuple[list[list[int]], list[list[int]]]:
    """ "0: 2 3_ / 1: P" -> (up per seat, down per seat)."""
    up: list[list[int]] = [[], []]
    down: list[list[int]] = [[], []]
    for part in text.split("/"):
        if not part.strip():
            continue
        seat_text, _, rest = part.partition(":")
        seat = int(seat_text)
        for token in rest.split():
            face_down = token.endswith("_")
            value = cards(token.rstrip("_"))[0]
            (down if face_down else up)[seat].append(value)
    return [sorted(x) for x in up], [sorted(x) for x in down]


def position(groups: dict[str, str] | None = None, hands: dict[int, str] | None = None,
             actions: dict[int, str] | None = None, reserves: dict[int, str] | None = None,
             action_reserves: dict[int, str] | None = None, left: dict[str, int] | None = None,
             won: dict[int, dict[str, int]] | None = None, missions: tuple[str, str] = ("senators", "praetors"),
             vote_deck: list[str] | None = None, vote_discard: list[str] | None = None,
             vote_removed: list[str] | None = None, discards: dict[int, str] | None = None,
             active: int = 0, options: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    state = GAME.setup(2, seed, options or {})
    state["setup"] = [[], []]
    state["arrange"] = [[], []]
    state["hand"] = [cards_of(cards((hands or {}).get(p, ""))) for p in (0, 1)]
    state["hand_actions"] = [sorted((actions or {}).get(p, "").split()) for p in (0, 1)]
    state["reserve"] = ["".join(map(str, cards((reserves or {}).get(p, "")))) for p in (0, 1)]
    state["action_reserve"] = [(action_reserves or {}).get(p, "").split() for p in (0, 1)]
    state["discard"] = [cards_of(cards((discards or {}).get(p, ""))) for p in (0, 1)]
    state["action_discard"] = [[], []]
    for gi, name in enumerate(GROUPS):
        up, down = group_cards((groups or {}).get(name, ""))
        for p in (0, 1):
            state["up"][p][gi] = cards_of(up[p])
            state["down"][p][gi] = cards_of(down[p])
        if left and name in left:
            state["left"][gi] = left[name]
    state["won"] = [[(won or {}).get(p, {}).get(g, 0) for g in GROUPS] for p in (0, 1)]
    state["missions"] = list(missions)
    if vote_deck is not None:
        state["vote_deck"] = list(vote_deck)
    if vote_discard is not None:
        state["vote_discard"] = list(vote_discard)
    if vote_removed is not None:
        state["vote_removed"] = list(vote_removed)
    state["exhausted"] = sum(1 for n in state["left"] if not n)
    state["phase"] = "turn"
    state["active"] = active
    state["turn"] = 1
    state["t"] = fresh_turn()
    state["log"] = []
    state["knowledge"] = [public_knowledge(state, 1), public_knowledge(state, 0)]
    return clone(state)


def group(state: dict[str, Any], name: str) -> dict[str, Any]:
    """One group as lists: {"left": n, "up": [[seat 0's values], [seat 1's]], "down": [[...], [...]]}."""
    gi = GROUP_INDEX[name]
    return {"left": state["left"][gi],
            "up": [values_of(state["up"][p][gi]) for p in (0, 1)],
            "down": [values_of(state["down"][p][gi]) for p in (0, 1)]}


def hand(state: dict[str, Any], seat: int) -> list[int]:
    return values_of(state["hand"][seat])


def reserve(state: dict[str, Any], seat: int) -> list[int]:
    """The influence reserve, bottom .. top."""
    return values_of(state["reserve"][seat])


def discards(state: dict[str, Any]) -> list[list[int]]:
    return [values_of(state["discard"][p]) for p in (0, 1)]


def act(state: dict[str, Any], seat: int, **action: Any) -> dict[str, Any]:
    """Apply {"type": ..., **rest} through the public contract (so every guard runs)."""
    return GAME.apply(state, seat, action)


def play_all(state: dict[str, Any], *steps: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    for seat, action in steps:
        state = GAME.apply(state, seat, action)
    return state


def logged(state: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return [e["args"] for e in state["log"] if e["key"] == key]
