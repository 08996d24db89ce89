"""Placement rules of the five buildings and the rankings used when a round is evaluated.

Pure functions over plain data. Dice are ints 1-6; a roll is described by its value counts
(a 7-tuple, index 0 unused) because dice of equal value are interchangeable: every legal placement is
a sorted tuple of values, so `moves` can list them all.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from .cards import DIE_FACES, FORUM_PAIR_SUM

Counts = tuple[int, ...]


def counts_of(values: list[int]) -> Counts:
    counts = [0] * (DIE_FACES + 1)
    for v in values:
        counts[v] += 1
    return tuple(counts)


@lru_cache(maxsize=8192)
def sub_multisets(counts: Counts) -> tuple[tuple[int, ...], ...]:
    """Every distinct sub-multiset (sorted tuple of values) of a roll, the empty one first, then by size."""
    ranges = [range(counts[v] + 1) for v in range(1, DIE_FACES + 1)]
    subs = [tuple(v for v, k in zip(range(1, DIE_FACES + 1), ks) for _ in range(k)) for ks in product(*ranges)]
    return tuple(sorted(subs, key=lambda t: (len(t), t)))


@lru_cache(maxsize=8192)
def sub_multisets_of_size(counts: Counts, size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(t for t in sub_multisets(counts) if len(t) == size)


def remove_values(values: list[int], taken: list[int] | tuple[int, ...]) -> list[int]:
    """`values` less one occurrence of each of `taken` (which must all be there)."""
    rest = list(values)
    for v in taken:
        rest.remove(v)
    return rest


# ------------------------------------------------------------------------------------------- Templum

def templum_options(templum: list[list[int]], seat: int, counts: Counts) -> list[tuple[int, ...]]:
    """RULINGS 3.4.1. The first die in an empty Templum is exactly one die. Every later placement brings
    the player's own total to exactly (largest count) + 1 dice, with a sum strictly above the highest sum.
    The stack with the largest count always has the highest sum, so both are read off all stacks."""
    largest = max(len(stack) for stack in templum)
    highest = max(sum(stack) for stack in templum)
    own = templum[seat]
    return list(_templum_choices(counts, largest + 1 - len(own), highest - sum(own)))


@lru_cache(maxsize=65536)
def _templum_choices(counts: Counts, need: int, floor: int) -> tuple[tuple[int, ...], ...]:
    return tuple(dice for dice in sub_multisets_of_size(counts, need) if sum(dice) > floor)


def templum_best(templum: list[list[int]]) -> int | None:
    """The seat with the most Templum dice (unique: each placement makes a strictly larger stack)."""
    best = max(range(len(templum)), key=lambda s: (len(templum[s]), sum(templum[s])))
    return best if templum[best] else None


# ------------------------------------------------------------------------------------------- Senatus

def straight_key(straight: list[int]) -> tuple[int, int]:
    """RULINGS 3.5.2: longer beats shorter; at equal length the higher top value wins."""
    return (len(straight), straight[-1]) if straight else (0, 0)


def senatus_options(senatus: list[list[int]], seat: int, counts: Counts) -> list[tuple[int, ...]]:
    """RULINGS 3.5.1: a player's Senatus dice always form one straight (consecutive, no repeats). A new
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
    """RULINGS 3.6.1: one or more dice of one value; they join the player's combination of that value, and
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
    """RULINGS 3.6.2: every combination on its own, by number of dice, then by value: [[seat, value, count]]."""
    combos = [[s, v, castrum[s][v - 1]] for s in range(len(castrum)) for v in range(1, DIE_FACES + 1)
              if castrum[s][v - 1]]
    return sorted(combos, key=lambda c: (c[2], c[1]), reverse=True)


# --------------------------------------------------------------------------------------------- Forum

def forum_options(counts: Counts) -> list[tuple[int, ...]]:
    """RULINGS 3.7.1: one die of any value, or two dice adding up to 5 (1 + 4 or 2 + 3)."""
    options: list[tuple[int, ...]] = [(v,) for v in range(1, DIE_FACES + 1) if counts[v]]
    for low in range(1, FORUM_PAIR_SUM // 2 + 1):
        high = FORUM_PAIR_SUM - low
        if low != high and counts[low] and counts[high]:
            options.append((low, high))
    return options


def forum_insert(row: list[list[int]], seat: int, dice: tuple[int, ...] | list[int], columns: int
                 ) -> tuple[list[list[int]], list[list[int]]]:
    """RULINGS 3.7.2: each new die goes to the left of the dice of the same value, pushing the higher dice
    right; whatever ends beyond the last column leaves the row. Returns (row, dice pushed out), each die
    as [seat, value]. Inserting the dice of a pair one after the other or together gives the same row."""
    new = [list(d) for d in row]
    for value in dice:
        at = next((i for i, d in enumerate(new) if d[1] >= value), len(new))
        new.insert(at, [seat, value])
    return new[:columns], new[columns:]
