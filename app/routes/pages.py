"""The site's pages: lobby, create, join, personal seat link, table (waiting room and game), spectator page,
rules, language switch and the club admin page.

Every page is server-rendered from the project's `templates/`. Every form works without JavaScript (post,
then a 303 back to the page); htmx only enhances them: an action posted by htmx gets the flash region back
(empty, or the sentence of a refusal) and the table itself is updated by the HTML websocket
(`app/pages/`). Templates receive views, never states.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Awaitable, Callable
from urllib.parse import quote, unquote, urlencode

import markdown
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

import games
from games.core import LANGS
from games.core.bots import LEVELS

from .. import observability
from ..config import project_root
from ..i18n import DEFAULT_LANG, LANG_COOKIE, page_words, pick_lang, service_message, translator
from ..models import FINISHED
from ..pages.render import PageState, context, render_template
from ..pages.socket import chat_digest, chat_html, presence_digest
from ..services import bots, rematch
from ..services.credentials import same_admin_token, same_secret
from ..services.chat import TEXT_MAX as CHAT_TEXT_MAX
from ..services.errors import Illegal, ServiceError
from ..services.replays import change_words
from ..services.tables import MAX_SPECTATOR_DELAY, Audit, TablesService, canonical_action, hash_token
from ..web.bodies import parse_json
from ..web.limits import RateLimited, client_of, rate_limits
from ..web.security import ADMIN_SESSION_SECONDS, admin_session, admin_session_valid, clip_echo
from .api import base_url, finished_record, seat_cookie, service_of

router = APIRouter(include_in_schema=False)

FLASH_COOKIE = "tabula_flash"
ADMIN_COOKIE = "tabula_admin"
SEAT_COOKIE_AGE = 180 * 24 * 3600


# ---------------------------------------------------------------------------------------- helpers

def lang_of(request: Request) -> str:
    return pick_lang(request.cookies, request.headers, request.query_params.get("lang"))


def _render(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    lang = ctx.pop("lang", None) or lang_of(request)
    base = {"request": request, **page_words(lang), "path": request.url.path
            + (("?" + request.url.query) if request.url.query else "")}
    html = render_template(name, {**base, **ctx})
    return HTMLResponse(html, status_code=status)


def _message(request: Request, status: int, message: str) -> HTMLResponse:
    """The message page; `message` is an English msgid (extracted from every `_message` call)."""
    return _render(request, "message.html", status=status, message=translator(lang_of(request))(message))


def _problem(request: Request, exc: ServiceError) -> HTMLResponse:
    observability.error(type(exc))
    return _render(request, "message.html", status=exc.status,
                   message=clip_echo(service_message(exc, lang_of(request))))


def _set_seat_cookie(request: Request, response: Response, table_id: str, token: str) -> None:
    response.set_cookie(seat_cookie(table_id), token, max_age=SEAT_COOKIE_AGE, httponly=True, samesite="lax",
                        secure=request.app.state.settings.secure_cookies, path="/")


def _served(request: Request) -> dict[str, games.Game]:
    return request.app.state.games


def _game_card(slug: str, game: games.Game) -> dict[str, Any]:
    return {"slug": slug, **{f"{name}_{lang}": getattr(game, f"{name}_{lang}") for name in ("title", "pitch")
                             for lang in LANGS}, "min_players": game.min_players, "max_players": game.max_players,
            "options": [o.as_dict() for o in game.options]}


def _is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _local(path: str | None) -> str:
    """Only same-site paths may be redirected to."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    return path


# ------------------------------------------------------------------------------------------- moves
# First of this router's routes: FastAPI tries them in order at every request, and a move is the request a
# table's page makes most.

@router.post("/t/{table_id}/act")
async def act_form(request: Request, table_id: str) -> Response:
    """An action from the table page: with htmx, the flash region comes back (the socket updates the page);
    without JavaScript, a 303 back to the table (a refusal is shown there once)."""
    form = await request.form()
    lang = lang_of(request)
    _ = translator(lang)
    try:
        version = int(str(form.get("version", "")))
    except ValueError:
        version = -1
    try:
        action = parse_json(str(form.get("action", "")))
    except ValueError:
        action = None
    message = None
    service = service_of(request)
    token = request.cookies.get(seat_cookie(table_id))
    if token:
        await rate_limits(request).action(table_id, hash_token(token))
    reason = None if form.get("confirmed") == "yes" else await _final_reason(service, table_id, token, action, lang)
    if reason is not None and not _is_htmx(request):  # without JavaScript: a page that asks, then posts again
        return _render(request, "table/confirm.html", lang=lang, table_id=table_id, reason=reason,
                       version=version, action=str(form.get("action", "")))
    if reason is not None:  # the page's script asks before it posts: a post it did not ask about is refused
        return HTMLResponse(render_template("table/flash.html",
                                            {"flash": _("Confirm first: ") + reason, **page_words(lang)}))
    try:
        await service.act(table_id, token, version, action)
    except Illegal as e:  # the rules' refusal, in the reader's language (the game's own words)
        message = service_message(e, lang)
        if e.refusal is not None:
            snap = await service.current(table_id)
            code, args = e.refusal
            message = service.game(snap.game).refusal_text(code, args, lang, list(snap.seat_names))
    except ServiceError as e:
        message = service_message(e, lang)
        if e.status == 409 and "moved on" in e.message:
            message = _("The table moved on before your move arrived: look again and replay if you still can.")
    if _is_htmx(request):
        html = render_template("table/flash.html", {"flash": message, **page_words(lang)})
        return HTMLResponse(html)
    response = RedirectResponse(f"/t/{table_id}", status_code=303)
    if message:
        response.set_cookie(FLASH_COOKIE, quote(message), max_age=60, httponly=True, samesite="lax", path="/")
    return response


async def _final_reason(service: TablesService, table_id: str, token: str | None, action: Any,
                        lang: str) -> str | None:
    """Why this action of the seat cannot be taken back, in words, when its view marks it so (`confirm`,
    parallel to `legal_actions`); None when it needs no confirmation or is not one of its legal actions (the
    service then refuses it in its own words)."""
    if not isinstance(action, dict):
        return None
    try:
        snap = await service.current(table_id)
        _version, view = await service.view(table_id, token)
    except ServiceError:
        return None
    gview = view.get("game") or {}
    wanted = canonical_action(action)
    for legal, code in zip(gview.get("legal_actions", []), gview.get("confirm") or []):
        if code and canonical_action(legal) == wanted:
            return service.game(snap.game).confirmation_text(code, {}, lang, list(snap.seat_names))
    return None



# ------------------------------------------------------------------------------------------- lobby

@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    served = _served(request)
    listed = [_game_card(slug, g) for slug, g in games.REGISTRY.items() if slug in served]
    mine = []
    service = service_of(request)
    prefix = seat_cookie("")
    for name, token in list(request.cookies.items())[:40]:
        if not name.startswith(prefix):
            continue
        table_id = name[len(prefix):]
        try:
            ident = await service.identify(table_id, token)
            summary = await service.summary(table_id)
        except ServiceError:
            continue
        if ident.seat is not None:
            mine.append({**summary, "you": ident.seat})
    mine.sort(key=lambda t: t["created_at"] or "", reverse=True)
    return _render(request, "home.html", games=listed, mine=mine[:8], open_tables=await _open_tables(request),
                   max_delay=MAX_SPECTATOR_DELAY)


async def _open_tables(request: Request) -> list[dict[str, Any]]:
    """The tables anyone may find (app/services/tables.py `open_tables`), with their game's titles."""
    served = _served(request)
    return [{**t, "title_en": served[t["game"]].title_en, "title_fr": served[t["game"]].title_fr,
             "title_it": served[t["game"]].title_it}
            for t in await service_of(request).open_tables() if t["game"] in served]


@router.get("/tables/open", response_class=HTMLResponse)
async def open_tables(request: Request) -> HTMLResponse:
    """The home page's list of open tables, alone: the home page polls it (htmx) to keep it live."""
    return _render(request, "open_tables.html", open_tables=await _open_tables(request))


def _options_from_form(game: games.Game, form: Any) -> dict[str, Any]:
    """The options of the create form: each one's value is the JSON of one of its choices."""
    options: dict[str, Any] = {}
    for option in game.options:
        raw = form.get(f"opt_{option.name}")
        if raw is None:
            if isinstance(option.default, bool):  # an unchecked checkbox
                options[option.name] = False
            continue
        try:
            value = parse_json(raw)
        except ValueError:
            value = raw
        options[option.name] = value
    return options


BOT_SEAT_FIELD = "bot_"  # bot_1, bot_2...: "" (a person) or a bot level, for every seat but the creator's
DEMO_LEVEL_FIELD = "demo_level"


def _bots_from_form(form: Any, players: int, demo: bool) -> dict[str, str] | None:
    """The bot seats of the create form: {"seat": level}. Seat 0 is the creator's, so only the others can
    be given to a bot; a demo table gives every seat to a bot of the chosen level. None: a level that is
    not one."""
    if demo:
        level = str(form.get(DEMO_LEVEL_FIELD) or "novice")
        if level not in bots.LEVELS:
            return None
        return {str(seat): level for seat in range(players)}
    chosen: dict[str, str] = {}
    for seat in range(1, players):
        level = str(form.get(f"{BOT_SEAT_FIELD}{seat}") or "")
        if not level:
            continue
        if level not in bots.LEVELS:
            return None
        chosen[str(seat)] = level
    return chosen


def _table_options_from_form(form: Any) -> dict[str, Any]:
    """The table's own settings of the create form (the service checks their ranges): spectators allowed
    ("no": not), their delay in actions, private (a checkbox), the turn timer in minutes ("": none).
    ValueError: a number that is not one."""
    minutes = str(form.get("turn_minutes") or "").strip()
    return {"turn_timer": int(minutes) * 60 if minutes else None,
            "spectators_allowed": form.get("spectators") != "no",
            "spectator_delay": int(str(form.get("spectator_delay") or "0").strip() or "0"),
            "private": form.get("private") == "yes"}


@router.post("/tables/new")
async def new_table(request: Request) -> Response:
    form = await request.form()
    slug = str(form.get("game", ""))
    game = _served(request).get(slug)
    if game is None:
        return _message(request, 400, "There is no such game here.")
    try:
        players = int(str(form.get("players", game.min_players)))
    except ValueError:
        return _message(request, 400, "Choose the number of players.")
    demo = form.get("demo") == "bots"
    # (A number of players the game does not take is refused by the service, in its words.)
    seat_bots = _bots_from_form(form, players, demo) if game.min_players <= players <= game.max_players else {}
    if seat_bots is None:
        return _message(request, 400, "A bot is novice or strong.")
    try:
        table_options = _table_options_from_form(form)
    except ValueError:
        return _message(request, 400, "The turn timer and the spectator delay are whole numbers.")
    if demo:
        table_options["spectators_allowed"] = True  # its creator watches it
    await rate_limits(request).table_created(request)
    try:
        snap = await service_of(request).create(slug, players, _options_from_form(game, form),
                                              bots=seat_bots or None, **table_options)
    except ServiceError as e:
        return _problem(request, e)
    if demo:  # a table of bots only: it starts at once, and its creator watches it
        return RedirectResponse(f"/t/{snap.id}/watch?key={quote(snap.spectator_key)}", status_code=303)
    name = str(form.get("name", "")).strip()
    if not name:
        return RedirectResponse(f"/t/{snap.id}/join?key={snap.invite_key}", status_code=303)
    try:
        _seat, token = await service_of(request).join(snap.id, snap.invite_key, name)
    except ServiceError as e:
        return _problem(request, e)
    response = RedirectResponse(f"/t/{snap.id}", status_code=303)
    _set_seat_cookie(request, response, snap.id, token)
    return response


# -------------------------------------------------------------------------------------------- join

@router.get("/t/{table_id}/join", response_class=HTMLResponse)
async def join_page(request: Request, table_id: str, key: str = "") -> Response:
    service = service_of(request)
    try:
        snap = await service.current(table_id)
        summary = await service.summary(table_id)
    except ServiceError as e:
        return _problem(request, e)
    if not same_secret(key, snap.invite_key):
        return _message(request, 403, "This invite link is not valid.")
    # Already seated here (the cookie): straight to the table.
    token = request.cookies.get(seat_cookie(table_id))
    if token:
        try:
            if (await service.identify(table_id, token)).seat is not None:
                return RedirectResponse(f"/t/{table_id}", status_code=303)
        except ServiceError:
            pass
    base = base_url(request)
    game = _served(request).get(summary["game"])
    return _render(request, "join.html", table=summary, key=key, game=_game_card(summary["game"], game),
                   invite_url=f"{base}/t/{table_id}/join?key={snap.invite_key}",
                   spectator_url=_spectator_url(base, snap))


def _spectator_url(base: str, snap: Any) -> str | None:
    """The table's spectator link; None when it allows no spectators (then no such link exists)."""
    if not snap.spectators_allowed:
        return None
    return f"{base}/t/{snap.id}/watch?key={quote(snap.spectator_key)}"


@router.post("/t/{table_id}/join")
async def join_submit(request: Request, table_id: str) -> Response:
    form = await request.form()
    key, name = str(form.get("key", "")), str(form.get("name", ""))
    try:
        _seat, token = await service_of(request).join(table_id, key, name)
    except ServiceError as e:
        return _problem(request, e)
    response = RedirectResponse(f"/t/{table_id}", status_code=303)
    _set_seat_cookie(request, response, table_id, token)
    return response


@router.get("/t/{table_id}/seat/{token}")
async def seat_link(request: Request, table_id: str, token: str) -> Response:
    """The personal seat link: sets this device's cookie, then shows the table."""
    try:
        ident = await service_of(request).identify(table_id, token)
    except ServiceError as e:
        return _problem(request, e)
    if ident.seat is None:
        return RedirectResponse(f"/t/{table_id}/watch?key={quote(token)}", status_code=303)
    # Returning through the seat link takes back a seat a bot took over (harmless when it is yours).
    try:
        await bots.reclaim(service_of(request), table_id, token)
    except ServiceError as e:
        return _problem(request, e)
    response = RedirectResponse(f"/t/{table_id}", status_code=303)
    _set_seat_cookie(request, response, table_id, token)
    return response


# ------------------------------------------------------------------------------------------- table

@router.get("/t/{table_id}/watch", response_class=HTMLResponse)
async def watch_page(request: Request, table_id: str, key: str = "") -> Response:
    return await _table_page(request, table_id, key, spectator=True)


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: str) -> Response:
    return await _table_page(request, table_id, request.cookies.get(seat_cookie(table_id)), spectator=False)


async def table_links(request_base: str, service: TablesService, table_id: str, credential: str,
                      seated: bool) -> dict[str, str | None]:
    """The page's links; a finished table's also have its facts (its rematch: TablesService.facts), which its
    socket keeps fresh."""
    snap = await service.current(table_id)
    return {
        "seat": f"{request_base}/t/{table_id}/seat/{credential}" if seated else None,
        "invite": f"{request_base}/t/{table_id}/join?key={snap.invite_key}" if seated else None,
        "spectator": _spectator_url(request_base, snap),
        "spectate_key": None if seated else credential,
        **(await service.facts(table_id) if snap.status == FINISHED else {}),
    }


async def _table_page(request: Request, table_id: str, credential: str | None, spectator: bool) -> Response:
    service = service_of(request)
    try:
        summary = await service.summary(table_id)
        if not credential and not spectator:
            return await _open_page(request, table_id, summary)
        ident = await service.identify(table_id, credential)
        version, view = await service.view(table_id, credential)
        links = await table_links(base_url(request), service, table_id, credential, ident.seat is not None)
        chat = await request.app.state.chat.state(table_id, ident.seat)
    except ServiceError as e:
        return _problem(request, e)
    if spectator and ident.seat is not None:  # a seat token in a spectator link: open the seat
        return RedirectResponse(f"/t/{table_id}/seat/{credential}", status_code=303)
    lang = lang_of(request)
    game = service.game(summary["game"])
    flash = request.cookies.get(FLASH_COOKIE)
    page = PageState(view, version, lang, game, summary["presence"], links, flash=unquote(flash) if flash else None,
                     title_en=game.title_en, title_fr=game.title_fr, title_it=game.title_it)
    ctx = context(page)
    ws_url = (f"/ws/tables/{table_id}/html?since={version}&chat={chat_digest(chat_html(chat, lang))}"
              f"&presence={presence_digest(summary['presence'])}")
    if links.get("rematch"):
        ws_url += f"&rematch={quote(links['rematch'])}"
    if ident.seat is None:
        ws_url += f"&spectate={quote(credential)}"
    response = _render(request, "table.html", ws_url=ws_url, summary=summary, chat=chat, chat_max=CHAT_TEXT_MAX,
                       spectate_key=links["spectate_key"], **ctx)
    if flash:
        response.delete_cookie(FLASH_COOKIE, path="/")
    return response


async def _open_page(request: Request, table_id: str, summary: dict[str, Any]) -> Response:
    """A plain table link without a seat: a public table offers to watch it (when it allows spectators) and
    to join it (while a seat is free); a private one only says whose links open it."""
    snap = await service_of(request).current(table_id)
    free = summary["status"] == "lobby" and any(not s["taken"] for s in summary["seats"])
    return _render(request, "table/open.html", table=summary,
                   watch_url=None if snap.private else _spectator_url("", snap),
                   join_url=f"/t/{table_id}/join?key={snap.invite_key}" if free and not snap.private else None)


# -------------------------------------------------------------------------------------------- chat

@router.post("/t/{table_id}/chat")
async def chat_form(request: Request, table_id: str) -> Response:
    """A chat message from the table page. Without JavaScript: back to the table, or the refusal (4xx).
    With htmx: the form again, emptied or with the refusal; the socket brings the message to every page."""
    form = await request.form()
    key = str(form.get("key") or "")
    text, name = form.get("text"), form.get("name")
    credential = key or request.cookies.get(seat_cookie(table_id))
    lang = lang_of(request)
    error = None
    try:
        await request.app.state.chat.post(table_id, credential, text, name, client=client_of(request))
    except RateLimited as e:
        if not _is_htmx(request):
            raise
        error = translator(lang)(e.message)
    except ServiceError as e:
        if not _is_htmx(request):
            return _problem(request, e)
        error = clip_echo(service_message(e, lang))
    if _is_htmx(request):
        return _render(request, "table/chat_form.html", table_id=table_id, spectate_key=key or None,
                       chat_max=CHAT_TEXT_MAX, chat_error=error, chat_name=name if isinstance(name, str) else None,
                       chat_text=text if error and isinstance(text, str) else None)
    back = f"/t/{table_id}/watch?key={quote(key)}" if key else f"/t/{table_id}"
    return RedirectResponse(back, status_code=303)


@router.post("/t/{table_id}/leave")
async def leave_form(request: Request, table_id: str) -> Response:
    try:
        await service_of(request).leave(table_id, request.cookies.get(seat_cookie(table_id)))
    except ServiceError as e:
        return _problem(request, e)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(seat_cookie(table_id), path="/")
    return response


@router.post("/t/{table_id}/leave-game")
async def leave_game_form(request: Request, table_id: str) -> Response:
    """Leave a started game: a bot plays the seat until its player comes back through the seat link. The
    form asks for a confirmation (a checkbox); without it, back to the table with a sentence."""
    form = await request.form()
    lang = lang_of(request)
    _ = translator(lang)
    response = RedirectResponse(f"/t/{table_id}", status_code=303)
    if form.get("confirm") != "yes":
        message = _("Tick the box to confirm that you leave the game.")
        response.set_cookie(FLASH_COOKIE, quote(message), max_age=60, httponly=True, samesite="lax", path="/")
        return response
    try:
        result = await bots.leave_game(service_of(request), table_id, request.cookies.get(seat_cookie(table_id)),
                                       request.app.state.settings.takeover_level)
    except ServiceError as e:
        return _problem(request, e)
    if result["bot"] is None:  # the game had not started: the seat is free again
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(seat_cookie(table_id), path="/")
        return response
    message = _("A bot plays your seat now. Open your personal link to take it back.")
    response.set_cookie(FLASH_COOKIE, quote(message), max_age=60, httponly=True, samesite="lax", path="/")
    return response


@router.post("/t/{table_id}/seats/{seat}/bot")
async def absent_seat_form(request: Request, table_id: str, seat: int) -> Response:
    """Another player proposes that a bot plays the seat of a player disconnected on their turn for a while
    (settings.absent_seconds); the player takes it back through their personal link."""
    lang = lang_of(request)
    _ = translator(lang)
    settings = request.app.state.settings
    try:
        await bots.take_absent_seat(service_of(request), table_id, request.cookies.get(seat_cookie(table_id)), seat,
                                    settings.takeover_level, settings.absent_seconds)
    except ServiceError as e:
        return _problem(request, e)
    response = RedirectResponse(f"/t/{table_id}", status_code=303)
    message = _("A bot plays that seat now, until its player comes back through their personal link.")
    response.set_cookie(FLASH_COOKIE, quote(message), max_age=60, httponly=True, samesite="lax", path="/")
    return response


# --------------------------------------------------------------------------------------- language

@router.get("/lang/{code}")
async def switch_language(request: Request, code: str, next: str = "/") -> Response:
    response = RedirectResponse(_local(next), status_code=303)
    if code in LANGS:
        response.set_cookie(LANG_COOKIE, code, max_age=365 * 24 * 3600, samesite="lax", path="/")
    return response


# ------------------------------------------------------------------------------------------- rules

_RULES_CACHE: dict[tuple[str, str], str] = {}


def rules_html(slug: str, lang: str) -> str | None:
    cached = _RULES_CACHE.get((slug, lang))
    if cached is not None:
        return cached
    folder = project_root() / "games" / slug
    if not folder.is_dir():
        folder = Path(games.__file__).resolve().parent / slug
    # RULES.md is the English text; another language's is RULES.<lang>.md, when it has been written.
    source = folder / f"RULES.{lang}.md"
    if lang == DEFAULT_LANG or not source.is_file():
        source = folder / "RULES.md"
    if not source.is_file():
        return None
    html = markdown.markdown(source.read_text(encoding="utf-8"), extensions=["tables", "fenced_code", "toc"],
                             output_format="html")
    _RULES_CACHE[(slug, lang)] = html
    return html


@router.get("/rules/{slug}", response_class=HTMLResponse)
async def rules_page(request: Request, slug: str) -> Response:
    game = games.REGISTRY.get(slug)
    if game is None:
        return _message(request, 404, "There is no such game here.")
    lang = lang_of(request)
    body = rules_html(slug, lang)
    if body is None:
        return _message(request, 404, "The rules of this game are missing.")
    return _render(request, "rules.html", lang=lang, game=_game_card(slug, game), rules=body)


# ------------------------------------------------------------------------------------------- admin

def admin_token(request: Request) -> str | None:
    """The club's admin token: `settings.admin_token` (TABULA_ADMIN_TOKEN; the admin page is off without it)."""
    return request.app.state.settings.admin_token or None


def _admin(request: Request) -> str | Response:
    """Who the admin is (their session, seen from their address) for the audit log, or the page that
    refuses them: 404 when the admin page is off, the login form (401) without a valid session."""
    if not admin_token(request):
        return _message(request, 404, "The admin page is disabled on this server (TABULA_ADMIN_TOKEN is not set).")
    cookie = request.cookies.get(ADMIN_COOKIE)
    if not admin_session_valid(admin_token(request), cookie):
        return _render(request, "admin_login.html", status=401, failed=False)
    session = hashlib.sha256(cookie.encode()).hexdigest()[:8]  # names the session, never reveals it
    return f"admin session {session} from {client_of(request)}"


@router.get("/admin", response_class=HTMLResponse)
async def admin_page(request: Request) -> Response:
    who = _admin(request)
    if isinstance(who, Response):
        return who
    service = service_of(request)
    settings = request.app.state.settings
    return _render(request, "admin.html", tables=await service.listing(), games=_served(request),
                   stale=await request.app.state.cleanup.preview(), figures=await observability.figures(request.app),
                   audit=await service.audit_log(), takeover_level=settings.takeover_level,
                   lobby_expiry_hours=settings.lobby_expiry_hours, abandon_days=settings.abandon_days)


async def _admin_act(request: Request, action: str, do: Callable[[str], Awaitable[Response | None]]) -> Response:
    """An admin action from the admin page: refused without a session; done through the tables service,
    which writes it to the audit log with its effect; then back to the page."""
    who = _admin(request)
    if isinstance(who, Response):
        return who
    try:
        result = await do(who)
    except ServiceError as e:
        return _problem(request, e)
    observability.ADMIN_ACTIONS.labels(action).inc()
    return result or RedirectResponse("/admin#admin-audit", status_code=303)


@router.get("/admin/tables/{table_id}/watch")
async def admin_watch(request: Request, table_id: str) -> Response:
    """Opens any table as a spectator, a private one too (the look is audited)."""
    async def watch(who: str) -> Response:
        key = await service_of(request).admin_spectator_key(table_id, Audit(who, "spectate", table_id))
        return RedirectResponse(f"/t/{table_id}/watch?key={quote(key)}", status_code=303)

    return await _admin_act(request, "spectate", watch)


@router.post("/admin/tables/{table_id}/end")
async def admin_end(request: Request, table_id: str) -> Response:
    """Ends a game in play as abandoned (no scores)."""
    async def end(who: str) -> None:
        await service_of(request).admin_end(table_id, Audit(who, "end", table_id, "ended as abandoned"))

    return await _admin_act(request, "end", end)


@router.post("/admin/tables/{table_id}/seats/{seat}/remove")
async def admin_remove(request: Request, table_id: str, seat: int) -> Response:
    """Removes the player of a seat; a bot (the form's level, else the takeover level) plays it on."""
    form = await request.form()
    level = str(form.get("level") or request.app.state.settings.takeover_level)
    if level not in LEVELS:
        return _message(request, 400, "There is no such bot level.")

    async def remove(who: str) -> None:
        await service_of(request).admin_remove(table_id, seat, level, Audit(
            who, "remove", table_id, f"seat {seat} given to the {level} bot"))

    return await _admin_act(request, "remove", remove)


@router.get("/admin/tables/{table_id}/chat", response_class=HTMLResponse)
async def admin_chat(request: Request, table_id: str) -> Response:
    """A table's chat for moderation: both channels (deleted messages marked) and who is muted."""
    who = _admin(request)
    if isinstance(who, Response):
        return who
    try:
        summary = await service_of(request).summary(table_id)
        chat = await request.app.state.chat.moderation(table_id)
    except ServiceError as e:
        return _problem(request, e)
    return _render(request, "admin_chat.html", table=summary, chat=chat)


@router.post("/admin/tables/{table_id}/chat/{message_id}/delete")
async def admin_chat_delete(request: Request, table_id: str, message_id: int) -> Response:
    """Hides a chat message from every reader (it stays stored)."""
    async def delete(who: str) -> Response:
        await request.app.state.chat.delete(table_id, message_id, Audit(
            who, "chat-delete", table_id, f"chat message {message_id} deleted"))
        return RedirectResponse(f"/admin/tables/{table_id}/chat", status_code=303)

    return await _admin_act(request, "chat-delete", delete)


@router.post("/admin/tables/{table_id}/chat/mute")
async def admin_chat_mute(request: Request, table_id: str) -> Response:
    """Mutes (or lets speak again) a seat (`seat`: its number) or the spectators' chat (`seat`: "spectators");
    `muted`: "yes" or "no"."""
    form = await request.form()
    raw, muted = str(form.get("seat", "")), form.get("muted") == "yes"
    if raw != "spectators" and not raw.isdigit():
        return _message(request, 400, "Choose a seat or the spectators.")
    seat = None if raw == "spectators" else int(raw)
    whom = "the spectators' chat" if seat is None else f"seat {seat}"

    action = "chat-mute" if muted else "chat-unmute"

    async def mute(who: str) -> Response:
        await request.app.state.chat.mute(table_id, seat, muted, Audit(
            who, action, table_id, f"{whom} {'muted' if muted else 'may speak again'}"))
        return RedirectResponse(f"/admin/tables/{table_id}/chat", status_code=303)

    return await _admin_act(request, action, mute)


@router.post("/admin/cleanup")
async def admin_cleanup(request: Request) -> Response:
    """Runs the stale-table clean-up now."""
    async def clean(who: str) -> None:
        done = await request.app.state.cleanup.run()
        await service_of(request).write_audit(Audit(
            who, "cleanup", None, f"{done['expired']} waiting table(s) deleted, "
                                  f"{done['abandoned']} game(s) abandoned"))

    return await _admin_act(request, "cleanup", clean)


@router.post("/admin")
async def admin_login(request: Request) -> Response:
    if not admin_token(request):
        return _message(request, 404, "The admin page is disabled on this server.")
    await rate_limits(request).login_attempt(request)
    form = await request.form()
    if not same_admin_token(form.get("token"), admin_token(request)):
        return _render(request, "admin_login.html", status=403, failed=True)
    response = RedirectResponse("/admin", status_code=303)
    response.set_cookie(ADMIN_COOKIE, admin_session(admin_token(request)), max_age=ADMIN_SESSION_SECONDS,
                        httponly=True, samesite="strict", path="/admin",
                        secure=request.app.state.settings.secure_cookies)
    return response


@router.post("/admin/logout")
async def admin_logout(request: Request) -> Response:
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(ADMIN_COOKIE, path="/admin")
    return response


# ------------------------------------------------------------------------------- replay and rematch

def _whole_number(raw: str | None) -> int | str | None:
    """A query parameter that should be a whole number: the number, else the text (refused by the service)."""
    if raw is None or raw == "":
        return None
    return int(raw) if raw.isdigit() else raw


@router.get("/t/{table_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, table_id: str, key: str = "") -> Response:
    """The replay viewer: one step of the game drawn by the live page's board templates, with the step's log
    lines beside it; first / previous / next / last links and a slider (a form: it works without JavaScript;
    static/replay.js adds the arrow keys). Seats come with their cookie, spectators with the spectator key."""
    service = service_of(request)
    credential = key or request.cookies.get(seat_cookie(table_id))
    query = request.query_params
    try:
        body = await request.app.state.replays.step(table_id, credential, _whole_number(query.get("step")),
                                                    _whole_number(query.get("as")))
    except ServiceError as e:
        return _problem(request, e)
    game = service.game(body["view"]["table"]["game"])
    return _render(request, "replay.html", **replay_context(body, game, lang_of(request), key))


def replay_context(body: dict[str, Any], game: games.Game, lang: str, key: str) -> dict[str, Any]:
    """The replay page's context, from one step's answer alone (`Replays.step`, what its reader may see): the
    leak test renders it from a resampled step and finds the same page."""
    table_id = body["view"]["table"]["id"]
    page = PageState(body["view"], body["version"], lang, game, {"connected": [], "spectators": 0},
                     {"seat": None, "invite": None, "spectator": None, "spectate_key": key or None},
                     title_en=game.title_en, title_fr=game.title_fr, title_it=game.title_it)
    ctx = context(page)
    changes = [change_words(c, ctx["names"], lang) for c in body["changes"]]
    lines = [game.render_log(entry, lang, ctx["names"]) for entry in body["entries"]]

    def step_url(step: int, seat: int | None = body["as"]) -> str:
        params = {**({"key": key} if key else {}), **({"as": seat} if body["everything"] else {}), "step": step}
        return f"/t/{table_id}/replay?{urlencode(params)}"

    return {**ctx, "tab_title": f"{ctx['title']} · " + ctx["words"]("Replay"), "replay": body,
            "step_url": step_url, "step_lines": changes + lines, "key": key, "in_replay": True,
            "chat": {**body["chat"], "muted": False}}


@router.get("/t/{table_id}/record")
async def record_download(request: Request, table_id: str, key: str = "") -> Response:
    """A finished table's game record (app/services/records.py) as one JSON file, for seats and spectators."""
    service = service_of(request)
    try:
        await service.identify(table_id, key or request.cookies.get(seat_cookie(table_id)))
        record = await finished_record(service, table_id)
    except ServiceError as e:
        return _problem(request, e)
    return Response(json.dumps(record, ensure_ascii=False, sort_keys=True), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="tabula-{table_id}.json"'})


@router.post("/t/{table_id}/rematch")
async def rematch_form(request: Request, table_id: str) -> Response:
    """Rematch from the end screen: the player is seated at the rematch (created if they are the first) and their
    seat cookie moves to it."""
    service = service_of(request)
    try:
        rematch_id = (await service.history(table_id))["row"].rematch_id
        if rematch_id and request.cookies.get(seat_cookie(rematch_id)):  # seated there already: go there
            return RedirectResponse(f"/t/{rematch_id}", status_code=303)
        seated = await rematch.accept(service, table_id, request.cookies.get(seat_cookie(table_id)))
    except ServiceError as e:
        return _problem(request, e)
    response = RedirectResponse(f"/t/{seated['table']}", status_code=303)
    _set_seat_cookie(request, response, seated["table"], seated["token"])
    return response
