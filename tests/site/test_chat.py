"""The chat on the table page: the live page's chat equals the reloaded page's for every seat and the
spectator (messages, a deletion, a mute, a message written between the page's load and its socket), and in
headless Chromium a player's message appears live for the other player and the spectator while a
spectator's message never reaches a player's page."""

from __future__ import annotations

import re

import pytest

from app.services.tables import Audit

from .live_page import (AsgiSocket, InProcessSite, Viewer, apply_received, assert_live_equals_reload, extent,
                        first_difference, parse, settle)

def chat_part(page: str) -> str:
    return parse(page[slice(*extent(page, "tb-chat"))]).normal()


async def assert_chat_live_equals_reload(site: InProcessSite, table_id: str, viewers, when: str) -> None:
    await settle()
    for viewer in viewers:
        apply_received(viewer)
        live, reloaded = chat_part(viewer.page), chat_part(await site.get_page(table_id, viewer))
        assert live == reloaded, f"{when}: the chat of {viewer.name} differs:\n" + first_difference(live, reloaded)


@pytest.mark.asyncio
async def test_the_live_chat_equals_the_reloaded_chat_for_every_seat_and_the_spectator(tmp_path):
    async with InProcessSite(tmp_path) as site:
        table_id, viewers = await site.table("cesar_cleopatre", 2)
        for viewer in viewers:
            await site.connect(table_id, viewer)
        spectator = viewers[-1]
        await site.http.post(f"/t/{table_id}/chat", data={"text": "Ave, <3 & 'quotes'"},
                             headers={"HX-Request": "true",
                                      "Cookie": f"tabula_seat_{table_id}={viewers[0].credential}"})
        await assert_chat_live_equals_reload(site, table_id, viewers, "after a player's message")
        assert "Ave, &lt;3 &amp;" in viewers[1].page and "Ave, &lt;3 &amp;" in spectator.page
        r = await site.http.post(f"/t/{table_id}/chat", data={"key": spectator.credential, "name": "Titus",
                                                               "text": "spectators only"},
                                 headers={"HX-Request": "true"})
        assert r.status_code == 200 and "Titus" in r.text  # the form comes back with the name kept
        await assert_chat_live_equals_reload(site, table_id, viewers, "after a spectator's message")
        assert "spectators only" in spectator.page
        assert all("spectators only" not in v.page for v in viewers[:-1])
        chat = site.app.state.chat
        first = (await chat.chat_for(table_id, 0))[0]
        await chat.delete(table_id, first["id"], Audit("test", "chat-delete", table_id))
        await chat.mute(table_id, 1, True, Audit("test", "chat-mute", table_id))
        await assert_chat_live_equals_reload(site, table_id, viewers, "after a deletion and a mute")
        assert "Ave" not in spectator.page and "muted this chat" in viewers[1].page
        assert "muted this chat" not in viewers[0].page
        # A message written between a page's load and its socket: the socket brings it; a page loaded after
        # it has it already, and its socket sends no chat.
        late = viewers[0]
        await late.socket.close()
        loaded_before = await site.get_page(table_id, late)
        await site.http.post(f"/api/tables/{table_id}/chat", json={"text": "written meanwhile"},
                             headers={"Authorization": f"Bearer {late.credential}"})
        await site.connect(table_id, late)
        await settle()
        assert not [m for m in late.socket.take() if 'id="tb-chat"' in m]
        await late.socket.close()
        url = re.search(r'ws-connect="([^"]+)"', loaded_before).group(1).replace("&amp;", "&")
        path, _, query = url.partition("?")
        late.page = loaded_before
        late.socket = await AsgiSocket(site.app, path, query, {f"tabula_seat_{table_id}": late.credential}).open()
        await assert_chat_live_equals_reload(site, table_id, [late], "after a message written before the socket")
        assert "written meanwhile" in late.page
        for viewer in viewers:
            await viewer.socket.close()


@pytest.mark.asyncio
async def test_a_delayed_spectator_reads_the_players_chat_with_the_game_and_the_live_page_equals_a_reload(tmp_path):
    delay = 2
    async with InProcessSite(tmp_path) as site:
        body = (await site.http.post("/api/tables", json={"game": "cesar_cleopatre", "players": 2,
                                                          "spectator_delay": delay})).json()
        table_id = body["id"]
        viewers = []
        for n in range(2):
            r = await site.http.post(f"/api/tables/{table_id}/join", json={"invite": body["invite_key"],
                                                                            "name": f"P{n}"})
            viewers.append(Viewer(n, r.json()["token"]))
        spectator = Viewer(None, body["spectator_key"])
        viewers.append(spectator)
        for viewer in viewers:
            await site.connect(table_id, viewer)
        r = await site.http.post(f"/api/tables/{table_id}/chat", json={"text": "Salve"},
                                 headers={"Authorization": f"Bearer {viewers[0].credential}"})
        written_at = r.json()["version"]
        for step in range(delay + 1):
            await settle()
            await assert_live_equals_reload(site, table_id, viewers, f"step {step}")
            await assert_chat_live_equals_reload(site, table_id, viewers, f"step {step}")
            shown = int(re.search(r'id="tb-version"[^>]*data-version="(\d+)"', spectator.page).group(1))
            assert ("Salve" in chat_part(spectator.page)) == (shown >= written_at), (shown, written_at)
            assert all("Salve" in chat_part(v.page) for v in viewers[:2])
            for viewer in viewers[:2]:
                view = (await site.http.get(f"/api/tables/{table_id}/view",
                                            headers={"Authorization": f"Bearer {viewer.credential}"})).json()
                if view["view"]["game"]["legal_actions"]:
                    await site.act(table_id, viewer, view["version"], view["view"]["game"]["legal_actions"][0])
                    break
        assert "Salve" in chat_part(spectator.page)
        for viewer in viewers:
            await viewer.socket.close()


# ------------------------------------------------------------------------------------ in the browser

@pytest.mark.browser
@pytest.mark.timeout(180)
def test_a_players_message_appears_live_for_the_other_player_and_the_spectator_never_the_reverse(site, browser):
    http = site.http
    table = http.post("/api/tables", json={"game": "cesar_cleopatre", "players": 2}).json()
    tokens = [http.post(f"/api/tables/{table['id']}/join", json={"invite": table["invite_key"], "name": name})
              .json()["token"] for name in ("Livia", "Marcus")]
    pages = []
    for token in tokens:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{site.base}/t/{table['id']}/seat/{token}")
        pages.append(page)
    spectator = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    spectator.goto(table["spectator_url"])
    livia, marcus = pages
    for page in (livia, marcus, spectator):
        page.wait_for_function("() => document.querySelector('.presence.on')")  # its socket is up

    livia.fill("#tb-chat-text", "Ave, Marcus!")
    livia.click("#tb-chat-form button[type=submit]")
    for page in (marcus, spectator, livia):
        page.locator("#tb-chat .chat-text", has_text="Ave, Marcus!").wait_for(timeout=10_000)
    assert livia.input_value("#tb-chat-text") == ""  # the form came back empty

    spectator.fill("#tb-chat-name", "Titus")
    spectator.fill("#tb-chat-text", "Marcus cannot read this")
    spectator.click("#tb-chat-form button[type=submit]")
    spectator.locator("#tb-chat .chat-text", has_text="Marcus cannot read this").wait_for(timeout=10_000)
    marcus.fill("#tb-chat-text", "Vale")
    marcus.click("#tb-chat-form button[type=submit]")
    for page in (livia, spectator):
        page.locator("#tb-chat .chat-text", has_text="Vale").wait_for(timeout=10_000)
    for page in (livia, marcus):
        assert "Marcus cannot read this" not in page.content() and "Titus" not in page.content()
        page.reload()
        page.locator("#tb-chat .chat-text", has_text="Vale").wait_for(timeout=10_000)
        assert "Marcus cannot read this" not in page.content()
    for page in (livia, marcus, spectator):
        page.context.close()
