"""The state of an Ave César table: its layout, setup (RULINGS §2.2) and small shared helpers.

A state is plain JSON data. Seats are numbered clockwise: the player on a seat's left is seat + 1.

    players, rng, log, step        the contract's keys; `step` counts applied actions
    options                        {"influence": bool, "anti_bad_luck": bool}
    first, active, turn            the first player (random), the player whose turn it is, the turn number
    senators, money, out, out_at   per seat; money is hidden (each seat sees only its own)
    hands, known                   per seat: face-down resource cards, and those of them the table knows
                                   (a face-up card that went to a hand after an Extortion)
    resources, senate, influence   per seat: face-up resource cards, Senate cards, influence cards
    decks, deck_known, discards    the three resource decks (index 0 = ● values 1-3), whether a deck's
                                   content is public (it was rebuilt from public discards), their discards
    senate_deck, senate_discard    the Senate deck and its used cards
    events, upper_left, events_drawn, wars
                                   the event deck (top first), how many of its top cards are still the
                                   upper pile of the anti-bad-luck variant, the events drawn, Wars drawn
    phase, event                   what is being decided now; the event being resolved
    draft, sealed, offer, auction, extortion, counters
                                   the data of the phase under way (None otherwise)
    end                            None, or why the game ended ("war" or "last_standing")
"""

from __future__ import annotations

from typing import Any

from games.core import State, log_entry, rng

from . import data

# Phases. TURN_PHASES belong to the active player's action: if he leaves the game, his turn ends.
DRAFT = "draft"
EVENT = "event"
SEALED = "sealed_bid"
OFFER = "new_senator"
CHOOSE = "choose_action"
BIDDING = "auction_bidding"
SETTLING = "auction_settling"
PREFECTS = "prefects"
EXTORT_TARGET = "extortion_target"
EXTORT_PRICE = "extortion_price"
EXTORT_ANSWER = "extortion_answer"
COUNTERS_JOIN = "counters_join"
COUNTERS = "counters"
GOVERNOR_VALUE = "governor_value"
OVER = "over"
TURN_PHASES = frozenset({CHOOSE, BIDDING, SETTLING, PREFECTS, EXTORT_TARGET, EXTORT_PRICE, EXTORT_ANSWER,
                         COUNTERS_JOIN, COUNTERS, GOVERNOR_VALUE})


def log(state: State, key: str, to: list[int] | None = None, **args: Any) -> None:
    state["log"].append(log_entry(key, to=to, **args))


def card_args(card: str) -> dict[str, str]:
    """A card in a log entry: its id, put in words in the reader's language by AveCesar.render_log."""
    return {"card": card}


def cards_args(cards: list[str]) -> dict[str, list[str]]:
    return {"cards": list(cards)}


def living(state: State) -> list[int]:
    return [s for s in range(state["players"]) if not state["out"][s]]


def clockwise(state: State, start: int, include_start: bool = True) -> list[int]:
    """The seats still in the game, clockwise from `start` (itself first if included)."""
    n = state["players"]
    first = 0 if include_start else 1
    return [(start + k) % n for k in range(first, n) if not state["out"][(start + k) % n]]


def has_influence(state: State, seat: int, card: str) -> bool:
    return card in state["influence"][seat]


def build_events(state: State, anti_bad_luck: bool) -> tuple[list[str], int]:
    """The shuffled event deck, top first, and the size of its upper pile (anti-bad-luck variant, 2.4)."""
    if not anti_bad_luck:
        deck = list(data.EVENT_DECK)
        rng.shuffle(state, deck)
        return deck, 0
    others = [e for e in data.EVENT_DECK if e != "war"]
    rng.shuffle(state, others)
    piles = []
    taken = 0
    for size, wars in data.ANTI_BAD_LUCK_PILES:
        pile = others[taken:taken + size] + ["war"] * wars
        taken += size
        rng.shuffle(state, pile)
        piles.append(pile)
    upper = piles[0]
    return [card for pile in piles for card in pile], len(upper)


def new_state(players: int, rng_state: int, options: dict[str, Any]) -> State:
    """Setup, RULINGS 2.2 (the first turn, or the influence draft, is opened by the rules module)."""
    state: State = {"players": players, "rng": rng_state, "log": [], "step": 0, "options": dict(options)}
    first = rng.below(state, players)  # 2.2.4: the first player is chosen at random
    decks = []
    for band in range(3):
        deck = list(data.DECKS[band])
        rng.shuffle(state, deck)
        decks.append(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat in range(players):  # 2.2.2: one card of each deck, face down
        for band in range(3):
            hands[seat].append(decks[band].pop(0))
        hands[seat].sort()
    senate_deck = list(data.SENATE_DECK)
    rng.shuffle(state, senate_deck)
    events, upper = build_events(state, options["anti_bad_luck"])
    money = [0] * players
    for k in range(players):  # 2.2.4: 10, 13, 16, 19, 22 clockwise from the first player
        money[(first + k) % players] = data.START_MONEY[k]
    state.update({
        "first": first, "active": first, "turn": 0,
        "senators": [data.START_SENATORS] * players, "money": money,
        "out": [False] * players, "out_at": [None] * players,
        "hands": hands, "known": [[] for _ in range(players)],
        "resources": [[] for _ in range(players)], "senate": [[] for _ in range(players)],
        "influence": [[] for _ in range(players)],
        "decks": decks, "deck_known": [False, False, False], "discards": [[], [], []],
        "senate_deck": senate_deck, "senate_discard": [],
        "events": events, "upper_left": upper, "events_drawn": [], "wars": 0,
        "phase": EVENT, "event": None,
        "draft": None, "sealed": None, "offer": None, "auction": None, "extortion": None, "counters": None,
        "end": None,
    })
    log(state, "first_player", seat=first)
    for seat in range(players):
        log(state, "dealt", to=[seat], **cards_args(hands[seat]))
        log(state, "start_money", to=[seat], amount=money[seat])
    if options["influence"]:
        # 2.2.5: players + 1 random influence cards; the player to the right of the first player chooses
        # first, then counter-clockwise (the first player chooses last).
        pool = list(data.INFLUENCE)
        rng.shuffle(state, pool)
        offer = sorted(pool[:players + 1])
        order = [(first - 1 - k) % players for k in range(players)]
        state["draft"] = {"offer": offer, "order": order}
        state["phase"] = DRAFT
        log(state, "draft_offer", **cards_args(offer))
    return state
