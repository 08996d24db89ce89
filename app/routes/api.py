"""The JSON API (documented in OpenAPI at /docs and /openapi.json)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..models import FINISHED
from ..services import bots, rematch
from ..services.chat import TEXT_MAX
from ..services.errors import BadRequest, Conflict, NotFound
from ..services.tables import ACTION_MAX_BYTES, MAX_SPECTATOR_DELAY, NAME_MAX, TablesService, hash_token
from ..services.timers import MAX_TURN_SECONDS, turn_seconds
from ..web.limits import client_of, rate_limits

# operationId = the function's name (the links of the schema name them).
router = APIRouter(prefix="/api", tags=["tables"], generate_unique_id_function=lambda route: route.name)


def service_of(request: Request) -> TablesService:
    # Not a FastAPI dependency: solving one, at every request, cost about a tenth of an HTTP move (issue #16).
    return request.app.state.service


# Seat tokens, invite and spectator keys are `secrets.token_urlsafe` text: anything else is no credential.
CREDENTIAL_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
_CREDENTIAL = re.compile(CREDENTIAL_PATTERN)


def credential_from(request: Request, authorization: str | None, spectate: str | None) -> str | None:
    """The caller's credential: `Authorization: Bearer <seat token or spectator key>`, the `spectate`
    query parameter, or the seat cookie the pages set. A malformed one is none (the caller is refused)."""
    credential = None
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            credential = value.strip()
    credential = credential or spectate
    table_id = request.path_params.get("table_id")
    if not credential and table_id:
        credential = request.cookies.get(seat_cookie(table_id))
    return credential if credential and _CREDENTIAL.match(credential) else None


def seat_cookie(table_id: str) -> str:
    return f"tabula_seat_{table_id}"


AuthHeader = Annotated[str | None, Header(description="`Bearer <seat token>` or `Bearer <spectator key>`")]
SpectateQuery = Annotated[str | None, Query(description="The spectator key (instead of the header)",
                                            pattern=CREDENTIAL_PATTERN)]


class Error(BaseModel):
    error: str = Field(description="A sentence saying what went wrong.")


class Stale(BaseModel):
    error: str
    version: int | None = Field(None, description="The table's current version.")
    view: dict[str, Any] | None = Field(None, description="Your current view.")


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"example": {
        "game": "ave_cesar", "players": 4, "bots": {"2": "strong", "3": "novice"}, "turn_minutes": 2}})
    game: str = Field(description="The game's slug (see GET /api/games).")
    players: int = Field(strict=True, description="How many seats.")
    options: dict[str, Any] = Field(default_factory=dict, description="The game's options; defaults fill the rest.")
    bots: dict[str, str] | list[str | None] | None = Field(
        None, description="Seats given to bots: {\"seat number\": \"novice\" | \"strong\"}, or one level (or "
                          "null for a person) per seat. The game starts when the other seats are taken, or at "
                          "once with bots only (a demo table to watch).")
    turn_minutes: int | None = Field(None, strict=True, ge=1, le=MAX_TURN_SECONDS // 60,
                                     description="Turn timer: minutes per decision (none: no timer). When a "
                                                 "seat's time runs out, a bot plays it until its player returns. "
                                                 "Give at most one of turn_minutes, turn_seconds, turn_timer.")
    turn_seconds: int | None = Field(None, strict=True, ge=1, le=MAX_TURN_SECONDS,
                                     description="The turn timer in seconds.")
    turn_timer: int | None = Field(None, strict=True, ge=1, le=MAX_TURN_SECONDS,
                                   description="The same as turn_seconds.")
    spectators_allowed: bool = Field(True, strict=True, description="Whether spectators may watch. Without them "
                                     "there is no spectator key to use (every spectator route refuses) and the "
                                     "table is never listed among the open tables.")
    spectator_delay: int = Field(0, strict=True, ge=0, le=MAX_SPECTATOR_DELAY,
                                 description="Spectators see the game as it was this many versions (actions) "
                                             "ago while it is played (0: live); the whole game once it is over.")
    private: bool = Field(False, strict=True, description="A private table is never listed among the open tables.")


class SeatInfo(BaseModel):
    number: int
    name: str | None
    taken: bool
    connected: bool
    bot: str | None = Field(None, description="The level of the bot playing this seat (null: its person).")
    takeover: bool = Field(False, description="A bot took this seat over from its player, who may take it back.")


class TableInfo(BaseModel):
    id: str
    game: str
    title_en: str
    title_fr: str
    title_it: str
    players: int
    options: dict[str, Any]
    status: str = Field(description="lobby, playing or finished")
    version: int
    seats: list[SeatInfo]
    spectators: int
    turn_timer: int | None = Field(None, description="Seconds per decision (null: no timer).")
    deadline: str | None = Field(None, description="When the decision under way must be made (turn timer).")
    spectators_allowed: bool = True
    spectator_delay: int = Field(0, description="How many versions behind the game spectators see it.")
    private: bool = Field(False, description="Never listed among the open tables.")
    created_at: str | None
    started_at: str | None
    finished_at: str | None


class CreatedTable(TableInfo):
    invite_key: str = Field(description="Needed to join: share it with the players.")
    spectator_key: str | None = Field(description="Needed to watch: share it with spectators. It cannot act. "
                                                "Null when the table allows no spectators.")
    invite_url: str
    spectator_url: str | None


# A display name as the service takes it (clean_name): something besides spaces, no control characters.
NAME_PATTERN = r"^\s*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"example": {"invite": "…", "name": "Livia"}})
    invite: str = Field(pattern=CREDENTIAL_PATTERN, description="The table's invite key.")
    name: str = Field(min_length=1, max_length=NAME_MAX, pattern=NAME_PATTERN,
                      description=f"Your display name: 1 to {NAME_MAX} characters once spaces are trimmed, not "
                                  "all spaces, no control or format characters (Unicode category C).")
    seat: int | None = Field(None, strict=True, description="A particular free seat; the first free one otherwise.")


class Joined(BaseModel):
    table: str
    seat: int
    token: str = Field(description="Your secret seat token: keep it. Send it as `Authorization: Bearer`.")
    seat_url: str = Field(description="Your personal link: opens the table as you, on any device.")
    version: int


class ViewBody(BaseModel):
    version: int
    view: dict[str, Any] = Field(description="{\"table\": public table facts, \"game\": the game's view for you}")


class SubmitAction(BaseModel):
    model_config = ConfigDict(json_schema_extra={"example": {"version": 7, "action": {"type": "play", "index": 2}}})
    version: int = Field(strict=True, ge=0, description="The table version your view showed.")
    action: dict[str, Any] = Field(description="One of the `legal_actions` of your view (an object with a "
                                               f"\"type\"; at most {ACTION_MAX_BYTES} bytes as JSON).",
                                   json_schema_extra={"required": ["type"],
                                                      "properties": {"type": {"type": "string"}}})


class Acted(BaseModel):
    version: int = Field(description="The new table version (the move is committed).")


class Left(BaseModel):
    version: int


class LeftGame(BaseModel):
    version: int
    bot: str | None = Field(description="The level of the bot now playing your seat (null: the game had not "
                                        "started, and the seat is free again).")


class Reclaimed(BaseModel):
    version: int
    reclaimed: bool = Field(description="Whether a bot was playing your seat (false: it was yours already).")


class SeatBot(BaseModel):
    version: int
    bot: str = Field(description="The level of the bot now playing that seat.")


class GameInfo(BaseModel):
    slug: str
    title_en: str
    title_fr: str
    title_it: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Error, "description": "Malformed input (also JSON nested too deeply)"},
    403: {"model": Error, "description": "Bad credentials, a seat that may not do this, or a form sent from "
                                         "another site"},
    404: {"model": Error, "description": "No such table"},
    413: {"model": Error, "description": "The request body is larger than the server takes"},
}
RATE_LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"model": Error, "description": "Too many requests of this kind: wait the seconds of `Retry-After`",
          "headers": {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}}},
}


def base_url(request: Request) -> str:
    return request.app.state.settings.public_url or str(request.base_url).rstrip("/")


# The one write path first: FastAPI tries the routes in order at every request.
@router.post("/tables/{table_id}/actions", response_model=Acted,
             responses={**ERRORS, 409: {"model": Stale, "description": "Stale version (or the game is not on)"},
                        422: {"model": Error, "description": "The rules refuse this action"}, **RATE_LIMITED},
             summary="Submit an action (the one write path)")
async def submit_action(table_id: str, body: SubmitAction, request: Request,
                        authorization: AuthHeader = None) -> dict[str, Any]:
    service = service_of(request)
    credential = credential_from(request, authorization, None)
    if credential:
        await rate_limits(request).action(table_id, hash_token(credential))
    version = await service.act(table_id, credential, body.version, body.action)
    return {"version": version}


@router.get("/games", response_model=list[GameInfo], summary="The games this server offers")
async def list_games(request: Request) -> list[dict[str, Any]]:
    return [{"slug": slug, "title_en": g.title_en, "title_fr": g.title_fr, "title_it": g.title_it, "min_players": g.min_players,
             "max_players": g.max_players, "options": [o.as_dict() for o in g.options]}
            for slug, g in request.app.state.games.items()]


@router.post("/tables", status_code=201, response_model=CreatedTable, responses={**ERRORS, **RATE_LIMITED},
             summary="Create a table")
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    service = service_of(request)
    if sum(t is not None for t in (body.turn_minutes, body.turn_seconds, body.turn_timer)) > 1:
        raise BadRequest("Give the turn timer once: turn_minutes or turn_seconds.")
    if body.game not in request.app.state.games:
        raise BadRequest("There is no such game here (see GET /api/games).")
    timer = turn_seconds(body.turn_minutes, body.turn_seconds if body.turn_seconds is not None else body.turn_timer)
    await rate_limits(request).table_created(request)
    snap = await service.create(body.game, body.players, body.options, timer, body.bots,
                                spectators_allowed=body.spectators_allowed, spectator_delay=body.spectator_delay,
                                private=body.private)
    info = await service.summary(snap.id)
    base = base_url(request)
    watch = snap.spectators_allowed  # without spectators, no spectator key or link exists for anyone
    return {**info, "invite_key": snap.invite_key, "spectator_key": snap.spectator_key if watch else None,
            "invite_url": f"{base}/t/{snap.id}/join?key={snap.invite_key}",
            "spectator_url": f"{base}/t/{snap.id}/watch?key={snap.spectator_key}" if watch else None}


@router.get("/tables/{table_id}", response_model=TableInfo, responses=ERRORS, summary="A table's public facts")
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    return await service.summary(table_id)


@router.post("/tables/{table_id}/join", status_code=201, response_model=Joined,
             responses={**ERRORS, 409: {"model": Error, "description": "The seat is taken or the table started"}},
             summary="Claim a seat with the invite key")
async def join_table(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
    service = service_of(request)
    seat, token = await service.join(table_id, body.invite, body.name, body.seat)
    snap = await service.current(table_id)
    return {"table": table_id, "seat": seat, "token": token, "version": snap.version,
            "seat_url": f"{base_url(request)}/t/{table_id}/seat/{token}"}


@router.post("/tables/{table_id}/leave", response_model=Left,
             responses={**ERRORS, 409: {"model": Error, "description": "The game has started"}},
             summary="Give your seat back (before the start)")
async def leave_table(table_id: str, request: Request,
                      authorization: AuthHeader = None) -> dict[str, Any]:
    service = service_of(request)
    version = await service.leave(table_id, credential_from(request, authorization, None))
    return {"version": version}


@router.post("/tables/{table_id}/seat/leave", response_model=LeftGame,
             responses={**ERRORS, 409: {"model": Error, "description": "The game is over"}},
             summary="Leave your seat: before the start it is free again; once started, a bot plays it")
async def leave_game(table_id: str, request: Request,
                     authorization: AuthHeader = None) -> dict[str, Any]:
    """Once the game has started, the bot of the server's take-over level plays your seat until you take it
    back (`POST /api/tables/{id}/seat/reclaim`, or by opening your seat link)."""
    service = service_of(request)
    return await bots.leave_game(service, table_id, credential_from(request, authorization, None),
                                 request.app.state.settings.takeover_level)


@router.post("/tables/{table_id}/seat/reclaim", response_model=Reclaimed, responses=ERRORS,
             summary="Take your seat back from the bot that took it over")
async def reclaim_seat(table_id: str, request: Request,
                       authorization: AuthHeader = None) -> dict[str, Any]:
    service = service_of(request)
    return await bots.reclaim(service, table_id, credential_from(request, authorization, None))


@router.post("/tables/{table_id}/seats/{seat}/bot", response_model=SeatBot,
             responses={**ERRORS, 404: {"model": Error, "description": "No such table or seat"},
                        409: {"model": Error, "description": "The game is not waiting for that player, who is "
                                                             "connected or not disconnected long enough yet, or "
                                                             "a bot plays that seat already"}},
             summary="Propose that a bot plays the seat of a player disconnected on their turn")
async def propose_bot(table_id: str, seat: int, request: Request,
                      authorization: AuthHeader = None) -> dict[str, Any]:
    """Another seated player (not a spectator, not for their own seat) hands the seat to the bot of the
    server's take-over level once its player has been disconnected for `TABULA_ABSENT_SECONDS` while the
    game waits for them. The player takes it back with their token (`POST /api/tables/{id}/seat/reclaim`,
    or by opening their seat link)."""
    service = service_of(request)
    settings = request.app.state.settings
    return await bots.take_absent_seat(service, table_id, credential_from(request, authorization, None), seat,
                                       settings.takeover_level, settings.absent_seconds)


@router.get("/tables/{table_id}/view", response_model=ViewBody, responses=ERRORS,
            summary="Your view of the table (seat token or spectator key)")
async def get_view(table_id: str, request: Request, authorization: AuthHeader = None,
                   spectate: SpectateQuery = None) -> JSONResponse:
    service = service_of(request)
    version, view = await service.view(table_id, credential_from(request, authorization, spectate))
    return JSONResponse({"version": version, "view": view})


@router.get("/tables/{table_id}/log", responses=ERRORS,
            summary="The log as you may see it (everything, with the seed, once the game is over)")
async def get_log(table_id: str, request: Request, authorization: AuthHeader = None,
                  spectate: SpectateQuery = None) -> JSONResponse:
    service = service_of(request)
    return JSONResponse(await service.log(table_id, credential_from(request, authorization, spectate)))


class PostChat(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"example": {"text": "Ave!"}})
    text: str = Field(min_length=1, max_length=TEXT_MAX,
                      description=f"The message: 1 to {TEXT_MAX} characters, no markup (HTML tags) and no control "
                                  "characters but line breaks. A player writes to the players' chat, a spectator "
                                  "to the spectators' chat.")
    name: str | None = Field(None, min_length=1, max_length=NAME_MAX, pattern=NAME_PATTERN,
                             description="A spectator's display name (needed from spectators; a player writes "
                                         "under their seat's name).")


class ChatLine(BaseModel):
    id: int
    channel: str = Field(description="\"players\" or \"spectators\"")
    seat: int | None = Field(description="The writer's seat (null: a spectator).")
    name: str
    text: str
    version: int = Field(description="The table version the writer saw.")
    at: str = Field(description="When it was written (ISO 8601).")


class ChatRead(BaseModel):
    channel: str = Field(description="The channel you write to.")
    muted: bool = Field(description="An admin muted you (or the spectators' chat).")
    messages: list[ChatLine] = Field(description="What you may read, oldest first: a player, the players' chat; "
                                                 "a spectator, both chats.")


@router.get("/tables/{table_id}/chat", response_model=ChatRead, responses=ERRORS,
            summary="The table's chat as you may read it (seat token or spectator key)")
async def get_chat(table_id: str, request: Request, authorization: AuthHeader = None,
                   spectate: SpectateQuery = None) -> dict[str, Any]:
    return await request.app.state.chat.read(table_id, credential_from(request, authorization, spectate))


@router.post("/tables/{table_id}/chat", status_code=201, response_model=ChatLine,
             responses={**ERRORS, **RATE_LIMITED}, summary="Write to the table's chat")
async def post_chat(table_id: str, body: PostChat, request: Request, authorization: AuthHeader = None,
                    spectate: SpectateQuery = None) -> dict[str, Any]:
    return await request.app.state.chat.post(table_id, credential_from(request, authorization, spectate),
                                             body.text, body.name, client=client_of(request))


class OpenTable(BaseModel):
    id: str
    game: str
    players: int
    status: str = Field(description="lobby (waiting for players) or playing")
    spectators: int
    spectator_delay: int
    turn: int = Field(description="A game in play: its turn number, 1 + the actions played so far (0: waiting).")
    free: int = Field(description="Free seats.")
    seats: list[dict[str, Any]]


@router.get("/open-tables", response_model=list[OpenTable], summary="The tables anyone may join or watch")
async def list_open_tables(request: Request) -> list[dict[str, Any]]:
    """Public tables that allow spectators, waiting for players or in play; private tables never."""
    service = service_of(request)
    return await service.open_tables()


_NEW_TABLE = {"table_id": "$response.body#/id"}
_WATCHER = {**_NEW_TABLE, "spectate": "$response.body#/spectator_key"}
_SEATED = {"parameters": {"table_id": "$response.body#/table",
                          "header.authorization": "Bearer {$response.body#/token}"}}

# How a client goes from one answer to its next requests (OpenAPI links, by operationId; fuzzers follow them).
LINKS: dict[tuple[str, str, str], dict[str, dict[str, Any]]] = {
    ("/api/tables", "post", "201"): {
        "get_table": {"parameters": _NEW_TABLE},
        "join_table": {"parameters": _NEW_TABLE,
                       "requestBody": {"invite": "$response.body#/invite_key", "name": "Livia"}},
        "get_view": {"parameters": _WATCHER},
        "get_log": {"parameters": _WATCHER},
        "get_chat": {"parameters": _WATCHER},
    },
    ("/api/tables/{table_id}/join", "post", "201"): {
        op: _SEATED for op in ("get_view", "submit_action", "get_log", "leave_table", "leave_game", "reclaim_seat",
                               "get_chat", "post_chat")},
}


def complete_openapi(app: Any) -> None:
    """Completes the OpenAPI schema with what depends on the games this server offers (the slugs, the
    numbers of players, each game's options with their types and choices, the bot levels), the rule that a
    turn timer is given once, and the links from a new table and a new seat to what can be done with them."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        served = app.state.games
        fields = schema["components"]["schemas"]["CreateTable"]["properties"]
        fields["game"]["enum"] = list(served)
        fields["players"]["minimum"] = min(g.min_players for g in served.values())
        fields["players"]["maximum"] = max(g.max_players for g in served.values())
        fields["players"]["description"] += " Each game's own range: GET /api/games."
        fields["options"]["anyOf"] = [
            {"title": f"{slug} options", "type": "object", "additionalProperties": False,
             "properties": {o.name: {"enum": list(o.choices), "default": o.default, "description": o.en}
                            for o in game.options}}
            for slug, game in served.items()]
        fields["options"]["description"] += " Only the options of the chosen game, each one of its choices."
        levels = list(bots.LEVELS)
        fields["bots"]["anyOf"] = [
            {"type": "object", "propertyNames": {"pattern": r"^[0-9]+$"}, "additionalProperties": {"enum": levels}},
            {"type": "array", "items": {"enum": [*levels, None]}},
            {"type": "null"}]
        fields["bots"]["description"] += (" Seat numbers are below the number of players; a list has one entry per "
                                          "seat.")
        timers = ("turn_minutes", "turn_seconds", "turn_timer")
        schema["components"]["schemas"]["CreateTable"]["not"] = {"anyOf": [
            {"required": [a, b], "properties": {a: {"type": "integer"}, b: {"type": "integer"}}}
            for i, a in enumerate(timers) for b in timers[i + 1:]]}
        for (path, method, status), targets in LINKS.items():
            schema["paths"][path][method]["responses"][status]["links"] = {
                op: {"operationId": op, **link} for op, link in targets.items()}
        app.openapi_schema = schema
        return schema

    app.openapi = openapi


# ---------------------------------------------------------------------------------- after the game

async def finished_record(service: TablesService, table_id: str) -> dict[str, Any]:
    """A finished table's game record (app/services/records.py): what `tabula import` loads and
    `tabula replay-check --record` checks. An abandoned game keeps its secrets: it has none here."""
    if (await service.current(table_id)).status != FINISHED:
        raise Conflict("Only a finished game has a record to download.")
    return (await service.records([table_id]))[0]


@router.get("/tables/{table_id}/replay", responses={**ERRORS, 409: {"model": Error, "description": "Not started"}},
            summary="One step of the replay, as you may see it (everything once the game is finished)")
async def get_replay(table_id: str, request: Request, authorization: AuthHeader = None,
                     spectate: SpectateQuery = None,
                     step: Annotated[int | None, Query(description="The step (default: the last)")] = None,
                     seat: Annotated[int | None, Query(alias="as", description="Once the game is finished: "
                                                       "whose view to show (default: yours)")] = None
                     ) -> JSONResponse:
    """Steps are the start and then every action and seat change. While the game runs, a seat sees its own view
    of each step and a spectator the public one; once it is finished, anyone may look through any seat's eyes,
    and `hidden` lists what no view shows (deck orders)."""
    return JSONResponse(await request.app.state.replays.step(
        table_id, credential_from(request, authorization, spectate), step, seat))


@router.get("/tables/{table_id}/record", responses={**ERRORS, 409: {"model": Error, "description": "Not finished"}},
            summary="A finished table's game record (seed, options, actions), as one JSON file")
async def get_record(table_id: str, request: Request, authorization: AuthHeader = None,
                     spectate: SpectateQuery = None) -> JSONResponse:
    service = service_of(request)
    await service.identify(table_id, credential_from(request, authorization, spectate))
    return JSONResponse(await finished_record(service, table_id),
                        headers={"Content-Disposition": f'attachment; filename="tabula-{table_id}.json"'})


class Rematched(BaseModel):
    table: str = Field(description="The rematch table")
    seat: int = Field(description="Your seat there (the seats turn by one: another player starts)")
    token: str = Field(description="Your new secret seat token")
    seat_url: str


class RematchLink(BaseModel):
    table: str = Field(description="The table of the rematch this table's players started")


@router.get("/tables/{table_id}/rematch", response_model=RematchLink, responses=ERRORS,
            summary="Where this finished table's players play again (404 until one of them starts the rematch)")
async def get_rematch(table_id: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    rematch_id = (await service.history(table_id))["row"].rematch_id
    if rematch_id is None:
        raise NotFound("Nobody has started a rematch of this table.")
    return {"table": rematch_id}


@router.post("/tables/{table_id}/rematch", status_code=201, response_model=Rematched,
             responses={**ERRORS, 409: {"model": Error, "description": "Not finished, or you sat there already"}},
             summary="Play again: sits you at the rematch of your finished table (created by the first to ask)")
async def post_rematch(table_id: str, request: Request,
                       authorization: AuthHeader = None) -> dict[str, Any]:
    service = service_of(request)
    seated = await rematch.accept(service, table_id, credential_from(request, authorization, None))
    return {**seated, "seat_url": f"{base_url(request)}/t/{seated['table']}/seat/{seated['token']}"}
