"""Schemathesis fuzzes the JSON API of a live server from its own /openapi.json: examples, coverage of every
constraint's edges, random fuzzing and stateful runs along the schema's links (create a table -> join it ->
act, view, leave...). Every answer must be documented (status, content type, headers, body schema) and none
may be a server error. The number of examples per operation keeps the run to well under a couple of minutes;
the seed is fixed so that a failure reproduces (`SCHEMATHESIS_SEED`/`SCHEMATHESIS_EXAMPLES` for longer runs
by hand)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import ServerProcess

pytestmark = pytest.mark.timeout(600)

CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,"
          "response_schema_conformance")
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "100"))
SEED = int(os.environ.get("SCHEMATHESIS_SEED", "20261125"))


def test_the_api_answers_as_its_schema_says_and_never_with_a_server_error(tmp_path):
    # The per-client limits are off: one client sends everything (the limits have their own tests). Bots
    # of the tables the fuzzer makes think little and slowly, to leave the machine to the fuzzer.
    server = ServerProcess(f"sqlite:///{tmp_path / 'fuzz.db'}", tmp_path, env={
        "TABULA_BOT_WORKERS": "0", "TABULA_BOT_DELAY": "5", "TABULA_BOT_ITERATIONS": "20"}).start()
    har = tmp_path / "fuzz.har"
    try:
        server.wait_ready()
        run = subprocess.run(
            [str(Path(sys.executable).with_name("schemathesis")), "run", f"{server.base}/openapi.json",
             "--checks", CHECKS, "--max-examples", str(EXAMPLES), "--seed", str(SEED), "--workers", "1",
             "--generation-database", "none", "--no-color", "--report", "har", "--report-har-path", str(har)],
            capture_output=True, text=True, timeout=540, cwd=tmp_path)  # its cache stays out of the tree
    finally:
        server.stop()
    entries = json.loads(har.read_text())["log"]["entries"]
    statuses = [e["response"]["status"] for e in entries]
    print(f"schemathesis sent {len(entries)} requests ({EXAMPLES} examples per operation, seed {SEED})")
    assert run.returncode == 0, run.stdout[-6000:]
    assert len(entries) > 10 * EXAMPLES  # it really ran, over every operation
    assert not [s for s in statuses if s >= 500]
    assert not server.errors(), server.errors()
