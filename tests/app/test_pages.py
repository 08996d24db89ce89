"""The page flow on both databases: invite link -> name -> seat cookie; the personal seat link on another
device; the spectator link; actions as plain forms (no JavaScript); giving a seat back; the admin page is
off without a token. (The site's own tests are in tests/site/.)"""

from __future__ import annotations

import html
import json
import re

import httpx
import pytest

from .client import create

pytestmark = pytest.mark.asyncio


def first_action(page: str) -> str:
    return html.unescape(re.search(r'name="action" value="([^"]+)"', page).group(1))


async def test_invite_seat_link_spectator_and_form_actions(live):
    async with httpx.AsyncClient(base_url=live.base) as anon:
        table = await create(anon)
        assert (await anon.get(f"/t/{table.id}/join", params={"key": "wrong"})).status_code == 403
        assert (await anon.get(f"/t/{table.id}/join", params={"key": table.spectate})).status_code == 403

    devices = []
    for name in ("Livia", "Marcus"):
        device = httpx.AsyncClient(base_url=live.base)
        page = await device.get(f"/t/{table.id}/join", params={"key": table.invite})
        assert page.status_code == 200 and "join-form" in page.text
        r = await device.post(f"/t/{table.id}/join", data={"key": table.invite, "name": name})
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table.id}"
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
        devices.append(device)
    livia = devices[0]
    page = await livia.get(f"/t/{table.id}")
    assert page.status_code == 200 and 'data-status="playing"' in page.text
    assert re.search(r'id="tb-seat-0" class="seat-main me', page.text)
    seat_link = re.search(r'id="link-seat" class="link" readonly value="(http[^"]+/seat/[^"]+)"', page.text).group(1)

    # The personal link works from another device: it sets that device's cookie.
    async with httpx.AsyncClient(base_url=live.base) as phone:
        r = await phone.get(seat_link.replace(live.base, ""))
        assert r.status_code == 303
        page = await phone.get(f"/t/{table.id}")
        assert re.search(r'id="tb-seat-0" class="seat-main me', page.text)
        # Acting with a plain form (no JavaScript): the first legal action, then back to the table.
        action = first_action(page.text)
        version = int(re.search(r'data-version="(\d+)"', page.text).group(1))
        r = await phone.post(f"/t/{table.id}/act", data={"version": str(version), "action": action})
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table.id}"
        assert (await phone.get(f"/api/tables/{table.id}")).json()["version"] == version + 1
        assert json.loads(action)["type"] == "play"
    # A wrong seat link is refused; the spectator link shows the table with no control.
    async with httpx.AsyncClient(base_url=live.base) as other:
        assert (await other.get(f"/t/{table.id}/seat/not-a-token")).status_code == 403
        # Without a seat, the plain table link is the open table's page: watch it, no control.
        open_page = await other.get(f"/t/{table.id}")
        assert open_page.status_code == 200 and 'id="open-watch"' in open_page.text
        assert 'name="action"' not in open_page.text and 'id="open-join"' not in open_page.text
        watch = await other.get(f"/t/{table.id}/watch", params={"key": table.spectate})
        assert watch.status_code == 200 and "You are watching" in watch.text
        assert 'name="action"' not in watch.text
    for device in devices:
        await device.aclose()


async def test_a_seat_is_given_back_in_the_waiting_room(live):
    async with httpx.AsyncClient(base_url=live.base) as device:
        table = await create(device)
        r = await device.post(f"/t/{table.id}/join", data={"key": table.invite, "name": "Livia"})
        assert r.status_code == 303
        room = await device.get(f"/t/{table.id}")
        assert 'data-status="lobby"' in room.text and 'action="/t/' + table.id + '/leave"' in room.text
        r = await device.post(f"/t/{table.id}/leave")
        assert r.status_code == 303 and r.headers["location"] == "/"
        seats = (await device.get(f"/api/tables/{table.id}")).json()["seats"]
        assert not any(s["taken"] for s in seats)


async def test_the_admin_page_is_off_without_an_admin_token(live, monkeypatch):
    monkeypatch.delenv("TABULA_ADMIN_TOKEN", raising=False)
    async with httpx.AsyncClient(base_url=live.base) as http:
        r = await http.get("/admin")
        assert r.status_code == 404 and "TABULA_ADMIN_TOKEN" in r.text
        assert (await http.post("/admin", data={"token": ""})).status_code == 404
