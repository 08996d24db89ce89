"""A small test client of the API and the websocket protocol (PROTOCOL.md), like a real one would be:
it keeps each connection's view by applying the patches in order, and asks for a full view on a gap."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
import jsonpatch
import websockets

TIMEOUT = 10.0


@dataclass
class Table:
    id: str
    invite: str
    spectate: str
    tokens: list[str] = field(default_factory=list)


async def create(http: httpx.AsyncClient, game: str = "bench_cards", players: int = 2, **extra: Any) -> Table:
    r = await http.post("/api/tables", json={"game": game, "players": players, **extra})
    assert r.status_code == 201, r.text
    body = r.json()
    return Table(body["id"], body["invite_key"], body["spectator_key"])


async def create_full(http: httpx.AsyncClient, game: str = "bench_cards", players: int = 2, **extra: Any) -> Table:
    table = await create(http, game, players, **extra)
    for n in range(players):
        r = await http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": f"P{n}"})
        assert r.status_code == 201, r.text
        assert r.json()["seat"] == n
        table.tokens.append(r.json()["token"])
    return table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def play_random(live: Any, http: httpx.AsyncClient, table: Table, game: Any, actions: int | None = None,
                      policy: int = 0) -> None:
    """Plays random legal actions (from the stored state) through the API: `actions` of them, or to the end."""
    from games.core import rng
    from games.core.conformance import random_step

    holder = {"rng": rng.seed_state(policy)}
    played = 0
    while actions is None or played < actions:
        row = live.row(table.id)["table"]
        state = game.decode(row["state"])
        if game.finished(state):
            return
        seat, action = random_step(game, state, holder)
        r = await http.post(f"/api/tables/{table.id}/actions", headers=bearer(table.tokens[seat]),
                            json={"version": row["version"], "action": action})
        assert r.status_code == 200, r.text
        played += 1


async def view(http: httpx.AsyncClient, table: Table, credential: str) -> dict[str, Any]:
    r = await http.get(f"/api/tables/{table.id}/view", headers=bearer(credential))
    assert r.status_code == 200, r.text
    return r.json()


class Socket:
    """One websocket connection with its own copy of the view."""

    def __init__(self, ws, label: str = ""):
        self.ws = ws
        self.label = label
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        self.raw: list[str] = []  # every message received, as bytes on the wire
        self.presence: dict[str, Any] | None = None
        self.replies: dict[Any, dict[str, Any]] = {}
        self.gaps = 0

    @classmethod
    async def open(cls, ws_base: str, table_id: str, query: str = "", label: str = "") -> "Socket":
        ws = await websockets.connect(f"{ws_base}/ws/tables/{table_id}{query}", max_size=None,
                                      open_timeout=TIMEOUT)
        return cls(ws, label)

    async def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(raw)
        msg = json.loads(raw)
        kind = msg["type"]
        if kind == "full":
            self.view, self.version = msg["view"], msg["version"]
        elif kind == "patch":
            if self.view is None or msg["from"] != self.version:
                self.gaps += 1
                await self.send({"type": "sync"})
            else:
                self.view = jsonpatch.apply_patch(self.view, msg["patch"])
                self.version = msg["version"]
        elif kind == "presence":
            self.presence = {"connected": msg["connected"], "spectators": msg["spectators"]}
        elif kind == "ping":
            await self.send({"type": "pong"})
        if "id" in msg and kind in ("ack", "error"):
            self.replies[msg["id"]] = msg
        return msg

    async def until(self, predicate, timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"{self.label}: timed out waiting")
            msg = await self.next(left)
            if predicate(msg):
                return msg

    async def at_version(self, version: int, timeout: float = TIMEOUT) -> None:
        if self.version is not None and self.version >= version:
            return
        await self.until(lambda _m: self.version is not None and self.version >= version, timeout)

    async def reply(self, request_id: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        if request_id in self.replies:
            return self.replies.pop(request_id)
        await self.until(lambda m: m.get("id") == request_id and m["type"] in ("ack", "error"), timeout)
        return self.replies.pop(request_id)

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def still_here(self) -> None:
        """Tells the server this client lives while the test works elsewhere without reading it (pings are
        answered only as messages are read, and a socket silent for three heartbeats is closed)."""
        await self.send({"type": "pong"})

    async def close(self) -> None:
        await self.ws.close()
