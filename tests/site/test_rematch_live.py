"""An end screen already open learns of the rematch live, in every game: when a player starts it, the other
players' open pages offer "Join the rematch" and the spectator's "Watch the rematch" (unless the rematch is
private), each equal to a reload; so does a page loaded before the rematch whose socket opened after it."""

from __future__ import annotations

import asyncio

import pytest

from games import REGISTRY
from games.core import rng
from games.core.conformance import random_step

from .live_page import InProcessSite, Viewer, assert_live_equals_reload, live_part, open_socket, settle

async def finished_table(site: InProcessSite, slug: str, **settings) -> tuple[str, list[Viewer]]:
    """A table of the game's fewest players played to its end with random moves, its players' and a spectator's
    viewers."""
    game = site.service.game(slug)
    body = (await site.http.post("/api/tables", json={"game": slug, "players": game.min_players,
                                                      **settings})).json()
    viewers = []
    for n in range(game.min_players):
        r = await site.http.post(f"/api/tables/{body['id']}/join", json={"invite": body["invite_key"],
                                                                           "name": f"P{n}"})
        viewers.append(Viewer(n, r.json()["token"]))
    viewers.append(Viewer(None, body["spectator_key"]))
    holder = {"rng": rng.seed_state(3)}
    while not game.finished((snap := await site.service.current(body["id"])).state):
        seat, action = random_step(game, snap.state, holder)
        await site.act(body["id"], viewers[seat], snap.version, action)
    return body["id"], viewers


async def start_rematch(site: InProcessSite, table_id: str, player: Viewer) -> str:
    r = await site.http.post(f"/t/{table_id}/rematch",
                             headers={"Cookie": f"tabula_seat_{table_id}={player.credential}"})
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


@pytest.mark.asyncio
@pytest.mark.parametrize("slug", sorted(REGISTRY))
async def test_open_end_screens_get_the_rematch_live_equal_to_a_reload(tmp_path, fresh_db_url, slug):
    async with InProcessSite(tmp_path, fresh_db_url) as site:
        table_id, viewers = await finished_table(site, slug)
        first, second, spectator = viewers[0], viewers[1], viewers[-1]
        for viewer in viewers:
            await site.connect(table_id, viewer)
        await settle()
        late = Viewer(None, spectator.credential, page=await site.get_page(table_id, spectator))
        await assert_live_equals_reload(site, table_id, viewers, "the end screens")
        assert "Join the rematch" not in live_part(second.page) and "Watch the rematch" not in live_part(spectator.page)

        rematch_id = await asyncio.wait_for(start_rematch(site, table_id, first), 30)
        await settle()
        await assert_live_equals_reload(site, table_id, viewers, "after the rematch was started")
        assert "Join the rematch" in live_part(second.page)
        assert f'href="/t/{rematch_id}/watch?key=' in live_part(spectator.page)
        assert "Watch the rematch" in live_part(spectator.page)
        assert "Join the rematch" not in live_part(spectator.page)

        # A page loaded before the rematch, its socket opened after: the socket brings the rematch.
        await open_socket(site, late)
        await settle()
        await assert_live_equals_reload(site, table_id, [late], "a page older than its socket")
        assert "Watch the rematch" in live_part(late.page)
        # A page loaded after it has it already: its socket sends nothing.
        fresh = Viewer(1, second.credential)
        await site.connect(table_id, fresh)
        await settle()
        assert fresh.socket.take() == []
        for viewer in [*viewers, late, fresh]:
            await viewer.socket.close()


@pytest.mark.asyncio
async def test_the_spectators_get_no_way_to_a_private_rematch_and_the_players_read_it_in_french(tmp_path):
    async with InProcessSite(tmp_path) as site:
        table_id, viewers = await finished_table(site, "cesar_cleopatre", private=True)
        for viewer in viewers:
            await site.connect(table_id, viewer, lang="fr")
        await asyncio.wait_for(start_rematch(site, table_id, viewers[0]), 30)
        await settle()
        await assert_live_equals_reload(site, table_id, viewers, "after a private rematch was started", lang="fr")
        assert "Rejoindre la revanche" in live_part(viewers[1].page)
        assert "revanche" not in live_part(viewers[2].page).lower()
        for viewer in viewers:
            await viewer.socket.close()
