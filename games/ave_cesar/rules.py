"""Ave César's rules: who acts, what they may do, and what each action does (RULES 2).

`moves(state, seat)` lists every legal action; `play(state, seat, action)` carries one out on a private
copy and then `advance` runs every automatic step (event draws, free lots, skipped seats, end of turn)
until somebody has a decision to make.

The state is plain JSON components. Seats are numbered clockwise: the player on a seat's left is seat + 1.

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

from itertools import combinations
from typing import Any, Callable

from games.core import Action, State, copy_by_shape, log_entry, rng

from . import components

# ================================================================================== the state

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

# The state's fields by shape, for `copy_state`: lists (or dicts) of immutable items, and lists of such lists.
# The phase data (draft, sealed, offer...) are deep-copied when present.
FLAT_FIELDS = frozenset({"options", "senators", "money", "out", "out_at", "deck_known", "senate_deck",
                         "senate_discard", "events", "events_drawn"})
NESTED_FIELDS = frozenset({"hands", "known", "resources", "senate", "influence", "decks", "discards"})


def copy_state(state: State) -> State:
    """A copy that `play` may mutate (games.core.copy_by_shape; the conformance suite checks it shares nothing
    mutable)."""
    return copy_by_shape(state, FLAT_FIELDS, NESTED_FIELDS)


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
        deck = list(components.EVENT_DECK)
        rng.shuffle(state, deck)
        return deck, 0
    others = [e for e in components.EVENT_DECK if e != "war"]
    rng.shuffle(state, others)
    piles = []
    taken = 0
    for size, wars in components.ANTI_BAD_LUCK_PILES:
        pile = others[taken:taken + size] + ["war"] * wars
        taken += size
        rng.shuffle(state, pile)
        piles.append(pile)
    upper = piles[0]
    return [card for pile in piles for card in pile], len(upper)


def new_state(players: int, rng_state: int, options: dict[str, Any]) -> State:
    """Setup, RULES 2.2 (the first turn, or the influence draft, is opened by the rules module)."""
    state: State = {"players": players, "rng": rng_state, "log": [], "step": 0, "options": dict(options)}
    first = rng.below(state, players)  # 2.2.4: the first player is chosen at random
    decks = []
    for band in range(3):
        deck = list(components.DECKS[band])
        rng.shuffle(state, deck)
        decks.append(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat in range(players):  # 2.2.2: one card of each deck, face down
        for band in range(3):
            hands[seat].append(decks[band].pop(0))
        hands[seat].sort()
    senate_deck = list(components.SENATE_DECK)
    rng.shuffle(state, senate_deck)
    events, upper = build_events(state, options["anti_bad_luck"])
    money = [0] * players
    for k in range(players):  # 2.2.4: 10, 13, 16, 19, 22 clockwise from the first player
        money[(first + k) % players] = components.START_MONEY[k]
    state.update({
        "first": first, "active": first, "turn": 0,
        "senators": [components.START_SENATORS] * players, "money": money,
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
        pool = list(components.INFLUENCE)
        rng.shuffle(state, pool)
        offer = sorted(pool[:players + 1])
        order = [(first - 1 - k) % players for k in range(players)]
        state["draft"] = {"offer": offer, "order": order}
        state["phase"] = DRAFT
        log(state, "draft_offer", **cards_args(offer))
    return state


SELL_SENATOR: Action = {"type": "sell_senator"}


# ================================================================================== who acts

def actors(state: State) -> list[int]:
    phase = state["phase"]  # never OVER: the core asks only while the game runs
    if phase == DRAFT:
        return [state["draft"]["order"][0]]
    if phase == SEALED:
        bids = state["sealed"]["bids"]
        return [s for s in living(state) if bids[s] is None]
    if phase == OFFER:
        return [state["offer"]["order"][0]]
    if phase == BIDDING:
        return [state["auction"]["bidders"][0]]
    if phase == PREFECTS:
        return [state["extortion"]["prefects"]]
    if phase == EXTORT_ANSWER:
        return [state["extortion"]["queue"][0]]
    if phase == COUNTERS_JOIN:
        return [state["counters"]["queue"][0]]
    if phase in (COUNTERS, GOVERNOR_VALUE):
        return [state["counters"]["seat"]]
    return [state["active"]]  # CHOOSE, SETTLING, EXTORT_TARGET, EXTORT_PRICE


# ================================================================================== legal moves

def moves(state: State, seat: int) -> list[Action]:
    """Every legal action of `seat` (one of the actors). Selling a senator (2.8.1) is always among them."""
    out = _PHASE_MOVES[state["phase"]](state, seat)
    out.append(SELL_SENATOR)
    return out


def _draft_moves(state: State, seat: int) -> list[Action]:
    return [{"type": "draft", "card": c} for c in sorted(set(state["draft"]["offer"]))]


def _sealed_moves(state: State, seat: int) -> list[Action]:
    return [{"type": "seal_bid", "amount": x} for x in range(state["money"][seat] + 1)]


def _offer_moves(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    if state["money"][seat] >= state["offer"]["price"]:
        out.append({"type": "accept_senator"})
    out.append({"type": "decline_senator"})
    return out


def auction_possible(state: State) -> bool:
    """At least one board can turn up a card (2.6 A.7: an empty deck is rebuilt from its discards)."""
    return (any(state["decks"][b] or state["discards"][b] for b in range(3))
            or bool(state["senate_deck"] or state["senate_discard"]))


def _choose_moves(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    if auction_possible(state):
        out.append({"type": "auction"})
    out.append({"type": "extortion"})
    out.append({"type": "counters"})
    return out


def best_bid(lot: dict[str, Any]) -> int:
    return max((amount for _seat, amount in lot["bids"]), default=0)


def top_bidder(lot: dict[str, Any]) -> int | None:
    best = None
    for seat, amount in lot["bids"]:
        if best is None or amount > best[1]:
            best = (seat, amount)
    return None if best is None else best[0]


def committed(state: State, seat: int) -> int:
    """The total of `seat`'s bids on lots not yet settled (2.6 A.6: it may not exceed his cash)."""
    return sum(amount for lot in state["auction"]["lots"] if lot["to"] is None
               for s, amount in lot["bids"] if s == seat)


def _bidding_moves(state: State, seat: int) -> list[Action]:
    room = state["money"][seat] - committed(state, seat)
    out: list[Action] = []
    for i, lot in enumerate(state["auction"]["lots"]):
        if any(s == seat for s, _a in lot["bids"]):
            continue  # at most one cube per lot
        best = best_bid(lot)
        out += [{"type": "bid", "lot": i, "amount": x} for x in components.PROPOSED["bid_spaces"] if best < x <= room]
    out.append({"type": "end_bids"})
    return out


def _settling_moves(state: State, seat: int) -> list[Action]:
    auction = state["auction"]
    money = state["money"][seat]
    merchants = has_influence(state, seat, "merchants") and not auction["merchants_used"]
    out: list[Action] = []
    for i, lot in enumerate(auction["lots"]):
        if lot["to"] is not None:
            continue
        out.append({"type": "sell_lot", "lot": i})
        if money >= best_bid(lot):
            out.append({"type": "buy_lot", "lot": i})
        if merchants and money >= components.MERCHANTS_PRICE:
            out.append({"type": "merchants", "lot": i})
    return out


def face_up(state: State, seat: int) -> list[str]:
    return state["resources"][seat] + state["senate"][seat] + state["influence"][seat]


def targetable(state: State, seat: int) -> list[str]:
    """`seat`'s face-up cards an extortion may target (2.6 B.2), less the one under the Prefects (2.5)."""
    cards = face_up(state, seat)
    protected = state["extortion"]["protected"]
    if protected is not None and protected[0] == seat:
        cards = list(cards)
        cards.remove(protected[1])
    return sorted(set(cards))


def _prefects_moves(state: State, seat: int) -> list[Action]:
    cards = list(face_up(state, seat))
    cards.remove("prefects")  # the Prefects protect another card; they can still be extorted themselves
    return [{"type": "protect", "card": c} for c in sorted(set(cards))] + [{"type": "no_protection"}]


def _extort_target_moves(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    if state["money"][seat] >= components.PROPOSED["extortion_min_price"]:
        target = state["extortion"]["queue"][0]
        out += [{"type": "extort", "card": c} for c in targetable(state, target)]
    out.append({"type": "spare"})
    return out


def _extort_price_moves(state: State, seat: int) -> list[Action]:
    # The active player must be able to pay the price if the target gives the card up.
    return [{"type": "price", "amount": x}
            for x in range(components.PROPOSED["extortion_min_price"], state["money"][seat] + 1)]


def _extort_answer_moves(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    if state["money"][seat] >= state["extortion"]["price"]:
        out.append({"type": "pay"})
    out.append({"type": "give_up"})
    return out


def _join_moves(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    if state["money"][seat] >= components.COUNTERS_JOIN_FEE:
        out.append({"type": "join_counters"})
    out.append({"type": "decline_counters"})
    return out


def sellable(state: State, seat: int) -> list[str]:
    """What `seat` may put in a sale: resource cards in hand or face up, and Governors (2.3)."""
    return sorted(state["hands"][seat] + state["resources"][seat]
                  + [c for c in state["senate"][seat] if c in components.GOVERNOR_TYPE])


def sale_kind(cards: list[str]) -> str | None:
    """"type" (one resource type), "value" (one value) or None, for 3 cards where a Governor is a wild value
    of its own type (2.3). Resource cards are unique, so no 3 cards can be both."""
    res = [c for c in cards if c in components.RESOURCE_VALUE]
    types = {components.RESOURCE_TYPE[c] for c in res} | {components.GOVERNOR_TYPE[c] for c in cards if c not in res}
    if len(types) == 1:
        return "type"
    if len({components.RESOURCE_VALUE[c] for c in res}) <= 1:
        return "value"
    return None


def normal_sets(items: list[str]) -> list[list[str]]:
    """Every set of 3 that shares one type or one value (2.6 C.2), Governors counting as wild values."""
    res = [c for c in items if c in components.RESOURCE_VALUE]
    govs = [c for c in items if c in components.GOVERNOR_TYPE]
    found: set[tuple[str, ...]] = set()
    for kind in components.RESOURCE_TYPES:
        group = [c for c in res if components.RESOURCE_TYPE[c] == kind] + [g for g in govs if components.GOVERNOR_TYPE[g] == kind]
        if len(group) >= components.SET_SIZE:
            found.update(tuple(sorted(t)) for t in combinations(group, components.SET_SIZE))
    for value in components.VALUES:
        group = [c for c in res if components.RESOURCE_VALUE[c] == value] + govs
        if len(group) >= components.SET_SIZE:
            found.update(tuple(sorted(t)) for t in combinations(group, components.SET_SIZE))
    return [list(t) for t in sorted(found)]


def censor_targets(state: State, seat: int) -> list[int]:
    """2.3 Censor: a player still in with strictly more senators, and without the Praetors (2.5)."""
    mine = state["senators"][seat]
    return [t for t in living(state)
            if t != seat and state["senators"][t] > mine and not has_influence(state, t, "praetors")]


def senator_price(state: State) -> int:
    return components.CONSUL_SENATOR_PRICE if state["counters"]["consul"] else components.SENATOR_PRICE


def _counters_moves(state: State, seat: int) -> list[Action]:
    items = sellable(state, seat)
    out: list[Action] = [{"type": "sell", "cards": t} for t in normal_sets(items)]
    senate = state["senate"][seat]
    if "quaestor" in senate:
        out += [{"type": "quaestor_sale", "cards": list(t)} for t in combinations(items, components.SET_SIZE)]
    if state["money"][seat] >= senator_price(state):
        out.append({"type": "buy_senator"})
    if "consul" in senate and not state["counters"]["consul"]:  # a second Consul would change nothing
        out.append({"type": "play_consul"})
    if "censor" in senate:
        out += [{"type": "censor", "target": t} for t in censor_targets(state, seat)]
    out.append({"type": "end_counters"})
    return out


def _governor_value_moves(state: State, seat: int) -> list[Action]:
    return [{"type": "governor_value", "value": v} for v in components.VALUES]


_PHASE_MOVES: dict[str, Callable[[State, int], list[Action]]] = {
    DRAFT: _draft_moves, SEALED: _sealed_moves, OFFER: _offer_moves, CHOOSE: _choose_moves,
    BIDDING: _bidding_moves, SETTLING: _settling_moves, PREFECTS: _prefects_moves,
    EXTORT_TARGET: _extort_target_moves, EXTORT_PRICE: _extort_price_moves, EXTORT_ANSWER: _extort_answer_moves,
    COUNTERS_JOIN: _join_moves, COUNTERS: _counters_moves, GOVERNOR_VALUE: _governor_value_moves,
}


# ================================================================================== playing

def play(state: State, seat: int, action: Action) -> None:
    state["step"] += 1
    _HANDLERS[action["type"]](state, seat, action)
    advance(state)


def _sell_senator(state: State, seat: int, action: Action) -> None:
    """2.8.1: at any time, 5 from the bank for 1 senator; at 0 senators the player is out (2.8.2)."""
    state["senators"][seat] -= 1
    state["money"][seat] += components.SENATOR_SALE
    log(state, "senator_sold", seat=seat)
    if state["senators"][seat] == 0:
        eliminate(state, seat)


def keeps_undo(state: State, seat: int, action: Action, after: State) -> bool:
    """What a player may take back (RULES 2.8.5): selling a senator that does not put him out (the sale and its
    price are public) and choosing the Extortion when nobody holds the Prefects (its income is public; the
    target comes next, his own choice). Every other move turns up a card, collects a hidden bid or asks
    another seat to answer."""
    if action["type"] == "sell_senator":
        return not after["out"][seat]
    return action["type"] == "extortion"


def confirmation(state: State, seat: int, action: Action) -> str | None:
    """RULES 2.8.5: selling one's last senator puts one out of the game (2.8.2), and a sealed bid is collected
    with the others (0.3): neither can be taken back, so the page asks first."""
    if action["type"] == "sell_senator" and state["senators"][seat] == 1:
        return "ac.last_senator"
    if action["type"] == "seal_bid":
        return "ac.sealed_bid"
    return None


# ------------------------------------------------------------------------------- draft (2.2.5)

def _draft(state: State, seat: int, action: Action) -> None:
    card = action["card"]
    state["draft"]["offer"].remove(card)
    state["draft"]["order"].pop(0)
    state["influence"][seat].append(card)
    state["influence"][seat].sort()
    log(state, "drafted", seat=seat, **card_args(card))


# ------------------------------------------------------------------- sealed bids: War, Deficit (2.4)

def _seal_bid(state: State, seat: int, action: Action) -> None:
    state["sealed"]["bids"][seat] = action["amount"]
    log(state, "sealed_you", to=[seat], amount=action["amount"])


def _resolve_sealed(state: State) -> None:
    sealed = state["sealed"]
    bids = sealed["bids"]
    seats = clockwise(state, state["active"])
    war = sealed["kind"] == "war"
    totals = {}
    for s in seats:
        bonus = components.CAVALRY_BONUS if war and has_influence(state, s, "cavalry") else 0
        totals[s] = bids[s] + bonus
        if bonus:
            log(state, "bid_revealed_cavalry", seat=s, amount=bids[s], total=totals[s])
        else:
            log(state, "bid_revealed", seat=s, amount=bids[s])
        state["money"][s] -= bids[s]  # every bid goes to the bank
    log(state, "bids_to_bank")
    if war:
        best = max(totals.values())
        if best < components.PROPOSED["war_min_winning_total"]:
            log(state, "war_nobody")
            return
        for s in seats:
            if totals[s] == best:
                state["senators"][s] += 1
                log(state, "war_won", seat=s)
        return
    total = sum(bids[s] for s in seats)
    log(state, "deficit_total", total=total, amount=sealed["amount"])
    if total >= sealed["amount"]:
        best = max(bids[s] for s in seats)
        for s in seats:
            if bids[s] == best:
                state["senators"][s] += 1
                log(state, "deficit_gain", seat=s)
    else:
        worst = min(bids[s] for s in seats)
        for s in seats:
            if bids[s] == worst:
                state["senators"][s] -= 1
                log(state, "deficit_loss", seat=s)
                if state["senators"][s] == 0:
                    eliminate(state, s)


# ------------------------------------------------------------------------- New Senator (2.4)

def _accept_senator(state: State, seat: int, action: Action) -> None:
    price = state["offer"]["price"]
    state["money"][seat] -= price
    state["senators"][seat] += 1
    log(state, "offer_taken", seat=seat, price=price)
    after_event(state)


def _decline_senator(state: State, seat: int, action: Action) -> None:
    state["offer"]["order"].pop(0)


# ------------------------------------------------------------------------- the action (2.6)

def _choose_auction(state: State, seat: int, action: Action) -> None:
    """2.6 A.1: turn up the top card of each resource deck and of the Senate deck."""
    log(state, "chooses_auction", seat=seat)
    lots = []
    for band in range(3):
        if not state["decks"][band] and state["discards"][band]:
            _rebuild_deck(state, band)
        if state["decks"][band]:
            lots.append({"card": state["decks"][band].pop(0), "board": band, "bids": [], "to": None})
        else:
            log(state, "board_empty", dots=components.BAND_DOTS[band])
    if not state["senate_deck"] and state["senate_discard"]:
        deck = sorted(state["senate_discard"])
        rng.shuffle(state, deck)
        state["senate_deck"], state["senate_discard"] = deck, []
        log(state, "senate_rebuilt", count=len(deck))
    if state["senate_deck"]:
        lots.append({"card": state["senate_deck"].pop(0), "board": 3, "bids": [], "to": None})
    else:
        log(state, "senate_empty")
    log(state, "lots", **cards_args([lot["card"] for lot in lots]))
    state["auction"] = {"lots": lots, "bidders": clockwise(state, seat, include_start=False),
                        "merchants_used": False}
    state["phase"] = BIDDING


def _rebuild_deck(state: State, band: int) -> None:
    """2.6 A.7: an empty market deck is rebuilt by shuffling its own discards (public cards)."""
    deck = sorted(state["discards"][band])
    rng.shuffle(state, deck)
    state["decks"][band], state["discards"][band] = deck, []
    state["deck_known"][band] = True
    log(state, "deck_rebuilt", dots=components.BAND_DOTS[band], count=len(deck))


def _bid(state: State, seat: int, action: Action) -> None:
    lot = state["auction"]["lots"][action["lot"]]
    lot["bids"].append([seat, action["amount"]])
    log(state, "bid", seat=seat, amount=action["amount"], **card_args(lot["card"]))


def _end_bids(state: State, seat: int, action: Action) -> None:
    state["auction"]["bidders"].pop(0)
    log(state, "bids_done", seat=seat)


def _gain_card(state: State, seat: int, card: str) -> None:
    """A card bought at auction goes face up in front of its new owner (2.6 A.4)."""
    if card in components.RESOURCE_VALUE:
        state["resources"][seat].append(card)
        state["resources"][seat].sort()
    else:
        state["senate"][seat].append(card)
        state["senate"][seat].sort()


def _sell_lot(state: State, seat: int, action: Action) -> None:
    lot = state["auction"]["lots"][action["lot"]]
    buyer, price = top_bidder(lot), best_bid(lot)
    state["money"][buyer] -= price
    state["money"][seat] += price
    lot["to"] = buyer
    _gain_card(state, buyer, lot["card"])
    log(state, "lot_sold", seat=seat, buyer_seat=buyer, amount=price, **card_args(lot["card"]))


def _buy_lot(state: State, seat: int, action: Action) -> None:
    lot = state["auction"]["lots"][action["lot"]]
    bidder, price = top_bidder(lot), best_bid(lot)
    _take_lot(state, seat, lot, bidder, price)
    log(state, "lot_bought", seat=seat, bidder_seat=bidder, amount=price, **card_args(lot["card"]))


def _merchants(state: State, seat: int, action: Action) -> None:
    """2.5 Merchants: once per Auction, a lot for 1, paid to its highest bidder."""
    lot = state["auction"]["lots"][action["lot"]]
    bidder = top_bidder(lot)
    _take_lot(state, seat, lot, bidder, components.MERCHANTS_PRICE)
    state["auction"]["merchants_used"] = True
    log(state, "lot_merchants", seat=seat, bidder_seat=bidder, amount=components.MERCHANTS_PRICE,
        **card_args(lot["card"]))


def _take_lot(state: State, seat: int, lot: dict[str, Any], bidder: int, price: int) -> None:
    state["money"][seat] -= price
    state["money"][bidder] += price
    lot["to"] = seat
    _gain_card(state, seat, lot["card"])


def _choose_extortion(state: State, seat: int, action: Action) -> None:
    """2.6 B.1: 3 from the bank (8 with the Lictors); then the Prefects' window (2.5)."""
    income = components.LICTORS_EXTORTION_INCOME if has_influence(state, seat, "lictors") else components.EXTORTION_INCOME
    state["money"][seat] += income
    log(state, "chooses_extortion", seat=seat, amount=income)
    holder = next((s for s in clockwise(state, seat, include_start=False) if has_influence(state, s, "prefects")),
                  None)
    state["extortion"] = {"prefects": holder, "protected": None,
                          "queue": clockwise(state, seat, include_start=False), "card": None, "price": None}
    state["phase"] = PREFECTS if holder is not None else EXTORT_TARGET


def _protect(state: State, seat: int, action: Action) -> None:
    state["extortion"]["protected"] = [seat, action["card"]]
    state["phase"] = EXTORT_TARGET
    log(state, "prefects_protect", seat=seat, **card_args(action["card"]))


def _no_protection(state: State, seat: int, action: Action) -> None:
    state["phase"] = EXTORT_TARGET
    log(state, "prefects_none", seat=seat)


def _extort(state: State, seat: int, action: Action) -> None:
    ext = state["extortion"]
    ext["card"] = action["card"]
    state["phase"] = EXTORT_PRICE
    log(state, "extort_target", seat=seat, target_seat=ext["queue"][0], **card_args(action["card"]))


def _spare(state: State, seat: int, action: Action) -> None:
    target = state["extortion"]["queue"].pop(0)
    log(state, "extort_spared", seat=seat, target_seat=target)


def _price(state: State, seat: int, action: Action) -> None:
    state["extortion"]["price"] = action["amount"]
    state["phase"] = EXTORT_ANSWER
    log(state, "extort_price", seat=seat, amount=action["amount"])


def _settle_extortion(state: State, target: int, keeper: int) -> None:
    """2.6 B.4: a resource card goes into its owner's hand, face down (the table saw which card);
    a Senate or influence card stays face up."""
    ext = state["extortion"]
    card = ext["card"]
    if card in components.RESOURCE_VALUE:
        state["resources"][target].remove(card)
        for zone in (state["hands"][keeper], state["known"][keeper]):
            zone.append(card)
            zone.sort()
    elif keeper != target:
        zone = "senate" if card in components.SENATE_COUNTS else "influence"
        state[zone][target].remove(card)
        state[zone][keeper].append(card)
        state[zone][keeper].sort()
    ext["queue"].pop(0)
    ext["card"] = ext["price"] = None
    state["phase"] = EXTORT_TARGET


def _pay(state: State, seat: int, action: Action) -> None:
    price = state["extortion"]["price"]
    state["money"][seat] -= price
    state["money"][state["active"]] += price
    log(state, "extort_paid", seat=seat, amount=price, **card_args(state["extortion"]["card"]))
    _settle_extortion(state, seat, seat)


def _give_up(state: State, seat: int, action: Action) -> None:
    price = state["extortion"]["price"]
    state["money"][state["active"]] -= price
    state["money"][seat] += price
    log(state, "extort_sold", seat=seat, amount=price, **card_args(state["extortion"]["card"]))
    _settle_extortion(state, seat, state["active"])


def _choose_counters(state: State, seat: int, action: Action) -> None:
    """2.6 C.1: first every opponent, clockwise from the left, may join by paying 5 to the active player."""
    log(state, "chooses_counters", seat=seat)
    state["counters"] = {"queue": clockwise(state, seat, include_start=False), "seat": None, "joined": [],
                         "consul": False, "sale": None}
    state["phase"] = COUNTERS_JOIN


def _open_counters(state: State, seat: int) -> None:
    counters = state["counters"]
    counters["seat"] = seat
    counters["consul"] = False
    counters["sale"] = None
    state["phase"] = COUNTERS
    if has_influence(state, seat, "vox_populi"):  # 2.5 Vox Populi, each time (joining included)
        state["senators"][seat] += 1
        log(state, "vox_populi", seat=seat)


def _join_counters(state: State, seat: int, action: Action) -> None:
    counters = state["counters"]
    counters["queue"].pop(0)
    counters["joined"].append(seat)
    state["money"][seat] -= components.COUNTERS_JOIN_FEE
    state["money"][state["active"]] += components.COUNTERS_JOIN_FEE
    log(state, "counters_join", seat=seat, active_seat=state["active"], amount=components.COUNTERS_JOIN_FEE)
    _open_counters(state, seat)


def _decline_counters(state: State, seat: int, action: Action) -> None:
    state["counters"]["queue"].pop(0)
    log(state, "counters_decline", seat=seat)


def _sell(state: State, seat: int, action: Action) -> None:
    cards = list(action["cards"])
    kind = sale_kind(cards)
    _start_sale(state, seat, cards, kind)


def _quaestor_sale(state: State, seat: int, action: Action) -> None:
    _start_sale(state, seat, list(action["cards"]), "quaestor")


def _start_sale(state: State, seat: int, cards: list[str], kind: str) -> None:
    govs = [c for c in cards if c in components.GOVERNOR_TYPE]
    res = [c for c in cards if c in components.RESOURCE_VALUE]
    sale: dict[str, Any] = {"cards": cards, "kind": kind, "values": [], "todo": []}
    if kind == "value" and res:
        sale["values"] = [[g, components.RESOURCE_VALUE[res[0]]] for g in govs]  # forced: the set's common value
    elif kind == "value":
        sale["todo"] = govs[:1]  # three Governors: one chosen common value
    else:
        sale["todo"] = govs  # type set: its Governor; Quaestor: each Governor
    state["counters"]["sale"] = sale
    if sale["todo"]:
        state["phase"] = GOVERNOR_VALUE
    else:
        _complete_sale(state, seat)


def _governor_value(state: State, seat: int, action: Action) -> None:
    sale = state["counters"]["sale"]
    gov = sale["todo"].pop(0)
    if sale["kind"] == "value":
        sale["values"] = [[g, action["value"]] for g in sale["cards"]]
    else:
        sale["values"].append([gov, action["value"]])
    if not sale["todo"]:
        _complete_sale(state, seat)


def sale_payment(cards: list[str], values: dict[str, int], kind: str, pontifex: bool) -> tuple[int, int, int]:
    """(sum of values, run bonus, Pontifex bonus) of a sale (2.6 C.2, 2.3 Quaestor, 2.5 Pontifex)."""
    counted = [components.RESOURCE_VALUE[c] if c in components.RESOURCE_VALUE else values[c] for c in cards]
    ordered = sorted(counted)
    run = (kind == "type" and all(ordered[i + 1] == ordered[i] + 1 for i in range(len(ordered) - 1)))
    bonus = components.RUN_BONUS if run else 0
    pontifex_bonus = components.PONTIFEX_BONUS * counted.count(1) if pontifex else 0
    return sum(counted), bonus, pontifex_bonus


def _complete_sale(state: State, seat: int) -> None:
    sale = state["counters"]["sale"]
    cards, kind = sale["cards"], sale["kind"]
    values = {g: v for g, v in sale["values"]}
    total, run, pontifex = sale_payment(cards, values, kind, has_influence(state, seat, "pontifex"))
    amount = total + run + pontifex
    state["money"][seat] += amount
    for card in cards:  # sold cards and used Senate cards are discarded (2.6 C.3)
        if card in components.RESOURCE_VALUE:
            if card in state["hands"][seat]:
                state["hands"][seat].remove(card)
                if card in state["known"][seat]:
                    state["known"][seat].remove(card)
            else:
                state["resources"][seat].remove(card)
            state["discards"][components.RESOURCE_BAND[card]].append(card)
        else:
            state["senate"][seat].remove(card)
            state["senate_discard"].append(card)
    if kind == "quaestor":
        state["senate"][seat].remove("quaestor")
        state["senate_discard"].append("quaestor")
    key = "quaestor_sale" if kind == "quaestor" else "sale"
    log(state, key, seat=seat, amount=amount, cards=list(cards), values=[list(v) for v in sale["values"]])
    if run:
        log(state, "sale_run", seat=seat, amount=run)
    if pontifex:
        log(state, "sale_pontifex", seat=seat, amount=pontifex)
    state["counters"]["sale"] = None
    state["phase"] = COUNTERS


def _buy_senator(state: State, seat: int, action: Action) -> None:
    price = senator_price(state)
    state["money"][seat] -= price
    state["senators"][seat] += 1
    log(state, "senator_bought", seat=seat, price=price)


def _play_consul(state: State, seat: int, action: Action) -> None:
    state["senate"][seat].remove("consul")
    state["senate_discard"].append("consul")
    state["counters"]["consul"] = True
    log(state, "consul", seat=seat, price=components.CONSUL_SENATOR_PRICE)


def _censor(state: State, seat: int, action: Action) -> None:
    target = action["target"]
    state["senate"][seat].remove("censor")
    state["senate_discard"].append("censor")
    state["senators"][target] -= 1  # the target has more senators than the player, so at least 2
    state["senators"][seat] += 1
    log(state, "censor", seat=seat, target_seat=target)


def _end_counters(state: State, seat: int, action: Action) -> None:
    log(state, "counters_done", seat=seat)
    if seat == state["active"]:
        end_turn(state)
        return
    counters = state["counters"]
    counters["seat"] = None
    counters["consul"] = False
    state["phase"] = COUNTERS_JOIN


_HANDLERS: dict[str, Callable[[State, int, Action], None]] = {
    "sell_senator": _sell_senator, "draft": _draft, "seal_bid": _seal_bid,
    "accept_senator": _accept_senator, "decline_senator": _decline_senator,
    "auction": _choose_auction, "bid": _bid, "end_bids": _end_bids,
    "sell_lot": _sell_lot, "buy_lot": _buy_lot, "merchants": _merchants,
    "extortion": _choose_extortion, "protect": _protect, "no_protection": _no_protection,
    "extort": _extort, "spare": _spare, "price": _price, "pay": _pay, "give_up": _give_up,
    "counters": _choose_counters, "join_counters": _join_counters, "decline_counters": _decline_counters,
    "sell": _sell, "quaestor_sale": _quaestor_sale, "governor_value": _governor_value,
    "buy_senator": _buy_senator, "play_consul": _play_consul, "censor": _censor, "end_counters": _end_counters,
}


# ================================================================================== events (2.4)

def _draw_event(state: State) -> None:
    card = state["events"].pop(0)
    if state["upper_left"]:
        state["upper_left"] -= 1
    state["events_drawn"].append(card)
    state["event"] = card
    log(state, "event", seat=state["active"], **card_args(card))
    if card == "war":
        state["wars"] += 1
        if state["wars"] >= components.WARS_TO_END:  # 2.9.1: the 4th War is not resolved; the game ends
            log(state, "last_war")
            finish(state, "war")
            return
        _open_sealed(state, "war", None)
    elif card in components.DEFICIT_AMOUNT:
        _open_sealed(state, "deficit", components.DEFICIT_AMOUNT[card])
    elif card == "new_senator":
        state["offer"] = {"price": components.NEW_SENATOR_START, "order": clockwise(state, state["active"])}
        state["phase"] = OFFER
        log(state, "offer_price", price=components.NEW_SENATOR_START)
    elif card == "civil_conflict":
        _civil_conflict(state)
        after_event(state)
    elif card == "eviction":
        _eviction(state)
        after_event(state)
    else:
        _senate_majority(state)
        after_event(state)


def _open_sealed(state: State, kind: str, amount: int | None) -> None:
    """0.3: every seat still in submits before any bid is revealed."""
    state["sealed"] = {"kind": kind, "amount": amount, "bids": [None] * state["players"]}
    state["phase"] = SEALED


def charge(state: State, seat: int, amount: int) -> None:
    """A debt to the bank: a player short of cash sells senators (2.8.1) until he can pay (2.4 fill 4);
    at 0 senators he is out (2.8.2) and pays nothing more."""
    while state["money"][seat] < amount:
        state["senators"][seat] -= 1
        state["money"][seat] += components.SENATOR_SALE
        log(state, "senator_sold_debt", seat=seat)
        if state["senators"][seat] == 0:
            eliminate(state, seat)
            return
    state["money"][seat] -= amount


def _civil_conflict(state: State) -> None:
    for seat in clockwise(state, state["active"]):
        if any(c in components.GOVERNOR_TYPE for c in state["senate"][seat]):
            log(state, "civil_exempt", seat=seat)
            continue
        charge(state, seat, components.CIVIL_CONFLICT_TAX)
        if not state["out"][seat]:
            log(state, "civil_paid", seat=seat, amount=components.CIVIL_CONFLICT_TAX)


def _eviction(state: State) -> None:
    for seat in clockwise(state, state["active"]):
        govs = [c for c in state["senate"][seat] if c in components.GOVERNOR_TYPE]
        if not govs:
            continue
        if has_influence(state, seat, "tribunes"):
            log(state, "evict_protected", seat=seat)
            continue
        state["senate"][seat] = [c for c in state["senate"][seat] if c not in components.GOVERNOR_TYPE]
        state["senate_discard"] += govs
        log(state, "evicted", seat=seat, **cards_args(govs))


def _senate_majority(state: State) -> None:
    seats = clockwise(state, state["active"])
    counts = {s: state["senators"][s] for s in seats}
    for seat in seats:
        weaker = sum(1 for o in seats if o != seat and counts[o] < counts[seat])
        each = components.PRINCEPS_PER_WEAKER if has_influence(state, seat, "princeps") else components.MAJORITY_PER_WEAKER
        state["money"][seat] += weaker * each
        if weaker:
            log(state, "majority_income", seat=seat, amount=weaker * each, weaker=weaker)


def after_event(state: State) -> None:
    state["event"] = None
    state["sealed"] = None
    state["offer"] = None
    state["phase"] = CHOOSE


# ================================================================================== leaving, turns, end

def eliminate(state: State, seat: int) -> None:
    """2.8.2: at 0 senators a player is out at once. PROPOSED: his cards are discarded (face up), his influence
    cards leave the game, his money goes to the bank, his turns are skipped, his pending bids are withdrawn."""
    state["out"][seat] = True
    state["out_at"][seat] = state["step"]
    state["senators"][seat] = 0
    log(state, "eliminated", seat=seat)
    resources = state["hands"][seat] + state["resources"][seat]
    if resources:
        log(state, "eliminated_cards", seat=seat, **cards_args(sorted(resources)))
    for card in resources:
        state["discards"][components.RESOURCE_BAND[card]].append(card)
    state["senate_discard"] += state["senate"][seat]
    if state["senate"][seat] or state["influence"][seat]:
        log(state, "eliminated_cards", seat=seat, **cards_args(state["senate"][seat] + state["influence"][seat]))
    state["hands"][seat], state["known"][seat], state["resources"][seat] = [], [], []
    state["senate"][seat], state["influence"][seat] = [], []
    state["money"][seat] = 0
    if state["auction"] is not None:
        for lot in state["auction"]["lots"]:
            if lot["to"] is None:
                lot["bids"] = [b for b in lot["bids"] if b[0] != seat]
    if state["sealed"] is not None:
        state["sealed"]["bids"][seat] = None
    ext = state["extortion"]
    if ext is not None and ext["protected"] is not None and ext["protected"][0] == seat:
        ext["protected"] = None
    counters = state["counters"]
    if counters is not None and counters["seat"] == seat:
        counters["sale"] = None


def _discard_lots(state: State) -> None:
    """The active player left the game during his Auction: unsettled lots are discarded face up."""
    auction = state["auction"]
    if auction is None:
        return
    for lot in auction["lots"]:
        if lot["to"] is None:
            card = lot["card"]
            lot["to"] = -1
            if card in components.RESOURCE_VALUE:
                state["discards"][components.RESOURCE_BAND[card]].append(card)
            else:
                state["senate_discard"].append(card)
            log(state, "lot_discarded", **card_args(card))


def begin_turn(state: State, seat: int) -> None:
    state["active"] = seat
    state["turn"] += 1
    state["phase"] = EVENT
    log(state, "turn", seat=seat, turn=state["turn"])


def end_turn(state: State) -> None:
    state["auction"] = state["extortion"] = state["counters"] = None
    nxt = clockwise(state, state["active"], include_start=False)
    begin_turn(state, nxt[0] if nxt else state["active"])


def finish(state: State, reason: str) -> None:
    state["phase"] = OVER
    state["end"] = reason
    state["event"] = None
    for key in ("draft", "sealed", "offer", "auction", "extortion", "counters"):
        state[key] = None
    log(state, "game_over")


def start(state: State) -> None:
    """Opens the first turn (after the influence draft, if any)."""
    if state["phase"] != DRAFT:
        begin_turn(state, state["first"])
    advance(state)


# ---------------------------------------------------------------------- automatic steps (advance)

def _adv_draft(state: State) -> bool:
    draft = state["draft"]
    draft["order"] = [s for s in draft["order"] if not state["out"][s]]
    if draft["order"]:
        return False
    if draft["offer"]:
        log(state, "draft_leftover", **cards_args(draft["offer"]))  # back to the box (PROPOSED)
    state["draft"] = None
    first = state["first"]
    begin_turn(state, first if not state["out"][first] else clockwise(state, first)[0])
    return True


def _adv_event(state: State) -> bool:
    _draw_event(state)
    return True


def _adv_sealed(state: State) -> bool:
    bids = state["sealed"]["bids"]
    if any(bids[s] is None for s in living(state)):
        return False
    _resolve_sealed(state)
    after_event(state)
    return True


def _adv_offer(state: State) -> bool:
    offer = state["offer"]
    offer["order"] = [s for s in offer["order"] if not state["out"][s]]
    if offer["order"]:
        return False
    # A full round without a taker: the price drops by 1, down to the floor (2.4 fill 3).
    if offer["price"] - 1 < components.PROPOSED["new_senator_floor"]:
        log(state, "offer_unsold")
        after_event(state)
        return True
    offer["price"] -= 1
    offer["order"] = clockwise(state, state["active"])
    log(state, "offer_price", price=offer["price"])
    return True


def _adv_wait(state: State) -> bool:
    return False


def _adv_bidding(state: State) -> bool:
    auction = state["auction"]
    auction["bidders"] = [s for s in auction["bidders"] if not state["out"][s]]
    if auction["bidders"]:
        return False
    state["phase"] = SETTLING
    seat = state["active"]
    for lot in auction["lots"]:
        if not lot["bids"]:  # 2.6 A.3: a lot nobody bid on is the active player's, free
            lot["to"] = seat
            _gain_card(state, seat, lot["card"])
            log(state, "free_lot", seat=seat, **card_args(lot["card"]))
    return True


def _adv_settling(state: State) -> bool:
    if any(lot["to"] is None for lot in state["auction"]["lots"]):
        return False
    end_turn(state)
    return True


def _adv_prefects(state: State) -> bool:
    ext = state["extortion"]
    if ext["prefects"] is not None and not state["out"][ext["prefects"]]:
        return False
    ext["prefects"] = None
    state["phase"] = EXTORT_TARGET
    return True


def _adv_extort_target(state: State) -> bool:
    ext = state["extortion"]
    queue = [s for s in ext["queue"] if not state["out"][s]]
    while queue and not targetable(state, queue[0]):
        queue.pop(0)  # nothing face up to extort: that opponent is passed over
    ext["queue"] = queue
    if queue:
        return False
    end_turn(state)
    return True


def _adv_extort_answer(state: State) -> bool:
    ext = state["extortion"]
    if not state["out"][ext["queue"][0]]:
        return False
    ext["queue"].pop(0)  # the target left the game: his cards, the targeted one included, are discarded
    ext["card"] = ext["price"] = None
    state["phase"] = EXTORT_TARGET
    return True


def _adv_join(state: State) -> bool:
    counters = state["counters"]
    counters["queue"] = [s for s in counters["queue"] if not state["out"][s]]
    if counters["queue"]:
        return False
    _open_counters(state, state["active"])
    return True


def _adv_counters(state: State) -> bool:
    counters = state["counters"]
    if not state["out"][counters["seat"]]:
        return False
    counters["seat"] = None  # a joining player left the game during his Counters
    counters["sale"] = None
    state["phase"] = COUNTERS_JOIN
    return True


_ADVANCE: dict[str, Callable[[State], bool]] = {
    DRAFT: _adv_draft, EVENT: _adv_event, SEALED: _adv_sealed, OFFER: _adv_offer, CHOOSE: _adv_wait,
    BIDDING: _adv_bidding, SETTLING: _adv_settling, PREFECTS: _adv_prefects, EXTORT_TARGET: _adv_extort_target,
    EXTORT_PRICE: _adv_wait, EXTORT_ANSWER: _adv_extort_answer, COUNTERS_JOIN: _adv_join,
    COUNTERS: _adv_counters, GOVERNOR_VALUE: _adv_counters,
}


def advance(state: State) -> None:
    """Runs the automatic steps until somebody must decide, or the game is over."""
    while state["phase"] != OVER:
        if len(living(state)) <= 1:
            finish(state, "last_standing")  # PROPOSED: the last player left wins at once
            return
        if state["phase"] in TURN_PHASES and state["out"][state["active"]]:
            _discard_lots(state)  # the active player left the game: his turn ends (2.8.2)
            end_turn(state)
            continue
        if not _ADVANCE[state["phase"]](state):
            return


# ================================================================================== refusals, playouts

# The refusal of an action of another kind than the phase asks for (messages.REFUSALS).
_PHASE_REFUSAL = {
    DRAFT: "ac.only_draft",
    SEALED: "ac.only_sealed_bid",
    OFFER: "ac.only_new_senator",
    CHOOSE: "ac.only_choose_action",
    BIDDING: "ac.only_auction_bidding",
    SETTLING: "ac.only_auction_settling",
    PREFECTS: "ac.only_prefects",
    EXTORT_TARGET: "ac.only_extortion_target",
    EXTORT_PRICE: "ac.only_extortion_price",
    EXTORT_ANSWER: "ac.only_extortion_answer",
    COUNTERS_JOIN: "ac.only_counters_join",
    COUNTERS: "ac.only_counters",
    GOVERNOR_VALUE: "ac.only_governor_value",
}


def refusal(state: State, seat: int, action: Action) -> tuple[str, dict[str, Any]] | None:
    """Why an actor's action is refused: a code of messages.REFUSALS and its arguments. It speaks only of the
    actor's own cards and coins and of public facts."""
    phase = state["phase"]
    kind = action.get("type")
    expected = {a["type"] for a in _PHASE_MOVES[phase](state, seat)} | {"sell_senator", *_ALWAYS_TYPES.get(phase, ())}
    if kind not in expected:
        return _PHASE_REFUSAL[phase], {}
    money = state["money"][seat]
    if kind == "bid":
        lots = state["auction"]["lots"]
        lot_index = action.get("lot")
        if not isinstance(lot_index, int) or isinstance(lot_index, bool) or not 0 <= lot_index < len(lots):
            return "ac.no_such_lot", {}
        lot = lots[lot_index]
        if any(s == seat for s, _a in lot["bids"]):
            return "ac.cube_on_lot", {}
        amount = action.get("amount")
        spaces = components.PROPOSED["bid_spaces"]
        if amount not in spaces or isinstance(amount, bool):
            return "ac.bid_space", {"low": spaces[0], "high": spaces[-1]}
        if amount <= best_bid(lot):
            return "ac.bid_too_low", {"best": best_bid(lot)}
        if amount + committed(state, seat) > money:
            return "ac.bids_over_cash", {}
    if kind == "buy_lot":
        return "ac.lot_too_dear", {}
    if kind in ("seal_bid", "price"):
        return "ac.amount", {}
    if kind in ("pay", "join_counters", "accept_senator", "buy_senator", "merchants"):
        return "ac.not_enough_coins", {}
    if kind in ("sell", "quaestor_sale"):
        return "ac.no_sale", {}
    if kind == "censor":
        return "ac.censor_target", {}
    return None


# Types whose refusal sentence is specific even when none of them is legal now.
_ALWAYS_TYPES = {BIDDING: ("bid",), SETTLING: ("buy_lot", "merchants"), EXTORT_ANSWER: ("pay",), COUNTERS_JOIN: ("join_counters",),
                 OFFER: ("accept_senator",), COUNTERS: ("buy_senator", "sell", "quaestor_sale", "censor"),
                 EXTORT_TARGET: ("extort",)}

# Random games last about 45 actions per player (at most about 80 in 3,600 measured games); the bound leaves
# a wide margin and keeps the conformance suite's sampling of mid-game states dense.
ACTION_BOUND_PER_PLAYER = 200
