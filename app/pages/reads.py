"""What each region of a page read of the seat's view, so that a region whose reads did not change is not
rendered again: its HTML would be the same.

Nobody lists what a region depends on: while a region renders, the view's game and table parts (`Tracked`)
record every key read, by the template or by the presenter code it calls; the values the page's context
derives from the view (the "waiting for" sentence, the points...) record theirs the same way, and a region
depends on those of them its templates name (found in the templates' source by Jinja); the reader's controls
are asked by question (a zone's controls, what can be picked: `render.ControlsRead`), each a read. A
region is rendered again when any of its reads has a new value, or when it read the whole of a part (by
iterating it). The live-page property test (tests/site/test_live_equals_reload.py) checks the result.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Callable

from jinja2 import Environment, meta

ALL = "*"  # a read of every key of a part
LENGTH = "len"  # in a read (key, LENGTH) of a list: its length (`TrackedList`)
_recording: list[set[tuple[str, str]]] = []  # the reads being recorded (a region's, a derived value's)


class Tracked(dict):
    """A part of a view ("g": its game part, "t": its table part) that records which keys are read."""

    __slots__ = ("_part",)

    def __init__(self, part: str, data: dict[str, Any]):
        super().__init__(data)
        self._part = part

    def _read(self, key: Any) -> None:
        note(self._part, key)

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        if type(value) is list:  # its reads are recorded by index, or whole (TrackedList)
            return TrackedList(self._part, key, value)
        self._read(key)
        return value

    def get(self, key, default=None):
        if dict.__contains__(self, key):
            return self[key]
        self._read(key)
        return default

    def __contains__(self, key):
        self._read(key)
        return dict.__contains__(self, key)

    def __iter__(self):
        self._read(ALL)
        return dict.__iter__(self)

    def keys(self):
        self._read(ALL)
        return dict.keys(self)

    def values(self):
        self._read(ALL)
        return dict.values(self)

    def items(self):
        self._read(ALL)
        return dict.items(self)

    def copy(self):
        self._read(ALL)
        return dict(dict.items(self))


class TrackedList:
    """A list of a view's part (`Tracked`) that records `part[key][i]` as a read of the item alone, its length
    as a read of the length alone, and any other use (iterating it, comparing it...) as a read of the whole
    list: a player's panel that shows `g.unplaced[seat]` is not rendered again when another seat's count
    changes, nor the page's frame that places one region per group when a group changes. Not a list subclass,
    so that no C fast path (str.join, list(), json) can read it unrecorded: what it does not offer fails
    loudly."""

    __slots__ = ("_part", "_key", "_items")

    def __init__(self, part: str, key: Any, items: list[Any]):
        self._part, self._key, self._items = part, key, items

    def _whole(self) -> list[Any]:
        note(self._part, self._key)
        return self._items

    def __getitem__(self, index):
        if type(index) is int:
            note(self._part, (self._key, index))
            return self._items[index]
        return self._whole()[index]

    def __len__(self) -> int:
        note(self._part, (self._key, LENGTH))
        return len(self._items)

    def cell(self, index: int, inner: int) -> Any:
        """`part[key][index][inner]` of a list of lists, as a read of that cell alone: a group of César &
        Cléopâtre showing `g.won.cell(seat, group)` is not rendered again when the seat wins in another group."""
        note(self._part, (self._key, index, inner))
        return self._items[index][inner]

    def __iter__(self):
        return iter(self._whole())

    def __reversed__(self):
        return reversed(self._whole())

    def __contains__(self, item) -> bool:
        return item in self._whole()

    def __eq__(self, other) -> bool:
        return self._whole() == (other._whole() if isinstance(other, TrackedList) else other)

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other) -> list[Any]:
        return self._whole() + list(other)

    def __radd__(self, other) -> list[Any]:
        return list(other) + self._whole()

    def index(self, *args) -> int:
        return self._whole().index(*args)

    def count(self, item) -> int:
        return self._whole().count(item)

    def __repr__(self) -> str:
        return repr(self._whole())


def note(part: str, key: Any) -> None:
    """Records a read of `key` in the part `part` in every recording under way."""
    for reads in _recording:
        reads.add((part, key))


class Answers:
    """A part of a page that answers questions, each a read of its own: for each seat, whether it is the
    reader's, whether it is to act, its points (a region that asks about one seat reads that seat's answer
    only: `render.is_me`, ...); for the reader's controls, what one zone holds, what can be picked
    (`render.ControlsRead`: a region that shows one zone reads that zone's controls only)."""

    __slots__ = ("answer", "_known")

    def __init__(self, answer: Callable[[Any], Any]):
        self.answer = answer
        self._known: dict[Any, Any] = {}  # each question answered once: the regions' checks ask again and again

    def get(self, question: Any, default: Any = None) -> Any:
        known = self._known
        if question not in known:
            known[question] = self.answer(question)
        return known[question]


class recording:
    """`with recording() as reads:` records the reads made meanwhile into the set `reads`; `alone`: in this
    recording only, not in those already under way (a region's reads are not the reads of the page's frame
    around it). A class, not a generator: it is entered for every region rendered and every value derived."""

    __slots__ = ("reads", "alone", "outer")

    def __init__(self, alone: bool = False):
        self.reads: set[tuple[str, str]] = set()
        self.alone = alone
        self.outer: list[set[tuple[str, str]]] | None = None

    def __enter__(self) -> set[tuple[str, str]]:
        if self.alone:
            self.outer = _recording[:]
            _recording.clear()
        _recording.append(self.reads)
        return self.reads

    def __exit__(self, *exc: Any) -> None:
        _recording.pop()
        if self.outer is not None:
            _recording[:] = self.outer


def unchanged(reads: frozenset[tuple[str, str]], old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]]
              ) -> bool:
    """Whether every read has the same value in `new` as in `old` (parts by name: "g", "t", "ctx")."""
    for part, key in reads:
        if key == ALL:
            return False
        a, b = old.get(part), new.get(part)
        if a is None or b is None:
            if a is not b:
                return False
            continue
        if type(key) is tuple:  # an item of a list, its length, or a cell of a list of lists (TrackedList)
            x, y = _item(a.get(key[0], _MISSING), key[1]), _item(b.get(key[0], _MISSING), key[1])
            if len(key) == 3:
                x, y = _item(x, key[2]), _item(y, key[2])
        else:
            x, y = a.get(key, _MISSING), b.get(key, _MISSING)
        if x is not y and x != y:  # (half the values are the same objects: `!=` would still walk a list)
            return False
    return True


_MISSING = object()


def _item(items: Any, index: int | str) -> Any:
    if type(items) is not list:
        return _MISSING
    if index is LENGTH:
        return len(items)
    return items[index] if -len(items) <= index < len(items) else _MISSING


@cache
def names_used(env: Environment, name: str) -> frozenset[str] | None:
    """The context names a template and the templates it includes or imports use (None: it includes a
    template chosen at render time, so it may use anything)."""
    seen: set[str] = set()
    used: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        source = env.loader.get_source(env, current)[0]
        ast = env.parse(source)
        used |= meta.find_undeclared_variables(ast)
        for referenced in meta.find_referenced_templates(ast):
            if referenced is None:
                return None
            todo.append(referenced)
    return frozenset(used)


class Shown:
    """A context value whose use is recorded when a template prints it (the table's version: only the forms
    print it, and a region without a form does not change with it)."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: Any):
        self.name = name
        self.value = value

    def __str__(self) -> str:
        note("ctx", self.name)
        return str(self.value)

    __html__ = __str__
