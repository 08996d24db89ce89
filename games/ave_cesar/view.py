"""What a seat may see (RULES 0.1, 0.4, 2.7), and the resample used by the leak test and by bots.

The view is built as an allow-list. Money is secret: a seat sees its own purse and nothing of anyone
else's until the game is over. Hands are secret except for the cards the whole table saw going into them
(extorted face-up cards) and the dots on their backs (which deck each hidden card came from). Sealed bids
stay secret until all are in. Deck orders are never shown.
"""

from __future__ import annotations

from typing import Any

from games.core import State, clone, fill, log_visible, reveal_line, rng

from . import components
from .rules import OVER, living

# Resample only: other players' purses are redrawn uniformly between what the table knows they must hold
# (their open bids) and that plus this spread. Not a game rule; bots must not read anything into it.
MONEY_SPREAD = 40


def _hidden_bands(state: State, seat: int) -> list[int]:
    counts = [0, 0, 0]
    known = state["known"][seat]
    for card in state["hands"][seat]:
        if card not in known:
            counts[components.RESOURCE_BAND[card]] += 1
    return counts


def observe(state: State, seat: int | None) -> dict[str, Any]:
    n = state["players"]
    over = state["phase"] == OVER
    table = []
    for s in range(n):
        table.append({
            "senators": state["senators"][s],
            "out": state["out"][s],
            "hand_size": len(state["hands"][s]),
            "hand_known": list(state["known"][s]),
            "hand_hidden_bands": _hidden_bands(state, s),
            "resources": list(state["resources"][s]),
            "senate": list(state["senate"][s]),
            "influence": list(state["influence"][s]),
        })
    view: dict[str, Any] = {
        "options": dict(state["options"]),
        "first_player": state["first"],
        "active": state["active"],
        "turn": state["turn"],
        "phase": state["phase"],
        "event": state["event"],
        "wars": state["wars"],
        "events_left": len(state["events"]),
        "upper_pile_left": state["upper_left"],
        "events_drawn": list(state["events_drawn"]),
        "markets": [{"deck": len(state["decks"][b]), "discard": list(state["discards"][b])} for b in range(3)],
        "senate_deck": len(state["senate_deck"]),
        "senate_discard": list(state["senate_discard"]),
        "table": table,
        "you": None,
        "draft": None, "sealed": None, "new_senator": None, "auction": None, "extortion": None, "counters": None,
        "end": state["end"],
        "final_money": list(state["money"]) if over else None,
        "final_hands": [list(h) for h in state["hands"]] if over else None,
    }
    if seat is not None:
        sealed = state["sealed"]
        view["you"] = {
            "money": state["money"][seat],
            "hand": list(state["hands"][seat]),
            "sealed_bid": sealed["bids"][seat] if sealed is not None else None,
        }
    if state["draft"] is not None:
        view["draft"] = {"offer": list(state["draft"]["offer"]), "picker": state["draft"]["order"][0]}
    if state["sealed"] is not None:
        sealed = state["sealed"]
        view["sealed"] = {"kind": sealed["kind"], "deficit": sealed["amount"],
                          "submitted": [s for s in living(state) if sealed["bids"][s] is not None]}
    if state["offer"] is not None:
        view["new_senator"] = {"price": state["offer"]["price"], "asked": state["offer"]["order"][0]}
    auction = state["auction"]
    if auction is not None:
        view["auction"] = {
            "lots": [{"card": lot["card"], "board": lot["board"], "bids": [list(b) for b in lot["bids"]],
                      "to": lot["to"]} for lot in auction["lots"]],
            "bidder": auction["bidders"][0] if auction["bidders"] else None,
            "merchants_used": auction["merchants_used"],
        }
    ext = state["extortion"]
    if ext is not None:
        view["extortion"] = {
            "prefects": ext["prefects"],
            "protected": list(ext["protected"]) if ext["protected"] is not None else None,
            "target": ext["queue"][0] if ext["queue"] else None,
            "waiting": list(ext["queue"][1:]),
            "card": ext["card"],
            "price": ext["price"],
        }
    counters = state["counters"]
    if counters is not None:
        sale = counters["sale"]
        view["counters"] = {
            "seat": counters["seat"],
            "asked": counters["queue"][0] if counters["seat"] is None and counters["queue"] else None,
            "joined": list(counters["joined"]),
            "consul": counters["consul"],
            "sale": None if sale is None else {
                "cards": list(sale["cards"]), "kind": sale["kind"],
                "values": [list(v) for v in sale["values"]], "todo": list(sale["todo"])},
        }
    return view


# ==================================================================================== resample

def resample(state: State, seat: int | None, seed: int) -> State:
    """A state `seat` cannot tell from `state`, built only from what `seat` knows: other players' hidden hand
    cards (each from the same deck, as the backs show), deck orders, the content of decks that were never
    seen, the event order (within the anti-bad-luck piles), other purses and sealed bids are redrawn."""
    new = {k: v for k, v in state.items()}
    new["log"] = [e for e in state["log"] if log_visible(e, seat)]
    holder = {"rng": rng.seed_state(seed)}
    new["rng"] = rng.seed_state(seed ^ 0x5EED_AC35)
    if state["phase"] == OVER:
        return _deep(new)  # everything is revealed at the end
    n = state["players"]
    hidden = [s for s in range(n) if s != seat and not state["out"][s]]
    # Hand cards the whole table has seen: those it saw go in, and the cards of a sale under way (shown while
    # the seller chooses a Governor's value, and still in his hand until the sale completes).
    shown = [set(known) for known in state["known"]]
    if state["counters"] is not None and state["counters"]["sale"] is not None:
        shown[state["counters"]["seat"]].update(state["counters"]["sale"]["cards"])
    hands = [list(h) for h in state["hands"]]
    for s in hidden:
        hands[s] = [c for c in state["hands"][s] if c in shown[s]]
    decks = []
    for band in range(3):
        pool: list[str] = []
        slots = []
        for s in hidden:
            unknown = [c for c in state["hands"][s] if c not in shown[s] and components.RESOURCE_BAND[c] == band]
            pool += unknown
            slots.append((s, len(unknown)))
        deck = list(state["decks"][band])
        if not state["deck_known"][band]:
            pool += deck  # never seen: its cards and the hidden hand cards are interchangeable
        pool.sort()
        rng.shuffle(holder, pool)
        for s, k in slots:
            hands[s] += pool[:k]
            del pool[:k]
        if state["deck_known"][band]:
            deck.sort()
            rng.shuffle(holder, deck)
        else:
            deck = pool
        decks.append(deck)
    for s in hidden:
        hands[s].sort()
    new["hands"] = hands
    new["decks"] = decks
    senate_deck = sorted(state["senate_deck"])  # its content is public (all others are face up or discarded)
    rng.shuffle(holder, senate_deck)
    new["senate_deck"] = senate_deck
    new["events"] = _resample_events(state, holder)
    money = list(state["money"])
    auction = state["auction"]
    ext = state["extortion"]
    for s in hidden:
        # What the table knows each purse holds at least: its open bids, or the price it named.
        floor = 0
        if auction is not None:
            floor = sum(a for lot in auction["lots"] if lot["to"] is None for b, a in lot["bids"] if b == s)
        if ext is not None and ext["price"] is not None and s == state["active"]:
            floor = ext["price"]
        money[s] = floor + rng.below(holder, MONEY_SPREAD + 1)
    new["money"] = money
    if state["sealed"] is not None:
        bids = list(state["sealed"]["bids"])
        for s in hidden:
            if bids[s] is not None:
                bids[s] = rng.below(holder, money[s] + 1)
        new["sealed"] = {**state["sealed"], "bids": bids}
    return _deep(new)


def _resample_events(state: State, holder: dict[str, Any]) -> list[str]:
    """The remaining events in a new order: in the anti-bad-luck variant the upper pile keeps its Wars
    (2 less those drawn) and the lower its 3, the other events being spread anew between them."""
    remaining = state["events"]
    upper = state["upper_left"]
    if not upper:
        deck = sorted(remaining)
        rng.shuffle(holder, deck)
        return deck
    # Public counts: every War drawn so far came from the upper pile.
    upper_wars = components.ANTI_BAD_LUCK_PILES[0][1] - state["wars"]
    lower_wars = components.ANTI_BAD_LUCK_PILES[1][1]
    others = sorted(e for e in remaining if e != "war")
    rng.shuffle(holder, others)
    top = others[:upper - upper_wars] + ["war"] * upper_wars
    bottom = others[upper - upper_wars:] + ["war"] * lower_wars
    top.sort()
    bottom.sort()
    rng.shuffle(holder, top)
    rng.shuffle(holder, bottom)
    return top + bottom


def _deep(state: State) -> State:
    return clone(state)


def unseen(state: State) -> list[dict[str, Any]]:
    """What no seat's view shows, for the replay of a finished game: every deck in drawing order (a seat sees
    its own money, hand and sealed bid in its view)."""
    lines = [reveal_line(fill({"en": "Market deck {n}, first drawn first", "fr": "Pioche du marché {n}, de la "
                               "première tirée", "it": "Mazzo del mercato {n}, dalla prima pescata"}, n=band + 1),
                         map(components.card_name, state["decks"][band])) for band in range(3)]
    lines.append(reveal_line({"en": "Senate deck, first drawn first", "fr": "Pioche du Sénat, de la première tirée",
                              "it": "Mazzo del Senato, dalla prima pescata"},
                             map(components.card_name, state["senate_deck"])))
    lines.append(reveal_line({"en": "Events, first drawn first", "fr": "Événements, du premier tiré",
                              "it": "Eventi, dal primo pescato"},
                             map(components.card_name, state["events"])))
    return lines
