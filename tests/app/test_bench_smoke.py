"""A smoke run of the benchmark's load driver (tests/bench/driver.js) at T=2 against a real server, on each
database: the workload of ../shared/bench/peer-boardgameio plays to the end over the websocket, every
connection's patched view equals a full view fetched afresh, and no message names a card its receiver may
not know or the table's seed (RULES 0.1). The same with two server processes on one Postgres database (the
benchmark's `ws-2proc` rows), every move crossing to its opponent's server. It asserts no timing:
benchmarks are not tests."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from app.config import Settings
from tests.conftest import fresh_database_url

from .conftest import running

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "bench" / "driver.js"


def drive(urls: list[str], client: str, storage: str, out: Path) -> dict:
    node = shutil.which("node")
    assert node is not None, "the benchmark driver needs node (Debian: apt-get install nodejs)"
    run = subprocess.run(
        [node, str(DRIVER), "--url", ",".join(urls), "--matches", "2", "--client", client, "--verify", "1",
         "--timeout", "60", "--storage", storage, "--out", str(out)],
        capture_output=True, text=True, timeout=150)
    assert out.is_file(), run.stdout[-2000:] + run.stderr[-2000:]
    return json.loads(out.read_text())


@pytest.mark.parametrize("client", ["ws", "http"])
def test_0_1_driver_plays_the_peer_workload_with_no_leak_and_exact_views(live, client, tmp_path):
    r = drive([live.base], client, live.backend, tmp_path / "result.json")
    assert r["status"] == "ok", (r["status"], r["errors"])
    assert r["moves_total"] == 2 * 60 and r["matches_finished"] == 2
    assert r["checks"]["hidden_cards_seen"] == 0 and r["checks"]["seed_in_messages"] == 0
    assert r["checks"]["views_checked"] == 2 * 3 and r["checks"]["views_differ"] == 0
    # Every move reached the opponent, the mover and the spectator, and was acknowledged.
    lat = r["latency_ms"]
    assert lat["opponent"]["n"] == lat["self_echo"]["n"] == lat["spectator"]["n"] == 120
    assert lat["ack"]["n"] >= 118  # the first move of each table is sent at t_go, before `playing` counts
    assert r["error_count"] == 0


def test_0_1_driver_plays_across_two_servers_on_one_database(postgres_server, tmp_path):
    """Table i is made on server i % 2 and its seats sit on different servers (each its own app, hub and
    connections, in threads here, that talk only through Postgres): every move reaches its opponent through
    the other server (LISTEN/NOTIFY), and every view ends exact."""
    settings = Settings(database_url=fresh_database_url("postgres", postgres_server, tmp_path, "two"),
                        benchmark=True, heartbeat=1.0)
    with running("postgres", settings) as first, running("postgres", settings) as second:
        r = drive([first.base, second.base], "ws", "postgres", tmp_path / "result.json")
    assert r["status"] == "ok", (r["status"], r["errors"])
    assert r["client"] == "ws-2proc" and r["processes"] == 2
    assert r["moves_total"] == 2 * 60 and r["checks"]["views_differ"] == 0 and r["checks"]["views_checked"] == 6
    assert r["checks"]["hidden_cards_seen"] == 0 and r["checks"]["seed_in_messages"] == 0
    assert r["latency_ms"]["opponent"]["n"] == 120 and r["error_count"] == 0
