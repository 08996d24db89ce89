"""Watching the server: Prometheus metrics that move while a game is played, readiness that fails when the
database is gone or behind the migrations, and JSON log lines that carry the request and table ids."""

from __future__ import annotations

import dataclasses
import json

import httpx
from alembic.script import ScriptDirectory
from websockets.sync.client import connect

from app.config import Settings
from app.db import alembic_config, migrate
from tests.processes import ServerProcess, free_port

from .club import bot_table, play, scrape, wait_status
from .conftest import ThreadServer
from .hardening import full_table


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_are_off_unless_asked(live):
    r = httpx.get(live.base + "/metrics")
    assert r.status_code == 404 and "TABULA_METRICS" in r.json()["error"]


def play_and_scrape(server: ServerProcess) -> tuple[dict, dict, int, int]:
    """Scrapes before, during and after a game of the benchmark game (with a spectator's socket open) and a
    game of bots; returns (after, before, moves before the scrape during the game, moves after it)."""
    with httpx.Client(base_url=server.base, timeout=30) as http:
        before = scrape(http)
        table = full_table(http, "bench_cards")
        with connect(f"{server.base.replace('http', 'ws')}/ws/tables/{table.id}?spectate={table.spectate}") as ws:
            ws.recv()  # the full view
            token = table.tokens[0]
            first = play(http, table, most=3)
            during = scrape(http)
            assert value(during, "tabula_actions_committed_total", game="bench_cards") - \
                value(before, "tabula_actions_committed_total", game="bench_cards") == first
            assert value(during, "tabula_sockets") == 1
            assert value(during, "tabula_tables", status="playing") >= 1
            rest = play(http, table)
            stale = http.post(f"/api/tables/{table.id}/actions", json={"version": 0, "action": {"type": "x"}},
                              headers={"Authorization": f"Bearer {token}"})
            assert stale.status_code == 409
            bots = bot_table(http, "cesar_cleopatre")
            wait_status(http, [bots])
        after = scrape(http)
    return after, before, first, rest


def test_metrics_move_while_a_game_is_played(tmp_path):
    # A server process of its own: the metrics are process-wide, and this one counts only this test's games.
    server = ServerProcess(f"sqlite:///{tmp_path / 'metrics.db'}", tmp_path, env={
        "TABULA_METRICS": "1", "TABULA_BENCHMARK": "1", "TABULA_BOT_DELAY": "0"}).start()
    try:
        after, before, first, rest = play_and_scrape(server.wait_ready())
    finally:
        server.stop()
    moves = first + rest
    assert value(after, "tabula_actions_committed_total", game="bench_cards") - \
        value(before, "tabula_actions_committed_total", game="bench_cards") == moves
    assert value(after, "tabula_actions_committed_total", game="cesar_cleopatre") > \
        value(before, "tabula_actions_committed_total", game="cesar_cleopatre")
    assert value(after, "tabula_commit_seconds_count") - value(before, "tabula_commit_seconds_count") > moves
    assert value(after, "tabula_bot_decision_seconds_count", level="novice") > \
        value(before, "tabula_bot_decision_seconds_count", level="novice")
    # The spectator got the full view and at least one push per move.
    sent = value(after, "tabula_websocket_messages_total", direction="out") - \
        value(before, "tabula_websocket_messages_total", direction="out")
    assert sent >= moves + 1
    assert value(after, "tabula_websocket_bytes_total", direction="out") - \
        value(before, "tabula_websocket_bytes_total", direction="out") > sent
    assert value(after, "tabula_errors_total", error="Conflict") - value(before, "tabula_errors_total",
                                                                        error="Conflict") == 1
    assert value(after, "tabula_tables", status="finished") == 2
    assert value(after, "tabula_sockets") == 0


def test_readyz_fails_when_the_postgres_database_is_dropped(postgres_server):
    url = postgres_server.create_database("ready")
    server = ThreadServer(Settings(database_url=url, heartbeat=1.0), port := free_port())
    server.start()
    try:
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/readyz").status_code == 200
        name = url.rsplit("/", 1)[1]
        with postgres_server.admin.connect() as conn:
            from sqlalchemy import text

            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        r = httpx.get(base + "/readyz")
        assert r.status_code == 503 and "database does not answer" in r.json()["problem"]
        assert httpx.get(base + "/healthz").status_code == 200  # alive: a restart would not bring it back
    finally:
        server.stop()


def test_readyz_fails_until_the_migrations_reach_their_head(tmp_path):
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'behind.db'}", heartbeat=1.0)
    head = ScriptDirectory.from_config(alembic_config(settings)).get_current_head()
    migrate(settings, ScriptDirectory.from_config(alembic_config(settings)).get_revision(head).down_revision)
    server = ThreadServer(dataclasses.replace(settings, migrate=False), port := free_port())
    server.start()
    try:
        r = httpx.get(f"http://127.0.0.1:{port}/readyz")
        assert r.status_code == 503 and "not at the migrations' head" in r.json()["problem"]
        migrate(settings)
        assert httpx.get(f"http://127.0.0.1:{port}/readyz").status_code == 200
    finally:
        server.stop()


def test_json_logs_carry_the_request_and_table_ids(tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path / 'logs.db'}", tmp_path, env={"TABULA_LOG_FORMAT": "json"},
                           log_level="info").start()
    try:
        server.wait_ready()
        created = httpx.post(server.base + "/api/tables", json={"game": "cesar_cleopatre", "players": 2})
        table_id = created.json()["id"]
        r = httpx.get(f"{server.base}/api/tables/{table_id}", headers={"X-Request-ID": "req-42"})
        assert r.headers["x-request-id"] == "req-42"
        assert len(created.headers["x-request-id"]) == 16  # one made up when the client sends none
    finally:
        server.stop()
    lines = [json.loads(line) for line in server.log.read_text().splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    access = [line for line in lines if line.get("request_id") == "req-42"]
    assert access and access[0]["table_id"] == table_id and f"/api/tables/{table_id}" in access[0]["message"]
