"""No leak over the wire, for every game and player count.

Random games are played through the server with every seat and a spectator connected. Then:
1. every websocket message is exactly what the seat's views allow: a full message is the seat's view, a
   patch is the diff between the seat's previous and new view, both recomputed here from the replayed
   states with `game.view` (so no byte comes from anywhere else);
2. the resample test over the wire: at sampled versions, for every seat and the spectator, a copy of the
   table whose state has that seat's unknowns drawn anew gives that seat *the same bytes* (HTTP view,
   websocket full view, the 409 error body);
3. the seed and other seats' tokens never appear in anything a seat receives while the game runs.
"""

from __future__ import annotations

import asyncio
import json
import secrets

import httpx
import pytest
from sqlalchemy import text

from app.realtime.diff import view_patch
from app.routes.api import seat_cookie
from app.services.tables import hash_token
from games import ALL_GAMES, REGISTRY
from games.core import UNDO, rng
from games.core.conformance import random_step

from .client import Socket, bearer, create_full

pytestmark = pytest.mark.asyncio

MAX_ACTIONS = 150
SAMPLES = (0, 7, 23)  # actions after which the resample check runs


def undoer(game, state):
    """The seat that may take back its last move now (RULES 0.6), if any."""
    return next((s for s in sorted(game.to_act(state)) if game.can_undo(state, s)), None)


def random_step_or_undo(game, state, holder, undone: int = 0):
    """A random legal step, but a move taken back when one may be: always the first time (the table's seed is
    random, and some games seldom offer an undo), then one time in two. So undos go over the wire and the
    page road, and states with an undo window are resampled too."""
    seat = undoer(game, state)
    if seat is not None and (not undone or rng.below(holder, 2) == 0):
        return seat, dict(UNDO)
    return random_step(game, state, holder)


def cases():
    for slug, game in ALL_GAMES.items():
        for players in range(game.min_players, game.max_players + 1):
            yield pytest.param(slug, players, id=f"{slug}-{players}p")


def copy_with_state(live, table_id: str, state_text: str, seat_names: list[str]) -> tuple[str, list[str], str]:
    """A second table identical to `table_id` except for its state (and its secrets); its seats are connected
    since when the original's are (which the refusal to hand a seat to a bot tells)."""
    new_id = secrets.token_urlsafe(12)
    tokens = [secrets.token_urlsafe(24) for _ in seat_names]
    spectate = secrets.token_urlsafe(16)
    with live.db.begin() as conn:
        conn.execute(text(
            "INSERT INTO tables (id, game, players, options, seed, status, version, rules_version, state, invite_key,"
            " spectator_key, spectators, created_at, updated_at) SELECT :new, game, players, options, 1, status,"
            " version, rules_version, :state, :invite, :spectate, 0, created_at, updated_at FROM tables"
            " WHERE id = :id"),
            {"new": new_id, "id": table_id, "state": state_text, "invite": secrets.token_urlsafe(16),
             "spectate": spectate})
        for n, name in enumerate(seat_names):
            conn.execute(text("INSERT INTO seats (table_id, number, name, token_hash, connected, presence_since,"
                              " bot_takeover) SELECT :t, :n, :name, :h, connected, presence_since, false FROM seats"
                              " WHERE table_id = :id AND number = :n"),
                         {"t": new_id, "n": n, "name": name, "h": hash_token(tokens[n]), "id": table_id})
        conn.execute(text(
            "INSERT INTO chat_messages (table_id, channel, seat, name, text, version, deleted, created_at)"
            " SELECT :new, channel, seat, name, text, version, deleted, created_at FROM chat_messages"
            " WHERE table_id = :id ORDER BY id"), {"new": new_id, "id": table_id})
    return new_id, tokens, spectate


async def wire_bytes(live, http, table_id: str, credential: str, version: int) -> list[str]:
    """What one caller receives for a table: the HTTP view, the 409 body of a stale action, the chat (its
    message ids are row numbers, which a copy cannot keep), the refusals to hand seat 0 or 1 to a bot, the
    first websocket message."""
    out = [(await http.get(f"/api/tables/{table_id}/view", headers=bearer(credential))).text]
    chat = (await http.get(f"/api/tables/{table_id}/chat", headers=bearer(credential))).json()
    out.append(json.dumps({**chat, "messages": [{**m, "id": None} for m in chat["messages"]]}))
    r = await http.post(f"/api/tables/{table_id}/actions", headers=bearer(credential),
                        json={"version": version + 1000, "action": {"type": "x"}})
    out.append(f"{r.status_code} {r.text}")
    for seat in (0, 1):
        r = await http.post(f"/api/tables/{table_id}/seats/{seat}/bot", headers=bearer(credential))
        out.append(f"{r.status_code} {r.text}")
    sock = await Socket.open(live.ws_base, table_id, f"?token={credential}")
    out.append(await sock.ws.recv())
    await sock.close()
    return out


@pytest.mark.parametrize("slug,players", list(cases()))
async def test_no_leak_over_the_wire(live_pg, slug, players):
    live = live_pg
    game = ALL_GAMES[slug]
    async with httpx.AsyncClient(base_url=live.base, timeout=30) as http:
        table = await create_full(http, slug, players)
        names = [f"P{n}" for n in range(players)]
        seats = list(range(players))
        sockets = {seat: await Socket.open(live.ws_base, table.id, f"?token={table.tokens[seat]}") for seat in seats}
        sockets[None] = await Socket.open(live.ws_base, table.id, f"?spectate={table.spectate}")
        credentials = {**{s: table.tokens[s] for s in seats}, None: table.spectate}
        for s in sockets.values():
            await s.until(lambda m: m["type"] == "full")
        # Presence is written a moment after the sockets open; the copies take it from the database, so the
        # samples start once it says every seat is connected (else the bot refusals differ by timing alone).
        watcher = sockets[None]
        if watcher.presence is None or watcher.presence["connected"] != seats:
            await watcher.until(lambda m: m["type"] == "presence" and m["connected"] == seats)
        http_bodies: dict[int | None, list[str]] = {s: [] for s in credentials}
        holder = {"rng": rng.seed_state(len(slug) * 1000 + players)}
        version, played = players, 0  # one version per join
        seed = live.row(table.id)["table"]["seed"]
        resampled = undos = offered = 0
        chats: dict[int | None, list[dict]] = {s: [] for s in credentials}  # what each one wrote
        while played < MAX_ACTIONS:
            state = game.decode(live.row(table.id)["table"]["state"])
            if game.finished(state):
                break
            if played in SAMPLES:
                for seat, credential in credentials.items():  # the chat during play, from every seat
                    r = await http.post(f"/api/tables/{table.id}/chat", headers=bearer(credential),
                                        json={"text": f"{seat} at {version}", "name": "Titus"})
                    assert r.status_code == 201, r.text
                    chats[seat].append(r.json())
                for seat, credential in credentials.items():
                    original = await wire_bytes(live, http, table.id, credential, version)
                    other = game.resample(state, seat, seed=played * 7 + 3)
                    if game.encode(other) != game.encode(state):
                        resampled += 1
                    copy_id, copy_tokens, copy_spectate = copy_with_state(live, table.id, game.encode(other), names)
                    copy_credential = copy_spectate if seat is None else copy_tokens[seat]
                    copied = await wire_bytes(live, http, copy_id, copy_credential, version)
                    assert [b.replace(copy_id, table.id) for b in copied] == original, \
                        f"seat {seat} can tell its unknowns apart at version {version}"
                    http_bodies[seat] += original
                    for sock in sockets.values():
                        await sock.still_here()
            offered += undoer(game, state) is not None
            seat, action = random_step_or_undo(game, state, holder, undos)
            undos += action == UNDO
            await sockets[seat].send({"type": "act", "id": version, "version": version, "action": action})
            reply = await sockets[seat].reply(version)
            assert reply["type"] == "ack", reply
            version += 1
            played += 1
            for s in sockets.values():
                await s.at_version(version)
        finished = game.finished(game.decode(live.row(table.id)["table"]["state"]))
        for s in sockets.values():
            await s.close()

    assert resampled > 0 or not any(True for _ in SAMPLES), "the resample never changed anything"
    assert undos > 0 or not offered, "a move could be taken back but never was"
    # Replay the table's states from its log to know every view at every version.
    log = live.row(table.id)["actions"]
    state = game.setup(players, seed, {})
    states = {players: state}
    for v, s, action in log:
        # As the server keeps it: in canonical form (sorted keys), so that the patches' order of operations
        # is the server's (an undo turns log entries into others, key by key).
        state = game.decode(game.encode(game.apply_marked(state, s, json.loads(action))))
        states[v] = state
    for seat, sock in sockets.items():
        expected_prev = None
        for raw in sock.raw:
            msg = json.loads(raw)
            if msg["type"] in ("presence", "ping", "pong", "ack"):
                assert set(msg) <= {"type", "connected", "away", "since", "spectators", "version", "id"}
                continue
            if msg["type"] == "chat":  # a seat reads the players' chat; the spectator both
                readable = [m for s, written in chats.items() for m in written if seat is None or s is not None]
                assert all(m in readable for m in msg["messages"]) and set(msg) == {"type", "channel", "muted",
                                                                                    "messages"}
                continue
            if msg["type"] == "full":
                expected = game.view(states[msg["version"]], seat)
                assert msg["view"]["game"] == expected
                assert msg["view"]["table"]["seats"] == [{"number": n, "name": names[n]} for n in seats]
                expected_prev = msg["view"]
            elif msg["type"] == "patch":
                after = states[msg["version"]]
                new_view = {"table": {**expected_prev["table"], "status": "finished" if game.finished(after)
                                      else "playing"}, "game": game.view(after, seat)}
                assert expected_prev["game"] == game.view(states[msg["from"]], seat)
                assert msg["patch"] == view_patch(expected_prev, new_view), "a patch carries more than the views"
                expected_prev = new_view
            else:
                raise AssertionError(f"unexpected message {msg}")
    # Secrets never appear in what a seat receives while the game runs.
    for seat, sock in sockets.items():
        received = "\n".join(sock.raw + http_bodies[seat])
        if not finished:
            assert str(seed) not in received
        for other, token in enumerate(table.tokens):
            if other != seat:
                assert token not in received
        assert table.invite not in received and "rng" not in received


# ------------------------------------------------------------------------------ the page road (HTML)

PAGE_SAMPLES = (0, 5, 17, 40)  # actions after which the page resample check runs


async def copy_in_process(site, table_id: str, state_text: str, seat_names: list[str]) -> tuple[str, list[str], str]:
    """`copy_with_state` on the in-process site's database."""
    new_id = secrets.token_urlsafe(12)
    tokens = [secrets.token_urlsafe(24) for _ in seat_names]
    spectate = secrets.token_urlsafe(16)
    async with site.service.engine.begin() as conn:
        await conn.execute(text(
            "INSERT INTO tables (id, game, players, options, seed, status, version, rules_version, state, invite_key,"
            " spectator_key, spectators, created_at, updated_at) SELECT :new, game, players, options, 1, status,"
            " version, rules_version, :state, :invite, :spectate, spectators, created_at, updated_at FROM tables"
            " WHERE id = :id"),
            {"new": new_id, "id": table_id, "state": state_text, "invite": secrets.token_urlsafe(16),
             "spectate": spectate})
        await conn.execute(text(
            "INSERT INTO seats (table_id, number, name, token_hash, connected, bot_takeover) SELECT :new, number,"
            " name, :h || number, connected, false FROM seats WHERE table_id = :id"), {"new": new_id, "id": table_id,
                                                                                   "h": "unused"})
        for n in range(len(seat_names)):
            await conn.execute(text("UPDATE seats SET token_hash = :h WHERE table_id = :t AND number = :n"),
                               {"t": new_id, "n": n, "h": hash_token(tokens[n])})
    return new_id, tokens, spectate


async def page_bytes(site, table_id: str, viewer, version: int) -> list[str]:
    """What a page's reader receives of a table: the page, the flash fragment of a stale action (a seat), the
    answer without JavaScript to a stale post of its first legal action (the page asking to confirm a final
    move, or the refusal), the refusal to hand another seat to a bot, and the page socket's first message when
    it connects without `since` (the whole body)."""
    from tests.site.live_page import AsgiSocket

    out = [await site.get_page(table_id, viewer)]
    cookies = {} if viewer.seat is None else {seat_cookie(table_id): viewer.credential}
    if viewer.seat is not None:
        seat_headers = {"Cookie": f"{seat_cookie(table_id)}={viewer.credential}"}
        r = await site.http.post(f"/t/{table_id}/act", data={"version": str(version + 1000), "action": '{"type":"x"}'},
                                 headers={"HX-Request": "true", **seat_headers})
        out.append(f"{r.status_code} {r.text}")
        _version, view = await site.service.view(table_id, viewer.credential)
        legal = view["game"]["legal_actions"]
        if legal:
            r = await site.http.post(f"/t/{table_id}/act", headers=seat_headers,
                                     data={"version": str(version + 1000), "action": json.dumps(legal[0])})
            out.append(f"{r.status_code} {r.headers.get('location')} {r.headers.get('set-cookie')} {r.text}")
            site.http.cookies.clear()  # its flash is for this reader's next page, not for the other readers
        other = (viewer.seat + 1) % len(view["table"]["seats"])
        r = await site.http.post(f"/t/{table_id}/seats/{other}/bot", headers=seat_headers)
        out.append(f"{r.status_code} {r.text}")
    query = f"spectate={viewer.credential}" if viewer.seat is None else ""
    sock = await AsgiSocket(site.app, f"/ws/tables/{table_id}/html", query, cookies).open()
    for _ in range(3):
        await asyncio.sleep(0)
    out.extend(sock.take())
    await sock.close()
    return out


@pytest.mark.parametrize("slug", sorted(REGISTRY))
async def test_no_leak_over_the_page_road(tmp_path, slug):
    """The resample test over the table page, its fragments and its socket: for every seat and the spectator,
    a table whose hidden part was drawn anew for that reader gives it the same bytes."""
    from tests.site.live_page import InProcessSite, Viewer, first_difference

    game = REGISTRY[slug]
    players = game.max_players
    async with InProcessSite(tmp_path) as site:
        table_id, viewers = await site.table(slug, players)
        names = [f"P{n}" for n in range(players)]
        holder = {"rng": rng.seed_state(len(slug))}
        played, resampled, undos = 0, 0, 0
        while played <= max(PAGE_SAMPLES):
            snap = await site.service.current(table_id)
            if game.finished(snap.state):
                break
            if played in PAGE_SAMPLES:
                for viewer in viewers:
                    original = await page_bytes(site, table_id, viewer, snap.version)
                    other = game.resample(snap.state, viewer.seat, seed=played * 7 + 3)
                    resampled += game.encode(other) != game.encode(snap.state)
                    copy_id, tokens, spectate = await copy_in_process(site, table_id, game.encode(other), names)
                    twin = Viewer(viewer.seat, spectate if viewer.seat is None else tokens[viewer.seat])
                    copied = await page_bytes(site, copy_id, twin, snap.version)
                    copy_snap = await site.service.current(copy_id)
                    copied = [b.replace(copy_id, table_id).replace(twin.credential, viewer.credential)
                              .replace(copy_snap.invite_key, snap.invite_key)
                              .replace(copy_snap.spectator_key, snap.spectator_key) for b in copied]
                    for got, want in zip(copied, original):
                        assert got == want, (f"{slug}: {viewer.name} can tell its unknowns apart at action {played}:\n"
                                             + first_difference(got, want))
                    assert len(copied) == len(original)
            seat, action = random_step_or_undo(game, snap.state, holder, undos)
            undos += action == UNDO
            await site.act(table_id, viewers[seat], snap.version, action)
            played += 1
    assert resampled > 0, "the resample never changed anything"
