"""A game that is not in the lobby gets a real table page the same way as the others: its package, its
templates under templates/games/<slug>/ and one small presenter file; and it follows live, like the others."""

from __future__ import annotations

import pytest

from .live_page import InProcessSite, play_checked

pytestmark = pytest.mark.asyncio


async def test_the_benchmark_game_has_its_own_table_page_that_follows_live(tmp_path):
    async with InProcessSite(tmp_path) as site:
        table_id, viewers = await site.table("bench_cards", 2)
        seat = await site.get_page(table_id, viewers[0])
        assert 'id="bc-table"' in seat and 'id="bc-hand"' in seat and "Your hand" in seat
        watch = await site.get_page(table_id, viewers[-1])
        assert 'id="bc-table"' in watch and "Your hand" not in watch and 'name="action"' not in watch
        assert await play_checked(site, "bench_cards", 2, {}, seed=5, policy_seed=5) == 60

