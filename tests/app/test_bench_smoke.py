"""A smoke run of the benchmark's load driver (tests/bench/driver.js) at T=2 against a real server, on each
database: the workload of ../shared/bench/peer-boardgameio plays to the end over the websocket, every
connection's patched view equals a full view fetched afresh, and no message names a card its receiver may
not know or the table's seed (RULES 0.1). It asserts no timing: benchmarks are not tests."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "bench" / "driver.js"


@pytest.mark.parametrize("client", ["ws", "http"])
def test_0_1_driver_plays_the_peer_workload_with_no_leak_and_exact_views(live, client, tmp_path):
    node = shutil.which("node")
    assert node is not None, "the benchmark driver needs node (Debian: apt-get install nodejs)"
    out = tmp_path / "result.json"
    run = subprocess.run(
        [node, str(DRIVER), "--url", live.base, "--matches", "2", "--client", client, "--verify", "1",
         "--timeout", "60", "--storage", live.backend, "--out", str(out)],
        capture_output=True, text=True, timeout=150)
    assert out.is_file(), run.stdout[-2000:] + run.stderr[-2000:]
    r = json.loads(out.read_text())
    assert r["status"] == "ok", (r["status"], r["errors"])
    assert r["moves_total"] == 2 * 60 and r["matches_finished"] == 2
    assert r["checks"]["hidden_cards_seen"] == 0 and r["checks"]["seed_in_messages"] == 0
    assert r["checks"]["views_checked"] == 2 * 3 and r["checks"]["views_differ"] == 0
    # Every move reached the opponent, the mover and the spectator, and was acknowledged.
    lat = r["latency_ms"]
    assert lat["opponent"]["n"] == lat["self_echo"]["n"] == lat["spectator"]["n"] == 120
    assert lat["ack"]["n"] >= 118  # the first move of each table is sent at t_go, before `playing` counts
    assert r["error_count"] == 0
