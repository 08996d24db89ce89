"""Several clients submit at the same version at once: exactly one wins, no update is lost."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from .client import Socket, bearer, create_full

pytestmark = pytest.mark.asyncio


async def test_same_version_many_clients_exactly_one_succeeds(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=30) as http:
        table = await create_full(http)
        for version in range(2, 8):
            seat = version % 2
            # Eight HTTP clients and two sockets of the same seat, all with the same version.
            posts = [http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                               json={"version": version, "action": {"type": "play", "index": i % 5}})
                     for i in range(8)]
            socks = [await Socket.open(live.ws_base, table.id, f"?token={table.tokens[seat]}") for _ in range(2)]
            for s in socks:
                await s.until(lambda m: m["type"] in ("full", "synced"))

            async def over_socket(s, i):
                await s.send({"type": "act", "id": i, "version": version, "action": {"type": "play", "index": i}})
                return await s.reply(i)

            results = await asyncio.gather(*posts, *(over_socket(s, i) for i, s in enumerate(socks)))
            statuses = [r.status_code for r in results[:8]] + [
                200 if r["type"] == "ack" else r["status"] for r in results[8:]]
            assert statuses.count(200) == 1, statuses
            assert set(statuses) <= {200, 409}, statuses
            row = live.row(table.id)
            assert row["table"]["version"] == version + 1
            assert [a[0] for a in row["actions"]] == list(range(3, version + 2))  # one row per version, no gap
            for s in socks:
                await s.close()
