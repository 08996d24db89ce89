"""The one source of randomness for every engine: SplitMix64, kept in the game state.

Python's `random` only promises `random()` itself to be stable across versions, so shuffles and
rolls use this small explicit generator instead. Its whole state is one 64-bit integer stored in
`state["rng"]`; no view ever includes it.
"""

from __future__ import annotations

from typing import Any, MutableSequence

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a table seed (any integer; only its low 64 bits count)."""
    return _mix(seed & MASK64)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def next_u64(state: dict[str, Any]) -> int:
    """Advance `state["rng"]` and return the next 64-bit output."""
    s = (state["rng"] + GOLDEN_GAMMA) & MASK64
    state["rng"] = s
    return _mix(s)


def below(state: dict[str, Any], n: int) -> int:
    """A uniform integer in [0, n), by rejection so that no value is favoured."""
    if n <= 0:
        raise ValueError("below() needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        z = next_u64(state)
        if z < limit:
            return z % n


def roll(state: dict[str, Any], sides: int = 6) -> int:
    """One die: 1..sides."""
    return below(state, sides) + 1


def shuffle(state: dict[str, Any], items: MutableSequence[Any]) -> None:
    """Fisher–Yates shuffle in place."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
