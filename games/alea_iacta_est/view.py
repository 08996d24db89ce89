"""The game's part of a seat's view, built as an allow-list (RULES 0.1, 0.4, 3.5.4).

Public: the round, the turn, the roll, every die on every building, chips, revealed and won provinces
and patricians, kept Fortuna tiles (face up), and every count (piles, face-down Fortuna tiles, Senate
cards in hand, cards in the offer). Private to `seat`: its own face-down Fortuna tiles, its own Senate
cards, and the Senate cards it is being offered. The piles' orders and contents are never shown.

Hidden information: who knows which Senate card is where (kept by the rules at every move), and the resample
used by the leak test and bots.

Hidden in this game (RULES 0.1, 3.4, 3.5.4): the order of the province, patrician, Fortuna and Senate
piles; the Fortuna tiles drawn face down this round (known to their owner) and the discarded ones (each
known to whoever discarded it, until the discards are shuffled into a new pile); the Senate cards in
hand (known to their owner), the cards offered during the Senatus evaluation (known to the seat holding
them) and the cards returned under the deck.

Passing Senate cards leaves partial knowledge, kept per seat in ``state["senate_known"][seat]`` as groups
``{"cards": [...], "slots": [...]}``: the cards at those slots are exactly those cards (in some order).
A slot names a public place: ``"d3"`` (deck, from the top), ``"u0"`` (the returned cards, first returned
first), ``"h2.1"`` (the second card seat 2 received), ``"o0"`` (the offer, sorted). Example: the best
player passes II and VII to the second-best, who keeps one and returns the other under the deck; the
best player then knows ``{"cards": ["II", "VII"], "slots": ["h1.0", "u4"]}`` and the second-best knows
``{"cards": ["VII"], "slots": ["u4"]}``.
"""

from __future__ import annotations

from typing import Any

from games.core import State, clone, log_visible, reveal_line, rng

from .components import SENATE_ORDER, SETUP, patrician_label, province_label

def observe(state: State, seat: int | None) -> dict[str, Any]:
    # The state's own lists where the view shows them whole: a state is never changed once built (`play`
    # changes a copy), and neither is a view. A copy of each for each seat at each action was a tenth of a
    # server's time under a club's load (tests/bench/RESULTS.md).
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
        "rolled": state["rolled"],
        "unplaced": state["unplaced"],
        "templum": state["templum"] if conf["templum"] else None,
        "senatus": state["senatus"],
        "castrum": state["castrum"],
        "forum": state["forum"],
        "latrina": state["latrina"],
        "chips": state["chips"],
        "province_offer": state["province_offer"],
        "patrician_offer": state["patrician_offer"],
        "province_pile": len(state["province_pile"]),
        "patrician_pile": len(state["patrician_pile"]),
        "provinces": state["provinces"],
        "patricians": state["patricians"],
        "fortuna_pile": len(state["fortuna_pile"]),
        "fortuna_discard": len(state["fortuna_discard"]),
        "fortuna_drawn": [len(d) for d in state["fortuna_drawn"]],
        "fortuna_keep": state["fortuna_keep"],
        "fortuna_kept": state["fortuna_kept"],
        "own_fortuna": state["fortuna_drawn"][seat] if seat is not None else None,
        "senate_deck": len(state["senate_deck"]) + len(state["senate_under"]),
        "senate_counts": [len(h) for h in state["senate_hands"]],
        "own_senate": state["senate_hands"][seat] if seat is not None else None,
        "senate_holder": holder,
        "senate_offer_size": len(state["senate_offer"]),
        "senate_offer": state["senate_offer"] if seat is not None and seat == holder else None,
        "castrum_queue": state["queue"] if phase == "castrum" else [],
        "forum_queue": state["queue"] if phase == "forum" else [],
    }


SENATE_SORT = SENATE_ORDER.__getitem__
RESAMPLE_TAG = 0xA1EA_1AC7A


# ----------------------------------------------------------------------------- Senate knowledge

def senate_keep(state: State, seat: int, card: str) -> None:
    """The holder of the offer keeps `card` (into his hand). Everyone else who knew the offer now only
    knows that the kept card is one of them; the holder knows exactly where the rest is."""
    offer = state["senate_offer"]
    k = offer.index(card)
    hand = state["senate_hands"][seat]
    hand_slot = f"h{seat}.{len(hand)}"
    hand.append(card)
    offer.pop(k)

    def remap(slot: str) -> str:
        if slot[0] != "o":
            return slot
        i = int(slot[1:])
        return hand_slot if i == k else f"o{i - (i > k)}"

    for other in range(state["players"]):
        if other == seat:
            continue
        groups = state["senate_known"][other]
        touching = [g for g in groups if any(s[0] == "o" for s in g["slots"])]
        if touching:
            kept = [g for g in groups if not any(s[0] == "o" for s in g["slots"])]
            kept.append({"cards": sorted((c for g in touching for c in g["cards"]), key=SENATE_SORT),
                         "slots": [remap(s) for g in touching for s in g["slots"]]})
            state["senate_known"][other] = kept
    state["senate_known"][seat] += [{"cards": [c], "slots": [f"o{i}"]} for i, c in enumerate(offer)]


def senate_offer_under(state: State) -> None:
    """The rest of the offer goes under the deck, in its (sorted) order: knowledge follows the cards."""
    base = len(state["senate_under"])
    for groups in state["senate_known"]:
        for g in groups:
            g["slots"] = [f"u{base + int(s[1:])}" if s[0] == "o" else s for s in g["slots"]]
    state["senate_under"] += state["senate_offer"]
    state["senate_offer"] = []


def senate_take_from_under(state: State) -> None:
    """The deck is empty and the first returned card becomes its top (cannot happen with 18-19 cards; see
    RULES.md 3.11). Knowledge about that card is dropped, the other returned cards move up one slot."""
    state["senate_deck"].append(state["senate_under"].pop(0))
    for seat, groups in enumerate(state["senate_known"]):
        state["senate_known"][seat] = [
            {"cards": g["cards"], "slots": [f"u{int(s[1:]) - 1}" if s[0] == "u" else s for s in g["slots"]]}
            for g in groups if "u0" not in g["slots"]]


def _senate_slots(state: State) -> list[str]:
    """Every place a Senate card can be, in a canonical order."""
    slots = [f"d{i}" for i in range(len(state["senate_deck"]))]
    slots += [f"u{i}" for i in range(len(state["senate_under"]))]
    for seat, hand in enumerate(state["senate_hands"]):
        slots += [f"h{seat}.{i}" for i in range(len(hand))]
    slots += [f"o{i}" for i in range(len(state["senate_offer"]))]
    return slots


def _get(state: State, slot: str) -> str:
    kind = slot[0]
    if kind == "h":
        seat, i = slot[1:].split(".")
        return state["senate_hands"][int(seat)][int(i)]
    return {"d": state["senate_deck"], "u": state["senate_under"], "o": state["senate_offer"]}[kind][int(slot[1:])]


def _set(state: State, slot: str, card: str) -> None:
    kind = slot[0]
    if kind == "h":
        seat, i = slot[1:].split(".")
        state["senate_hands"][int(seat)][int(i)] = card
    else:
        {"d": state["senate_deck"], "u": state["senate_under"], "o": state["senate_offer"]}[kind][int(slot[1:])] = card


def _multiset_minus(cards: list[str], taken: list[str]) -> list[str]:
    rest = list(cards)
    for c in taken:
        rest.remove(c)
    return rest


def _resample_senate(new: State, seat: int | None, finished: bool) -> None:
    known: set[str] = set()
    if finished:  # the final score shows every hand
        known |= {s for s in _senate_slots(new) if s[0] == "h"}
    if seat is not None:
        known |= {f"h{seat}.{i}" for i in range(len(new["senate_hands"][seat]))}
        if new["senate_holder"] == seat:
            known |= {f"o{i}" for i in range(len(new["senate_offer"]))}
    groups = new["senate_known"][seat] if seat is not None else []
    grouped = {s for g in groups for s in g["slots"]} - known
    unknown = [s for s in _senate_slots(new) if s not in known and s not in grouped]
    pool = sorted((_get(new, s) for s in unknown), key=SENATE_SORT)
    rng.shuffle(new, pool)
    for slot, card in zip(unknown, pool):
        _set(new, slot, card)
    for g in groups:
        fixed = [s for s in g["slots"] if s in known]
        free = [s for s in g["slots"] if s not in known]
        cards = sorted(_multiset_minus(g["cards"], [_get(new, s) for s in fixed]), key=SENATE_SORT)
        rng.shuffle(new, cards)
        for slot, card in zip(free, cards):
            _set(new, slot, card)
    new["senate_offer"].sort(key=SENATE_SORT)
    for other in range(new["players"]):
        if other != seat:
            for g in new["senate_known"][other]:
                g["cards"] = sorted((_get(new, s) for s in g["slots"]), key=SENATE_SORT)


# ---------------------------------------------------------------------------------- Fortuna

def _resample_fortuna(new: State, seat: int | None) -> None:
    """Unknown to `seat`: the pile, the others' face-down tiles and the discards it did not make itself."""
    by = new["fortuna_discard_by"]
    others = [s for s in range(new["players"]) if s != seat]
    discard_slots = [i for i in range(len(by)) if by[i] != seat]
    pool = list(new["fortuna_pile"]) + [new["fortuna_discard"][i] for i in discard_slots]
    for s in others:
        pool += new["fortuna_drawn"][s]
    pool.sort()
    rng.shuffle(new, pool)
    n = len(new["fortuna_pile"])
    new["fortuna_pile"], pool = pool[:n], pool[n:]
    for i in discard_slots:
        new["fortuna_discard"][i] = pool.pop()
    for s in others:
        k = len(new["fortuna_drawn"][s])
        new["fortuna_drawn"][s], pool = pool[:k], pool[k:]


# --------------------------------------------------------------------------------- resample

def resample(state: State, seat: int | None, seed: int, finished: bool) -> State:
    """A state `seat` (None: a spectator) cannot tell from `state`, with everything it cannot know drawn
    anew from `seed`, as a function of what it knows only (canonical pools, sorted, then shuffled)."""
    new: dict[str, Any] = clone({k: v for k, v in state.items() if k != "log"})
    # Private log lines of other seats hold what this seat cannot know: they are not part of its world.
    # Log entries are never changed once written, so the new state shares them (as Game.apply does).
    new["log"] = [e for e in state["log"] if log_visible(e, seat)]
    new["rng"] = rng.seed_state(seed)
    for key in ("province_pile", "patrician_pile"):
        pool = sorted(new[key])
        rng.shuffle(new, pool)
        new[key] = pool
    _resample_fortuna(new, seat)
    _resample_senate(new, seat, finished)
    new["rng"] = rng.seed_state(seed ^ RESAMPLE_TAG)
    return new


def unseen(state: State) -> list[dict[str, Any]]:
    """What no seat's view shows, for the replay of a finished game: the piles in drawing order and the
    face-down Fortuna discards (a seat sees its own Fortuna tiles and Senate cards in its view)."""
    return [
        reveal_line({"en": "Province pile, first drawn first", "fr": "Pioche des provinces, de la première tirée",
                     "it": "Mazzo delle province, dalla prima pescata"},
                    map(province_label, state["province_pile"])),
        reveal_line({"en": "Patrician pile, first drawn first", "fr": "Pioche des patriciens, du premier tiré",
                     "it": "Mazzo dei patrizi, dal primo pescato"},
                    map(patrician_label, state["patrician_pile"])),
        reveal_line({"en": "Fortuna pile, first drawn first", "fr": "Pioche Fortuna, de la première tirée",
                     "it": "Mazzo Fortuna, dalla prima pescata"}, state["fortuna_pile"]),
        reveal_line({"en": "Fortuna discards, face down", "fr": "Défausse Fortuna, face cachée",
                     "it": "Scarti Fortuna, coperti"}, state["fortuna_discard"]),
        reveal_line({"en": "Senate deck, first drawn first, then the cards returned under it",
                     "fr": "Pioche du Sénat, de la première tirée, puis les cartes remises dessous",
                     "it": "Mazzo del Senato, dalla prima pescata, poi le carte rimesse sotto"},
                    [*state["senate_deck"], *state["senate_under"]]),
    ]
