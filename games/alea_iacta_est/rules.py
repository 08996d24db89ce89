"""The rules of Alea Iacta Est (César jouait-il aux dés ?): the state, turns, round evaluation, and the placement
rules and rankings of the five buildings.

The state is plain JSON data (see `start` for every field). A round is a sequence of turns ("turn"
phase): the player to act has already rolled his unplaced dice (the roll is public), may re-roll any
subset for a Repete chip, then places one combination in one building. When someone places his last die
the pass is finished, unplaced dice go to the Latrina and the buildings are evaluated in order, each
choice being an action of the right seat: Fortuna tiles to keep ("fortuna" phase, all seats concerned at
once), the Senate card to keep ("senate"), the province to take ("castrum"), the patrician to take
("forum"). Choices with a single possible outcome are made automatically.

Rule numbers refer to RULES 3 (see RULES.md).

The placement rules are pure functions over plain data. Dice are ints 1-6; a roll is described by its value counts
(a 7-tuple, index 0 unused) because dice of equal value are interchangeable: every legal placement is
a sorted tuple of values, so `moves` can list them all.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core import Seat, State, copy_by_shape, log_entry, rng

from . import view
from .components import (
    CASTRUM, DICE_PER_PLAYER, DIE_FACES, FORUM, FORUM_PAIR_SUM, FORTUNA_TILES, LATRINA, PATRICIANS, PROVINCES,
    SENATE_DRAW, SENATE_RECEIVERS, SENATUS, SETUP, TEMPLUM, TEMPLUM_KEEP_BEST, TEMPLUM_KEEP_OTHER, senate_deck,
)

Counts = tuple[int, ...]

# The state's fields by shape, for `copy_state`: lists of immutable items, lists of such lists, and the
# Senate knowledge (per seat, groups of two such lists: see view.py).
FLAT_FIELDS = frozenset({"rolled", "unplaced", "latrina", "chips", "province_pile", "province_offer",
                         "patrician_pile", "patrician_offer", "fortuna_pile", "fortuna_discard",
                         "fortuna_discard_by", "fortuna_keep", "senate_deck", "senate_under", "senate_offer",
                         "senate_next"})
NESTED_FIELDS = frozenset({"templum", "senatus", "castrum", "forum", "provinces", "patricians", "fortuna_drawn",
                           "fortuna_kept", "senate_hands", "queue"})


def copy_state(state: State) -> State:
    """A copy that `play` may mutate (games.core.copy_by_shape; the conformance suite checks it shares nothing
    mutable)."""
    return copy_by_shape(state, FLAT_FIELDS, NESTED_FIELDS, COPY_SPECIAL)


COPY_SPECIAL = {"senate_known": lambda known: [[{"cards": group["cards"].copy(), "slots": group["slots"].copy()}
                                                for group in groups] for groups in known]}


def counts_of(values: list[int]) -> Counts:
    counts = [0] * (DIE_FACES + 1)
    for v in values:
        counts[v] += 1
    return tuple(counts)


def sub_multisets(counts: Counts) -> tuple[tuple[int, ...], ...]:
    """Every distinct sub-multiset (sorted tuple of values) of a roll, the empty one first, then by size."""
    return _sub_multisets(counts)[0]


def sub_multisets_of_size(counts: Counts, size: int) -> tuple[tuple[int, ...], ...]:
    subsets, starts = _sub_multisets(counts)
    return subsets[starts[size]:starts[size + 1]] if 0 <= size < len(starts) - 1 else ()


# A roll's sub-multisets, and where those of each size start among them: every enumeration of the legal moves
# of the seat to act asks (its view, its bot, the page's controls), at each step of its turn, and computing
# them for eight dice costs more than the rest of a step. Kept for every roll (3 002 of at most eight dice),
# each a tuple of the shared sub-multisets (`_ONE_COPY`): 2.5 MB in all. Each roll with its own copies (and
# again per size and per Templum bound), these caches held about 30 MB once filled.
@lru_cache(maxsize=4096)
def _sub_multisets(counts: Counts) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    subs: list[tuple[int, ...]] = [()]
    for v in range(1, DIE_FACES + 1):
        if counts[v]:
            subs = [sub + (v,) * k for sub in subs for k in range(counts[v] + 1)]
    subs.sort(key=lambda t: (len(t), t))
    starts = [0] * (len(subs[-1]) + 2)  # starts[k]: the first of size k; the last, past the end
    for index in range(len(subs) - 1, -1, -1):
        starts[len(subs[index])] = index
    starts[-1] = len(subs)
    return tuple([_ONE_COPY.setdefault(sub, sub) for sub in subs]), tuple(starts)


_ONE_COPY: dict[tuple[int, ...], tuple[int, ...]] = {}  # each sub-multiset once (3 003 of at most eight dice)


def remove_values(values: list[int], taken: list[int] | tuple[int, ...]) -> list[int]:
    """`values` less one occurrence of each of `taken` (which must all be there)."""
    rest = list(values)
    for v in taken:
        rest.remove(v)
    return rest


# ------------------------------------------------------------------------------------------- Templum

def templum_options(templum: list[list[int]], seat: int, counts: Counts) -> list[tuple[int, ...]]:
    """RULES 3.4.1. The first die in an empty Templum is exactly one die. Every later placement brings
    the player's own total to exactly (largest count) + 1 dice, with a sum strictly above the highest sum.
    The stack with the largest count always has the highest sum, so both are read off all stacks."""
    largest = max(len(stack) for stack in templum)
    highest = max(sum(stack) for stack in templum)
    own = templum[seat]
    return list(_templum_choices(counts, largest + 1 - len(own), highest - sum(own)))


# Asked with the roll's sub-multisets, as often. Bounded by (roll, bound) pairs, under 1 kB each (their dice are
# the shared tuples of `_sub_multisets`): under 1 MB.
@lru_cache(maxsize=1024)
def _templum_choices(counts: Counts, need: int, floor: int) -> tuple[tuple[int, ...], ...]:
    return tuple(dice for dice in sub_multisets_of_size(counts, need) if sum(dice) > floor)


def templum_best(templum: list[list[int]]) -> int | None:
    """The seat with the most Templum dice (unique: each placement makes a strictly larger stack)."""
    best = max(range(len(templum)), key=lambda s: (len(templum[s]), sum(templum[s])))
    return best if templum[best] else None


# ------------------------------------------------------------------------------------------- Senatus

def straight_key(straight: list[int]) -> tuple[int, int]:
    """RULES 3.5.2: longer beats shorter; at equal length the higher top value wins."""
    return (len(straight), straight[-1]) if straight else (0, 0)


def senatus_options(senatus: list[list[int]], seat: int, counts: Counts) -> list[tuple[int, ...]]:
    """RULES 3.5.1: a player's Senatus dice always form one straight (consecutive, no repeats). A new
    straight, or an extension at either end, is legal only if the result beats the best straight there."""
    best = max(straight_key(s) for s in senatus)
    own = senatus[seat]
    candidates = _senatus_candidates(own[0] if own else 0, own[-1] if own else 0, best)
    return [new for new in candidates if all(counts[v] for v in new)]


@lru_cache(maxsize=None)
def _senatus_candidates(own_low: int, own_high: int, best: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """The dice to add for each straight that contains the player's own (low..high, 0 for none) and
    beats `best`, whatever the roll."""
    options = []
    for low in range(1, DIE_FACES + 1):
        for high in range(low, DIE_FACES + 1):
            if (high - low + 1, high) <= best:
                continue
            if own_low:
                if low > own_low or high < own_high or (low == own_low and high == own_high):
                    continue
                new = tuple(v for v in range(low, high + 1) if v < own_low or v > own_high)
            else:
                new = tuple(range(low, high + 1))
            options.append(new)
    return tuple(options)


def senatus_ranking(senatus: list[list[int]]) -> list[int]:
    """Seats with Senatus dice, best straight first (no ties are possible)."""
    return sorted((s for s in range(len(senatus)) if senatus[s]), key=lambda s: straight_key(senatus[s]),
                  reverse=True)


# ------------------------------------------------------------------------------------------- Castrum

def castrum_options(castrum: list[list[int]], seat: int, counts: Counts) -> list[tuple[int, ...]]:
    """RULES 3.6.1: one or more dice of one value; they join the player's combination of that value, and
    the resulting (count, value) may not equal another player's combination."""
    options = []
    own = castrum[seat]
    for v in range(1, DIE_FACES + 1):
        if not counts[v]:
            continue
        taken = {combos[v - 1] for o, combos in enumerate(castrum) if o != seat}
        for extra in range(1, counts[v] + 1):
            if own[v - 1] + extra not in taken:
                options.append((v,) * extra)
    return options


def castrum_ranking(castrum: list[list[int]]) -> list[list[int]]:
    """RULES 3.6.2: every combination on its own, by number of dice, then by value: [[seat, value, count]]."""
    combos = [[s, v, castrum[s][v - 1]] for s in range(len(castrum)) for v in range(1, DIE_FACES + 1)
              if castrum[s][v - 1]]
    return sorted(combos, key=lambda c: (c[2], c[1]), reverse=True)


# --------------------------------------------------------------------------------------------- Forum

def forum_options(counts: Counts) -> list[tuple[int, ...]]:
    """RULES 3.7.1: one die of any value, or two dice adding up to 5 (1 + 4 or 2 + 3)."""
    options: list[tuple[int, ...]] = [(v,) for v in range(1, DIE_FACES + 1) if counts[v]]
    for low in range(1, FORUM_PAIR_SUM // 2 + 1):
        high = FORUM_PAIR_SUM - low
        if low != high and counts[low] and counts[high]:
            options.append((low, high))
    return options


def forum_insert(row: list[list[int]], seat: int, dice: tuple[int, ...] | list[int], columns: int
                 ) -> tuple[list[list[int]], list[list[int]]]:
    """RULES 3.7.2: each new die goes to the left of the dice of the same value, pushing the higher dice
    right; whatever ends beyond the last column leaves the row. Returns (row, dice pushed out), each die
    as [seat, value]. Inserting the dice of a pair one after the other or together gives the same row."""
    new = [list(d) for d in row]
    for value in dice:
        at = next((i for i, d in enumerate(new) if d[1] >= value), len(new))
        new.insert(at, [seat, value])
    return new[:columns], new[columns:]


# ================================================================================== state and turns (3.3)

PLACE_BUILDINGS = (TEMPLUM, SENATUS, CASTRUM, FORUM)


def packed(dice: list[int] | tuple[int, ...]) -> int:
    """Dice or Fortuna values for a log entry, as one int of digits (3-4-5 is 345, none is 0): small and cheap
    to copy. `AleaIactaEst.render_log` prints them back as "3-4-5"."""
    return int("".join(str(v) for v in dice)) if dice else 0


def setup_for(state: State) -> dict[str, Any]:
    return SETUP[state["players"]]


def initial_state(players: int, rng_state: int) -> State:
    conf = SETUP[players]
    state: State = {
        "players": players, "rng": rng_state, "log": [],
        "round": 0,                 # 1-based once the first round begins
        "start": 0,                 # start player of the round (holds the Caesar marker)
        "phase": "turn",            # turn | fortuna | senate | castrum | forum | over
        "turn": None,               # seat whose turn it is (phase "turn")
        "ending": False,            # someone has placed his last die: the pass is being finished
        "rolled": [],               # the turn player's unplaced dice, as rolled (sorted, public)
        "unplaced": [DICE_PER_PLAYER] * players,
        "templum": [[] for _ in range(players)],    # each player's one stack (sorted values)
        "senatus": [[] for _ in range(players)],    # each player's one straight (sorted values)
        "castrum": [[0] * 6 for _ in range(players)],  # dice per value 1-6
        "forum": [],                # the row, left to right: [seat, value]
        "latrina": [0] * players,
        "chips": [0] * players,
        "province_pile": list(PROVINCES), "province_offer": [],
        "patrician_pile": list(PATRICIANS), "patrician_offer": [],
        "provinces": [[] for _ in range(players)],
        "patricians": [[] for _ in range(players)],
        # Fortuna (RULES 3.4): only with the Templum (4-5 players).
        "fortuna_pile": list(FORTUNA_TILES) if conf["templum"] else [],
        "fortuna_discard": [], "fortuna_discard_by": [],  # face-down discards and who put each there
        "fortuna_drawn": [[] for _ in range(players)],   # face-down tiles drawn this round
        "fortuna_keep": [0] * players,                   # tiles each must still choose to keep
        "fortuna_kept": [[] for _ in range(players)],    # kept tiles, face up
        # Senate (RULES 3.5): deck top first; cards returned "under" form the bottom of the pile.
        "senate_deck": senate_deck(players), "senate_under": [],
        "senate_hands": [[] for _ in range(players)],    # in order of receipt
        "senate_offer": [], "senate_holder": None, "senate_next": [],
        "senate_known": [[] for _ in range(players)],    # see view.py
        "queue": [],                # castrum: [[seat, value, count]]; forum: [[seat, value]]
    }
    rng.shuffle(state, state["province_pile"])
    rng.shuffle(state, state["patrician_pile"])
    rng.shuffle(state, state["fortuna_pile"])
    rng.shuffle(state, state["senate_deck"])
    # RULES 3.3: "the youngest player starts"; the app cannot know ages, so the first start player
    # is drawn by lot (a decision of ours, RULES.md D1).
    state["start"] = rng.below(state, players)
    state["log"].append(log_entry("first_player", seat=state["start"]))
    begin_round(state)
    return state


def actors(state: State) -> list[Seat]:
    phase = state["phase"]
    if phase == "turn":
        return [state["turn"]]
    if phase == "fortuna":
        return [s for s in range(state["players"]) if state["fortuna_keep"][s]]
    if phase == "senate":
        return [state["senate_holder"]]
    if phase in ("castrum", "forum"):
        return [state["queue"][0][0]]
    return []


def moves(state: State, seat: Seat) -> list[dict[str, Any]]:
    phase = state["phase"]
    if phase == "turn":
        return turn_moves(state, seat)
    if phase == "fortuna":
        options = sub_multisets_of_size(counts_of(state["fortuna_drawn"][seat]),
                                              state["fortuna_keep"][seat])
        return [{"type": "keep_fortuna", "tiles": list(t)} for t in options]
    if phase == "senate":
        return [{"type": "keep_senate", "card": c} for c in dict.fromkeys(state["senate_offer"])]
    if phase == "castrum":
        return [{"type": "take_province", "province": p} for p in state["province_offer"]]
    if phase == "forum":
        return [{"type": "take_patrician", "patrician": p} for p in state["patrician_offer"]]
    return []


def play(state: State, seat: Seat, action: dict[str, Any]) -> None:
    kind = action["type"]
    if kind == "reroll":
        reroll(state, seat, action["dice"])
    elif kind == "place":
        place(state, seat, action["building"], action["dice"])
    elif kind == "latrina":
        latrina_forced(state, seat, action["die"])
    elif kind == "end_turn":
        end_turn(state, seat)
    elif kind == "keep_fortuna":
        keep_fortuna(state, seat, action["tiles"])
        if not any(state["fortuna_keep"]):
            eval_senatus(state)
    elif kind == "keep_senate":
        keep_senate(state, seat, action["card"])
        senate_continue(state)
    elif kind == "take_province":
        take_province(state, seat, action["province"])
        castrum_continue(state)
    elif kind == "take_patrician":
        take_patrician(state, seat, action["patrician"])
        forum_continue(state)


def placements(state: State, seat: Seat, counts: Counts) -> list[tuple[str, tuple[int, ...]]]:
    """Every legal (building, dice) for this roll (RULES 3.4.1, 3.5.1, 3.6.1, 3.7.1)."""
    out: list[tuple[str, tuple[int, ...]]] = []
    if setup_for(state)["templum"]:
        out += [(TEMPLUM, d) for d in templum_options(state["templum"], seat, counts)]
    out += [(SENATUS, d) for d in senatus_options(state["senatus"], seat, counts)]
    out += [(CASTRUM, d) for d in castrum_options(state["castrum"], seat, counts)]
    out += [(FORUM, d) for d in forum_options(counts)]
    return out


END_TURN = {"type": "end_turn"}


def turn_moves(state: State, seat: Seat) -> list[dict[str, Any]]:
    if not state["rolled"]:
        # RULES 3.3.5: the placement is made, the next player has not rolled yet: pass the dice (or undo).
        return [dict(END_TURN)]
    counts = counts_of(state["rolled"])
    moves: list[dict[str, Any]] = [{"type": "place", "building": b, "dice": list(d)}
                                   for b, d in placements(state, seat, counts)]
    if not moves:
        # RULES 3.3.3: no legal placement at all: one die of his choice goes to the Latrina.
        moves = [{"type": "latrina", "die": v} for v in sorted(set(state["rolled"]))]
    if state["chips"][seat]:
        # RULES 3.8.2: one chip re-rolls any subset of the unplaced dice.
        moves += [{"type": "reroll", "dice": list(d)} for d in sub_multisets(counts)[1:]]
    return moves


def begin_round(state: State) -> None:
    """RULES 3.2 / 3.3.4: everyone takes his dice back; reveal one province per player under the Castrum
    and one patrician per Forum column; the start player rolls."""
    n = state["players"]
    conf = setup_for(state)
    state["round"] += 1
    state["unplaced"] = [DICE_PER_PLAYER] * n
    state["templum"] = [[] for _ in range(n)]
    state["senatus"] = [[] for _ in range(n)]
    state["castrum"] = [[0] * 6 for _ in range(n)]
    state["forum"] = []
    state["latrina"] = [0] * n
    state["ending"] = False
    state["phase"] = "turn"
    k = min(conf["provinces"], len(state["province_pile"]))
    state["province_offer"], state["province_pile"] = state["province_pile"][:k], state["province_pile"][k:]
    k = min(conf["columns"], len(state["patrician_pile"]))
    state["patrician_offer"], state["patrician_pile"] = state["patrician_pile"][:k], state["patrician_pile"][k:]
    state["log"].append(log_entry(
        "round_start", round=state["round"], rounds=conf["rounds"], seat=state["start"],
        provinces=list(state["province_offer"]), patricians=list(state["patrician_offer"])))
    begin_turn(state, state["start"])


def begin_turn(state: State, seat: Seat) -> None:
    """RULES 3.3.1: the player rolls all his unplaced dice (a seeded, public roll)."""
    state["turn"] = seat
    state["rolled"] = sorted(rng.roll(state) for _ in range(state["unplaced"][seat]))


def reroll(state: State, seat: Seat, dice: list[int]) -> None:
    """RULES 3.8.2: discard one chip and re-roll any subset of the unplaced dice."""
    state["chips"][seat] -= 1
    fresh = [rng.roll(state) for _ in dice]
    state["rolled"] = sorted(remove_values(state["rolled"], dice) + fresh)
    state["log"].append(log_entry("reroll", seat=seat, dice=packed(dice), new=packed(sorted(fresh)),
                                  chips=state["chips"][seat]))


def place(state: State, seat: Seat, building: str, dice: list[int]) -> None:
    """RULES 3.3.1: one legal combination in exactly one building (legality was checked by membership)."""
    roll = packed(state["rolled"])
    state["rolled"] = []
    state["unplaced"][seat] -= len(dice)
    if building == TEMPLUM:
        state["templum"][seat] = sorted(state["templum"][seat] + dice)
        available = len(state["fortuna_pile"]) + len(state["fortuna_discard"])
        state["log"].append(log_entry("place_templum", seat=seat, roll=roll, dice=packed(dice),
                                      count=min(len(dice), available)))
        drawn = draw_fortuna(state, seat, len(dice))
        if drawn:
            state["log"].append(log_entry("fortuna_draw_own", to=[seat], tiles=packed(sorted(drawn))))
        end_turn(state, seat)  # RULES 3.3.5: the tiles drawn cannot be put back, so nothing waits for an undo
        return
    state["log"].append(log_entry("place", seat=seat, roll=roll, dice=packed(dice), building=building))
    if building == SENATUS:
        state["senatus"][seat] = sorted(state["senatus"][seat] + dice)
    elif building == CASTRUM:
        state["castrum"][seat][dice[0] - 1] += len(dice)
    elif building == FORUM:
        row, out = forum_insert(state["forum"], seat, dice, setup_for(state)["columns"])
        state["forum"] = row
        for owner, value in out:
            state["latrina"][owner] += 1
            state["log"].append(log_entry("forum_out", owner_seat=owner, die=value))


def latrina_forced(state: State, seat: Seat, die: int) -> None:
    """RULES 3.3.3: with no legal placement, one die of the player's choice goes to the Latrina."""
    state["log"].append(log_entry("latrina_forced", seat=seat, roll=packed(state["rolled"]), die=die))
    state["rolled"] = []
    state["unplaced"][seat] -= 1
    state["latrina"][seat] += 1


def keeps_undo(state: State, seat: Seat, action: dict[str, Any]) -> bool:
    """RULES 3.3.5: a placement may be taken back until the player passes the dice, which rolls the next
    player's dice; a Templum placement draws Fortuna tiles and ends the turn at once. Re-rolls roll (the core
    closes the window on any roll) and the evaluation's choices are each answered by the next seat."""
    return action["type"] == "latrina" or (action["type"] == "place" and action["building"] != TEMPLUM)


def confirmation(state: State, seat: Seat, action: dict[str, Any]) -> str | None:
    """RULES 3.3.5: a Templum placement draws Fortuna tiles at once, so it cannot be taken back."""
    if action["type"] == "place" and action["building"] == TEMPLUM:
        return "aie.templum_final"
    return None


def end_turn(state: State, seat: Seat) -> None:
    """RULES 3.3.2: play goes clockwise to the next player with dice. Once a player has placed his last
    die, the pass is finished up to the player to the right of the start player, then the round ends."""
    n, start = state["players"], state["start"]
    if state["unplaced"][seat] == 0 and not state["ending"]:
        state["ending"] = True
        state["log"].append(log_entry("last_die", seat=seat))
    if state["ending"]:
        for pos in range((seat - start) % n + 1, n):
            nxt = (start + pos) % n
            if state["unplaced"][nxt]:
                begin_turn(state, nxt)
                return
        end_round(state)
        return
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        if state["unplaced"][nxt]:
            begin_turn(state, nxt)
            return
    raise AssertionError("a round cannot run out of dice without a last die being placed")


def end_round(state: State) -> None:
    """RULES 3.3.2: every unplaced die goes to the Latrina, then the buildings are evaluated in order."""
    state["turn"] = None
    state["rolled"] = []
    state["log"].append(log_entry("round_end", round=state["round"], per_seat=list(state["unplaced"])))
    for s in range(state["players"]):
        state["latrina"][s] += state["unplaced"][s]
        state["unplaced"][s] = 0
    eval_templum(state)


# ============================================================================ Templum (3.4)

def draw_fortuna(state: State, seat: Seat, count: int) -> list[int]:
    """RULES 3.4.1: one tile per die newly placed, looked at secretly. An empty pile is refilled from the
    shuffled discards (3.4.2); with both empty no tile is drawn (3.11)."""
    drawn = []
    for _ in range(count):
        if not state["fortuna_pile"] and state["fortuna_discard"]:
            state["fortuna_pile"] = state["fortuna_discard"]
            state["fortuna_discard"], state["fortuna_discard_by"] = [], []
            rng.shuffle(state, state["fortuna_pile"])
            state["log"].append(log_entry("fortuna_reshuffle", count=len(state["fortuna_pile"])))
        if not state["fortuna_pile"]:
            state["log"].append(log_entry("fortuna_empty", seat=seat))
            break
        drawn.append(state["fortuna_pile"].pop(0))
    state["fortuna_drawn"][seat] += drawn
    return drawn


def eval_templum(state: State) -> None:
    """RULES 3.4.2: the best player keeps 2 of his drawn tiles (1 if he drew 1), every other player
    there keeps 1; the rest go face down to the discard pile. A choice with one outcome is automatic."""
    best = templum_best(state["templum"]) if setup_for(state)["templum"] else None
    if best is None:
        eval_senatus(state)
        return
    state["log"].append(log_entry("templum_best", seat=best))
    for s in range(state["players"]):
        if not state["templum"][s]:
            continue
        drawn = state["fortuna_drawn"][s]
        keep = min(TEMPLUM_KEEP_BEST if s == best else TEMPLUM_KEEP_OTHER, len(drawn))
        options = sub_multisets_of_size(counts_of(drawn), keep)
        if len(options) == 1:
            keep_fortuna(state, s, list(options[0]))
        else:
            state["fortuna_keep"][s] = keep
    if any(state["fortuna_keep"]):
        state["phase"] = "fortuna"
    else:
        eval_senatus(state)


def keep_fortuna(state: State, seat: Seat, tiles: list[int]) -> None:
    """The kept tiles are turned face up for good (FR-AIE); the others go face down to the discards."""
    rest = remove_values(state["fortuna_drawn"][seat], tiles)
    state["fortuna_kept"][seat] = sorted(state["fortuna_kept"][seat] + tiles, reverse=True)
    state["fortuna_discard"] += rest
    state["fortuna_discard_by"] += [seat] * len(rest)
    state["fortuna_drawn"][seat] = []
    state["fortuna_keep"][seat] = 0
    state["log"].append(log_entry("fortuna_keep", seat=seat, tiles=packed(tiles), count=len(rest)))


# ============================================================================ Senatus (3.5)

def eval_senatus(state: State) -> None:
    """RULES 3.5.3: the best straight draws 3 Senate cards and keeps 1; the rest passes down the ranking
    (second-best at 3-5 players, third-best at 5); what is left goes under the deck. Ranked players who
    receive no card send their Senatus dice to the Latrina."""
    state["phase"] = "senate"
    ranking = senatus_ranking(state["senatus"])
    if not ranking:
        eval_castrum(state)
        return
    receivers = ranking[:SENATE_RECEIVERS[state["players"]]]
    for s in ranking[len(receivers):]:
        senatus_to_latrina(state, s)
    k = min(SENATE_DRAW, len(state["senate_deck"]) + len(state["senate_under"]))
    drawn = []
    for _ in range(k):
        if state["senate_deck"]:
            drawn.append(state["senate_deck"].pop(0))
        else:  # never happens with 18-19 cards (RULES.md 3.11); the returned cards would come next
            view.senate_take_from_under(state)
            drawn.append(state["senate_deck"].pop(0))
    state["log"].append(log_entry("senate_draw", seat=receivers[0], count=k))
    state["senate_offer"] = sorted(drawn, key=view.SENATE_SORT)
    state["senate_holder"] = receivers[0]
    state["senate_next"] = receivers[1:]
    if drawn:
        state["log"].append(log_entry("senate_see", to=[receivers[0]], cards=list(state["senate_offer"])))
    senate_continue(state)


def senatus_to_latrina(state: State, seat: Seat) -> None:
    count = len(state["senatus"][seat])
    state["senatus"][seat] = []
    state["latrina"][seat] += count
    state["log"].append(log_entry("senate_latrina", seat=seat, count=count))


def senate_continue(state: State) -> None:
    """Offer the cards to the holder; a choice with a single outcome is made for him."""
    while state["senate_holder"] is not None:
        holder = state["senate_holder"]
        if not state["senate_offer"]:
            # Fewer cards than receivers (cannot happen with the card counts): no card, dice to the Latrina.
            senatus_to_latrina(state, holder)
            pass_offer(state)
            continue
        if len(set(state["senate_offer"])) > 1:
            state["phase"] = "senate"
            return
        keep_senate(state, holder, state["senate_offer"][0])
    eval_castrum(state)


def keep_senate(state: State, seat: Seat, card: str) -> None:
    """The holder keeps one card secretly, then passes the rest on (or under the deck)."""
    view.senate_keep(state, seat, card)
    # Which card he kept shows in his own hand (view "own_senate"); the log only says that he kept one.
    state["log"].append(log_entry("senate_keep", seat=seat))
    pass_offer(state)


def pass_offer(state: State) -> None:
    holder = state["senate_holder"]
    if state["senate_next"]:
        receiver = state["senate_next"].pop(0)
        state["senate_holder"] = receiver
        if state["senate_offer"]:
            state["log"].append(log_entry("senate_pass", seat=holder, to_seat=receiver,
                                          count=len(state["senate_offer"])))
            state["log"].append(log_entry("senate_see", to=[receiver], cards=list(state["senate_offer"])))
        return
    state["senate_holder"] = None
    if state["senate_offer"]:
        state["log"].append(log_entry("senate_under", count=len(state["senate_offer"])))
        view.senate_offer_under(state)


# ============================================================================ Castrum (3.6)

def eval_castrum(state: State) -> None:
    """RULES 3.6.3: in ranking order each combination's owner chooses a revealed province."""
    state["phase"] = "castrum"
    state["queue"] = castrum_ranking(state["castrum"])
    castrum_continue(state)


def castrum_continue(state: State) -> None:
    while state["queue"] and state["province_offer"]:
        if len(state["province_offer"]) > 1:
            return
        take_province(state, state["queue"][0][0], state["province_offer"][0])
    # RULES 3.6.4: combinations that won nothing go to the Latrina; untaken provinces leave the game.
    for seat, value, count in state["queue"]:
        state["castrum"][seat][value - 1] = 0
        state["latrina"][seat] += count
        state["log"].append(log_entry("castrum_latrina", seat=seat, combo=packed([value] * count)))
    state["queue"] = []
    if state["province_offer"]:
        state["log"].append(log_entry("provinces_removed",
                                      provinces=list(state["province_offer"])))
        state["province_offer"] = []
    eval_forum(state)


def take_province(state: State, seat: Seat, province: str) -> None:
    _, value, count = state["queue"].pop(0)
    state["province_offer"].remove(province)
    state["provinces"][seat].append(province)
    state["log"].append(log_entry("castrum_take", seat=seat, combo=packed([value] * count), province=province))


# ============================================================================== Forum (3.7)

def eval_forum(state: State) -> None:
    """RULES 3.7.3: from the leftmost die rightwards, each die's owner chooses one revealed patrician."""
    state["phase"] = "forum"
    state["queue"] = [list(d) for d in state["forum"]]
    forum_continue(state)


def forum_continue(state: State) -> None:
    while state["queue"] and state["patrician_offer"]:
        if len(state["patrician_offer"]) > 1:
            return
        take_patrician(state, state["queue"][0][0], state["patrician_offer"][0])
    state["queue"] = []
    if state["patrician_offer"]:
        state["log"].append(log_entry("patricians_removed", patricians=list(state["patrician_offer"])))
        state["patrician_offer"] = []
    eval_latrina(state)


def take_patrician(state: State, seat: Seat, patrician: str) -> None:
    _, value = state["queue"].pop(0)
    state["patrician_offer"].remove(patrician)
    state["patricians"][seat].append(patrician)
    state["log"].append(log_entry("forum_take", seat=seat, die=value, patrician=patrician))


# ============================================================================= Latrina (3.8)

def eval_latrina(state: State) -> None:
    """RULES 3.8.1: one Repete chip per die in the Latrina; then the next round, or the end."""
    for s in range(state["players"]):
        state["chips"][s] += state["latrina"][s]
    state["log"].append(log_entry("chips", per_seat=list(state["latrina"])))
    if state["round"] >= setup_for(state)["rounds"]:
        state["phase"] = "over"
        state["turn"] = None
        state["log"].append(log_entry("game_end"))
        return
    state["start"] = (state["start"] + 1) % state["players"]  # RULES 3.3.4: the marker passes left
    begin_round(state)


# ============================================================================ refusals

def refusal(state: State, seat: Seat, action: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Why an actor's action is refused: a code of messages.REFUSALS and its arguments, from what the acting
    seat may know only."""
    kind = action.get("type")
    phase = state["phase"]
    if phase == "turn" and not state["rolled"] and kind != "end_turn":
        return "aie.now_end_turn", {}
    expected = {"turn": ("reroll", "place", "latrina", "end_turn"), "fortuna": ("keep_fortuna",),
                "senate": ("keep_senate",), "castrum": ("take_province",), "forum": ("take_patrician",)}
    if kind not in expected.get(phase, ()):
        return {"turn": "aie.now_turn", "fortuna": "aie.now_fortuna", "senate": "aie.now_senate",
                "castrum": "aie.now_castrum", "forum": "aie.now_forum"}.get(phase, "core.not_allowed"), {}
    extra = set(action) - {"type", "dice", "building", "die", "tiles", "card", "province", "patrician"}
    if extra:
        return "aie.extra_fields", {}
    if kind in ("reroll", "place"):
        dice = action.get("dice")
        if not isinstance(dice, list) or not dice or not all(isinstance(v, int) and not isinstance(v, bool)
                                                              for v in dice):
            return "aie.dice_values", {}
        try:
            remove_values(state["rolled"], dice)
        except ValueError:
            return "aie.not_your_dice", {}
        if kind == "reroll":
            return ("aie.no_chip", {}) if not state["chips"][seat] else ("aie.no_reroll", {})
        building = action.get("building")
        if building == LATRINA:
            return "aie.latrina_not_placeable", {}
        if building not in PLACE_BUILDINGS:
            return "aie.no_such_building", {}
        if building == TEMPLUM and not setup_for(state)["templum"]:
            return "aie.no_templum", {}
        if dice != sorted(dice):
            return "aie.dice_order", {}
        if building == TEMPLUM:
            largest = max(len(t) for t in state["templum"])
            highest = max(sum(t) for t in state["templum"])
            need = largest + 1 - len(state["templum"][seat])
            return ("aie.templum_one" if need == 1 else "aie.templum_more"), \
                {"count": largest + 1, "sum": highest, "need": need}
        if building == SENATUS:
            return "aie.senatus_straight", {}
        if building == CASTRUM:
            if len(set(dice)) > 1:
                return "aie.castrum_one_value", {}
            return "aie.castrum_tie", {}
        return "aie.forum_rule", {"sum": FORUM_PAIR_SUM}
    if kind == "latrina":
        return "aie.latrina_placeable", {}
    if kind == "keep_fortuna":
        return "aie.keep_fortuna", {"count": state["fortuna_keep"][seat]}
    if kind == "keep_senate":
        return "aie.keep_senate", {}
    if kind == "take_province":
        return "aie.take_province", {}
    if kind == "take_patrician":
        return "aie.take_patrician", {}
    return None
