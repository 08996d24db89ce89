"""The table page as a browser holds it, in process: the first page, then every out-of-band swap of the HTML
websocket applied by id; and the same page fetched afresh, to compare the two.

`InProcessSite` runs the app in this event loop (lifespan, HTTP over httpx's ASGI transport, websockets
through a small ASGI driver), so that after an action's request returns, every message of that action has
been delivered: the service publishes before it answers.
"""

from __future__ import annotations

import asyncio
import json
import re
import weakref
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from sqlalchemy import text

from app.config import Settings
from app.main import create_app
from app.routes.api import seat_cookie
from games.core import rng
from games.core.conformance import random_step

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


# ------------------------------------------------------------------------------------------- DOM

@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Any] = field(default_factory=list)  # Node or str

    def normal(self) -> str:
        """The node as canonical text: attributes sorted, whitespace runs as one space, empty text dropped."""
        attrs = "".join(f' {k}="{" ".join(v.split())}"' for k, v in sorted(self.attrs.items()))
        inner = []
        for child in self.children:
            if isinstance(child, Node):
                inner.append(child.normal())
            else:
                words = " ".join(child.split())
                if words:
                    inner.append(words)
        return f"<{self.tag}{attrs}>" + "".join(inner) + f"</{self.tag}>"


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


# A tag, a comment or a doctype; attribute values may hold ">" only inside quotes.
_TAG = re.compile(r"""<!--.*?-->|<!.*?>|<(/?)([A-Za-z][A-Za-z0-9:-]*)(?:"[^"]*"|'[^']*'|[^'">])*?(/?)>""", re.S)
_RAW_TEXT = ("script", "style", "textarea", "title")


class _Extent:
    """Where the top-level elements of a piece of HTML start and end (offsets), found by scanning its tags: the
    whole-page scans of the property test made Python's HTMLParser most of its running time."""

    def __init__(self, text: str, stop_at_first: bool) -> None:
        self.text = text
        self.stop_at_first = stop_at_first
        self.starts: list[int] = []
        self.ends: list[int] = []

    def run(self) -> "_Extent":
        depth, at = 0, 0
        while (m := _TAG.search(self.text, at)) is not None:
            at = m.end()
            closing, tag = m.group(1), (m.group(2) or "").lower()
            if not tag:  # a comment or a doctype
                continue
            if closing:
                depth -= 1
                if depth == 0:
                    self.ends.append(m.end())
                    if self.stop_at_first:
                        break
                continue
            if depth == 0:
                self.starts.append(m.start())
            if tag in VOID or m.group(3):
                if depth == 0:
                    self.ends.append(m.end())
                    if self.stop_at_first:
                        break
                continue
            depth += 1
            if tag in _RAW_TEXT:  # its text is not markup: go straight to its end tag
                end = re.compile(rf"</{tag}\s*>", re.I).search(self.text, at)
                assert end is not None, f"<{tag}> is never closed"
                at = end.start()
        return self


def elements(message: str) -> list[tuple[str, str]]:
    """The top-level elements of a message: (id, its HTML)."""
    found = _Extent(message, stop_at_first=False).run()
    assert not message[:found.starts[0] if found.starts else len(message)].strip(), "text outside any element"
    out = []
    for start, end in zip(found.starts, found.ends):
        html = message[start:end]
        id_ = re.match(r'<[A-Za-z][^>]*?\sid="([^"]+)"', html)
        assert id_, f"a swapped element has no id: {html[:120]}"
        out.append((id_.group(1), html))
    return out


def extent(page: str, id_: str) -> tuple[int, int]:
    """(start, end) of the element with this id in a page's HTML."""
    at = page.find(f' id="{id_}"')
    assert at >= 0, f"the page has no #{id_}"
    start = page.rindex("<", 0, at)
    return start, start + _Extent(page[start:], stop_at_first=True).run().ends[0]


_OOB = re.compile(r'<[A-Za-z][^>]*?\shx-swap-oob="([^"]+)"[^>]*>')


def swap(page: str, message: str) -> str:
    """A page's HTML after one websocket message, applied as htmx does: each top-level element replaces the
    one with its id, or, by its `hx-swap-oob`, is removed (`delete`) or has its content put first inside it
    (`afterbegin`)."""
    for id_, html in elements(message):
        start, end = extent(page, id_)
        style = _OOB.match(html)
        if style is None:
            page = page[:start] + html + page[end:]
        elif style.group(1) == "delete":
            page = page[:start] + page[end:]
        else:
            assert style.group(1) == "afterbegin", f"an out-of-band swap htmx does not do here: {html[:120]}"
            inside = page.index(">", start) + 1
            page = page[:inside] + html[style.end():html.rindex("</")] + page[inside:]
    return page


LIVE_IDS = ("tb-version", "tb-body")  # what the socket keeps fresh (the rest of #tb is the page's own)


def live_part(page: str) -> str:
    return "\n".join(page[slice(*extent(page, i))] for i in LIVE_IDS)


# ------------------------------------------------------------------------------------- the site

OPEN_SOCKETS: "weakref.WeakSet[AsgiSocket]" = weakref.WeakSet()  # for settle()


class AsgiSocket:
    """A websocket to the app in this event loop (what a browser's would carry, nothing more)."""

    def __init__(self, app, path: str, query: str, cookies: dict[str, str]):
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.scope = {"type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "ws",
                      "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
                      "headers": [(b"host", b"testserver"), (b"cookie", cookie.encode())],
                      "server": ("testserver", 80), "client": ("127.0.0.1", 50000), "subprotocols": []}
        self.app = app
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.waiting = False  # the app waits for what the client sends: it has done all it had to do
        self.received: list[str] = []
        self.accepted = asyncio.Event()
        self.closed: int | None = None
        self.task: asyncio.Task | None = None

    async def open(self) -> "AsgiSocket":
        await self.incoming.put({"type": "websocket.connect"})
        self.task = asyncio.get_running_loop().create_task(self.app(self.scope, self._receive, self._send))
        OPEN_SOCKETS.add(self)
        await asyncio.wait_for(self.accepted.wait(), 10)
        return self

    async def _receive(self) -> dict[str, Any]:
        self.waiting = True
        try:
            return await self.incoming.get()
        finally:
            self.waiting = False

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done() and not self.waiting

    async def _send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "websocket.accept":
            self.accepted.set()
        elif kind == "websocket.send":
            self.received.append(message.get("text") or message["bytes"].decode())
        elif kind == "websocket.close":
            self.closed = message.get("code", 1000)
            self.accepted.set()

    def take(self) -> list[str]:
        out, self.received = self.received, []
        return out

    async def close(self) -> None:
        await self.incoming.put({"type": "websocket.disconnect", "code": 1000})
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)


@dataclass
class Viewer:
    """One browser tab at the table: a seat (its token) or the spectator (the spectator key)."""

    seat: int | None
    credential: str
    page: str = ""  # its HTML as the browser holds it
    socket: AsgiSocket | None = None

    @property
    def name(self) -> str:
        return "spectator" if self.seat is None else f"seat {self.seat}"


class InProcessSite:
    def __init__(self, workdir: Path, database_url: str | None = None):
        self.settings = Settings(database_url=database_url or f"sqlite:///{workdir / 'pages.db'}", heartbeat=3600.0,
                                 benchmark=True, bot_workers=0, rate_limits=False)
        self.app = create_app(self.settings)
        self.stack = AsyncExitStack()
        self.http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> "InProcessSite":
        await self.stack.enter_async_context(self.app.router.lifespan_context(self.app))
        self.http = await self.stack.enter_async_context(httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app), base_url="http://testserver", timeout=30))
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stack.aclose()

    @property
    def service(self):
        return self.app.state.service

    async def table(self, slug: str, players: int, options: dict[str, Any] | None = None,
                    seed: int | None = None, joined=None) -> tuple[str, list[Viewer]]:
        """A full table (the seed chosen when given), its seats' viewers and the spectator's. `joined(table_id,
        viewers)`: called after each seat is taken (the spectator first), while the table fills."""
        r = await self.http.post("/api/tables", json={"game": slug, "players": players, "options": options or {}})
        assert r.status_code == 201, r.text
        body = r.json()
        table_id = body["id"]
        spectator = Viewer(None, body["spectator_key"])
        viewers = []
        for n in range(players):
            if n == players - 1 and seed is not None:  # the game is set up from the seed at the last join
                async with self.service.engine.begin() as conn:
                    await conn.execute(text("UPDATE tables SET seed = :s WHERE id = :id"), {"s": seed, "id": table_id})
            r = await self.http.post(f"/api/tables/{table_id}/join", json={"invite": body["invite_key"],
                                                                           "name": f"P{n}"})
            assert r.status_code == 201, r.text
            viewers.append(Viewer(n, r.json()["token"]))
            if joined is not None:
                await joined(table_id, [spectator, *viewers])
        viewers.append(spectator)
        return table_id, viewers

    async def get_page(self, table_id: str, viewer: Viewer, lang: str = "en") -> str:
        if viewer.seat is None:
            r = await self.http.get(f"/t/{table_id}/watch?key={quote(viewer.credential)}&lang={lang}")
        else:
            r = await self.http.get(f"/t/{table_id}?lang={lang}",
                                    headers={"Cookie": f"{seat_cookie(table_id)}={viewer.credential}"})
        assert r.status_code == 200, r.text[:300]
        return r.text

    async def connect(self, table_id: str, viewer: Viewer, lang: str = "en") -> None:
        """The first page, then the page's socket, as a browser opens them."""
        viewer.page = await self.get_page(table_id, viewer, lang)
        await open_socket(self, viewer, lang)

    async def act(self, table_id: str, viewer: Viewer, version: int, action: dict[str, Any]) -> None:
        """An action posted by the page's form (htmx): the answer is the flash region. A move the view marks
        final is posted as the page does once its player said yes to the question."""
        cookie = f"{seat_cookie(table_id)}={viewer.credential}"
        r = await self.http.post(f"/t/{table_id}/act", headers={"HX-Request": "true", "Cookie": cookie},
                                 data={"version": str(version), "action": json.dumps(action), "confirmed": "yes"})
        assert r.status_code == 200, r.text[:300]
        assert "flash show" not in r.text, f"the action was refused: {r.text[:300]}"


async def open_socket(site: InProcessSite, viewer: Viewer, lang: str = "en") -> None:
    """The socket of the page the viewer holds (however old it is), as the page opens it."""
    url = re.search(r'ws-connect="([^"]+)"', viewer.page).group(1).replace("&amp;", "&")
    path, _, query = url.partition("?")
    table_id = path.split("/")[3]  # /ws/tables/{id}/html
    cookies = {} if viewer.seat is None else {seat_cookie(table_id): viewer.credential}
    viewer.socket = await AsgiSocket(site.app, path, f"{query}&lang={lang}", cookies).open()


async def settle(timeout: float = 30.0) -> None:
    """Waits until the work the last requests started is done: every socket's app waits for its client, and no
    task is left but the app's own loops (named `tabula-…`) and the sockets'. Presence writes, resyncs and
    deliveries run as such tasks, so a slow machine only makes this wait longer (a fixed sleep was not enough
    under load). Three quiet looks in a row, since a task may start the next one as it ends."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    quiet = 0
    while quiet < 3 and loop.time() < deadline:
        await asyncio.sleep(0.02)
        sockets = {s.task for s in OPEN_SOCKETS if s.task is not None}
        working = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and t not in sockets
                   and not t.get_name().startswith("tabula-") and not t.done()]
        quiet = 0 if working or any(s.busy for s in OPEN_SOCKETS) else quiet + 1


def apply_received(viewer: Viewer) -> None:
    for message in viewer.socket.take():
        viewer.page = swap(viewer.page, message)


async def assert_live_equals_reload(site: InProcessSite, table_id: str, viewers: list[Viewer], when: str,
                                    lang: str = "en") -> None:
    for viewer in viewers:
        apply_received(viewer)
        live, reloaded = live_part(viewer.page), live_part(await site.get_page(table_id, viewer, lang))
        if live == reloaded or squeezed(live) == squeezed(reloaded):  # the same text is the same DOM
            continue
        live, reloaded = parse(live).normal(), parse(reloaded).normal()  # else compare the normalised DOMs
        if live != reloaded:
            raise AssertionError(f"{when}: the live page of {viewer.name} differs from a reload:\n"
                                 + first_difference(live, reloaded))


_BETWEEN_TAGS = re.compile(r">\s+<")


def squeezed(html: str) -> str:
    """The HTML with whitespace runs as one space and none between tags: what `Node.normal` ignores too, so
    that equal squeezed texts are equal DOMs (out-of-band swaps leave other whitespace than a fresh page, and
    parsing both pages was most of the property test's time)."""
    return _BETWEEN_TAGS.sub("><", " ".join(html.split()))


def first_difference(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"live:   ...{a[max(0, at - 300):at + 200]}\nreload: ...{b[max(0, at - 300):at + 200]}"


async def play_checked(site: InProcessSite, slug: str, players: int, options: dict[str, Any], seed: int | None,
                       policy_seed: int, lang: str = "en", undo_weight: float = 0.0) -> int:
    """Plays a game to its end through the page's forms, every seat and a spectator on the page's socket;
    after every action each live page must equal a fresh one. Returns the number of actions. `undo_weight`:
    how often a seat takes back its move when it may (an undo rewrites the end of the log)."""
    async def joined(table_id: str, viewers: list[Viewer]) -> None:
        """Each reader opens the page as soon as it has a seat (the spectator at once): the waiting room
        fills, then the game starts, live."""
        for viewer in viewers:
            if viewer.socket is None:
                await site.connect(table_id, viewer, lang)
        await settle()  # the presence of the new sockets is written and shown
        await assert_live_equals_reload(site, table_id, viewers, f"{len(viewers) - 1} seat(s) taken", lang)

    table_id, viewers = await site.table(slug, players, options, seed, joined)
    game = site.service.game(slug)
    holder = {"rng": rng.seed_state(policy_seed)}
    actions = 0
    while True:
        snap = await site.service.current(table_id)
        if game.finished(snap.state):
            break
        seat, action = random_step(game, snap.state, holder, undo_weight)
        await site.act(table_id, viewers[seat], snap.version, action)
        actions += 1
        await asyncio.sleep(0)
        await assert_live_equals_reload(site, table_id, viewers, f"{slug} action {actions} ({action})", lang)
    assert_points_are_the_final_scores(viewers, game.outcome(snap.state)["scores"], slug)
    for viewer in viewers:
        await viewer.socket.close()
    return actions


def assert_points_are_the_final_scores(viewers: list[Viewer], scores: list[int], slug: str) -> None:
    """After the last action, the points every page shows for each seat are that seat's final total."""
    for viewer in viewers:
        shown = [int(v) for v in re.findall(r'class="seat-points" data-points="(-?\d+)"', live_part(viewer.page))]
        assert shown == scores, f"{slug}: {viewer.name} shows the points {shown}, the final scores are {scores}"
