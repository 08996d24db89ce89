"""A real server (uvicorn in a thread) with the edge's limits on, for the hardening tests, and the small
client steps they share."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from app.config import Settings
from app.db import make_sync_engine
from tests.processes import free_port

from .conftest import LiveServer, ThreadServer

EVIL = "https://evil.example"


@contextmanager
def edge_server(workdir: Path, **settings: Any) -> Iterator[LiveServer]:
    """A server on its own SQLite file with these settings and the rate limits on (unless told)."""
    limits = settings.pop("rate_limits", True)
    config = Settings(database_url=f"sqlite:///{workdir / 'edge.db'}", heartbeat=1.0, **settings)
    port = free_port()
    server = ThreadServer(config, port, rate_limits=limits)
    server.start()
    db = make_sync_engine(config)
    try:
        yield LiveServer("sqlite", server.server.config.app.state.settings, f"http://127.0.0.1:{port}", db)
    finally:
        server.stop()
        db.dispose()


@dataclass
class Seated:
    id: str
    invite: str
    spectate: str
    tokens: list[str]


def full_table(http: httpx.Client, game: str = "cesar_cleopatre", players: int = 2) -> Seated:
    r = http.post("/api/tables", json={"game": game, "players": players})
    assert r.status_code == 201, r.text
    body = r.json()
    table = Seated(body["id"], body["invite_key"], body["spectator_key"], [])
    for n in range(players):
        r = http.post(f"/api/tables/{table.id}/join", json={"invite": table.invite, "name": f"P{n}"})
        assert r.status_code == 201, r.text
        table.tokens.append(r.json()["token"])
    return table


def seat_to_act(http: httpx.Client, table: Seated) -> tuple[str, int, dict[str, Any]]:
    """(token, version, a legal action) of a seat that may act now."""
    for token in table.tokens:
        r = http.get(f"/api/tables/{table.id}/view", headers={"Authorization": f"Bearer {token}"})
        body = r.json()
        legal = body["view"]["game"].get("legal_actions") or []
        if legal:
            return token, body["version"], legal[0]
    raise AssertionError("no seat may act")


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels
