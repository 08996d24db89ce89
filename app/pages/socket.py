"""The table page's websocket (`/ws/tables/{id}/html`, the htmx websocket extension).

The hub gives each connection its seat's view at every version (the same view object it diffs for the JSON
socket: no patch is parsed or applied here). The connection renders its page from it (`render.render`) and
sends what differs from what it sent before, as elements that htmx swaps in by id. The renders of one change
are shared by every connection that would render the same page (the spectators of a table; the tabs of one
seat in one language), and so is each region by every connection whose reads of it have the same values
(render.py): `shared` is the hub's scratch space for one change.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any, Callable

from games.core import Game

from ..i18n import page_words, service_message
from ..realtime.hub import Connection
from ..services.tables import TablesService, compact
from .render import PageState, Rendered, render, render_template

log = logging.getLogger("tabula.pages")

PING_HTML = '<span id="tb-ping" hidden></span>'


class PageConnection(Connection):
    """A browser tab on the page's socket: its seat's page, sent as the changes to what the tab shows."""

    def __init__(self, ws, table_id: str, seat: int | None, token_hash: str | None, *, lang: str, game: Game,
                 links: dict[str, str | None], presence: dict[str, Any], title: tuple[str, str],
                 chat_seen: str | None = None):
        super().__init__(ws, table_id, seat, token_hash)
        self.lang = lang
        self.game = game
        self.links = links
        self.presence = presence
        self.title = title
        self.view: dict[str, Any] | None = None
        self.version: int | None = None
        self.shown: Rendered | None = None  # the page the tab holds
        self.chat_shown: str | None = None  # the chat region the tab holds
        self.chat_seen = chat_seen  # the digest of the chat region the page came with (None: not told)

    def _key(self) -> tuple[Any, ...]:
        """Everything the page depends on besides the view of this seat at this version."""
        return (self.seat, self.version, self.lang, self.title, compact(self.presence),
                tuple(sorted(self.links.items(), key=lambda kv: kv[0])))

    def _render(self, shared: dict[Any, Any] | None) -> Rendered:
        key = self._key()
        rendered = None if shared is None else shared.get(key)
        if rendered is None:
            regions = None if shared is None else shared.setdefault(("regions", self.lang), {})
            rendered = render(PageState(self.view, self.version, self.lang, self.game, self.presence, self.links,
                                        title_en=self.title[0], title_fr=self.title[1],
                                        title_it=self.title[2]), self.shown, regions)
            if shared is not None:
                shared[key] = rendered
        return rendered

    async def _show(self, shared: dict[Any, Any] | None) -> None:
        try:
            rendered = self._render(shared)
        except Exception:  # the tab keeps what it has; the next change or a reload brings it back
            log.exception("HTML rendering failed at table %s", self.table_id)
            return
        html = rendered.changes_from(self.shown)
        self.shown = rendered
        if html:
            await self.send(html)

    async def full(self, version: int, view: dict[str, Any], shared: dict[Any, Any] | None = None) -> None:
        self.view, self.version, self.shown = view, version, None
        await self._show(shared)

    async def synced(self, version: int, view: dict[str, Any], shared: dict[Any, Any] | None = None) -> None:
        # The tab shows this version already: remember its page, to send only changes from it later.
        self.view, self.version = view, version
        self.shown = self._render(shared)

    async def changed(self, version: int, view: dict[str, Any], patch: Callable[[], str],
                      shared: dict[Any, Any]) -> None:
        self.view, self.version = view, version
        await self._show(shared)

    async def show_presence(self, presence: dict[str, Any], message: str, shared: dict[Any, Any]) -> None:
        if presence == self.presence:
            return
        self.presence = presence
        if self.view is not None:
            await self._show(shared)

    async def ping(self, message: str) -> None:
        await self.send(PING_HTML)

    async def show_chat(self, chat: dict[str, Any], shared: dict[Any, Any]) -> None:
        html = shared.get(self.lang)
        if html is None:
            html = shared[self.lang] = chat_html(chat, self.lang)
        if html != self.chat_shown:
            self.chat_shown = html
            await self.send(html)

    async def attached_chat(self, chat: Any) -> None:
        # The page was rendered before the socket opened, and a message may have come in between: the page
        # says which chat it shows (`chat_seen`, the digest of its chat region); only a different one is sent.
        if chat is None:
            return
        html = chat_html(await chat.state(self.table_id, self.seat), self.lang)
        if self.chat_seen is None or self.chat_seen == chat_digest(html):
            self.chat_shown = html
        else:
            await self.show_chat({}, {self.lang: html})

    async def show_facts(self, facts: dict[str, Any], shared: dict[Any, Any]) -> None:
        # The facts are links of the page (templates/table/end.html): only the regions reading them change.
        if all(self.links.get(name) == value for name, value in facts.items()):
            return
        self.links = {**self.links, **facts}
        if self.view is not None:
            await self._show(shared)

    async def attached_facts(self, service: TablesService) -> None:
        # The page came with the facts of its load (the socket's links are those, app/routes/ws.py); a rematch
        # linked since is sent now.
        await self.show_facts(await service.facts(self.table_id), {})

    async def refuse(self, status: int, error: str) -> None:
        text = service_message(error, self.lang)
        await self.send(render_template("table/flash.html", {"flash": text, **page_words(self.lang)}))


def chat_html(chat: dict[str, Any], lang: str) -> str:
    """The chat region of a page (templates/table/chat.html), the same in the page and on the socket."""
    return render_template("table/chat.html", {"chat": chat, **page_words(lang)})


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def chat_digest(html: str) -> str:
    """What the page says of the chat it shows (its socket's `chat=`)."""
    return _digest(html)


def presence_digest(presence: dict[str, Any]) -> str:
    """What the page says of the presence it shows (its socket's `presence=`)."""
    return _digest(compact(presence))
