"""The operator's routes: Prometheus metrics (`/metrics`, only with TABULA_METRICS=1), liveness (`/healthz`:
the process answers) and readiness (`/readyz`: the database answers and its schema is at the migrations'
head). The metrics themselves are counted in app/observability.py."""

from __future__ import annotations

from typing import Any

from alembic.script import ScriptDirectory
from fastapi import APIRouter, Request
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from sqlalchemy import text
from starlette.responses import JSONResponse, Response

from .. import observability
from ..config import Settings
from ..db import alembic_config

router = APIRouter(include_in_schema=False)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    if not request.app.state.settings.metrics:
        return JSONResponse({"error": "Metrics are off on this server (TABULA_METRICS=1 turns them on)."},
                            status_code=404)
    await observability.figures(request.app)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


@router.get("/healthz")
async def healthz() -> Response:
    """The process is alive and serving (nothing else is looked at: a restart would not help the rest)."""
    return JSONResponse({"status": "ok"})


@router.get("/readyz")
async def readyz(request: Request) -> Response:
    """Ready for players: the database answers and its schema is at the migrations' head (503 otherwise)."""
    problem = await not_ready(request.app.state.engine, request.app.state.migration_head)
    if problem:
        return JSONResponse({"status": "unavailable", "problem": problem}, status_code=503)
    return JSONResponse({"status": "ok", "database": True, "migration": request.app.state.migration_head})


def migration_head(settings: Settings) -> str | None:
    return ScriptDirectory.from_config(alembic_config(settings)).get_current_head()


async def not_ready(engine: Any, head: str | None) -> str | None:
    """Why the server cannot serve players now, or None."""
    try:
        async with engine.connect() as conn:
            current = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
    except Exception as e:  # noqa: BLE001 - any failure of the database is the answer
        observability.error("DatabaseUnavailable")
        return f"the database does not answer ({type(e).__name__})"
    if current != [head]:
        return f"the database schema is at {', '.join(current) or 'nothing'}, not at the migrations' head {head}"
    return None
