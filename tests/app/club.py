"""Steps the club tests share: finished games of every game (bots of the novice level play them quickly),
a game played to its end through the API, and a scrape of the Prometheus metrics."""

from __future__ import annotations

import time

import httpx
from prometheus_client.parser import text_string_to_metric_families

import games

from .hardening import Seated, seat_to_act


def bot_table(http: httpx.Client, game: str, players: int | None = None) -> str:
    """A table of novice bots (it starts at once and plays itself to the end); the game's fewest players
    unless told."""
    players = players or games.REGISTRY[game].min_players
    r = http.post("/api/tables", json={"game": game, "players": players, "bots": ["novice"] * players})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def wait_status(http: httpx.Client, table_ids: list[str], status: str = "finished", timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    left = set(table_ids)
    while left:
        left = {t for t in left if http.get(f"/api/tables/{t}").json()["status"] != status}
        assert time.monotonic() < deadline, f"tables still not {status}: {sorted(left)}"
        time.sleep(0.2)


def finished_games(http: httpx.Client) -> list[str]:
    """One finished table of each of the three games (played by bots)."""
    tables = [bot_table(http, slug) for slug in games.REGISTRY]
    wait_status(http, tables)
    return tables


def play(http: httpx.Client, table: Seated, most: int | None = None, limit: int = 2000) -> int:
    """Plays the first legal action of a seat to act until the game is over (or `most` moves are made);
    returns the moves made."""
    for moves in range(limit):
        if moves == most:
            return moves
        if http.get(f"/api/tables/{table.id}").json()["status"] != "playing":
            return moves
        token, version, action = seat_to_act(http, table)
        r = http.post(f"/api/tables/{table.id}/actions", json={"version": version, "action": action},
                      headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
    raise AssertionError(f"no end after {limit} moves")


def scrape(http: httpx.Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of /metrics: (name, sorted labels) -> value."""
    r = http.get("/metrics")
    assert r.status_code == 200, r.text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(r.text) for s in family.samples}
