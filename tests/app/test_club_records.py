"""Backups and records: the finished tables of the three games go from SQLite to Postgres and back as game
records (`tabula export` / `tabula import`), and `tabula replay-check` accepts them at every step; a
Postgres backup (pg_dump, restored with psql into a fresh database) and a SQLite copy (the backup API)
pass the same check."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import httpx
import pytest

from app.cli import export_records, import_records, replay_check
from app.config import Settings
from app.db import migrate
from games.core import Game

from .club import finished_games
from .hardening import edge_server


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A SQLite database holding one finished table of each game, and one table still in play."""
    workdir = tmp_path_factory.mktemp("records")
    with edge_server(workdir, bot_delay=(0.0, 0.0), rate_limits=False) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        finished = finished_games(http)
        r = http.post("/api/tables", json={"game": "cesar_cleopatre", "players": 2, "bots": [None, "novice"]})
        waiting = r.json()["id"]
        settings = server.settings
    return settings, finished, waiting


async def exported(settings: Settings, only: list[str] | None = None) -> tuple[int, list[str], str]:
    out, report = io.StringIO(), io.StringIO()
    code = await export_records(settings, only, out, report)
    return code, out.getvalue().splitlines(), report.getvalue()


async def checked(settings: Settings) -> str:
    out = io.StringIO()
    assert await replay_check(settings, out=out) == 0, out.getvalue()
    return out.getvalue()


async def loaded(settings: Settings, lines: list[str]) -> tuple[int, str]:
    report = io.StringIO()
    code = await import_records(settings, lines, report)
    return code, report.getvalue()


def fresh(url: str) -> Settings:
    settings = Settings(database_url=url)
    migrate(settings)
    return settings


async def test_records_go_from_sqlite_to_postgres_and_back(played, postgres_server, tmp_path):
    source, finished, _ = played
    code, lines, _ = await exported(source)
    assert code == 0
    records = [json.loads(line) for line in lines]
    assert sorted(r["id"] for r in records) == sorted(finished)
    assert {r["game"] for r in records} == {"cesar_cleopatre", "ave_cesar", "alea_iacta_est"}
    assert all(r["actions"] and r["status"] == "finished" and r["seed"] is not None for r in records)

    postgres = fresh(postgres_server.create_database("import"))
    assert await loaded(postgres, lines) == (0, "imported 3 table(s), 0 already here, 0 refused\n")
    assert "3 ok, 0 differ" in await checked(postgres)
    assert (await exported(postgres))[1] == lines
    # Loading the same records again changes nothing.
    assert await loaded(postgres, lines) == (0, "imported 0 table(s), 3 already here, 0 refused\n")

    sqlite = fresh(f"sqlite:///{tmp_path / 'back.db'}")
    assert (await loaded(sqlite, (await exported(postgres))[1]))[0] == 0
    assert "3 ok, 0 differ" in await checked(sqlite)
    assert (await exported(sqlite))[1] == lines


async def test_a_record_that_does_not_replay_is_refused(played, tmp_path):
    source, finished, _ = played
    record = json.loads((await exported(source, [finished[0]]))[1][0])
    record["seed"] += 1  # another deal: the log no longer replays to what the record says
    target = fresh(f"sqlite:///{tmp_path / 'target.db'}")
    code, report = await loaded(target, [json.dumps(record), "not json"])
    assert code == 1
    assert "line 1: The record" in report and "line 2:" in report and "imported 0 table(s)" in report
    assert "checked 0 table(s)" in await checked(target)


async def test_a_table_in_play_has_no_record(played):
    source, _, waiting = played
    code, lines, report = await exported(source, [waiting])
    assert code == 1 and lines == [] and "still in play" in report


async def test_a_pg_dump_restores_into_a_fresh_database(played, postgres_server, tmp_path):
    source, _, _ = played
    lines = (await exported(source))[1]
    original = fresh(postgres_server.create_database("dumped"))
    await loaded(original, lines)
    dump = tmp_path / "tabula.sql"
    subprocess.run([_tool("pg_dump"), "--no-owner", "--file", str(dump), original.database_url], check=True)
    restored = Settings(database_url=postgres_server.create_database("restored"))
    subprocess.run([_tool("psql"), "--quiet", "-v", "ON_ERROR_STOP=1", "--file", str(dump),
                    restored.database_url], check=True, capture_output=True)
    assert "3 ok, 0 differ" in await checked(restored)
    assert (await exported(restored))[1] == lines


async def test_a_sqlite_backup_copy_replays(played, tmp_path):
    source, _, _ = played
    copy = tmp_path / "copy.db"
    with sqlite3.connect(source.database_url.removeprefix("sqlite:///")) as live, sqlite3.connect(copy) as backup:
        live.backup(backup)  # a consistent copy even while the server writes (WAL included)
    copied = Settings(database_url=f"sqlite:///{copy}")
    assert "0 differ" in await checked(copied)
    assert (await exported(copied))[1] == (await exported(source))[1]


async def test_tables_played_before_log_lines_named_their_mover_still_replay(played, tmp_path):
    """Log entries name the seat whose move made them ("by", since the screen reader's own-move silence);
    a table stored before, or partly before, has entries without it: the check accepts those, and still
    finds a snapshot that differs otherwise."""
    source, _, _ = played
    copy = tmp_path / "older.db"
    with sqlite3.connect(source.database_url.removeprefix("sqlite:///")) as live, sqlite3.connect(copy) as older:
        live.backup(older)
        rows = older.execute("SELECT id, state FROM tables WHERE state IS NOT NULL").fetchall()
        for n, (table_id, text) in enumerate(rows):
            state = json.loads(text)
            assert any("by" in e for e in state["log"])
            cut = len(state["log"]) // 2 if n % 2 else len(state["log"])  # or marked from its middle on
            state["log"] = [*({k: v for k, v in e.items() if k != "by"} for e in state["log"][:cut]),
                            *state["log"][cut:]]
            older.execute("UPDATE tables SET state = ? WHERE id = ?", (Game.encode(state), table_id))
    settings = Settings(database_url=f"sqlite:///{copy}")
    assert "0 differ" in await checked(settings)
    with sqlite3.connect(copy) as older:
        table_id, text = rows[0]
        state = json.loads(text)
        state["log"][0]["key"] = "core.undo"  # a snapshot that differs from its log in something else
        older.execute("UPDATE tables SET state = ? WHERE id = ?", (Game.encode(state), table_id))
    assert await replay_check(settings, out=io.StringIO()) != 0


def _tool(name: str) -> str:
    found = shutil.which(name) or str(Path("/usr/lib/postgresql/15/bin") / name)
    assert Path(found).exists(), f"{name} is needed for the backup test"
    return found
