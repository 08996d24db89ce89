"""HTML pages: home, invite (join), personal seat link, spectator link, a plain table page.

Templates are looked up in the project's `templates/` first and in `app/templates/` second, so the
lobby and table screens of later issues can replace the plain ones here by adding a file of the same name.
Every form works without JavaScript; the table page's script only adds live updates.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, select_autoescape

import games

from ..config import PACKAGE_DIR, project_root
from ..services.errors import ServiceError
from ..services.tables import TablesService
from .api import base_url, seat_cookie

router = APIRouter(include_in_schema=False)

_env = Environment(
    loader=ChoiceLoader([FileSystemLoader(str(project_root() / "templates")),
                         FileSystemLoader(str(PACKAGE_DIR / "templates"))]),
    autoescape=select_autoescape(["html"]),
)
templates = Jinja2Templates(env=_env)


def _service(request: Request) -> TablesService:
    return request.app.state.service


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status)


def _problem(request: Request, exc: ServiceError) -> HTMLResponse:
    return _page(request, "tables/message.html", status=exc.status, title="Tabula", message=exc.message)


def _set_seat_cookie(request: Request, response: Response, table_id: str, token: str) -> None:
    response.set_cookie(seat_cookie(table_id), token, max_age=180 * 24 * 3600, httponly=True, samesite="lax",
                        secure=request.app.state.settings.secure_cookies, path="/")


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    listed = [{"slug": slug, "title_en": g.title_en, "title_fr": g.title_fr, "pitch_en": g.pitch_en,
               "min_players": g.min_players, "max_players": g.max_players}
              for slug, g in games.REGISTRY.items() if slug in request.app.state.games]
    return _page(request, "home.html", games=listed)


@router.get("/healthz")
async def healthz(request: Request) -> Response:
    from sqlalchemy import text

    try:
        async with request.app.state.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception:
        return Response('{"status":"unavailable","database":false}', status_code=503,
                        media_type="application/json")
    return Response('{"status":"ok","database":true}', media_type="application/json")


@router.post("/tables/new")
async def new_table(request: Request, game: str = Form(...), players: int = Form(...)) -> Response:
    try:
        snap = await _service(request).create(game, players, {})
    except ServiceError as e:
        return _problem(request, e)
    return RedirectResponse(f"/t/{snap.id}/join?key={snap.invite_key}", status_code=303)


@router.get("/t/{table_id}/join", response_class=HTMLResponse)
async def join_page(request: Request, table_id: str, key: str = "") -> Response:
    service = _service(request)
    try:
        snap = await service.current(table_id)
        summary = await service.summary(table_id)
    except ServiceError as e:
        return _problem(request, e)
    if not key or key != snap.invite_key:
        return _page(request, "tables/message.html", status=403, title="Tabula",
                     message="This invite link is not valid.")
    base = base_url(request)
    return _page(request, "tables/join.html", table=summary, key=key,
                 invite_url=f"{base}/t/{table_id}/join?key={snap.invite_key}",
                 spectator_url=f"{base}/t/{table_id}/watch?key={snap.spectator_key}")


@router.post("/t/{table_id}/join")
async def join_submit(request: Request, table_id: str, key: str = Form(""), name: str = Form("")) -> Response:
    try:
        _seat, token = await _service(request).join(table_id, key, name)
    except ServiceError as e:
        return _problem(request, e)
    response = RedirectResponse(f"/t/{table_id}", status_code=303)
    _set_seat_cookie(request, response, table_id, token)
    return response


@router.get("/t/{table_id}/seat/{token}")
async def seat_link(request: Request, table_id: str, token: str) -> Response:
    """The personal seat link: sets this device's cookie, then shows the table."""
    try:
        ident = await _service(request).identify(table_id, token)
    except ServiceError as e:
        return _problem(request, e)
    if ident.seat is None:
        return RedirectResponse(f"/t/{table_id}/watch?key={token}", status_code=303)
    response = RedirectResponse(f"/t/{table_id}", status_code=303)
    _set_seat_cookie(request, response, table_id, token)
    return response


@router.get("/t/{table_id}/watch", response_class=HTMLResponse)
async def watch_page(request: Request, table_id: str, key: str = "") -> Response:
    return await _table_page(request, table_id, key, spectator=True)


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: str) -> Response:
    return await _table_page(request, table_id, request.cookies.get(seat_cookie(table_id)), spectator=False)


async def _table_page(request: Request, table_id: str, credential: str | None, spectator: bool) -> Response:
    service = _service(request)
    try:
        summary = await service.summary(table_id)
        if not credential:
            return _page(request, "tables/message.html", status=403, title="Tabula",
                         message="Open your personal seat link, the invite link or the spectator link.")
        ident = await service.identify(table_id, credential)
        version, view = await service.view(table_id, credential)
        snap = await service.current(table_id)
    except ServiceError as e:
        return _problem(request, e)
    base = base_url(request)
    seated = ident.seat is not None
    return _page(
        request, "tables/table.html", table=summary, view=view, version=version, seat=ident.seat,
        view_json=json.dumps(view, indent=1, ensure_ascii=False),
        actions=[json.dumps(a, separators=(",", ":")) for a in (view["game"] or {}).get("legal_actions", [])],
        seat_url=f"{base}/t/{table_id}/seat/{credential}" if seated else None,
        invite_url=f"{base}/t/{table_id}/join?key={snap.invite_key}" if seated else None,
        spectator_url=f"{base}/t/{table_id}/watch?key={snap.spectator_key}",
        ws_query="" if seated else f"?spectate={credential}",
    )


@router.post("/t/{table_id}/act")
async def act_form(request: Request, table_id: str, version: int = Form(...), action: str = Form(...)) -> Response:
    """The form fallback of the table page (no JavaScript needed)."""
    try:
        parsed = json.loads(action)
    except ValueError:
        parsed = None
    try:
        await _service(request).act(table_id, request.cookies.get(seat_cookie(table_id)), version, parsed)
    except ServiceError as e:
        if e.status != 409:
            return _problem(request, e)
    return RedirectResponse(f"/t/{table_id}", status_code=303)


@router.post("/t/{table_id}/leave")
async def leave_form(request: Request, table_id: str) -> Response:
    try:
        await _service(request).leave(table_id, request.cookies.get(seat_cookie(table_id)))
    except ServiceError as e:
        return _problem(request, e)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(seat_cookie(table_id), path="/")
    return response
