"""Rendering a table page: the Jinja environment, the context of a seat's page, and the page cut into regions.

A table page's body is drawn by `templates/table/body.html`, which places each part that changes on its own
with `{{ region("some/template.html") }}`: an element with a stable id (the template's first element). The
full page renders them in place. For the page's socket, `render` cuts the body in two: each region's HTML by
id, and the *frame*, the body with a marker where each region goes. After every change the socket renders the
page again and sends what differs from what the browser holds: the whole body when the frame changed, else
only the regions whose HTML changed (the log: only its new lines). No list says which part of the view a
region depends on: whatever a template reads, a change of it shows, and the browser's page always equals a
reloaded one. A region is rendered again only when a value it read changed, and once per change for all the
readers of a table whose reads of it have the same values (the seat itself is one of those reads); the frame
too is rendered again only when what it read outside its regions changed.

Templates receive a seat's view (never a state) and the presenter of its game (`presenters/`).
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from functools import cache
from types import BuiltinFunctionType, FunctionType, MethodType
from typing import Any

from jinja2 import Environment, FileSystemLoader, Template, meta, nodes, pass_context, select_autoescape
from jinja2.runtime import Context, Macro, missing
from jinja2.utils import _PassArg
from markupsafe import Markup, escape

from games.core import Game

from ..config import project_root
from .. import i18n
from ..i18n import translator
from ..services.tables import compact
from .controls import Controls
from .reads import ALL, Answers, Shown, Tracked, names_used, note, recording, unchanged
from .presenters import join_names, presenter_for, seat_names

log = logging.getLogger("tabula.pages")


class PageContext(Context):
    """Jinja's context, with a quicker `call`."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        """Jinja's `call` (every call a template makes), quicker for functions, methods and macros: Jinja asks
        whether the callable's `__call__` wants the context, which makes a new method-wrapper object twice per
        call; a function's or a method's never does, so one look at the callable itself answers (a macro's
        wants the evaluation context). A twelfth of a club's soak's page road went to Jinja's way. Anything
        else takes Jinja's."""
        if type(__obj) not in _PLAIN_CALLABLES:
            return Context.call(__self, __obj, *args, **kwargs)
        loop_vars = kwargs.pop("_loop_vars", None)
        block_vars = kwargs.pop("_block_vars", None)
        pass_arg = _PassArg.eval_context if type(__obj) is Macro else getattr(__obj, "jinja_pass_arg", None)
        if pass_arg is _PassArg.context:
            if loop_vars:  # (as Jinja: what the loop or block set is visible to the callee)
                __self = __self.derived(loop_vars)
            if block_vars:
                __self = __self.derived(block_vars)
            args = (__self, *args)
        elif pass_arg is _PassArg.eval_context:
            args = (__self.eval_ctx, *args)
        elif pass_arg is _PassArg.environment:
            args = (__self.environment, *args)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined("value was undefined because a callable raised a StopIteration "
                                                "exception")


_PLAIN_CALLABLES = frozenset({FunctionType, MethodType, BuiltinFunctionType, Macro})


class FrameContext(PageContext):
    """The context of the page's frame (the body outside its regions) when the socket renders it, which tells
    what names of the page's context the frame uses (the names a region uses are found in its templates'
    source: `_named_reads`). Only there: asked for every name a template looks up, it cost the regions a
    fiftieth of the page road."""

    def resolve_or_missing(self, key: str) -> Any:
        collector = self.parent["_regions"]
        if not collector.depth:  # (a module the frame imported may be called in a region too)
            collector.names.add(key)
        return super().resolve_or_missing(key)

    def derived(self, locals: dict[str, Any] | None = None) -> Context:
        context = super().derived(locals)
        context.__class__ = FrameContext  # (what a loop of the frame passes to a function: the frame's too)
        return context


def _context_class(collector: "_Collector | None") -> type[Context]:
    return FrameContext if collector is not None and not collector.depth else PageContext


class PageTemplate(Template):
    """A template of the pages. A module it makes for `{% import … with context %}` (the macros) is made
    once per render of a reader's page (the socket's render: `_Collector.modules`) and shared by the regions
    that import it with the same values of the names its templates use, instead of once per region: making
    one runs its template again, which was a tenth of the page road's time in a club's soak. A module whose
    making read the view is not shared (the importing region must record that read itself)."""

    def new_context(self, vars: dict[str, Any] | None = None, shared: bool = False,
                    locals: dict[str, Any] | None = None) -> Context:
        context = super().new_context(vars, shared, locals)
        contexts = vars.get("_contexts") if vars else None
        if contexts is not None:  # to be let go of once the page is rendered (`let_go`)
            contexts.append(context)
            # (the same layout: Jinja made it a PageContext)
            context.__class__ = _context_class(vars.get("_regions"))
        return context

    def render_in(self, parent: dict[str, Any]) -> str:
        """The template rendered in a context whose parent is `parent` as it is, the environment's globals
        included (`with_globals`). `render` copies its variables twice at every call, merging the globals
        into them (a ChainMap, read key by key), and its context copies the globals again: an eighth of the
        page road's time in a club's soak, once per region rendered."""
        context = _context_class(parent.get("_regions"))(self.environment, parent, self.name, self.blocks)
        contexts = parent.get("_contexts")
        if contexts is not None:  # as `new_context`
            contexts.append(context)
        try:
            return self.environment.concat(self.root_render_func(context))  # type: ignore[attr-defined]
        except Exception:
            self.environment.handle_exception()

    def make_module(self, vars: dict[str, Any] | None = None, shared: bool = False,
                    locals: dict[str, Any] | None = None) -> Any:
        collector = vars.get("_regions") if shared and vars else None
        names = None if collector is None else _module_names(self.name)
        if names is None:
            return super().make_module(vars, shared, locals)
        given = {name: value for name, value in (locals or {}).items() if value is not missing}
        # By identity: the values are alive as long as the module holds them, so no id is reused meanwhile.
        # A module made in a region is not the frame's (its context does not tell the frame's names), nor the
        # other way round.
        key = (self.name, not collector.depth,
               *(id(given[name] if name in given else vars.get(name, missing)) for name in names))
        module = collector.modules.get(key)
        if module is None:
            with recording() as reads:
                module = super().make_module(vars, shared, locals)
            if not reads:
                collector.modules[key] = module
        return module


@cache
def _module_names(name: str) -> tuple[str, ...] | None:
    """The names the template `name` and those it imports use, in order (None: it may use any)."""
    used = names_used(ENV, name)
    return None if used is None else tuple(sorted(used))


class PageEnvironment(Environment):
    """Jinja's environment, with a quicker `x.name` on the views' dicts. Jinja tries the attribute first and
    catches the AttributeError before it looks the key up; a view is all dicts, and that raised and caught
    error was a tenth of a page's rendering. A dict (or `Tracked`) has no attributes but its class's, so asking
    for the key first whenever the name is not one of those gives the same answer. Its contexts are
    `PageContext`s and its templates `PageTemplate`s."""

    context_class = PageContext
    template_class = PageTemplate

    def getattr(self, obj: Any, attribute: str) -> Any:
        names = _CLASS_ATTRIBUTES.get(type(obj))
        if names is not None and attribute not in names:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


_CLASS_ATTRIBUTES = {cls: frozenset(dir(cls)) for cls in (dict, Tracked)}

ENV = PageEnvironment(
    loader=FileSystemLoader(str(project_root() / "templates")),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
    # Templates are compiled once; checking their files' times at every render costs a stat per template per
    # render. TABULA_RELOAD_TEMPLATES=1 (development) picks up edits without a restart.
    auto_reload=os.environ.get("TABULA_RELOAD_TEMPLATES") == "1",
    cache_size=-1,
    extensions=["jinja2.ext.i18n"],  # _() / ngettext() in the reader's language (the context's `lang`)
)
ENV.filters["compact"] = compact


def with_globals(values: dict[str, Any]) -> dict[str, Any]:
    """`values` with the environment's globals under them, as Jinja merges them for a render: what
    `PageTemplate.render_in` renders in (no template of the pages has globals of its own)."""
    return {**ENV.globals, **values}


i18n.install(ENV)


def render_template(name: str, values: dict[str, Any]) -> str:
    """The template `name` rendered whole (a page loaded, a message, a region sent alone), its Jinja
    contexts let go of once it is (`let_go`). In the environment's globals merged once (`render_in`), not
    through Jinja's `render`, which merges them key by key: a tenth of the table page's form post."""
    contexts: list[Context] = []
    try:
        return ENV.get_template(name).render_in(with_globals({**values, "_contexts": contexts}))
    finally:
        let_go(contexts)


def let_go(contexts: list[Context]) -> None:
    """Lets go of a render's contexts (`PageTemplate` lists them in the render's `_contexts`). A Jinja context
    holds its macros (an imported module's too), and they hold it: cycles that only the cycle collector frees,
    each holding the render's context, the reader's view with it. Emptied, they are freed at once, when the
    last reference goes; left to the collector, they were a fifth of the page road's CPU on a server of 200
    tables (`page_road.py --tables 200`), and each page loaded whole left 700 objects to it."""
    for context in contexts:
        context.vars.clear()
        context.exported_vars.clear()
        context.parent = {}
    contexts.clear()


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
    title_it: str = ""


STARTED = ("v", "game")  # the read of whether the view has a game part

# What a page's context holds besides the view and the values derived from it: a region that names one is
# rendered again when it changes; the version, only when the region printed it (`reads.Shown`).
INPUTS = ("presence", "connected", "links", "flash")


def context(page: PageState, previous: "Rendered | None" = None, shared: "SharedRenders | None" = None
            ) -> dict[str, Any]:
    """The templates' context. The view's parts record what is read of them (`reads.Tracked`); so does the
    computation of each value derived from the view, kept in `_derived` by name with its reads; a value whose
    reads did not change since the `previous` render of the same reader's page is taken from it, and so is one
    that another reader of the same change computed from reads with the same values (`shared`)."""
    _ = translator(page.lang)
    table = Tracked("t", page.view["table"])
    gview = None if page.view.get("game") is None else Tracked("g", page.view["game"])
    view = {"table": table, "game": gview}
    presenter = presenter_for(page.view["table"]["game"])
    parts = page_parts(page)
    derived: dict[str, tuple[Any, frozenset[tuple[str, str]]]] = {}

    def derive(name: str, compute, *sources: str):
        """A value computed from the view, and from the values `sources` (their reads are its reads too)."""
        if previous is not None and name in previous.derived:
            value, reads = previous.derived[name]
            if unchanged(reads, previous.parts, parts):
                derived[name] = (value, reads)
                return value
        others = () if shared is None else shared.setdefault(("derived", name), [])
        for (value, reads), other_parts in others:
            if unchanged(reads, other_parts, parts):
                derived[name] = (value, reads)
                return value
        with recording() as reads:
            reads.add(STARTED)  # whether there is a game part at all (the lobby has none)
            value = compute()
        derived[name] = (value, frozenset(reads).union(*(derived[source][1] for source in sources)))
        if shared is not None:
            others.append((derived[name], parts))
        return value

    me = derive("me", lambda: table["you"])  # derived, so that what depends on the seat reads it
    names = derive("names", lambda: seat_names(view, _))
    controls = derive("controls", lambda: presenter.controls(view, _, names).confirming(
        gview, lambda code: page.game.confirmation_text(code, {}, page.lang, names)) if gview else Controls([]),
        "names")
    to_act = derive("to_act", lambda: list(gview["to_act"]) if gview else [])
    finished = derive("finished", lambda: bool(gview) and gview["finished"])
    waiting = derive("waiting", lambda: _waiting(page, view, names, to_act, _), "names", "to_act")
    points = derive("points", lambda: page.game.points(gview) if gview else None)
    before = None
    if previous is not None and "log" in previous.derived and previous.parts["g"] is not None:
        before = (previous.parts["g"]["log"], previous.derived["log"][0])
    # The lines of one change's new entries are put in words once for all its readers (their views hold the
    # same entries: `Game.visible_log`), and so kept once by the table's sockets, not once each.
    made = None if shared is None else shared.setdefault(("lines", tuple(names)), {})
    lines = derive("log", lambda: log_lines(page.game, gview["log"] if gview else [], page.lang, names, before,
                                            made), "names")
    log_count = derive("log_count", lambda: len(gview["log"]) if gview else 0)  # the lines' numbers
    has_log = derive("has_log", lambda: bool(gview) and len(gview["log"]) > 0)
    my_turn = bool(gview) and me is not None and me in to_act and not finished
    title = _.pick(page, "title")
    tab_title = (("▶ " + _("Your turn") + " · ") if my_turn else "") + f"{title} · Tabula"
    connected = set(page.presence.get("connected", []))
    # A region depends on these by their values (the part "d"), not on what computing them read: the pages of
    # two seats whose "waiting for" sentence is the same share the regions that show it.
    # The controls are read by question instead (`ControlsRead`, the part "c"): a region showing one zone
    # depends on that zone's controls only.
    parts["d"] = {**{name: value for name, (value, _reads) in derived.items() if name != "controls"},
                  "my_turn": my_turn, "tab_title": tab_title, "spectator": me is None}
    parts["c"] = Answers(controls.answer)
    # What the players' list and panels ask of one seat at a time (`is_me`, `acting`, `seat_points`): the line
    # of a seat is rendered again when its own answer changes, not when the turn passes between two others.
    parts["me"] = Answers(lambda seat: me is not None and seat == me)
    parts["acting"] = Answers(lambda seat: seat in to_act)
    parts["points"] = Answers(lambda seat: points[seat] if points else None)
    return {
        "view": view, "g": gview, "tbl": table, "me": me, "names": names, "lang": page.lang, "words": _,
        "P": presenter, "controls": ControlsRead(controls), "game": page.game, "presence": page.presence,
        "connected": connected, "links": page.links, "version": Shown("version", page.version),
        "table_id": page.view["table"]["id"], "flash": page.flash,
        "waiting": waiting, "my_turn": my_turn, "tab_title": tab_title, "title": title,
        "to_act": to_act, "spectator": me is None, "points": points, "has_log": has_log,
        "log_html": JoinedLines(lines, log_count),
        "_derived": derived, "_parts": parts,
    }


def page_parts(page: PageState) -> dict[str, Any]:
    """What a page is rendered from, by part: the view's game part, its table part, the context's inputs."""
    return {"g": page.view.get("game"), "t": page.view["table"], "v": {"game": page.view.get("game") is not None},
            "ctx": {"presence": page.presence, "connected": set(page.presence.get("connected", [])),
                    "links": page.links, "flash": page.flash, "version": page.version}}


def _waiting(page: PageState, view: dict[str, Any], names: list[str], to_act: list[int], _) -> str:
    """The status sentence: who the game waits for and what for."""
    gview, table, me = view["game"], view["table"], view["table"]["you"]
    if gview and gview["finished"]:
        return _("The game is over.")
    if gview:
        doing = page.game.waiting_for(gview, page.lang)
        if me is not None and me in to_act:
            others = [names[s] for s in to_act if s != me]
            return (_("Your turn: ") if not others else
                    _("You and {join_names}: ").format(join_names=join_names(others, _))) + doing
        who = join_names([names[s] for s in to_act], _)
        return _("Waiting for {who}: ").format(who=who) + doing if who else ""
    free = sum(1 for s in table["seats"] if s["name"] is None)
    return _.ngettext("Waiting for {n} more player", "Waiting for {n} more players", free).format(n=free)


LOG_LINES = 300  # the newest lines the page shows
LOG_REGION = "tb-log"  # the log's region (table/log.html); its lines, newest first, in the list LOG_REGION-lines
# Where the socket's log region holds its lines (`log_html`): the region is rendered around this mark, and the
# page's lines are put in only when the region is sent whole (`Rendered.expanded`). So the region does not
# change with every line: a line added is sent as that line (`log_growth`), and the region, the same for
# every reader, is rendered again only when something else in it changes. Rendering it with its up to 300
# lines for each reader at each action, and comparing them, grew with the game to a fifth of a late action.
LOG_SLOT = Markup("<!--log-lines-->")


class JoinedLines:
    """The log's lines as the page's HTML, numbered and joined only when printed (`log_html`)."""

    __slots__ = ("lines", "count")

    def __init__(self, lines: list[Markup], count: int):
        self.lines, self.count = lines, count

    def __html__(self) -> str:
        return numbered(self.lines, self.count)


def numbered(lines: list[Markup], top: int) -> str:
    """The lines (`log_lines`), the first numbered `top`, the next `top - 1`...: the list's HTML."""
    return "".join([f'<li id="{LOG_REGION}-{top - n}"{line}' for n, line in enumerate(lines)])


def log_lines(game: Game, entries: list[dict[str, Any]], lang: str, names: list[str],
              before: tuple[list[dict[str, Any]], list[Markup]] | None = None,
              made: dict[int, tuple[dict[str, Any], Markup]] | None = None) -> list[Markup]:
    """The seat's visible log as the page's lines, newest first: each entry put in words, as what follows the
    `<li` of its element and its id (`numbered` gives the `n`th line the id `tb-log-n`, by its place in this
    seat's list), with `data-own="s"` when it tells seat s's own move. A line is the same for every reader
    who sees its entry, wherever in their lists: the readers' pages share it instead of each keeping a copy.
    `before`: the entries and lines of an earlier render for the same reader; the lines of the entries the two
    logs begin with are kept (a log mostly grows; a step may also replace its last entry). `made`: the lines
    other readers of the same change made (in the same language, with the same names), by entry; this call
    adds its own."""
    start = 0
    lines: list[Markup] = []
    if before is not None:
        old_entries, old_lines = before
        start = len(old_entries)
        if entries[:start] != old_entries:  # (in C, by identity first: the usual case, a log that only grew)
            start = 0
            for was, now in zip(old_entries, entries):
                if was is not now and was != now:
                    break
                start += 1
        # old_lines are the lines of the last len(old_lines) old entries, newest first
        lines = old_lines if start == len(old_entries) else old_lines[len(old_entries) - start:]
    fresh = []
    for number in range(len(entries), max(start, len(entries) - LOG_LINES), -1):
        entry = entries[number - 1]
        other = None if made is None else made.get(id(entry))
        if other is not None and other[0] is entry:
            fresh.append(other[1])
            continue
        try:
            words = game.render_log(entry, lang, names)
        except Exception:  # a log line that does not render must not break the page
            log.exception("log entry %r did not render", entry.get("key"))
            words = entry.get("key", "")
        # A line that tells a seat's own move (made by it, about it) says so: the page does not read it aloud
        # to that seat (static/tabula.js), who knows what it just did.
        own = entry.get("by")
        mark = f' data-own="{escape(own)}"' if own is not None and entry["args"].get("seat") == own else ""
        # (what Markup.format gives, without its formatter: a third of a millisecond a line)
        fresh.append(Markup(f'{mark}>{escape(words)}</li>'))
        if made is not None:
            made[id(entry)] = (entry, fresh[-1])
    if not fresh or not lines:  # (the lists are shared, never changed: a list per reader and action is what
        return fresh or lines  # the cycle collector walks, 300 lines long late in a game)
    lines = fresh + lines
    del lines[LOG_LINES:]
    return lines


def log_growth(old: "Rendered", new: "Rendered") -> str | None:
    """The log's lines of the page `old` turned into those of `new` by out-of-band swaps: the entries added
    since, put at the top of the list, and the oldest lines pushed out of it removed. None when the log did
    not simply grow (a first line, a name that changed the words of the lines shown, a step taken back...)."""
    count, lines = new.derived["log_count"][0], new.derived["log"][0]
    old_count, old_lines = old.derived["log_count"][0], old.derived["log"][0]
    added = count - old_count
    if not old_lines or not 0 < added <= len(lines) or lines[added:] != old_lines[:len(lines) - added]:
        return None
    gone = range(old_count - len(old_lines) + 1, count - len(lines) + 1)
    return (f'<ol id="{LOG_REGION}-lines" hx-swap-oob="afterbegin">' + numbered(lines[:added], count) + "</ol>"
            + "".join(f'<li id="{LOG_REGION}-{number}" hx-swap-oob="delete"></li>' for number in gone))




# ========================================================================================== regions

_FIRST_ID = re.compile(r'\s*<[A-Za-z][^>]*?\sid="([^"]+)"')
_MARKER = re.compile(r"<!--region:([^>]+?)-->")


Source = tuple[Any, str, frozenset[tuple[str, str]]]  # a region's id (the frame's: its regions), HTML and reads
FRAME = " frame"  # the frame's key among the regions' (no template's name starts with a space)
VERSION = "table/version.html"  # the version element's template (and key), outside the body


@dataclass
class _Collector:
    """One render of the body for the socket: each region's HTML by id in page order, and by template what it
    read (`reads.py`), so that the next render can keep the regions whose reads did not change; and the same
    for the frame, which is rendered again only when what it read outside its regions changed."""

    parts: dict[str, Any]  # what this render reads from: the view's parts and the context's inputs
    values: dict[str, Any]  # the values the context derives from the view (parts["d"])
    previous: "Rendered | None"
    shared: "SharedRenders | None" = None
    base: dict[str, Any] = field(default_factory=dict)  # the page's context, what every region is rendered with
    html: dict[str, str] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)
    calls: list[tuple[str, str, dict[str, Any], str]] = field(default_factory=list)  # key, template, args, id
    names: set[str] = field(default_factory=set)  # the context's names the frame's templates resolved
    modules: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # the imported modules (PageTemplate)
    contexts: list[Context] = field(default_factory=list)  # Jinja's contexts of this render (PageTemplate)
    depth: int = 0

    def forget(self) -> None:
        """Lets go of the render's contexts (`let_go`), and of the base, which holds this collector, and
        through it the reader's previous page."""
        let_go(self.contexts)
        self.base = {}

    def kept(self, name: str) -> Source | None:
        """A render of this region whose reads have the values they have here: this reader's previous one,
        or one of this change's other readers (a region that reads nothing of the seat is the same for
        every seat and the spectator)."""
        if self.previous is not None:
            source = self.previous.sources.get(name)
            if source is not None and unchanged(source[2], self.previous.parts, self.parts):
                return source
        for source, parts in () if self.shared is None else self.shared.get(name, ()):
            if unchanged(source[2], parts, self.parts):
                return source
        return None

    def made(self, name: str, source: Source) -> None:
        """A region rendered here: the other readers of this change may use it."""
        if self.shared is not None:
            self.shared.setdefault(name, []).append((source, self.parts))

    def reads_of(self, name: str, dynamic: set[tuple[str, str]]) -> frozenset[tuple[str, str]]:
        """A region's reads: what it read of the view, and what the context values it names read."""
        return _named_reads(name, tuple(self.values)).union(dynamic)

    def rendered(self, key: str, name: str, args: dict[str, Any]) -> Source:
        """The element `key` (the template `name` with `args`), kept or rendered."""
        source = self.kept(key)
        if source is None:
            self.depth += 1
            try:
                with recording(alone=True) as dynamic:
                    html = ENV.get_template(name).render_in({**self.base, **args} if args else self.base)
            finally:
                self.depth -= 1
            found = _FIRST_ID.match(html)
            if found is None:
                raise ValueError(f"the region {key} does not start with an element that has an id")
            source = (found.group(1), html, self.reads_of(name, dynamic))
            self.made(key, source)
        self.sources[key] = source
        return source

    def place(self, key: str, name: str, args: dict[str, Any]) -> str:
        """The region `key` (the template `name` with `args`), kept or rendered; its id."""
        region_id, html, _ = self.rendered(key, name, args)
        if region_id in self.html:
            raise ValueError(f"two regions have the id {region_id}")
        self.html[region_id] = html
        self.calls.append((key, name, args, region_id))
        return region_id

    def frame(self) -> str:
        """The body with a marker for each region: the one rendered last, when what it read did not change
        (its regions are placed again, each kept or rendered), else rendered."""
        source = self.kept(FRAME)
        if source is not None:
            for key, name, args, region_id in source[0]:
                if self.place(key, name, args) != region_id:  # a region whose id changed: its marker too
                    self.html, self.sources, self.calls = {}, {}, []
                    break
            else:
                self.sources[FRAME] = source
                return source[1]
        with recording(alone=True) as reads:
            html = ENV.get_template("table/body.html").render_in(self.base)
        reads |= {STARTED, *(("d", n) for n in self.names if n in self.values),
                  *(("ctx", n) for n in self.names if n not in self.values and n in INPUTS)}
        source = self.sources[FRAME] = (tuple(self.calls), html, frozenset(reads))
        self.made(FRAME, source)
        return html


@cache
def _named_reads(name: str, derived: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """The reads of the context's values (`derived`: their names) and inputs that the template `name` names,
    found once in its source."""
    used = names_used(ENV, name)
    if used is None:
        return frozenset({("g", ALL)})
    return frozenset({STARTED, *(("d", used_name) for used_name in used if used_name in derived),
                      *(("ctx", used_name) for used_name in used if used_name not in derived and used_name in INPUTS)})


@pass_context
def region(ctx: Context, name: str, **args: Any) -> Markup:
    """A region of the page: rendered in place, or (when the body is rendered for the socket) collected and
    replaced by its marker; a region whose reads did not change since the previous render is kept as it was.
    `args`: what the template gets besides the page's context (`seat=n`: one region per seat), part of the
    region's identity."""
    collector: _Collector | None = ctx.get("_regions")
    if collector is None:
        return Markup(ctx.environment.get_template(name).render_in({**ctx.get_all(), **args}))
    if collector.depth:  # a region inside a region is part of it, which cannot know what the inner one reads
        note("g", ALL)
        return Markup(ctx.environment.get_template(name).render_in({**ctx.get_all(), **args}))
    key = name + "".join(f" {arg}={value!r}" for arg, value in sorted(args.items()))
    return Markup(f"<!--region:{collector.place(key, name, args)}-->")


def _by_seat(part: str, doc: str):
    """A function of the templates that asks the part `part` (a `reads.Answers`) about one seat."""

    @pass_context
    def ask(ctx: Context, seat: int) -> Any:
        note(part, seat)
        return ctx.parent["_parts"][part].get(seat)

    ask.__doc__ = doc
    return ask


ENV.globals["region"] = region
ENV.globals["is_me"] = _by_seat("me", """Whether `seat` is the reader's. A region that asks only this of the reader
    (never naming `me`) is the same for every reader but that seat: each player's panel is rendered twice per
    change (for its player, for everyone else) instead of once per reader.""")
ENV.globals["acting"] = _by_seat("acting", "Whether `seat` is to act (in `to_act`).")
ENV.globals["seat_points"] = _by_seat("points", "The points of `seat`, or None when the game shows none.")


class ControlsRead:
    """The reader's controls as the templates ask about them, each question a read of the part "c"
    (`Controls.answer`): a player's panel that shows the zone "seat:3" is rendered again when that zone's
    controls change, not whenever the reader's controls do, and it is the same for every reader without
    controls there. It offers only the questions below: a template asking anything else fails loudly, as it must
    not read the controls unrecorded."""

    __slots__ = ("_controls",)

    def __init__(self, controls: Controls):
        self._controls = controls

    def __bool__(self) -> bool:
        note("c", "any")
        return bool(self._controls)

    def __len__(self) -> int:
        note("c", "any")
        return len(self._controls)

    def zone(self, name: str) -> list[Any]:
        note("c", "zone:" + name)
        return self._controls.zone(name)

    def has(self, name: str) -> bool:
        note("c", "zone:" + name)
        return self._controls.has(name)

    def picks(self) -> set[str]:
        note("c", "picks")
        return self._controls.picks()

    def pickable(self, key: str) -> bool:
        note("c", "picks")
        return self._controls.pickable(key)

    def pickable_in(self, group: str, value: Any) -> bool:
        note("c", "picks")
        return self._controls.pickable_in(group, value)


@pass_context
def spectating(ctx: Context) -> bool:
    """Whether the reader is a spectator, read only when asked (`spectator` names it in every case)."""
    note("d", "spectator")
    return ctx.parent["_parts"]["d"]["spectator"]


ENV.globals["spectating"] = spectating


# The names a macro drawn once per language may use besides its arguments: the game's presenter (pure
# functions of their arguments) and the reader's words.
PURE_NAMES = frozenset({"P", "words", "lang"})
DRAWN_MAX = 20_000  # drawings kept (a few thousand cards and tiles in each language in all)
_drawn: dict[tuple[Any, ...], Markup] = {}


@pass_context
def drawn(ctx: Context, macro: Macro, *args: Any, **kwargs: Any) -> Markup:
    """`macro(*args, **kwargs)`, drawn once per language and arguments for every page and reader: a card or a
    tile, drawn dozens of times a page. Only for a macro that uses nothing but its arguments and `PURE_NAMES`
    (checked in its source the first time: anything else fails loudly), so that what it draws reads nothing
    of the view a region would have to record."""
    code = macro._func.__code__
    key = (code, ctx["lang"], args, tuple(sorted(kwargs.items())) if kwargs else ())
    html = _drawn.get(key)
    if html is None:
        _check_pure(code.co_filename, macro.name)
        html = macro(*args, **kwargs)
        if len(_drawn) >= DRAWN_MAX:
            _drawn.clear()
        _drawn[key] = html
    return html


@cache
def _check_pure(filename: str, name: str) -> None:
    with open(filename, encoding="utf-8") as source:
        found = [node for node in ENV.parse(source.read()).find_all(nodes.Macro) if node.name == name]
    template = nodes.Template(found)
    template.set_environment(ENV)
    used = meta.find_undeclared_variables(template)
    if len(found) != 1 or not used <= PURE_NAMES:
        raise TypeError(f"the macro {name} of {filename} uses {sorted(used - PURE_NAMES)}: it cannot be drawn once "
                        "for every reader")


ENV.globals["drawn"] = drawn


@dataclass(frozen=True)
class Rendered:
    """A seat's table page as the socket sends it: the version element, the body's frame and its regions, and
    what they were rendered from."""

    version: str
    frame: str
    regions: dict[str, str]
    sources: dict[str, Source] = field(default_factory=dict)
    parts: dict[str, Any] = field(default_factory=dict)
    derived: dict[str, tuple[Any, frozenset[tuple[str, str]]]] = field(default_factory=dict)

    def body(self) -> str:
        return _MARKER.sub(lambda m: self.expanded(m.group(1)), self.frame)

    def expanded(self, region_id: str) -> str:
        """The region `region_id` as the browser shows it (the log's with its lines: `LOG_SLOT`)."""
        html = self.regions[region_id]
        if region_id == LOG_REGION:
            return html.replace(LOG_SLOT, numbered(self.derived["log"][0], self.derived["log_count"][0]), 1)
        return html

    def changes_from(self, shown: "Rendered | None") -> str:
        """The HTML that turns the page `shown` into this one (out-of-band swaps by id); "" when none."""
        if shown is None or shown.frame != self.frame:
            return self.version + self.body()
        parts = [] if shown.version == self.version else [self.version]
        for region_id, html in self.regions.items():
            if shown.regions.get(region_id) != html:
                parts.append(self.expanded(region_id))
            elif region_id == LOG_REGION and shown.derived["log"][0] is not self.derived["log"][0]:
                # The log (up to LOG_LINES lines) mostly grows by a line: that line is sent, not the list.
                lines, old_lines = self.derived["log"][0], shown.derived["log"][0]
                grown = log_growth(shown, self)
                if grown is not None:
                    parts.append(grown)
                elif lines != old_lines:
                    parts.append(self.expanded(region_id))
        return "".join(parts)


# What the pages of one change of one table, in one language, computed: each region by template name, and
# each derived value by ("derived", name), with the parts it was computed from (`render`'s `shared`). It lives
# as long as the change is being sent.
SharedRenders = dict[Any, list[tuple[tuple[Any, ...], dict[str, Any]]]]


def render(page: PageState, previous: Rendered | None = None, shared: SharedRenders | None = None) -> Rendered:
    """The page of `page`, for the socket; what `previous` (the same reader's page at an earlier version)
    rendered from reads that did not change since is kept without being rendered again, and so is what
    another reader of the same change rendered (`shared`) from reads that have the same values here."""
    ctx = context(page, previous, shared)
    collector = _Collector(ctx["_parts"], ctx["_parts"]["d"], previous, shared)
    collector.base = with_globals({**ctx, "_regions": collector, "_contexts": collector.contexts,
                                   "log_html": LOG_SLOT})
    try:
        frame = collector.frame()
        # The version element is outside the body, but kept and shared as a region is: the same for every
        # reader whose turn it is not.
        version = collector.rendered(VERSION, VERSION, {})[1]
        return Rendered(version, frame, collector.html, collector.sources, ctx["_parts"], ctx["_derived"])
    finally:
        collector.forget()
