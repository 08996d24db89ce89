"""The rules' caches stay small however many games are played (issue #23: a server's memory is bounded by
design). Before, every roll ever seen was kept, with its sub-multisets again by size and by Templum bound:
about 30 MB once filled, in the server and in the bot worker each."""

from __future__ import annotations

import gc
import itertools
import tracemalloc

from games.alea_iacta_est import rules
from games.alea_iacta_est.components import DICE_PER_PLAYER, DIE_FACES

BOUND = 4_000_000  # bytes: what the comments beside the caches promise (2.5 MB and 1 MB), and a margin


def test_every_roll_asked_about_leaves_the_caches_under_their_bound():
    rolls = [rules.counts_of(list(dice)) for n in range(1, DICE_PER_PLAYER + 1)
             for dice in itertools.combinations_with_replacement(range(1, DIE_FACES + 1), n)]
    templums = [[[], [], []], [[2], [], []], [[3, 4], [5], []], [[6, 6, 6], [1, 1], [2]]]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for counts in rolls:
            rules.sub_multisets(counts)
            for size in range(DICE_PER_PLAYER + 1):
                rules.sub_multisets_of_size(counts, size)
            for templum in templums:
                rules.templum_options(templum, 2, counts)
            for need, floor in itertools.product(range(1, DICE_PER_PLAYER + 1), range(0, 6 * DIE_FACES, 3)):
                rules._templum_choices(counts, need, floor)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held <= BOUND, f"{len(rolls)} rolls left {held / 1e6:.1f} MB in the caches"
