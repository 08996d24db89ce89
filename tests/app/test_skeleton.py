"""The app skeleton: settings, migrations agree with the models, health, pages, OpenAPI, the CLI."""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

import games
from app.config import Settings
from app.db import make_sync_engine, migrate
from app.models import Base

ROOT = Path(__file__).resolve().parents[2]


def test_database_url_unset_means_a_sqlite_file_in_the_working_directory(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    settings = Settings.from_env()
    assert settings.database_url == f"sqlite:///{tmp_path / 'tabula.db'}"
    assert not settings.is_postgres
    assert settings.async_url.startswith("sqlite+aiosqlite:///")


def test_postgres_urls_get_the_async_and_the_blocking_driver(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p%40ss@db:5432/tabula")
    settings = Settings.from_env()
    assert settings.is_postgres
    assert settings.async_url == "postgresql+asyncpg://u:p%40ss@db:5432/tabula"
    assert settings.sync_url == "postgresql+psycopg://u:p%40ss@db:5432/tabula"


def test_migrations_and_models_agree(fresh_db_url):
    """Upgrading an empty database gives exactly the schema of the models (no autogenerate diff)."""
    settings = Settings(database_url=fresh_db_url)
    migrate(settings)
    migrate(settings)  # idempotent: a second start changes nothing
    engine = make_sync_engine(settings)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
            assert diff == [], diff
            tables = set(inspect(conn).get_table_names())
        assert {"tables", "seats", "actions", "presence", "alembic_version"} <= tables
    finally:
        engine.dispose()


async def test_health_and_readiness(live):
    async with httpx.AsyncClient(base_url=live.base) as http:
        alive = await http.get("/healthz")
        ready = await http.get("/readyz")
    assert alive.status_code == 200 and alive.json() == {"status": "ok"}
    assert ready.status_code == 200 and ready.json()["database"] is True


async def test_home_lists_the_registry_games_with_vendored_htmx(live_pg):
    async with httpx.AsyncClient(base_url=live_pg.base) as http:
        page = await http.get("/")
        assert page.status_code == 200
        for slug, game in games.REGISTRY.items():
            assert html.escape(game.title_en) in page.text
        assert "bench_cards" not in page.text  # the benchmark game is never offered in the lobby
        assert "/static/vendor/htmx-2.0.11.min.js" in page.text
        assert "/static/vendor/htmx-ext-ws-2.0.4.min.js" in page.text
        assert "://" not in page.text.split("<body>")[0].replace("http://www.w3.org", "")  # no CDN
        js = await http.get("/static/vendor/htmx-2.0.11.min.js")
        assert js.status_code == 200 and "htmx" in js.text
        ws = await http.get("/static/vendor/htmx-ext-ws-2.0.4.min.js")
        assert ws.status_code == 200 and 'defineExtension("ws"' in ws.text


async def test_openapi_documents_the_table_api(live_pg):
    async with httpx.AsyncClient(base_url=live_pg.base) as http:
        spec = (await http.get("/openapi.json")).json()
    paths = spec["paths"]
    assert "post" in paths["/api/tables"]
    assert "get" in paths["/api/tables/{table_id}"]
    assert "post" in paths["/api/tables/{table_id}/join"]
    assert "get" in paths["/api/tables/{table_id}/view"]
    assert "get" in paths["/api/tables/{table_id}/log"]
    actions = paths["/api/tables/{table_id}/actions"]["post"]
    assert {"200", "400", "403", "404", "409", "422"} <= set(actions["responses"])


def test_cli_has_serve_migrate_and_replay_check(tmp_path):
    out = subprocess.run([sys.executable, "-m", "app", "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0
    for command in ("serve", "migrate", "replay-check"):
        assert command in out.stdout
    serve = subprocess.run([sys.executable, "-m", "app", "serve", "--help"], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)
    assert "--host" in serve.stdout and "--port" in serve.stdout and "127.0.0.1" in serve.stdout
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'm.db'}", "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "app", "migrate"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "m.db").exists()


@pytest.mark.parametrize("module", ["games", "games.core", "games.bench_cards"])
def test_engines_do_not_import_the_server(module):
    code = f"import sys, {module}; assert not [m for m in sys.modules if m == 'app' or m.startswith('app.')]"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0
