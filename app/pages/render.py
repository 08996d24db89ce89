"""Rendering a table page: the Jinja environment, the context of a seat's page, and the page cut into regions.

A table page's body is drawn by `templates/table/body.html`, which places each part that changes on its own
with `{{ region("some/template.html") }}`: an element with a stable id (the template's first element). The
full page renders them in place. For the page's socket, `render` cuts the body in two: each region's HTML by
id, and the *frame*, the body with a marker where each region goes. After every change the socket renders the
page again and sends what differs from what the browser holds: the whole body when the frame changed, else
only the regions whose HTML changed. No list says which part of the view a region depends on: whatever a
template reads, a change of it shows, and the browser's page always equals a reloaded one.

Templates receive a seat's view (never a state) and the presenter of its game (`presenters/`).
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from markupsafe import Markup

from games.core import Game

from ..config import project_root
from ..i18n import LANG_NAMES, translator
from .controls import Controls, compact
from .presenters import join_names, presenter_for, seat_names

log = logging.getLogger("tabula.pages")

ENV = Environment(
    loader=FileSystemLoader(str(project_root() / "templates")),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
    # Templates are compiled once; checking their files' times at every render costs a stat per template per
    # render. TABULA_RELOAD_TEMPLATES=1 (development) picks up edits without a restart.
    auto_reload=os.environ.get("TABULA_RELOAD_TEMPLATES") == "1",
    cache_size=-1,
)
ENV.filters["compact"] = compact
ENV.globals["LANG_NAMES"] = LANG_NAMES


@dataclass
class PageState:
    """Everything a table page is rendered from: the seat's view and public facts (never a state)."""

    view: dict[str, Any]
    version: int
    lang: str
    game: Game
    presence: dict[str, Any]
    links: dict[str, str | None]
    flash: str | None = None
    title_en: str = ""
    title_fr: str = ""


def context(page: PageState) -> dict[str, Any]:
    tr = translator(page.lang)
    view = page.view
    table = view["table"]
    presenter = presenter_for(table["game"])
    names = seat_names(view, tr)
    gview = view.get("game")
    me = table["you"]
    controls = presenter.controls(view, tr, names) if gview else Controls([])
    connected = set(page.presence.get("connected", []))
    to_act = list(gview["to_act"]) if gview else []
    if gview and gview["finished"]:
        waiting = tr("The game is over.", "La partie est terminée.")
    elif gview:
        doing = page.game.waiting_for(gview, page.lang)
        if me is not None and me in to_act:
            others = [names[s] for s in to_act if s != me]
            waiting = (tr("Your turn: ", "À vous : ") if not others else
                       tr(f"You and {join_names(others, tr)}: ", f"Vous et {join_names(others, tr)} : ")) + doing
        else:
            who = join_names([names[s] for s in to_act], tr)
            waiting = tr(f"Waiting for {who}: ", f"À {who} : ") + doing if who else ""
    else:
        free = sum(1 for s in table["seats"] if s["name"] is None)
        waiting = tr(f"Waiting for {free} more player(s)", f"Encore {free} joueur(s) attendu(s)")
    points = page.game.points(gview) if gview else None
    my_turn = bool(gview) and me is not None and me in to_act and not gview["finished"]
    title = tr(page.title_en, page.title_fr)
    tab_title = (("▶ " + tr("Your turn", "À vous") + " · ") if my_turn else "") + f"{title} · Tabula"
    return {
        "view": view, "g": gview, "tbl": table, "me": me, "names": names, "lang": page.lang, "tr": tr,
        "P": presenter, "controls": controls, "game": page.game, "presence": page.presence, "connected": connected,
        "links": page.links, "version": page.version, "table_id": table["id"], "flash": page.flash,
        "waiting": waiting, "my_turn": my_turn, "tab_title": tab_title, "title": title,
        "to_act": to_act, "spectator": me is None, "points": points,
    }


def log_lines(game: Game, g: dict[str, Any] | None, lang: str, names: list[str], limit: int = 300) -> list[str]:
    """The seat's visible log in words, newest first."""
    entries = (g or {}).get("log", [])
    out = []
    for entry in reversed(entries[-limit:]):
        try:
            out.append(game.render_log(entry, lang, names))
        except Exception:  # a log line that does not render must not break the page
            log.exception("log entry %r did not render", entry.get("key"))
            out.append(entry.get("key", ""))
    return out


ENV.globals["log_lines"] = log_lines


# ========================================================================================== regions

_FIRST_ID = re.compile(r'\s*<[A-Za-z][^>]*?\sid="([^"]+)"')
_MARKER = re.compile(r"<!--region:([^>]+?)-->")


@dataclass
class _Collector:
    """The regions one render of the body met, by id in page order (a region inside a region is part of it)."""

    html: dict[str, str] = field(default_factory=dict)
    depth: int = 0


@pass_context
def region(ctx: Context, name: str) -> Markup:
    """A region of the page: rendered in place, or (when the body is rendered for the socket) collected and
    replaced by its marker."""
    template = ctx.environment.get_template(name)
    collector: _Collector | None = ctx.get("_regions")
    if collector is None or collector.depth:
        return Markup(template.render(ctx.get_all()))
    collector.depth += 1
    try:
        html = template.render(ctx.get_all())
    finally:
        collector.depth -= 1
    found = _FIRST_ID.match(html)
    if found is None:
        raise ValueError(f"the region {name} does not start with an element that has an id")
    region_id = found.group(1)
    if region_id in collector.html:
        raise ValueError(f"two regions have the id {region_id}")
    collector.html[region_id] = html
    return Markup(f"<!--region:{region_id}-->")


ENV.globals["region"] = region


@dataclass(frozen=True)
class Rendered:
    """A seat's table page as the socket sends it: the version element, the body's frame and its regions."""

    version: str
    frame: str
    regions: dict[str, str]

    def body(self) -> str:
        return _MARKER.sub(lambda m: self.regions[m.group(1)], self.frame)

    def changes_from(self, shown: "Rendered | None") -> str:
        """The HTML that turns the page `shown` into this one (out-of-band swaps by id); "" when none."""
        if shown is None or shown.frame != self.frame:
            return self.version + self.body()
        parts = [] if shown.version == self.version else [self.version]
        parts.extend(html for region_id, html in self.regions.items() if shown.regions.get(region_id) != html)
        return "".join(parts)


def render(page: PageState) -> Rendered:
    ctx = context(page)
    collector = _Collector()
    frame = ENV.get_template("table/body.html").render({**ctx, "_regions": collector})
    return Rendered(ENV.get_template("table/version.html").render(ctx), frame, collector.html)
