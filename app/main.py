"""The FastAPI application factory."""

from __future__ import annotations

import logging
import re
from contextlib import asynccontextmanager
from functools import partial
from typing import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import games
from games.core.bots import Budget

from . import observability
from .config import Settings, project_root
from .db import make_async_engine, migrate_async
from .observability import RequestIds
from .routes.ops import migration_head
from .realtime.hub import Hub
from .services.errors import ServiceError
from .services.bots import BotRunner, check_level, expire
from .services.chat import ChatService
from .services.cleanup import Cleanup
from .services.replays import Replays
from .services.tables import TablesService
from .services.timers import TurnTimer
from .web.limits import RateLimited, RateLimits
from .web.security import Edge, clip_echo, docs_page, rate_limited_response

log = logging.getLogger("tabula")

DESCRIPTION = """
Tabula's JSON API: the same one the pages, bots and other clients use.

* Create a table, share its **invite key** (to join) and its **spectator key** (to watch).
* Joining returns a secret **seat token**: send it as `Authorization: Bearer <token>`.
* Every change bumps the table's `version`; submit actions with the version you saw.
* Live updates: a websocket at `/ws/tables/{id}` sends the full view, then JSON Patches (RFC 6902)
  between your previous and your new view (see `app/realtime/PROTOCOL.md`).

Errors are `{"error": "<a sentence>"}`; a 409 also carries your current `version` and `view`.
"""


_SECRET_PARTS = re.compile(r"((?:token|spectate|key|since_token)=)[^&\s\"']+|(/seat/)[^/?\s\"']+")


class RedactSecrets(logging.Filter):
    """Keeps seat tokens and keys out of the server's logs (access lines carry URLs such as
    /t/ID/seat/TOKEN or /ws/tables/ID?token=TOKEN)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):  # keep the shape: uvicorn's access formatter unpacks it
            record.args = tuple(self._redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = self._redact(record.msg)
        return True

    @staticmethod
    def _redact(text: str) -> str:
        return _SECRET_PARTS.sub(lambda m: (m.group(1) or m.group(2)) + "***", text)


def install_log_redaction() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn", "tabula"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


def served_games(settings: Settings) -> dict[str, games.Game]:
    served = dict(games.REGISTRY)
    if settings.benchmark:
        served.update(games.BENCHMARK_GAMES)
    return served


def start_bots(settings: Settings, service: TablesService) -> tuple[BotRunner, TurnTimer]:
    """The bot runner and the turn timer of this process (app/services/bots.py, timers.py)."""
    level = check_level(settings.takeover_level)
    runner = BotRunner(service, delay=settings.bot_delay, workers=settings.bot_workers, sweep=settings.bot_sweep,
                       budget=Budget(iterations=settings.bot_iterations, seconds=settings.bot_seconds))
    timer = TurnTimer(service, partial(expire, level=level), interval=settings.timer_interval)
    return runner, timer


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_log_redaction()
        probe = observability.MemoryProbe.from_env()
        if probe is not None:
            probe.start(app)
        if settings.migrate:
            await migrate_async(settings)
        engine = make_async_engine(settings)
        service = TablesService(engine, served_games(settings), is_postgres=settings.is_postgres)
        hub = Hub(service, database_url=settings.database_url, is_postgres=settings.is_postgres,
                  heartbeat=settings.heartbeat)
        app.state.engine = engine
        app.state.migration_head = migration_head(settings)
        service.on_move.append(observability.committed)
        app.state.service = service
        await service.open_writer()
        app.state.hub = hub
        app.state.chat = chat = ChatService(service, app.state.limits)
        app.state.replays = Replays(service, chat)
        hub.watch_chat(chat)
        await hub.start()
        runner, timer = start_bots(settings, service)
        app.state.bots = runner
        app.state.timer = timer
        await runner.start()
        await timer.start()
        app.state.cleanup = cleanup = Cleanup.from_settings(service, settings)
        await cleanup.start()
        try:
            yield
        finally:
            await cleanup.stop()
            await timer.stop()
            await runner.stop()
            await hub.stop()
            await engine.dispose()

    # FastAPI's own OpenTelemetry off: the server's metrics are Prometheus's (/metrics), and FastAPI would
    # otherwise ask OpenTelemetry for its three global providers at every request and socket.
    app = FastAPI(title="Tabula", version="0.1.0", description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, redoc_url=None, telemetry={"tracing": False, "metrics": False, "logs": False})
    app.state.settings = settings
    app.state.games = served_games(settings)
    app.state.limits = RateLimits(settings)
    # The edge (app/web/security.py) also turns any unexpected exception into a logged 500 page.
    app.add_middleware(Edge, settings=settings, limits=app.state.limits)
    app.add_middleware(RequestIds)  # outermost: the edge's own log lines carry the ids too

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        observability.error(type(exc))
        return JSONResponse({**exc.body(), "error": clip_echo(exc.message)}, status_code=exc.status)

    @app.exception_handler(RateLimited)
    async def rate_limited(request: Request, exc: RateLimited) -> Response:
        return rate_limited_response(request, exc)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = clip_echo(".".join(str(p) for p in first.get("loc", ()) if p != "body"))
        message = first.get("msg", "invalid input")
        return JSONResponse({"error": f"Malformed request: {where + ': ' if where else ''}{message}."},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else "Error."
        return JSONResponse({"error": detail}, status_code=exc.status_code, headers=exc.headers)

    from .routes import api, ops, pages, ws

    # FastAPI tries every route in order at every request (a few µs each): the routers that take the moves
    # first, the operator's probes last. Their routes go in the app's own list: they already hold their whole
    # paths and the routers add nothing when included, and an included router (FastAPI 0.165) matches every
    # request against its routes twice, behind two wrappers (tests/bench/RESULTS.md, 2026-11-30 day).
    for router in (api.router, pages.router, ws.router, ops.router):
        app.router.routes.extend(router.routes)
    api.complete_openapi(app)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        return docs_page(f"{app.title} API", app.openapi_url or "/openapi.json")

    app.mount("/static", StaticFiles(directory=project_root() / "static"), name="static")
    return app
