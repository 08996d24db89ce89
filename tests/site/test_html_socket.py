"""The table page's HTML websocket: only the regions whose HTML changed are sent (as elements with stable ids,
swapped out-of-band by htmx), identical pages are rendered once per change, a (re)connection that missed
versions gets the whole body, presence and pings have their own small regions, and credentials are checked."""

from __future__ import annotations

import asyncio
import html

import pytest
import websockets

from app.pages.render import FRAME
from app.pages.socket import PageConnection
from games import REGISTRY
from games.core.conformance import random_step

from .test_pages import act, api_view, new_full_table

LINKS = {"seat": "http://x/t/T/seat/S", "invite": "http://x/t/T/join?key=I", "spectator": "http://x/t/T/watch?key=K",
         "spectate_key": None}


class FakeSocket:
    def __init__(self):
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


def client_view(game, state, seat, status="playing", players=2):
    players = state["players"] if state is not None else players
    return {"table": {"id": "T", "game": game.slug, "status": status, "players": players,
                      "seats": [{"number": n, "name": f"P{n}"} for n in range(players)], "you": seat},
            "game": game.view(state, seat) if state is not None else None}


def top_level_ids(html: str) -> list[str]:
    """The ids of the top-level elements of a websocket message (what htmx swaps)."""
    from html.parser import HTMLParser

    found: list[str] = []
    depth = 0
    void = {"input", "br", "img", "meta", "link", "hr", "circle", "rect", "path", "ellipse"}

    class P(HTMLParser):
        def handle_starttag(self, tag, attrs):
            nonlocal depth
            if depth == 0:
                found.append(dict(attrs).get("id", ""))
            if tag not in void:
                depth += 1

        def handle_startendtag(self, tag, attrs):
            if depth == 0:
                found.append(dict(attrs).get("id", ""))

        def handle_endtag(self, tag):
            nonlocal depth
            if tag not in void:
                depth -= 1

    P().feed(html)
    return found


def no_patch() -> str:
    raise AssertionError("the page's socket never asks for the JSON patch")


async def synced_readers(game, state) -> list[PageConnection]:
    """A page socket for every seat of `state` and a spectator, each in sync at version 1."""
    players = state["players"]
    conns = [PageConnection(FakeSocket(), "T", seat, None if seat is None else f"h{seat}", lang="en", game=game,
                            links=LINKS, presence={"connected": list(range(players)), "spectators": 1},
                            title=(game.title_en, game.title_fr, game.title_it)) for seat in [*range(players), None]]
    for conn in conns:
        await conn.synced(1, client_view(game, state, conn.seat))
    return conns


async def test_only_the_regions_whose_html_changed_are_sent():
    game = REGISTRY["cesar_cleopatre"]
    state = game.setup(2, 11)
    ws = FakeSocket()
    conn = PageConnection(ws, "T", 0, "h", lang="en", game=game, links=LINKS,
                          presence={"connected": [0], "spectators": 0}, title=(game.title_en, game.title_fr, game.title_it))
    await conn.full(5, client_view(game, state, 0))
    assert top_level_ids(ws.sent[-1]) == ["tb-version", "tb-body"]  # everything, once

    # Seat 1 places a setup card: seat 0 sees a face-down card appear at a group and a new log line.
    seat1 = game.legal_actions(state, 1)[0]
    new_state = game.apply(state, 1, seat1)
    await conn.changed(6, client_view(game, new_state, 0), no_patch, {})
    sent = top_level_ids(ws.sent[-1])
    assert sent[0] == "tb-version" and "tb-body" not in sent
    group = [grp["name"] for grp in game.view(state, 0)["groups"]].index(seat1["group"])
    assert [i for i in sent if i.startswith("cc-group-")] == [f"cc-group-{group}"]  # that group alone
    assert "cc-votes" not in sent  # nothing of theirs changed
    assert 'data-version="6"' in ws.sent[-1]

    # Presence changes only the seat that came (its line, and its turn's offer of a bot for its player, gone with
    # them) and the spectators regions; pings have their own element.
    assert 'action="/t/T/seats/1/bot"' in ws.sent[0]
    await conn.show_presence({"connected": [0, 1], "spectators": 2}, "", {})
    assert sorted(top_level_ids(ws.sent[-1])) == ["tb-seat-1", "tb-seat-1-turn", "tb-spectators"]
    assert 'action="/t/T/seats/1/bot"' not in ws.sent[-1]
    assert "2 spectators watching" in ws.sent[-1]
    await conn.ping("")
    assert top_level_ids(ws.sent[-1]) == ["tb-ping"]


async def test_identical_pages_are_rendered_once_per_change():
    game = REGISTRY["ave_cesar"]
    state = game.setup(3, 5)
    spectators = [PageConnection(FakeSocket(), "T", None, None, lang="en", game=game, links=LINKS,
                                 presence={"connected": [], "spectators": 2}, title=(game.title_en, game.title_fr, game.title_it))
                  for _ in range(2)]
    view = client_view(game, state, None)
    for conn in spectators:
        await conn.synced(1, view)
    seat, action = 0, None
    for seat in game.to_act(state):
        action = game.legal_actions(state, seat)[0]
        break
    new_view = client_view(game, game.apply(state, seat, action), None)
    shared: dict = {}
    for conn in spectators:
        await conn.changed(2, new_view, no_patch, shared)
    assert spectators[0].shown is spectators[1].shown  # one page rendered for both spectators
    assert spectators[0].ws.sent == spectators[1].ws.sent and spectators[0].ws.sent


async def test_readers_of_one_change_in_different_languages_never_share_a_region():
    """The regions rendered for one change are shared between its readers of one language only: a spectator
    reading Italian gets Italian regions even when an English one rendered the same view first."""
    game = REGISTRY["cesar_cleopatre"]
    state = game.setup(2, 11)
    spectators = {lang: PageConnection(FakeSocket(), "T", None, None, lang=lang, game=game, links=LINKS,
                                       presence={"connected": [], "spectators": 3},
                                       title=(game.title_en, game.title_fr, game.title_it))
                  for lang in ("en", "fr", "it")}
    for conn in spectators.values():
        await conn.synced(1, client_view(game, state, None))
    seat = sorted(game.to_act(state))[0]
    new_view = client_view(game, game.apply(state, seat, game.legal_actions(state, seat)[0]), None)
    shared: dict = {}
    for conn in spectators.values():
        await conn.changed(2, new_view, no_patch, shared)
    sent = {lang: conn.ws.sent[-1] for lang, conn in spectators.items()}
    assert "Cards of P0" in sent["en"] and "Cartes de P0" in sent["fr"] and "Carte di P0" in sent["it"]
    assert "Cards of" not in sent["it"] and "Cartes de" not in sent["it"]


async def test_the_start_of_the_game_swaps_the_whole_body_in_the_readers_language():
    game = REGISTRY["alea_iacta_est"]
    state = game.setup(2, 3)
    ws = FakeSocket()
    conn = PageConnection(ws, "T", None, None, lang="fr", game=game, links={**LINKS, "seat": None, "invite": None},
                          presence={"connected": [], "spectators": 1}, title=(game.title_en, game.title_fr, game.title_it))
    await conn.full(1, client_view(game, None, None, status="lobby"))
    assert "Salle d'attente" in html.unescape(ws.sent[-1])  # a translation is markup: its apostrophe as written
    await conn.changed(2, client_view(game, state, None), no_patch, {})
    assert top_level_ids(ws.sent[-1]) == ["tb-version", "tb-body"]
    assert "Manche 1 sur 6" in ws.sent[-1] and 'name="action"' not in ws.sent[-1]


def socket_url(site, table_id: str, since: int | None = None, spectate: str | None = None) -> str:
    url = f"{site.base.replace('http://', 'ws://')}/ws/tables/{table_id}/html"
    params = []
    if since is not None:
        params.append(f"since={since}")
    if spectate:
        params.append(f"spectate={spectate}")
    return url + ("?" + "&".join(params) if params else "")


async def receive(ws, timeout: float = 5.0) -> str:
    while True:
        message = await asyncio.wait_for(ws.recv(), timeout)
        first = message.split(">", 1)[0]  # presence messages start with a seat of the players' list
        if 'id="tb-ping"' not in message and 'id="tb-seat-' not in first and 'id="tb-spectators"' not in first:
            return message


async def test_a_page_socket_sends_nothing_when_in_sync_then_only_what_changed(site):
    table_id, tokens, spectate = await asyncio.to_thread(new_full_table, site, "ave_cesar")
    version, view = await asyncio.to_thread(api_view, site, table_id, tokens[0])
    headers = {"Cookie": f"tabula_seat_{table_id}={tokens[0]}", "Origin": site.base}
    async with websockets.connect(socket_url(site, table_id, since=version), additional_headers=headers) as ws:
        with pytest.raises(asyncio.TimeoutError):
            await receive(ws, timeout=0.6)  # the page is up to date: nothing to send
        seat = view["game"]["to_act"][0]
        _, acting = await asyncio.to_thread(api_view, site, table_id, tokens[seat])
        await asyncio.to_thread(act, site, table_id, tokens[seat], version, acting["game"]["legal_actions"][0])
        message = await receive(ws)
        sent = top_level_ids(message)
        # Only the regions whose HTML changed come (which ones depends on the seeded deal: a sealed bid,
        # say, adds no log line this seat may read), never the whole body.
        assert sent[0] == "tb-version" and "tb-body" not in sent and len(sent) >= 2
        assert f'data-version="{version + 1}"' in message


async def test_a_reconnection_after_a_gap_gets_every_region_and_a_bad_credential_is_refused(site):
    table_id, tokens, spectate = await asyncio.to_thread(new_full_table, site, "cesar_cleopatre")
    version, _ = await asyncio.to_thread(api_view, site, table_id, tokens[0])
    async with websockets.connect(socket_url(site, table_id, since=version - 1, spectate=spectate)) as ws:
        message = await receive(ws)
        assert top_level_ids(message) == ["tb-version", "tb-body"]
        assert 'name="action"' not in message and "You are watching" in message
    async with websockets.connect(socket_url(site, table_id, spectate="wrong")) as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await receive(ws)
        assert closed.value.rcvd.code == 4403
    # Another site's page cannot ride on the seat cookie.
    headers = {"Cookie": f"tabula_seat_{table_id}={tokens[0]}", "Origin": "http://evil.example"}
    async with websockets.connect(socket_url(site, table_id), additional_headers=headers) as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await receive(ws)
        assert closed.value.rcvd.code == 4403


@pytest.mark.asyncio
async def test_a_page_whose_seat_is_given_up_gets_the_sentence_as_the_flash_region(tmp_path):
    from .live_page import InProcessSite, Viewer, settle

    async with InProcessSite(tmp_path) as site:
        body = (await site.http.post("/api/tables", json={"game": "cesar_cleopatre", "players": 2})).json()
        r = await site.http.post(f"/api/tables/{body['id']}/join", json={"invite": body["invite_key"], "name": "P0"})
        viewer = Viewer(0, r.json()["token"])
        await site.connect(body["id"], viewer)
        await settle()  # the socket is attached
        await site.http.post(f"/api/tables/{body['id']}/leave",
                             headers={"Authorization": f"Bearer {viewer.credential}"})
        await settle()
        sent = viewer.socket.take()
        assert sent and sent[-1].startswith('<div id="tb-flash"') and "This seat was given up." in sent[-1], sent
        assert viewer.socket.closed == 4403


@pytest.mark.asyncio
async def test_a_page_loaded_before_someone_came_gets_the_new_presence_when_its_socket_opens(tmp_path):
    """The page says which presence it shows; a socket that reads a newer one (a player connected between the
    page's load and its socket) brings it, rather than "nothing changed since"."""
    from .live_page import InProcessSite, assert_live_equals_reload, open_socket, settle

    async with InProcessSite(tmp_path) as site:
        table_id, (first, second, spectator) = await site.table("cesar_cleopatre", 2)
        spectator.page = await site.get_page(table_id, spectator)  # nobody connected yet
        await site.connect(table_id, first)
        await settle()  # the first seat's presence is written
        await open_socket(site, spectator)
        await settle()
        await assert_live_equals_reload(site, table_id, [spectator], "a page older than someone's arrival")
        assert 'aria-label="connected"' in spectator.page
        for viewer in (first, spectator):
            await viewer.socket.close()


async def test_a_region_showing_some_zones_of_the_controls_is_shared_by_every_reader_without_controls_there():
    """Ave César's boards show the controls of the lots' zones only: the readers whose controls differ elsewhere
    (their hands, their prompt, their bids) share one render of them, as the spectator does."""
    game = REGISTRY["ave_cesar"]
    state = game.setup(5, 3)
    readers = await synced_readers(game, state)
    with_controls_elsewhere = 0
    for version in range(2, 100):
        seat = sorted(game.to_act(state))[0]
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
        shared: dict = {}
        for conn in readers:
            await conn.changed(version, client_view(game, state, conn.seat), no_patch, shared)
        key = "games/ave_cesar/boards.html"
        without = [conn for conn in readers if "<form" not in conn.shown.sources[key][1]]
        assert len({id(conn.shown.sources[key]) for conn in without}) == 1, version
        with_controls_elsewhere += sum(1 for conn in without if conn.shown.derived["controls"][0])
    assert with_controls_elsewhere >= 20  # readers with controls outside the boards were among those sharing


async def test_the_frame_of_the_page_is_kept_while_the_game_goes_on():
    """The body's frame places one region per group of César & Cléopâtre by the groups' count (a read of the
    list's length alone), so no action of the game renders it again, for the players and the spectator."""
    game = REGISTRY["cesar_cleopatre"]
    state = game.setup(2, 11)
    readers = await synced_readers(game, state)
    frames = [conn.shown.sources[FRAME] for conn in readers]
    for version in range(2, 60):
        seat = sorted(game.to_act(state))[0]
        state = game.apply(state, seat, game.legal_actions(state, seat)[-1])
        shared: dict = {}
        for conn, frame in zip(readers, frames):
            await conn.changed(version, client_view(game, state, conn.seat), no_patch, shared)
            assert conn.shown.sources[FRAME] is frame, (version, conn.seat)
    assert not game.finished(state)


async def test_a_group_of_cesar_and_cleopatre_is_rendered_again_only_when_what_it_shows_changed():
    """A group's region shows the patricians each side won there (`g.won.cell`: that cell alone) and its controls'
    region names the group by its place: neither is rendered again when a side wins in another group or the
    group's cards change, for the players and the spectator, over a whole game."""
    game = REGISTRY["cesar_cleopatre"]
    state = game.setup(2, 5)
    readers = await synced_readers(game, state)
    keys = [f"games/cesar_cleopatre/{name}.html group={gi}" for name in ("group", "group_zone") for gi in range(5)]
    holder, version, rendered = {"rng": 5}, 1, 0
    while not game.finished(state):
        before = [{key: conn.shown.sources[key] for key in keys} for conn in readers]
        state = game.apply(state, *random_step(game, state, holder))
        version += 1
        shared: dict = {}
        for conn, old in zip(readers, before):
            await conn.changed(version, client_view(game, state, conn.seat), no_patch, shared)
            for key in keys:
                new = conn.shown.sources[key]
                assert new is old[key] or new[1] != old[key][1], (version, conn.seat, key)
                rendered += new is not old[key]
    assert rendered > 100


@pytest.mark.parametrize("slug", ["cesar_cleopatre", "ave_cesar", "alea_iacta_est"])
async def test_a_seats_line_is_not_rendered_again_when_only_its_turn_changed(slug):
    """Whether a seat is to play is a region of its own (seat_turn.html): the seat's line does not read it, so
    when the turn comes to a seat or leaves it and nothing its line shows changed, the line is kept as it was,
    for every reader, and only the turn's region is rendered again."""
    game = REGISTRY[slug]
    state = game.setup(game.max_players, 7)
    readers = await synced_readers(game, state)
    holder, version, kept = {"rng": 7}, 1, 0
    while not game.finished(state) and version < 150:
        acting_before = set(game.to_act(state))
        state = game.apply(state, *random_step(game, state, holder))
        version += 1
        shared: dict = {}
        for conn in readers:
            before = dict(conn.shown.sources)
            await conn.changed(version, client_view(game, state, conn.seat), no_patch, shared)
            for seat in acting_before ^ set(game.to_act(state)):
                line, turn = f"table/seat.html seat={seat}", f"table/seat_turn.html seat={seat}"
                assert conn.shown.sources[turn][1] != before[turn][1], (version, conn.seat, seat)
                assert ("acting", seat) not in conn.shown.sources[line][2], (version, conn.seat, seat)
                kept += conn.shown.sources[line] is before[line]
    assert kept >= 20


@pytest.mark.parametrize("slug", ["cesar_cleopatre", "ave_cesar", "alea_iacta_est"])
async def test_the_end_of_a_game_sends_its_changed_regions_not_the_whole_body(slug):
    """When the game ends (the table's status becomes "finished"), the frame is kept as at every other action:
    each reader gets the regions that show the end, not the whole body again (tens of kilobytes to every phone,
    and what the page had focused, scrolled or open lost)."""
    game = REGISTRY[slug]
    state = game.setup(game.min_players, 3)
    readers = await synced_readers(game, state)
    frames = [conn.shown.sources[FRAME] for conn in readers]
    holder, version = {"rng": 3}, 1
    while not game.finished(state):
        state = game.apply(state, *random_step(game, state, holder))
        version += 1
        status = "finished" if game.finished(state) else "playing"
        shared: dict = {}
        for conn, frame in zip(readers, frames):
            conn.ws.sent.clear()
            await conn.changed(version, client_view(game, state, conn.seat, status), no_patch, shared)
            assert conn.shown.sources[FRAME] is frame, (version, conn.seat)
    for conn in readers:
        assert "tb-body" not in top_level_ids(conn.ws.sent[-1]) and 'data-status="finished"' in conn.ws.sent[-1]


@pytest.mark.parametrize("slug", ["cesar_cleopatre", "ave_cesar", "alea_iacta_est"])
async def test_the_macros_are_made_once_per_render_of_a_page_not_once_per_region(slug, monkeypatch):
    """Every region imports its macros `with context`, which runs their template again: the socket's render of
    a page makes each module once and every region importing it with the same values shares it."""
    from jinja2 import Template

    made: list[str] = []
    make_module = Template.make_module

    def counted(self, *args, **kwargs):
        made.append(self.name)
        return make_module(self, *args, **kwargs)

    monkeypatch.setattr(Template, "make_module", counted)
    game = REGISTRY[slug]
    state = game.setup(game.max_players, 5)
    for seat in [0, None]:
        conn = PageConnection(FakeSocket(), "T", seat, None if seat is None else "h0", lang="en", game=game,
                              links=LINKS, presence={"connected": [0], "spectators": 1},
                              title=(game.title_en, game.title_fr, game.title_it))
        made.clear()
        await conn.synced(1, client_view(game, state, seat))
        importers = [name for name in set(made) if made.count(name) > 1]
        assert "table/macros.html" in made and not importers, (seat, sorted(made))


@pytest.mark.parametrize("slug", ["cesar_cleopatre", "ave_cesar", "alea_iacta_est"])
async def test_the_pages_of_a_game_leave_nothing_to_the_cycle_collector(slug):
    """Jinja's contexts and the macros they make hold each other; left as they are, every page rendered for the
    socket (the reader's previous page and the view with them) waits for the cycle collector, whose rounds
    walked it all: a fifth of the page road's CPU on a server of 200 tables. A render lets go of them
    (`_Collector.forget`): rendering every seat's and a spectator's page at each step of a random game leaves
    no garbage that only the collector would free."""
    import gc
    import random

    game = REGISTRY[slug]
    players = game.max_players
    state = game.setup(players, 8)
    conns = [PageConnection(FakeSocket(), "T", seat, None if seat is None else f"h{seat}", lang="fr", game=game,
                            links=LINKS, presence={"connected": list(range(players)), "spectators": 1},
                            title=(game.title_en, game.title_fr, game.title_it)) for seat in [*range(players), None]]
    choose = random.Random(8)
    gc.collect()
    gc.disable()
    try:
        for version in range(1, 40):
            shared: dict = {}
            for conn in conns:
                await conn.changed(version, client_view(game, state, conn.seat), no_patch, shared)
            seat = min(game.to_act(state))
            state = game.apply(state, seat, choose.choice(game.legal_actions(state, seat)))
        assert not game.finished(state)
        assert all(conn.ws.sent for conn in conns)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_card_is_drawn_once_per_language_and_a_macro_reading_more_than_its_arguments_is_refused(tmp_path):
    """`drawn(macro, ...)` (a card, a tile) draws once per language and arguments what the macro draws, for every
    page and reader; a macro that uses anything but its arguments, the presenter and the words (here the seats'
    names) would be drawn stale for another reader, and is refused the first time."""
    from jinja2 import FileSystemLoader

    from app.pages.render import ENV

    (tmp_path / "cards.html").write_text('{% macro card(v, extra="") %}<b class="{{ extra }}">{{ P.face(v) }}'
                                         '{{ _("Hand") }}</b>{% endmacro %}'
                                         '{% macro named(seat) %}<b>{{ names[seat] }}</b>{% endmacro %}')
    env = ENV.overlay(loader=FileSystemLoader(str(tmp_path)))
    page = env.from_string('{% import "cards.html" as c with context %}'
                           '{{ drawn(c.card, 1) }}{{ drawn(c.card, 2, extra="sm") }}{{ drawn(c.card, 1) }}')

    class Presenter:
        faces = 0

        def face(self, v):
            self.faces += 1
            return f"[{v}]"

    presenter = Presenter()
    drawing = '<b class="">[1]{hand}</b><b class="sm">[2]{hand}</b><b class="">[1]{hand}</b>'
    assert page.render(P=presenter, lang="en") == drawing.format(hand="Hand")
    assert page.render(P=presenter, lang="en") == drawing.format(hand="Hand") and presenter.faces == 2
    assert page.render(P=presenter, lang="fr") == drawing.format(hand="Main") and presenter.faces == 4
    named = env.from_string('{% import "cards.html" as c with context %}{{ drawn(c.named, 0) }}')
    with pytest.raises(TypeError, match="names"):
        named.render(names=["A"], lang="en")


async def test_a_line_added_to_the_log_is_sent_alone_and_the_log_region_is_not_rendered_again():
    """A new line of the log is sent as that line (put at the top of the list), and the log's region (its
    heading, the seat changes and up to 300 lines) is not rendered again: it holds a mark where its lines go,
    put in only when the region is sent whole. Before, every reader whose lines differed from the others' (at
    Alea, each sees its own Fortuna tiles drawn) rendered and compared the whole list at every action, which
    grew with the game to a fifth of a late action's cost."""
    import random

    game = REGISTRY["alea_iacta_est"]
    state = game.setup(5, 8)
    conns = await synced_readers(game, state)
    choose = random.Random(8)
    regions, grown = set(), 0
    for version in range(2, 150):
        seat = min(game.to_act(state))
        state = game.apply(state, seat, choose.choice(game.legal_actions(state, seat)))
        shared: dict = {}
        for conn in conns:
            lines = len(conn.shown.derived["log"][0])
            await conn.changed(version, client_view(game, state, conn.seat), no_patch, shared)
            regions.add(id(conn.shown.sources["table/log.html"]))
            if len(conn.shown.derived["log"][0]) > lines:
                grown += 1
                assert 'id="tb-log"' not in conn.ws.sent[-1] and 'id="tb-log-lines" hx-swap-oob="afterbegin"' \
                    in conn.ws.sent[-1], version
    assert not game.finished(state) and grown >= 300
    # Each reader's first page rendered its own (synced alone); then none, or one for all at the first line.
    assert len(regions) <= len(conns) + 1


async def test_each_entry_of_the_log_is_put_in_words_once_for_every_reader_of_the_table(monkeypatch):
    """A new entry of the log is put in words once per change for every reader who sees it, and their pages
    hold the same line, whatever its number in each reader's list (at Alea each seat sees its own Fortuna
    tiles drawn, so after the first of them the seats number the same entry differently). Before, each
    reader whose numbering differed put every new entry in words again and kept its own copy of up to 300
    lines: a table of five players and a spectator kept six."""
    import random

    game = REGISTRY["alea_iacta_est"]
    worded: list[dict] = []  # the entries themselves: their ids are not reused meanwhile
    words = type(game).render_log
    monkeypatch.setattr(type(game), "render_log", lambda self, entry, lang, names: (worded.append(entry),
                                                                                    words(self, entry, lang, names))[1])
    state = game.setup(5, 8)
    conns = await synced_readers(game, state)
    choose = random.Random(8)
    worded.clear()
    for version in range(2, 150):
        seat = min(game.to_act(state))
        state = game.apply(state, seat, choose.choice(game.legal_actions(state, seat)))
        shared: dict = {}
        for conn in conns:
            await conn.changed(version, client_view(game, state, conn.seat), no_patch, shared)
    numbers = {len(conn.shown.derived["log"][0]) for conn in conns}
    assert len(numbers) > 1, "the readers' lists should differ (each sees its own Fortuna tiles)"
    once = {id(entry) for entry in worded}
    assert len(worded) == len(once), f"{len(worded) - len(once)} entries put in words more than once"
    # The same entry's line is the same object in every reader's page that shows it.
    lines = {id(line) for conn in conns for line in conn.shown.derived["log"][0]}
    entries = {id(entry) for conn in conns for entry in conn.shown.parts["g"]["log"][-300:]}
    assert len(lines) <= len(entries)


async def test_the_page_sockets_that_attach_at_one_version_share_their_regions(fresh_db_url, monkeypatch):
    """A new table's sockets come together: every seat's page and the spectators' tabs, attached at one version,
    render each region once for all the readers whose reads of it have the same values, as the readers of one
    change do; a second tab of the spectator renders nothing. Before, each page attached was rendered alone."""
    from app.config import Settings
    from app.db import make_async_engine, migrate
    from app.pages import render
    from app.realtime.hub import Hub
    from app.services.tables import TablesService

    made: list[str] = []
    make = render._Collector.made
    monkeypatch.setattr(render._Collector, "made", lambda self, name, source: (made.append(name),
                                                                              make(self, name, source))[1])
    settings = Settings(database_url=fresh_db_url)
    migrate(settings)
    service = TablesService(make_async_engine(settings), dict(REGISTRY), is_postgres=settings.is_postgres)
    hub = Hub(service, database_url=fresh_db_url, is_postgres=service.is_postgres, heartbeat=60)
    try:
        snap = await service.create("ave_cesar", 4)
        for name in ("A", "B", "C", "D"):
            await service.join(snap.id, snap.invite_key, name)
        snap = await service.current(snap.id)
        game = REGISTRY["ave_cesar"]
        readers = [PageConnection(FakeSocket(), snap.id, seat, None if seat is None else snap.seat_hashes[seat],
                                  lang="en", game=game, links=LINKS, presence={"connected": [], "spectators": 0},
                                  title=(game.title_en, game.title_fr, game.title_it)) for seat in (0, 1, 2, 3, None)]
        second_tab = PageConnection(FakeSocket(), snap.id, None, None, lang="en", game=game, links=LINKS,
                                    presence={"connected": [], "spectators": 0},
                                    title=(game.title_en, game.title_fr, game.title_it))
        made.clear()
        for conn in readers:
            assert await hub.attach(conn, None)
        attached = len(made)
        made.clear()
        assert await hub.attach(second_tab, None)
        assert made == [] and second_tab.ws.sent[0] == readers[-1].ws.sent[0]
        # What one change of the table renders for the same readers, sharing as changes always did.
        made.clear()
        shared: dict = {}
        for conn in readers:
            await conn.full(snap.version, service.client_view(snap, conn.seat), shared)
        assert attached == len(made), f"{attached} regions rendered to attach the readers, {len(made)} for a change"
        for conn in readers:  # each page is its reader's own, whole
            alone = render.render(render.PageState(conn.view, conn.version, "en", game, conn.presence, LINKS,
                                                   title_en=game.title_en, title_fr=game.title_fr,
                                                   title_it=game.title_it))
            assert conn.shown.body() == alone.body()
    finally:
        await hub.stop()
        await service.engine.dispose()
