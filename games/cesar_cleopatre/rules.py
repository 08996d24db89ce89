"""The rules of César & Cléopâtre: the state, the legal moves of each phase and what every move does.

Rule numbers are those of RULES.md in this package.

The state (plain JSON) holds:
  options; phase; active (the seat whose turn it is); turn (a counter); t (public flags of the turn);
  hand[p] (influence cards), hand_actions[p] (action names, sorted);
  reserve[p], action_reserve[p] (top = last); discard[p], action_discard[p] (face up);
  left[i] (patricians left at group i); up[p][i], down[p][i] (seat p's face-up and face-down cards there);
  won[p][i]; vote_deck (top = last), vote_discard, vote_removed; missions[p];
  setup[p] (setup series still to place), arrange[p] (action cards still to stack, "arrange" option);
  pending (an announced action card waiting for the Veto window); castle (a Castling being redealt);
  exhausted (groups emptied); ended (None or the reason);
  knowledge[p]: what seat p knows of his opponent's hidden cards (the knowledge pools of view.py), used by resample only; a
  spectator's knowledge is derived from the public counts when needed (view.py).

Influence cards are kept as strings of digits (see components.py: cards_of and the helpers beside it).
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from games.core import Action, Seat, State, log_entry, rng

from . import view as kn  # the knowledge operations: what each seat knows of hidden cards
from .components import (
    EXHAUSTED_GROUPS_FOR_ORGY_REMOVAL, FIRST_SEAT, GROUP_INDEX, GROUP_LIMIT, GROUP_SIZE, GROUPS, HAND_SIZE,
    MISSIONS, ORGY, ORGY_RESHUFFLE, OWN_LIMIT, PHILOSOPHER, SETUP_SERIES, VOTE_CARDS, ZONE_DOWN, action_deck,
    cards_of, influence_reserve, kinds_of, merged, strength, values_of, with_card, without_card,
)



PASSIVE = {"type": "passive"}
VETO = {"type": "veto"}
ALLOW = {"type": "allow"}
END_TURN = {"type": "end_turn"}

# ------------------------------------------------------------------------------------------- setup


def initial_state(rng_state: int, options: dict[str, Any]) -> State:
    """RULES 1.3: the forum, the parties, the action piles, the secret missions; Cléopâtre will start."""
    state: State = {"players": 2, "rng": rng_state, "log": [], "options": dict(options)}
    deck = list(VOTE_CARDS)
    removed: list[str] = []
    if options["orgy_removed_before"]:  # author's option (b), RULES 1.5.5
        deck.remove(ORGY)
        removed.append(ORGY)
    rng.shuffle(state, deck)
    missions = list(MISSIONS)
    rng.shuffle(state, missions)
    reserves = []
    for _ in range(2):
        reserve = influence_reserve()
        rng.shuffle(state, reserve)
        reserves.append("".join(map(str, reserve)))
    arrange = options["action_pile"] == "arrange"
    action_reserves: list[list[str]] = [[], []]
    if not arrange:
        for p in range(2):
            pile = action_deck()
            rng.shuffle(state, pile)
            action_reserves[p] = pile
    state.update({
        "phase": "setup",
        "active": FIRST_SEAT,
        "turn": 0,
        "t": fresh_turn(),
        "hand": [cards_of(SETUP_SERIES), cards_of(SETUP_SERIES)],
        "hand_actions": [[], []],
        "reserve": reserves,
        "action_reserve": action_reserves,
        "discard": ["", ""],
        "action_discard": [[], []],
        "left": list(GROUP_SIZE),
        "up": [[""] * len(GROUPS), [""] * len(GROUPS)],
        "down": [[""] * len(GROUPS), [""] * len(GROUPS)],
        "won": [[0] * len(GROUPS), [0] * len(GROUPS)],
        "vote_deck": deck,
        "vote_discard": [],
        "vote_removed": removed,
        "missions": missions[:2],  # the other four go back to the box unseen (RULES 1.3.5)
        "setup": [cards_of(SETUP_SERIES), cards_of(SETUP_SERIES)],
        "arrange": [sorted(action_deck()), sorted(action_deck())] if arrange else [[], []],
        "pending": None,
        "castle": None,
        "exhausted": 0,
        "ended": None,
        "knowledge": [initial_knowledge(arrange), initial_knowledge(arrange)],
    })
    return state


def initial_knowledge(arrange: bool) -> dict[str, list[kn.Pool]]:
    """What a seat knows of his opponent before anything is played: the opponent's face-down cards will be
    one series 1..5, his hand is the other series, his reserve holds the rest; his action pile is his 13
    action cards."""
    return {
        "influence": [kn.new_pool(SETUP_SERIES, "setup"), kn.new_pool(SETUP_SERIES, "hand"),
                      kn.new_pool(influence_reserve(), "reserve")],
        "action": [kn.new_pool(action_deck(), "arrange" if arrange else "reserve")],
    }


# The state's lists, by depth, for copy_state; its other fields are immutable (players, rng, phase, active,
# turn, exhausted, ended) or copied by name there (log, options, t, pending, castle, knowledge).
LIST_FIELDS = ("hand", "reserve", "discard", "left", "vote_deck", "vote_discard", "vote_removed", "missions",
               "setup")  # lists of immutable items
NESTED_LIST_FIELDS = ("hand_actions", "action_reserve", "action_discard", "up", "down", "won", "arrange")


def copy_state(state: State) -> State:
    """A copy that `play` may mutate, sharing nothing mutable with `state` but the log entries (never
    changed once written). It copies by the state's known shape: three times faster than the generic
    deep copy, and the state is copied at every action (and at every step of a bot's search). The
    conformance suite checks that nothing mutable is shared."""
    new = dict(state)
    new["log"] = list(state["log"])
    new["options"] = dict(state["options"])
    t = new["t"] = dict(state["t"])
    t["drew"] = list(t["drew"])
    for key in LIST_FIELDS:
        new[key] = list(state[key])
    for key in NESTED_LIST_FIELDS:
        new[key] = [list(x) for x in state[key]]
    pending = state["pending"]
    if pending is not None:
        new["pending"] = {k: list(v) if type(v) is list else v for k, v in pending.items()}
    castle = state["castle"]
    if castle is not None:
        new["castle"] = {**castle, "groups": list(castle["groups"])}
    new["knowledge"] = [{"influence": copy_pools(known["influence"]), "action": copy_pools(known["action"])}
                         for known in state["knowledge"]]
    return new


def copy_pools(pools: list[kn.Pool]) -> list[kn.Pool]:
    return [{"cards": pool["cards"][:], "at": pool["at"].copy()} for pool in pools]


def fresh_turn(final: bool = False) -> dict[str, Any]:
    """The public flags of a turn: started (an active move was made), mode/placed (the influence placement),
    action ("none", "used" or "barred"), passive, discarded, drew (cards drawn this turn, private: only
    their count is shown), final (RULES 1.9.3)."""
    return {"started": False, "mode": None, "placed": 0, "action": "none", "passive": False,
            "discarded": 0, "drew": [], "final": final}


# ----------------------------------------------------------------------------------------- helpers


def other(p: int) -> int:
    return 1 - p


def distinct(cards: list[Any]) -> list[Any]:
    """The different values of a sorted list, in order."""
    out: list[Any] = []
    for c in cards:
        if not out or out[-1] != c:
            out.append(c)
    return out


def room(state: State, gi: int, p: int) -> int:
    """How many more cards seat p may place at group gi (RULES 1.4.3: 5 of his own, 8 in all; 1.4.8:
    none at an exhausted group)."""
    if not state["left"][gi]:
        return 0
    up, down = state["up"], state["down"]
    own = len(up[p][gi]) + len(down[p][gi])
    total = own + len(up[1 - p][gi]) + len(down[1 - p][gi])
    return min(OWN_LIMIT - own, GROUP_LIMIT - total)


def cards_at(state: State, gi: int) -> int:
    up, down = state["up"], state["down"]
    return len(up[0][gi]) + len(up[1][gi]) + len(down[0][gi]) + len(down[1][gi])


def hand_size(state: State, p: int) -> int:
    return len(state["hand"][p]) + len(state["hand_actions"][p])


def piles(state: State, p: int) -> list[str]:
    """The reserves seat p can draw from (RULES 1.4.5: an empty one is skipped)."""
    out = []
    if state["reserve"][p]:
        out.append("influence")
    if state["action_reserve"][p]:
        out.append("action")
    return out


def can_place(state: State, p: int) -> bool:
    return bool(state["hand"][p]) and any(room(state, gi, p) for gi in range(len(GROUPS)))


def can_ever_place(state: State, p: int) -> bool:
    """Could seat p place an influence card now or later (RULES 1.4.7)? Only placements change the board:
    action cards and vote cards come with active turns, which need a placement. So while neither player
    can place, the room at every group stays as it is, and a player can place again only if he has room
    somewhere and an influence card in hand or still to draw."""
    return bool(state["hand"][p] or state["reserve"][p]) and any(room(state, gi, p) for gi in range(len(GROUPS)))


def log(state: State, key: str, to: list[int] | None = None, hide: list[int] | None = None, **args: Any) -> None:
    state["log"].append(log_entry(key, to=to, hide=hide, **args))


def know(state: State, owner: int, kind: str, op: Any, *args: Any) -> None:
    """Apply a knowledge operation to what the opponent knows of `owner`'s cards."""
    op(state["knowledge"][1 - owner][kind], *args)


# ----------------------------------------------------------------------------------------- actors


def actors(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "setup":
        return [p for p in (0, 1) if state["setup"][p] or state["arrange"][p]]
    if phase in ("veto", "spy_draw"):
        return [other(state["active"])]
    return [state["active"]]


# ------------------------------------------------------------------------------------------ moves


def moves(state: State, seat: int) -> list[Action]:
    phase = state["phase"]
    if phase == "setup":
        return setup_moves(state, seat)
    if phase == "turn":
        return turn_moves(state, seat)
    if phase == "veto":
        return ([VETO] if "veto" in state["hand_actions"][seat] else []) + [ALLOW]
    if phase == "spy":
        opp = other(seat)
        return ([{"type": "spy_pick", "value": v} for v in kinds_of(state["hand"][opp])]
                + [{"type": "spy_pick", "card": c} for c in distinct(state["hand_actions"][opp])])
    if phase == "castle":
        return castle_moves(state, seat)
    if phase == "draw":
        return refill_moves(state, seat)
    if phase == "spy_draw":
        return [{"type": "draw", "pile": pile} for pile in piles(state, seat)]
    if phase == "exchange":
        return exchange_moves(state, seat)
    if phase == "final":
        return place_moves(state, seat, down=True, up=True, pair=False)
    return []


def setup_moves(state: State, seat: int) -> list[Action]:
    """RULES 1.3.4: one card of the setup series per group, face down, group after group; then (option
    "arrange", RULES 1.3.3) the action pile, card after card from the top."""
    if state["setup"][seat]:
        group = GROUPS[len(GROUPS) - len(state["setup"][seat])]
        return [{"type": "setup_place", "group": group, "value": v} for v in kinds_of(state["setup"][seat])]
    return [{"type": "arrange", "card": c} for c in distinct(state["arrange"][seat])]


def place_moves(state: State, p: int, down: bool, up: bool, pair: bool) -> list[Action]:
    """Influence placements of seat p. `pair`: a first face-up card is legal only if a second face-up card
    can follow it (RULES 1.4.2: exactly two face up)."""
    hand = state["hand"][p]
    if not hand:
        return []
    targets = []
    for gi in range(len(GROUPS)):
        cap = room(state, gi, p)
        if cap > 0:
            targets.append((GROUPS[gi], cap))
    if not targets:
        return []
    # A first face-up card needs a second card in hand and room for it afterwards.
    many = len(targets) > 1 and len(hand) >= 2
    out: list[Action] = []
    for v in kinds_of(hand):
        for group, cap in targets:
            if down:
                out.append({"type": "place", "value": v, "group": group, "face": "down"})
            if up and (not pair or many or (cap >= 2 and len(hand) >= 2)):
                out.append({"type": "place", "value": v, "group": group, "face": "up"})
    return out


def placement_done(t: dict[str, Any]) -> bool:
    return (t["mode"] == "down" and t["placed"] >= 1) or (t["mode"] == "up" and t["placed"] == 2)


def turn_moves(state: State, p: int) -> list[Action]:
    """An active turn (RULES 1.4.2): the placement, the optional action card, then the refill, which also
    says "no (more) action card". The first active move makes the turn active; "passive" is offered only at
    its start (RULES 1.4.1), and is the only move when no placement is possible (RULES 1.4.6)."""
    t = state["t"]
    if t["mode"] == "up" and t["placed"] == 1:  # the second face-up card, and nothing else
        return place_moves(state, p, down=False, up=True, pair=False)
    out: list[Action] = []
    if not t["started"]:
        placements = place_moves(state, p, down=True, up=True, pair=True)
        if not placements:
            return [PASSIVE]
        out = [PASSIVE, *placements]
    elif t["placed"] == 0:
        out += place_moves(state, p, down=True, up=True, pair=True)
    elif (t["mode"] == "down" and t["placed"] == 1 and t["action"] == "none"
          and state["options"]["two_face_down"]):  # the Italian house rule (RULES 1.4.4)
        out += place_moves(state, p, down=True, up=False, pair=False)
    if t["action"] == "none":
        out += action_moves(state, p)
        if placement_done(t):
            out += refill_moves(state, p)
    return out


def refill_moves(state: State, p: int) -> list[Action]:
    """The refill (RULES 1.4.2.6, 1.4.3): one card at a time from the reserve of one's choice, or, when two
    or more cards are missing and both reserves have cards, all of them at once: `influence` of them from
    the influence reserve and the rest from the action reserve. Nothing to draw: "end_turn"."""
    need = HAND_SIZE - hand_size(state, p)
    available = piles(state, p)
    if need <= 0 or not available:
        return [END_TURN]
    out = [{"type": "draw", "pile": pile} for pile in available]
    if need >= 2 and len(available) == 2:
        low = max(0, need - len(state["action_reserve"][p]))
        high = min(need, len(state["reserve"][p]))
        out += [{"type": "refill", "influence": k} for k in range(low, high + 1)]
    return out


def action_moves(state: State, p: int) -> list[Action]:
    """Every action card seat p may announce now, with its targets (RULES 1.8; 1.8.8: not without a
    target). A Veto is only ever played in the opponent's window."""
    opp = other(p)
    up, down, left = state["up"], state["down"], state["left"]
    out: list[Action] = []
    for card in distinct(state["hand_actions"][p]):
        if card == "assassination":  # RULES 1.8.2: a face-up opponent card
            for gi, cards in enumerate(up[opp]):
                for v in kinds_of(cards):
                    out.append({"type": "play_action", "card": card, "group": GROUPS[gi], "value": v})
        elif card == "spy":  # RULES 1.8.3
            if hand_size(state, opp):
                out.append({"type": "play_action", "card": card})
        elif card == "castling":  # RULES 1.8.4: two open groups holding at least one of your cards
            open_groups = [gi for gi, n in enumerate(left) if n]
            for a, gi in enumerate(open_groups):
                for gj in open_groups[a + 1:]:
                    if up[p][gi] or down[p][gi] or up[p][gj] or down[p][gj]:
                        out.append({"type": "play_action", "card": card, "groups": [GROUPS[gi], GROUPS[gj]]})
        elif card == "scout":  # RULES 1.8.5: a group where the opponent has face-down cards
            for gi, cards in enumerate(down[opp]):
                if cards:
                    out.append({"type": "play_action", "card": card, "group": GROUPS[gi]})
        elif card == "wrath":  # RULES 1.8.6: a group with cards
            for gi in range(len(GROUPS)):
                if cards_at(state, gi):
                    out.append({"type": "play_action", "card": card, "group": GROUPS[gi]})
    return out


def castle_moves(state: State, p: int) -> list[Action]:
    """RULES 1.8.4: the cards taken back go face down, one at a time, to either of the two groups, within
    the limits. Any such step keeps the rest placeable (their total room only shrinks by the card placed)."""
    castle = state["castle"]
    out: list[Action] = []
    for v in kinds_of(castle["cards"]):
        for gi in castle["groups"]:
            if room(state, gi, p) > 0:
                out.append({"type": "castle", "value": v, "group": GROUPS[gi]})
    return out


def exchange_moves(state: State, p: int) -> list[Action]:
    """A passive turn (RULES 1.4.3): discard any number of cards, then refill to 5."""
    t = state["t"]
    out: list[Action] = []
    if not t["drew"]:
        out += [{"type": "discard", "value": v} for v in kinds_of(state["hand"][p])]
        out += [{"type": "discard", "card": c} for c in distinct(state["hand_actions"][p])]
    return out + refill_moves(state, p)


# ------------------------------------------------------------------------------------------- play


def play(state: State, seat: int, action: Action) -> None:
    kind = action["type"]
    if kind == "setup_place":
        setup_place(state, seat, action["value"])
    elif kind == "arrange":
        arrange(state, seat, action["card"])
    elif kind == "passive":
        state["t"]["passive"] = True
        state["t"]["started"] = True
        state["phase"] = "exchange"
        log(state, "passive", seat=seat)
    elif kind == "place":
        place(state, seat, action)
    elif kind == "play_action":
        announce(state, seat, action)
    elif kind == "veto":
        veto(state, seat)
    elif kind == "allow":
        log(state, "allow", seat=seat)
        resolve_action(state)
    elif kind == "spy_pick":
        spy_pick(state, seat, action)
    elif kind == "castle":
        castle_place(state, seat, action["value"], GROUP_INDEX[action["group"]])
    elif kind == "draw":
        chosen_draw(state, seat, action["pile"])
    elif kind == "refill":
        chosen_refill(state, seat, action["influence"])
    elif kind == "discard":
        exchange_discard(state, seat, action)
    elif kind == "end_turn":
        if state["phase"] == "turn":  # the active player declines an action card with nothing to draw
            if not eight_card_votes(state):
                after_refill(state)
        else:
            after_refill(state)


# --- undo and confirmations


def keeps_undo(state: State, p: int, action: Action, after: State) -> bool:
    """What an active player may take back (RULES 1.4.9): staying passive (nothing is shown before the
    exchange's discard) and a face-down placement that leaves the turn waiting for him (a face-up card has
    been seen; a placement that completes the turn goes on to votes or the refill, which draw cards). An
    announced action card opens the opponent's Veto window, and every draw shows a card: both close it."""
    if action["type"] == "passive":
        return True
    return (action["type"] == "place" and action["face"] == "down" and state["phase"] == "turn"
            and after["phase"] == "turn" and after["t"]["action"] == "none")


def confirmation(state: State, p: int, action: Action) -> str | None:
    """RULES 1.4.9: the first draw of an active turn (or ending it with nothing to draw) gives up the
    turn's action card; when one could still be played, the page asks first."""
    if (action["type"] in ("draw", "refill", "end_turn") and state["phase"] == "turn"
            and state["t"]["action"] == "none" and action_moves(state, p)):
        return "cc.turn_with_actions_unused"
    return None


# --- setup


def setup_place(state: State, p: int, value: int) -> None:
    while True:
        setup = state["setup"][p]
        gi = len(GROUPS) - len(setup)
        state["setup"][p] = setup = without_card(setup, value)
        state["down"][p][gi] = with_card(state["down"][p][gi], value)
        know(state, p, "influence", kn.move, "setup", ZONE_DOWN[gi])
        if len(setup) != 1:
            break
        value = int(setup)  # the last card has one place left: no decision
    if not setup:
        log(state, "setup_done", seat=p)
    maybe_start(state)


def arrange(state: State, p: int, card: str) -> None:
    pile = state["arrange"][p]
    while True:
        pile.remove(card)
        state["action_reserve"][p].insert(0, card)  # cards are stacked from the top down; the top is last
        know(state, p, "action", kn.move, "arrange", "reserve")
        if len(pile) != 1:  # only a single last card is placed without asking (a count, never a type)
            break
        card = pile[0]
    if not pile:
        log(state, "arranged", seat=p)
    maybe_start(state)


def maybe_start(state: State) -> None:
    if state["phase"] == "setup" and not any(state["setup"][p] or state["arrange"][p] for p in (0, 1)):
        start_turn(state, FIRST_SEAT)


# --- turns


def start_turn(state: State, seat: int) -> None:
    """RULES 1.9.2, 1.9.3 and 1.4.7 are checked at the start of every turn."""
    state["turn"] += 1
    state["pending"] = None
    left = [len(state["hand"][q]) + len(state["reserve"][q]) for q in (0, 1)]
    if not left[0] and not left[1]:
        end_game(state, "no_influence")
        return
    for q in (0, 1):
        if not left[other(q)] and state["hand"][q]:
            state["active"] = q
            state["phase"] = "final"
            state["t"] = fresh_turn(final=True)
            log(state, "final_turn", seat=q, out_seat=other(q))
            check_final(state)
            return
    if not can_ever_place(state, 0) and not can_ever_place(state, 1):
        end_game(state, "stalemate")
        return
    state["active"] = seat
    state["phase"] = "turn"
    state["t"] = fresh_turn()
    log(state, "turn", seat=seat, n=state["turn"])


def next_turn(state: State) -> None:
    start_turn(state, other(state["active"]))


def place(state: State, p: int, action: Action) -> None:
    """Influence from hand to a group (RULES 1.4.2), face down (only its owner sees it) or face up."""
    v, gi, face = action["value"], GROUP_INDEX[action["group"]], action["face"]
    state["hand"][p] = without_card(state["hand"][p], v)
    if face == "down":
        state["down"][p][gi] = with_card(state["down"][p][gi], v)
        know(state, p, "influence", kn.move, "hand", ZONE_DOWN[gi])
        log(state, "place_down", hide=[p], seat=p, group=GROUPS[gi])
        log(state, "place_down_own", to=[p], seat=p, group=GROUPS[gi], value=v)
    else:
        state["up"][p][gi] = with_card(state["up"][p][gi], v)
        know(state, p, "influence", kn.reveal, "hand", [v])
        log(state, "place_up", seat=p, group=GROUPS[gi], value=v)
    t = state["t"]
    if state["phase"] == "final":
        check_final(state)
        return
    t["started"] = True
    t["mode"] = t["mode"] or face
    t["placed"] += 1
    if t["mode"] == "down" and t["placed"] == 2:  # the Italian option: two face down, no action card
        t["action"] = "barred"
    if placement_done(t) and t["action"] != "none":
        proceed(state)


def proceed(state: State) -> None:
    """Placement made and action card settled: 8-card votes (RULES 1.4.5), refill (1.4.6), vote card (1.4.7)."""
    if eight_card_votes(state):
        return
    refill(state)


def chosen_draw(state: State, p: int, pile: str) -> None:
    phase = state["phase"]
    if phase == "spy_draw":
        draw_card(state, p, pile, replacement=True)
        after_action(state)
        return
    if phase == "turn" and eight_card_votes(state):  # the first draw of an active turn declines the action card
        return
    state["phase"] = "draw"
    draw_card(state, p, pile)
    refill(state)


def chosen_refill(state: State, p: int, influence: int) -> None:
    """All the missing cards at once: `influence` from the influence reserve, the rest from the other."""
    if state["phase"] == "turn" and eight_card_votes(state):  # this also declines the action card
        return
    state["phase"] = "draw"
    need = HAND_SIZE - hand_size(state, p)
    for _ in range(influence):
        draw_card(state, p, "influence")
    for _ in range(need - influence):
        draw_card(state, p, "action")
    refill(state)


def draw_card(state: State, p: int, pile: str, replacement: bool = False) -> Any:
    if pile == "influence":
        reserve = state["reserve"][p]
        card: Any = int(reserve[-1])
        state["reserve"][p] = reserve[:-1]
        state["hand"][p] = with_card(state["hand"][p], card)
    else:
        card = state["action_reserve"][p].pop()
        insort(state["hand_actions"][p], card)
    know(state, p, pile, kn.move, "reserve", "hand")
    if replacement:
        log(state, "replacement", hide=[p], seat=p, pile=pile)
        log(state, "replacement_own", to=[p], seat=p, card=card)
    else:
        state["t"]["drew"].append(card)
    return card


def refill(state: State) -> None:
    """Draw up to 5 (RULES 1.4.2.6, 1.4.3); the player chooses each card's reserve only when both have cards."""
    p = state["active"]
    while hand_size(state, p) < HAND_SIZE:
        available = piles(state, p)
        if not available:
            break
        if len(available) == 2:
            state["phase"] = "draw"
            return
        draw_card(state, p, available[0])
    after_refill(state)


def after_refill(state: State) -> None:
    p = state["active"]
    t = state["t"]
    if t["drew"]:
        influence = sum(1 for c in t["drew"] if isinstance(c, int))
        log(state, "refill", hide=[p], seat=p, influence=influence, actions=len(t["drew"]) - influence)
        log(state, "refill_own", to=[p], seat=p, cards=sorted(t["drew"], key=str))
    if not t["passive"]:
        draw_vote_card(state)
        if not state["ended"]:
            next_turn(state)
        return
    # The end of a passive turn (RULES 1.4.3: no vote card). One that changed nothing is a pass, and a pass
    # never ends the game by itself (RULES 1.4.7).
    if not t["discarded"] and not t["drew"]:
        log(state, "pass", seat=p)
    next_turn(state)


def exchange_discard(state: State, p: int, action: Action) -> None:
    if "value" in action:
        v = action["value"]
        state["hand"][p] = without_card(state["hand"][p], v)
        state["discard"][p] = with_card(state["discard"][p], v)
        know(state, p, "influence", kn.reveal, "hand", [v])
        log(state, "discard", seat=p, value=v)
    else:
        c = action["card"]
        state["hand_actions"][p].remove(c)
        insort(state["action_discard"][p], c)
        know(state, p, "action", kn.reveal, "hand", [c])
        log(state, "discard", seat=p, card=c)
    state["t"]["discarded"] += 1


def check_final(state: State) -> None:
    """RULES 1.9.3: the last turn places every influence card the limits allow, then its 8-card votes."""
    p = state["active"]
    if can_place(state, p):
        return
    if not eight_card_votes(state):
        end_game(state, "final_turn")


# --- action cards (RULES 1.8)


def announce(state: State, p: int, action: Action) -> None:
    """An action card is shown with its targets; the Veto window opens for the opponent, whether or not he
    holds a Veto (RULES 0.2, 1.8.7). The card is spent even if vetoed (1.8.1)."""
    card = action["card"]
    state["hand_actions"][p].remove(card)
    insort(state["action_discard"][p], card)
    know(state, p, "action", kn.reveal, "hand", [card])
    t = state["t"]
    t["action"] = "used"
    t["started"] = True
    pending: dict[str, Any] = {"seat": p, "card": card}
    if "group" in action:
        pending["group"] = action["group"]
    if "value" in action:
        pending["value"] = action["value"]
    if "groups" in action:
        pending["groups"] = list(action["groups"])
    state["pending"] = pending
    log(state, "announce", **{"seat": p, **{k: v for k, v in pending.items() if k != "seat"}})
    state["phase"] = "veto"


def veto(state: State, seat: int) -> None:
    state["hand_actions"][seat].remove("veto")
    insort(state["action_discard"][seat], "veto")
    know(state, seat, "action", kn.reveal, "hand", ["veto"])
    log(state, "veto", seat=seat, card=state["pending"]["card"])
    state["pending"] = None
    after_action(state)


def after_action(state: State) -> None:
    state["phase"] = "turn"
    state["pending"] = None
    if placement_done(state["t"]):
        proceed(state)


def resolve_action(state: State) -> None:
    pending = state["pending"]
    p = pending["seat"]
    opp = other(p)
    card = pending["card"]
    up = state["up"]
    if card == "assassination":
        gi, v = GROUP_INDEX[pending["group"]], pending["value"]
        up[opp][gi] = without_card(up[opp][gi], v)
        state["discard"][opp] = with_card(state["discard"][opp], v)
        log(state, "assassinated", seat=opp, group=pending["group"], value=v)
    elif card == "scout":
        gi = GROUP_INDEX[pending["group"]]
        turn_up(state, gi, opp)
        log(state, "scouted", seat=opp, group=pending["group"], values=values_of(up[opp][gi]))
    elif card == "wrath":
        gi = GROUP_INDEX[pending["group"]]
        gone = []
        for q in (0, 1):
            turn_up(state, gi, q)
            gone.append(values_of(up[q][gi]))
            state["discard"][q] = merged(state["discard"][q], up[q][gi])
            up[q][gi] = ""
        log(state, "wrath", group=pending["group"], a_seat=0, a_values=gone[0], b_seat=1, b_values=gone[1])
    elif card == "spy":
        state["pending"] = None
        state["phase"] = "spy"
        # Only the spy learns the hand (RULES 1.8.3), so only his knowledge changes.
        kn.learn(state["knowledge"][p]["influence"], "hand", values_of(state["hand"][opp]))
        kn.learn(state["knowledge"][p]["action"], "hand", state["hand_actions"][opp])
        log(state, "spy_seen", to=[p], seat=opp,
            cards=values_of(state["hand"][opp]) + list(state["hand_actions"][opp]))
        return
    elif card == "castling":
        state["pending"] = None
        start_castling(state, p, [GROUP_INDEX[g] for g in pending["groups"]])
        return
    after_action(state)


def turn_up(state: State, gi: int, q: int) -> None:
    down = state["down"][q][gi]
    if down:
        know(state, q, "influence", kn.reveal, ZONE_DOWN[gi], values_of(down))
        state["up"][q][gi] = merged(state["up"][q][gi], down)
        state["down"][q][gi] = ""


def spy_pick(state: State, p: int, action: Action) -> None:
    """RULES 1.8.3: the spied player discards the chosen card and draws a replacement from the reserve of
    his choice (asked only when both reserves have cards)."""
    opp = other(p)
    if "value" in action:
        v = action["value"]
        state["hand"][opp] = without_card(state["hand"][opp], v)
        state["discard"][opp] = with_card(state["discard"][opp], v)
        kind = "influence"
        log(state, "spy_discard", seat=opp, value=v)
    else:
        v = action["card"]
        state["hand_actions"][opp].remove(v)
        insort(state["action_discard"][opp], v)
        kind = "action"
        log(state, "spy_discard", seat=opp, card=v)
    know(state, opp, kind, kn.reveal, "hand", [v])
    available = piles(state, opp)
    if len(available) == 2:
        state["phase"] = "spy_draw"
        return
    if available:
        draw_card(state, opp, available[0], replacement=True)
    after_action(state)


def start_castling(state: State, p: int, gis: list[int]) -> None:
    """RULES 1.8.4: all your cards at the two groups, face up ones included, are taken back."""
    cards = ""
    known = ""
    for gi in gis:
        cards += state["up"][p][gi] + state["down"][p][gi]
        known += state["up"][p][gi]
        state["up"][p][gi] = ""
        state["down"][p][gi] = ""
    know(state, p, "influence", kn.gather, [ZONE_DOWN[gi] for gi in gis], "castle", values_of(known))
    state["castle"] = {"seat": p, "groups": gis, "cards": cards_of(cards)}
    state["phase"] = "castle"
    log(state, "castling_taken", seat=p, group=GROUPS[gis[0]], group2=GROUPS[gis[1]], count=len(cards))
    auto_castle(state)


def castle_place(state: State, p: int, value: int, gi: int) -> None:
    state["castle"]["cards"] = without_card(state["castle"]["cards"], value)
    state["down"][p][gi] = with_card(state["down"][p][gi], value)
    know(state, p, "influence", kn.move, "castle", ZONE_DOWN[gi])
    auto_castle(state)


def auto_castle(state: State) -> None:
    """When only one of the two groups has room, the rest goes there without a decision; when all is
    placed the turn goes on."""
    castle = state["castle"]
    p = castle["seat"]
    open_groups = [gi for gi in castle["groups"] if room(state, gi, p) > 0]
    if castle["cards"] and len(open_groups) == 1:
        gi = open_groups[0]
        state["down"][p][gi] = merged(state["down"][p][gi], castle["cards"])
        know(state, p, "influence", kn.move, "castle", ZONE_DOWN[gi], len(castle["cards"]))
        castle["cards"] = ""
    if castle["cards"]:
        return
    a, b = castle["groups"]
    down = state["down"][p]
    log(state, "castled", seat=p, group=GROUPS[a], count=len(down[a]), group2=GROUPS[b], count2=len(down[b]))
    state["castle"] = None
    after_action(state)


# ------------------------------------------------------------------------------------------ votes


def eight_card_votes(state: State) -> bool:
    """RULES 1.4.5: every group holding exactly 8 cards votes. Returns True if the game ended."""
    for gi in range(len(GROUPS)):
        if state["left"][gi] and cards_at(state, gi) == GROUP_LIMIT:
            vote(state, gi, "eight")
            if state["ended"]:
                return True
    return False


def draw_vote_card(state: State) -> None:
    """RULES 1.4.7, 1.5: the top vote card: a group votes, an Orgy does nothing, the reshuffle Orgy shuffles
    every discarded vote card and itself back into the draw pile."""
    deck = state["vote_deck"]
    if not deck:  # RULES 1.5.4 (cannot happen while the reshuffle Orgy is in the game)
        deck.extend(state["vote_discard"])
        state["vote_discard"] = []
        deck.sort()
        rng.shuffle(state, deck)
        log(state, "reshuffle")
    card = deck.pop()
    log(state, "vote_card", card=card)
    if card in GROUP_INDEX:
        # Discarded face up as it is resolved: if the vote exhausts the group, exhaust() takes it out again.
        state["vote_discard"].append(card)
        vote(state, GROUP_INDEX[card], "card")
    elif card == ORGY:
        state["vote_discard"].append(card)
    elif card == ORGY_RESHUFFLE:
        deck.extend(state["vote_discard"])
        deck.append(card)
        state["vote_discard"] = []
        deck.sort()
        rng.shuffle(state, deck)
        log(state, "reshuffle")


def vote(state: State, gi: int, cause: str) -> None:
    """RULES 1.6: reveal, sums, reversal by unequal Philosopher counts, ties, the sole-Philosopher rule,
    the winner takes the top patrician, discards, exhaustion."""
    for q in (0, 1):  # 1.6.1
        turn_up(state, gi, q)
    up = [state["up"][0][gi], state["up"][1][gi]]
    sums = [strength(up[0]), strength(up[1])]
    philosophers = [up[0].count(str(PHILOSOPHER)), up[1].count(str(PHILOSOPHER))]
    numbered = [[v for v in values_of(up[q]) if v != PHILOSOPHER] for q in (0, 1)]
    group = GROUPS[gi]
    args = {"group": group, "cause": cause, "a_seat": 0, "a_values": values_of(up[0]), "a_sum": sums[0],
            "b_seat": 1, "b_values": values_of(up[1]), "b_sum": sums[1]}
    winner = None
    reversed_vote = philosophers[0] != philosophers[1]
    for q in (0, 1):  # 1.6.4: every card at the group is one player's, and all are Philosophers
        if up[q] and not numbered[q] and not up[other(q)]:
            winner = q
    if winner is None and sums[0] != sums[1]:  # 1.6.2 (1.6.3, 1.6.8: equal sums are a tie)
        high = 0 if sums[0] > sums[1] else 1
        winner = other(high) if reversed_vote else high
    if winner is None:
        log(state, "vote_tie", **args)
        return
    # 1.6.5
    state["left"][gi] -= 1
    state["won"][winner][gi] += 1
    log(state, "vote_won", winner_seat=winner, reversed=reversed_vote, **args)
    gone: list[list[int]] = [[], []]
    if sums[0] != sums[1]:
        high = 0 if sums[0] > sums[1] else 1
        if numbered[high]:
            gone[high].append(max(numbered[high]))
        if numbered[other(high)]:
            gone[other(high)].append(min(numbered[other(high)]))
    for q in (0, 1):
        gone[q] += [PHILOSOPHER] * philosophers[q]
        for v in gone[q]:
            state["up"][q][gi] = without_card(state["up"][q][gi], v)
            state["discard"][q] = with_card(state["discard"][q], v)
        if gone[q]:
            log(state, "vote_discard", seat=q, values=sorted(gone[q]))
    if not state["left"][gi]:
        exhaust(state, gi)
    if not any(state["left"]):  # RULES 1.9.1: the last of the 21 patricians is won
        end_game(state, "last_patrician")


def exhaust(state: State, gi: int) -> None:
    """RULES 1.5.3: the group's cards are discarded and its vote card leaves the game; option (a) of
    RULES 1.5.5 removes a plain Orgy when the second group is exhausted."""
    for q in (0, 1):
        state["discard"][q] = merged(state["discard"][q], state["up"][q][gi])
        state["up"][q][gi] = ""
    card = GROUPS[gi]
    for pile in (state["vote_deck"], state["vote_discard"]):
        if card in pile:
            pile.remove(card)
            state["vote_removed"].append(card)
    state["exhausted"] += 1
    log(state, "exhausted", group=card)
    if (state["options"]["orgy_removed_on_exhaustion"]
            and state["exhausted"] == EXHAUSTED_GROUPS_FOR_ORGY_REMOVAL):
        for pile in (state["vote_discard"], state["vote_deck"]):  # the public pile first (RULES 1.5.6)
            if ORGY in pile:
                pile.remove(ORGY)
                state["vote_removed"].append(ORGY)
                log(state, "orgy_removed")
                break


# ------------------------------------------------------------------------------------------- end


def end_game(state: State, reason: str) -> None:
    """The game is over: every face-down card is turned up and both missions are shown (RULES 1.9.5)."""
    state["ended"] = reason
    state["phase"] = "over"
    state["pending"] = None
    for gi in range(len(GROUPS)):
        for q in (0, 1):
            turn_up(state, gi, q)
    log(state, "game_over", reason=reason, a_seat=0, a_mission=state["missions"][0],
        b_seat=1, b_mission=state["missions"][1])


def finished(state: State) -> bool:
    return state["ended"] is not None


# The rules set no limit to passes that change nothing (RULES 1.4.7): `action_bound` counts at most this many
# in a row. Random playouts and bots stay far below it (a pass is rarely chosen when anything else is legal).
PASSES_IN_A_ROW = 10


def action_bound() -> int:
    """An upper bound on the actions of a game in which no more than PASSES_IN_A_ROW passes (passive turns
    that neither discard nor draw) come in a row.

    Per seat, 32 influence cards are ever in hand (5 + the 27 of the reserve) and 45 cards in all (with the
    13 action cards), and 40 are ever drawn. An active turn places at least one influence card from the
    hand, for good (RULES 1.4.2): at most 2 x 32 active turns. A passive turn that is not a pass discards
    or draws at least one card: active and such passive turns together are at most 2 x (45 + 40). An active
    turn takes at most 2 placements + 1 action card + 1 Veto answer + 10 Castling placements (or a spy pick
    and a replacement draw) + 5 draws; a passive one 1 + 5 discards + 5 draws; a pass 2; the final turn 5
    placements; the setup 5 + 13 per seat."""
    in_hand = HAND_SIZE + len(influence_reserve())
    cards = in_hand + len(action_deck())
    drawn = len(influence_reserve()) + len(action_deck())
    active = 2 * in_hand
    busy = 2 * (cards + drawn)
    per_active = 2 + 1 + 1 + 2 * OWN_LIMIT + HAND_SIZE
    per_passive = 1 + 2 * HAND_SIZE
    setup = 2 * (len(SETUP_SERIES) + len(action_deck()))
    passes = (busy + 1) * PASSES_IN_A_ROW * 2
    return active * per_active + (busy - active) * per_passive + passes + HAND_SIZE + setup


# ------------------------------------------------------------------------------------------ refusals


def refusal(state: State, seat: Seat, action: Action) -> tuple[str, dict[str, Any]] | None:
    """Why an actor's action is refused: a code of messages.REFUSALS and its arguments. It speaks only of the
    seat's own cards and of public facts."""
    kind = action.get("type")
    phase = state["phase"]
    t = state["t"]
    if phase == "setup":
        return "cc.setup_first", {}
    if phase == "veto":
        if kind == "veto" and "veto" not in state["hand_actions"][seat]:
            return "cc.no_veto", {}
        return "cc.answer_action", {}
    if phase == "spy":
        return "cc.spy_choose", {}
    if phase == "castle":
        return "cc.castle_place", {}
    if phase in ("draw", "spy_draw"):
        return "cc.draw_now", {}
    if kind == "place":
        group = action.get("group")
        if not isinstance(group, str) or group not in GROUP_INDEX:
            return "cc.no_such_group", {}
        gi = GROUP_INDEX[group]
        if phase == "exchange":
            return "cc.passive_no_place", {}
        if action.get("value") not in values_of(state["hand"][seat]):
            return "cc.no_such_influence", {}
        if not state["left"][gi]:
            return "cc.group_closed", {}
        if len(state["up"][seat][gi]) + len(state["down"][seat][gi]) >= OWN_LIMIT:
            return "cc.own_limit", {"limit": OWN_LIMIT}
        if room(state, gi, seat) <= 0:
            return "cc.group_full", {"limit": GROUP_LIMIT}
        if phase == "turn":
            if t["mode"] == "up" and t["placed"] == 1:
                return "cc.second_face_up", {}
            if placement_done(t):
                return "cc.placed_already", {}
            if action.get("face") == "up":
                return "cc.no_second_face_up", {}
        return "cc.placement_not_allowed", {}
    if kind == "play_action":
        if phase == "final":
            return "cc.final_no_action", {}
        if phase == "exchange":
            return "cc.passive_no_action", {}
        if t["action"] != "none":
            return "cc.one_action", {}
        if t["mode"] == "up" and t["placed"] == 1:
            return "cc.second_face_up_first", {}
        if action.get("card") not in state["hand_actions"][seat]:
            return "cc.no_such_action_card", {}
        if action.get("card") == "veto":
            return "cc.veto_only_answer", {}
        return "cc.no_such_target", {}
    if kind == "passive":
        return ("cc.active_begun", {}) if t["started"] else ("cc.no_passive", {})
    if kind == "discard":
        if phase != "exchange":
            return "cc.discard_passive_only", {}
        if t["drew"]:
            return "cc.drawing_started", {}
        return "cc.no_such_card", {}
    if kind in ("draw", "refill"):
        if phase == "turn" and not placement_done(t):
            return "cc.place_before_draw", {}
        return "cc.no_draw", {}
    if kind == "end_turn":
        return "cc.turn_unfinished", {}
    if phase == "final":
        return "cc.final_place_all", {}
    return None

