"""The page flow: invite link -> name -> seat cookie; the personal seat link on another device; the spectator
link; actions as plain forms (no JavaScript)."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from .client import create

pytestmark = pytest.mark.asyncio


async def test_invite_seat_link_and_spectator_pages(live):
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
    assert page.status_code == 200 and "you are seat 1" in page.text
    seat_link = re.search(r'value="(http[^"]+/seat/[^"]+)"', page.text).group(1)

    # The personal link works from another device: it sets that device's cookie.
    async with httpx.AsyncClient(base_url=live.base) as phone:
        r = await phone.get(seat_link.replace(live.base, ""))
        assert r.status_code == 303
        page = await phone.get(f"/t/{table.id}")
        assert "you are seat 1" in page.text
        # Acting with a plain form (no JavaScript): the first legal action.
        action = re.search(r'name="action" value="([^"]+)"', page.text).group(1).replace("&#34;", '"')
        r = await phone.post(f"/t/{table.id}/act", data={"version": "2", "action": action})
        assert r.status_code == 303
        assert (await phone.get(f"/api/tables/{table.id}")).json()["version"] == 3
        assert json.loads(action)["type"] == "play"
    # A wrong seat link is refused.
    async with httpx.AsyncClient(base_url=live.base) as other:
        assert (await other.get(f"/t/{table.id}/seat/not-a-token")).status_code == 403
        assert (await other.get(f"/t/{table.id}")).status_code == 403
        watch = await other.get(f"/t/{table.id}/watch", params={"key": table.spectate})
        assert watch.status_code == 200 and "you are watching" in watch.text
        assert 'name="action"' not in watch.text
    for device in devices:
        await device.aclose()
