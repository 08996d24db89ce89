"""The contract every game engine implements, and the guards that live once for all of them.

A state is plain JSON data (dicts with string keys, lists, ints, strings, bools, None) so that it
encodes and decodes exactly. `apply` never modifies its input: it checks the generic guards, copies
the state (the `copy` hook) and lets the game mutate the copy.

A game subclasses `Game` and fills in the hooks marked "hook"; clients (the server, bots, tests)
only call the public contract: setup, to_act, legal_actions, apply, view, outcome, resample,
encode, decode.
"""

from __future__ import annotations

import operator
import pickle
import string
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Callable, ClassVar, Iterable

import orjson

from . import rng as _rng

# The languages every word a game gives exists in: each text is a dict keyed by these codes (a new language
# is data only: add its code here and its words beside the others; the conformance suite checks they exist).
LANGS = ("en", "fr", "it")

State = dict[str, Any]
Action = dict[str, Any]
Seat = int

# Keys the core adds to every view; a game's own view part may not use them.
CORE_VIEW_KEYS = ("game", "seat", "players", "to_act", "legal_actions", "confirm", "finished", "outcome", "log")
_CORE_VIEW_KEYS = frozenset(CORE_VIEW_KEYS)
PROJECTED = "projected"  # the key, in a view memo (`Game.visible_log`), of the log entries' projections
VIEWED = "viewed"  # in a view memo, (VIEWED, seat): the seat's last view (`Game.view`)

# Taking back one's own last step (see `Game.apply`): an ordinary legal action, offered by the core.
UNDO: dict[str, Any] = {"type": "undo"}
# Where a state keeps its undo window: the states before each step that may still be taken back, last on top.
# Never in a view; `Game.resample` redraws each of them as it does the state.
UNDO_KEY = "undo"


class IllegalAction(Exception):
    """An action the rules refuse. `str(exc)` is an English sentence a player can read; `code` and `args` say
    the same for any language (`Game.refusal_text`). Neither ever carries a secret."""

    def __init__(self, message: str, code: str = "core.not_allowed", args: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.refusal_args = dict(args or {})

    @property  # type: ignore[override]
    def args(self) -> dict[str, Any]:  # the refusal's arguments (BaseException keeps the message apart)
        return self.refusal_args

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.code, self.refusal_args))


# The refusals of the guards every game shares (`Game.apply`); each game adds its own (`Game.refusals`).
CORE_REFUSALS: dict[str, dict[str, str]] = {
    "core.malformed": {"en": "An action must be an object with a \"type\".",
                       "fr": "Une action doit être un objet avec un « type ».",
                       "it": "Un'azione deve essere un oggetto con un «type»."},
    "core.game_over": {"en": "The game is over.", "fr": "La partie est terminée.", "it": "La partita è finita."},
    "core.no_such_seat": {"en": "There is no such seat at this table.", "fr": "Cette table n'a pas cette place.",
                          "it": "Questo posto non esiste a questo tavolo."},
    "core.not_your_turn": {"en": "It is not your turn to act.", "fr": "Ce n'est pas à vous de jouer.",
                           "it": "Non tocca a voi giocare."},
    "core.not_allowed": {"en": "That move is not allowed now.", "fr": "Ce coup n'est pas permis maintenant.",
                         "it": "Questa mossa non è consentita ora."},
    "core.no_undo": {"en": "There is no move of yours to take back now.",
                     "fr": "Vous n'avez aucun coup à reprendre maintenant.",
                     "it": "Ora non avete nessuna mossa da riprendere."},
}

# The log entries the core writes; each game's `messages` starts with them.
CORE_MESSAGES: dict[str, dict[str, str]] = {
    "core.undo": {"en": "{seat} took back a move.", "fr": "{seat} a repris un coup.",
                  "it": "{seat} ha ripreso una mossa."},
}

# Why a legal action asks for a confirmation (the view's "confirm"): the core has no reason of its own, each
# game's `confirmations` starts with these (none yet) and adds its own.
CORE_CONFIRMATIONS: dict[str, dict[str, str]] = {}


Text = dict[str, str]  # one text in every language: {"en": ..., "fr": ..., "it": ...}


# Each language's plural rule: which of a plural field's forms (`format_text`) a number takes, 0 the first.
# English and Italian say "1 card", "0 cards"; French "0 carte", "1 carte", "2 cartes" (CLDR: one is 0 and 1).
# A new language gives its rule here; the conformance suite checks every plural field has its forms.
PLURAL_RULES: dict[str, tuple[int, Callable[[int], int]]] = {  # language -> (number of forms, rule)
    "en": (2, lambda n: 0 if abs(n) == 1 else 1),
    "fr": (2, lambda n: 0 if abs(n) <= 1 else 1),
    "it": (2, lambda n: 0 if abs(n) == 1 else 1),
}


class _PluralFormatter(string.Formatter):
    """`str.format`, where a field whose format spec lists forms (`{count:card|cards}`) is the form the
    language's plural rule gives for that number."""

    def __init__(self, lang: str):
        self.forms, self.rule = PLURAL_RULES.get(lang, PLURAL_RULES["en"])

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" not in format_spec:
            return super().format_field(value, format_spec)
        forms = format_spec.split("|")
        if not isinstance(value, int) or isinstance(value, bool) or len(forms) != self.forms:
            raise ValueError(f"a plural field takes a number and {self.forms} forms: {value!r}, {format_spec!r}")
        return forms[self.rule(value)]


def format_text(template: str, lang: str, **args: Any) -> str:
    """A template of the language `lang` filled with `args` as `str.format` does, and plural fields: `{count}
    {count:card|cards}` is "1 card", "2 cards" in English, each language choosing by its rule (`PLURAL_RULES`)
    among its forms, separated by "|". Never a fake plural like "card(s)"."""
    if "|" not in template:  # the usual text, at the speed of str.format
        return template.format(**args)
    return _PluralFormatter(lang).vformat(template, (), args)


def fill(templates: Text, **args: Any) -> Text:
    """A text in every language from one template per language (`format_text`): each `{name}` takes the
    argument's text in that language (an argument that is a Text) or the argument itself (a number, a name)."""
    return {lang: format_text(template, lang, **{k: v.get(lang) or v["en"] if isinstance(v, dict) else v
                                                 for k, v in args.items()})
            for lang, template in templates.items()}


def add_language(table: dict[str, dict[str, str]], lang: str, texts: dict[str, str]) -> None:
    """Put one language's texts into a table of texts by key (messages, refusals...): a key the table does not
    have is a mistake (a typo, a text that was renamed), and so is a missing one (the conformance suite)."""
    unknown = set(texts) - set(table)
    if unknown:
        raise KeyError(f"no such texts to translate: {sorted(unknown)}")
    for key, text in texts.items():
        table[key][lang] = text


def in_lang(text: Text, lang: str) -> str:
    """A Text in `lang`, else in English."""
    return text.get(lang) or text["en"]


YES: Text = {"en": "yes", "fr": "oui", "it": "sì"}
NO: Text = {"en": "no", "fr": "non", "it": "no"}


@dataclass(frozen=True)
class Option:
    """A variant a table may choose when it is created; its words in every language (LANGS)."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    text: Text  # what it does
    label: Text = field(default_factory=dict)  # its name (else `name`)
    # The words of each choice in the order of `choices`; booleans are yes/no, others their text.
    choice_names: tuple[Text, ...] = ()

    def __getattr__(self, attr: str) -> str:
        # `en`, `fr`... (what it does) and `label_en`, `label_fr`... (its name) in one language.
        if attr in LANGS:
            return self.text.get(attr) or self.text["en"]
        if attr.startswith("label_") and attr[len("label_"):] in LANGS:
            return self.label.get(attr[len("label_"):]) or self.label.get("en") or self.name
        raise AttributeError(attr)

    def words(self, value: Any) -> Text:
        """The words of one of this option's values, in every language."""
        if value in self.choices and len(self.choice_names) == len(self.choices):
            return self.choice_names[self.choices.index(value)]
        if value is True:
            return YES
        if value is False:
            return NO
        return {lang: str(value) for lang in LANGS}

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices),
            **{f"label_{lang}": getattr(self, f"label_{lang}") for lang in LANGS},
            **{lang: getattr(self, lang) for lang in LANGS},
            "choice_names": [[self.words(c).get(lang) or self.words(c)["en"] for lang in LANGS]
                             for c in self.choices],
            "choice_texts": [self.words(c) for c in self.choices],
        }


def clone(state: State) -> State:
    """A deep copy of plain data (pickle is the fastest deep copy CPython has for it)."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def copy_by_shape(state: State, flat: frozenset[str], nested: frozenset[str] = frozenset(),
                  special: dict[str, Callable[[Any], Any]] | None = None) -> State:
    """A copy `play` may mutate (see `Game.copy`), made by the state's known shape: the fields in `flat` are
    lists or dicts of immutable items (copied one level), those in `nested` lists of such lists (two levels),
    those in `special` copied by their own function; the log list is copied but shares its entries (never
    changed once written); any other list or dict is deep-copied, so a field the game adds later is safe
    before it is named here. Several times faster than the deep copy of the whole state, which is copied at
    every action."""
    new = {}
    for key, value in state.items():
        if key in flat or key == "log":
            new[key] = value.copy()
        elif key in nested:
            new[key] = [item.copy() for item in value]
        elif special and key in special:
            new[key] = special[key](value)
        elif type(value) is list or type(value) is dict:
            new[key] = clone(value)
        else:
            new[key] = value
    return new


def score_line(text: Text, points: int) -> dict[str, Any]:
    """One line of an outcome breakdown: its text in every language (keys of LANGS) and its points."""
    return {**text, "points": points}


def reveal_line(text: Text, items: Iterable[Any]) -> dict[str, Any]:
    """One line of `Game.reveal`: what it is, in every language, and its items in order, each a Text (a name in
    every language) or one value for all (a number, a label the same in every language)."""
    return {**text, "items": [dict(item) if isinstance(item, dict) else {lang: str(item) for lang in LANGS}
                              for item in items]}


def log_entry(key: str, to: Iterable[Seat] | None = None, hide: Iterable[Seat] | None = None,
              **args: Any) -> dict[str, Any]:
    """A game-log entry. `to`: only these seats see it; `hide`: everyone but these seats sees it
    (spectators included). Neither: public. `args` are rendered into the game's `messages[key]`."""
    entry: dict[str, Any] = {"key": key, "args": args}
    if to is not None:
        entry["to"] = sorted(to)
    if hide is not None:
        entry["hide"] = sorted(hide)
    return entry


_SEEN_KEYS = frozenset({"key", "args", "by"})  # what a seat sees of a log entry (not whom it is shown to)


def log_visible(entry: dict[str, Any], seat: Seat | None) -> bool:
    if "to" in entry:
        return seat is not None and seat in entry["to"]
    if "hide" in entry:
        return seat is None or seat not in entry["hide"]
    return True


class Game:
    """Base class of every engine. Subclasses set the class attributes and implement the hooks."""

    slug: ClassVar[str]
    # The game's name and its lobby pitch, by language code (LANGS); `title_en`, `pitch_fr`... are derived.
    title: ClassVar[dict[str, str]]
    pitch: ClassVar[dict[str, str]] = {}
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    rules_version: ClassVar[int] = 1
    # Log message templates: key -> {"en": "...{seat}...", "fr": "..."}; args ending in "seat" are seats, and
    # `{count:card|cards}` is the word a number takes (`format_text`).
    messages: ClassVar[dict[str, dict[str, str]]] = CORE_MESSAGES
    # Refusal templates, the same way: code -> {"en", "fr"}; the core's and then the game's own.
    refusals: ClassVar[dict[str, dict[str, str]]] = CORE_REFUSALS
    # Why a move asks for a confirmation, the same way: code -> {"en", "fr"}; the core's and then the game's own.
    confirmations: ClassVar[dict[str, dict[str, str]]] = CORE_CONFIRMATIONS
    # How often random playouts and bots take each kind of move (games.core.bots.MOVE_WEIGHTS); 1 if not listed.
    move_weights: ClassVar[dict[str, float]] = {}
    # The last (state, seat, moves) that legal_actions computed (see there).
    _last_moves: tuple[Any, Any, list[Action]] = (None, None, [])
    # The last log each seat saw, its length then, and its visible entries; and the entries' projections
    # (`PROJECTED`). See `visible_log`; used when the caller keeps no memo of its own.
    _log_memo: dict[Any, Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._log_memo = {}
        # The flat names the wire formats use (title_en, title_fr, title_it...), one per language.
        title, pitch = getattr(cls, "title", {}), getattr(cls, "pitch", {})
        for lang in LANGS:
            setattr(cls, f"title_{lang}", title.get(lang) or title.get("en", ""))
            setattr(cls, f"pitch_{lang}", pitch.get(lang) or pitch.get("en", ""))

    # ----------------------------------------------------------------------------------- contract

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title_en} is played by {self.min_players} to {self.max_players} players.")
        state = self.start(players, _rng.seed_state(seed), self.resolve_options(options))
        assert isinstance(state.get("rng"), int), "a game state keeps its PRNG in state['rng']"
        return state

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """The options with defaults filled in; unknown names or values raise ValueError."""
        options = dict(options or {})
        known = {o.name: o for o in self.options}
        for name, value in options.items():
            if name not in known:
                raise ValueError(f"Unknown option {name!r} for {self.title_en}.")
            if value not in known[name].choices or type(value) is not type(known[name].default):
                raise ValueError(f"Option {name!r} cannot be {value!r}.")
        return {o.name: options.get(o.name, o.default) for o in self.options}

    def to_act(self, state: State) -> frozenset[Seat]:
        if self.finished(state):
            return frozenset()
        return frozenset(self.actors(state))

    def legal_actions(self, state: State, seat: Seat | None) -> list[Action]:
        """The game's moves for `seat`, then `UNDO` when `seat` may take back its last step."""
        if seat is None or seat not in self.to_act(state):
            return []
        moves = self.moves(state, seat)
        # Remembered for `apply`, which would otherwise generate them again: the usual caller asks for the
        # legal actions and then applies one of them. States are values (nothing mutates a state once
        # built), so the same object means the same moves; the caller gets copies it may change freely.
        self._last_moves = (state, seat, moves)
        window = state.get(UNDO_KEY)  # `can_undo`, knowing that `seat` is to act
        return [*map(dict, moves), dict(UNDO)] if window and window[-1]["seat"] == seat else [*map(dict, moves)]

    def can_undo(self, state: State, seat: Seat) -> bool:
        """May `seat` take back its last step? Only inside the window `apply` keeps open (see there)."""
        window = state.get(UNDO_KEY)
        return bool(window) and window[-1]["seat"] == seat and seat in self.to_act(state)

    def confirm(self, state: State, seat: Seat, actions: list[Action]) -> list[str | None]:
        """Parallel to `actions` (the legal actions of `seat`): None, or the code of `confirmations` that says
        why that move asks for a confirmation (it cannot be taken back and it matters)."""
        return [None if action == UNDO else self.confirmation(state, seat, action) for action in actions]

    def apply(self, state: State, seat: Seat, action: Any) -> State:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise self.illegal("core.malformed")
        if self.finished(state):
            raise self.illegal("core.game_over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state_players(state):
            raise self.illegal("core.no_such_seat")
        acting = self.to_act(state)
        if seat not in acting:
            raise self.illegal("core.not_your_turn")
        if action["type"] == UNDO["type"]:
            if action != UNDO or not self.can_undo(state, seat):
                raise self.illegal("core.no_undo")
            return self.undone(state, seat)
        last = self._last_moves
        moves = last[2] if last[0] is state and last[1] == seat else self.moves(state, seat)
        if action not in moves:
            raise self.illegal(*(self.refusal(state, seat, action) or ("core.not_allowed", {})))
        before = without_undo(state)
        new_state = self.copy(before)
        self.play(new_state, seat, action)
        # The undo window stays open while the same seat alone goes on acting, no random number was drawn
        # (no roll, no shuffle) and the game says the step revealed nothing (`keeps_undo`); any other step
        # closes it for good.
        if (acting == {seat} == self.to_act(new_state) and new_state["rng"] == state["rng"]
                and self.keeps_undo(state, seat, action, new_state)):
            log = before.get("log", ())
            step = {"seat": seat, "log": len(log), "state": {k: v for k, v in before.items() if k != "log"}}
            new_state[UNDO_KEY] = [*state.get(UNDO_KEY, ()), step]
        return new_state

    def apply_marked(self, state: State, seat: Seat, action: Any) -> State:
        """`apply`, each new log entry marked with the seat whose move made it ("by", which the view passes on):
        what the server stores, so that a page reads the others' moves aloud to a seat, not its own. An undo
        leaves one new entry, after the log it cut back."""
        new_state = self.apply(state, seat, action)
        entries = new_state.get("log", ())
        start = len(entries) - 1 if action == UNDO else len(state.get("log", ()))
        if start < len(entries):
            new_state["log"] = [*entries[:start], *({**e, "by": seat} for e in entries[start:])]
        return new_state

    @staticmethod
    def unmarked(state: State) -> State:
        """The state without the marks `apply_marked` puts on log entries: what a table played before there
        were marks holds (the marks only say whose move a line tells)."""
        if not any("by" in e for e in state.get("log", ())):
            return state
        return {**state, "log": [{k: v for k, v in e.items() if k != "by"} for e in state["log"]]}

    def undone(self, state: State, seat: Seat) -> State:
        """The state before `seat`'s last step, exactly, but for the public log entry that says so."""
        *below, step = state[UNDO_KEY]
        restored = dict(step["state"])  # shares its parts with `state`: states are never mutated once built
        if "log" in state:
            restored["log"] = [*state["log"][:step["log"]], log_entry("core.undo", seat=seat)]
        if below:
            restored[UNDO_KEY] = below
        return restored

    def view(self, state: State, seat: Seat | None, view_memo: dict | None = None) -> dict[str, Any]:
        """Everything `seat` (None: a spectator) may know, and nothing else.

        `view_memo`: what the views of one table remember between its versions (the log: see `visible_log`),
        among them each seat's last view: a part of the view equal to that view's part is that view's own
        object. The pages and the patches then compare it by identity, not item by item, and the copy just
        built dies at once instead of living until the next action for the cycle collector to walk
        (tests/bench/RESULTS.md). Like the log, a view's parts are never changed once built. Without a memo
        (a bot's samples, a replay), only the log is remembered, in the game's own memo."""
        if seat is not None and not 0 <= seat < state_players(state):
            raise ValueError("no such seat")
        finished = self.finished(state)
        own = self.observe(state, seat)
        acting = self.to_act(state)
        legal = self.legal_actions(state, seat) if seat in acting else []
        assert _CORE_VIEW_KEYS.isdisjoint(own), f"a game view may not use the core keys {set(own) & _CORE_VIEW_KEYS}"
        view = {
            "game": self.slug,
            "seat": seat,
            "players": state_players(state),
            "to_act": sorted(acting),
            "legal_actions": legal,
            "confirm": self.confirm(state, seat, legal) if legal else [],
            "finished": finished,
            "outcome": self.score(state) if finished else None,
            # "by": the seat whose move made the entry, when the server marked it (a page does not read a
            # seat's own moves aloud to it)
            "log": self.visible_log(state.get("log", ()), seat, view_memo),
            **own,
        }
        if view_memo is None:
            return view
        last = view_memo.get((VIEWED, seat))
        if last is not None:
            for key, value in view.items():
                was = last.get(key, value)
                # (the same type at the top: `==` holds between 1 and True, which JSON tells apart; the views'
                # bytes are checked against views made with no memo over random games of every game)
                if was is not value and type(was) is type(value) and was == value:
                    view[key] = was
        view_memo[(VIEWED, seat)] = view
        return view

    def visible_log(self, entries: list[dict[str, Any]], seat: Seat | None,
                    memos: dict | None = None) -> list[dict[str, Any]]:
        """The log entries `seat` sees, each as {"key", "args"} (and "by", when the server marked it). The log
        grows at every action and each view showed all of it, so the last result for each seat is remembered:
        a new state keeps its predecessor's entries (the same objects, never changed once written), so only
        the entries past that prefix are new. Like the state's entries, the view's are shared (between the
        views of one seat) and never changed once built.
        An entry's projection is the same for every seat that sees it, so it is built once for all of them
        (`memos[PROJECTED]`, by the entry's place in the log): the seats' lists hold the same objects, which a
        page compares, across its readers, by identity instead of entry by entry, and a table keeps one copy.
        The list is not the caller's: it is the memo's, and the next view of the seat shares it when that seat
        sees nothing new (never change it). A copy per seat and action was a tenth of what the cycle collector
        walked at each of its rounds on a server of 200 tables (tests/bench/RESULTS.md).
        `memos`: where to remember them, e.g. one dict per table on a server of many tables (by default, one
        per game, which only a single game played on and on hits)."""
        memos = self._log_memo if memos is None else memos
        memo = memos.get(seat)
        start, shown = 0, []
        if memo is not None:
            # The log last seen, by reference: a state's log only ever grows in place (an engine appends to the
            # new state's own list), so its first `count` entries are what this seat saw. Not a copy: one list
            # for every seat, instead of a copy of the whole log per seat and action for the collector to walk.
            seen, count, projected = memo
            if count <= len(entries) and (seen is entries or all(map(operator.is_, islice(seen, count), entries))):
                start, shown = count, projected
        built = memos.setdefault(PROJECTED, [])  # (entry, its projection), by place in the log
        fresh = []
        for place in range(start, len(entries)):
            e = entries[place]
            if place < len(built) and built[place][0] is e:
                projection = built[place][1]
            else:
                # (an entry shown to all is its own projection: the views hold no copy of it)
                projection = e if e.keys() <= _SEEN_KEYS else (
                    {"key": e["key"], "args": e["args"], "by": e["by"]} if "by" in e
                    else {"key": e["key"], "args": e["args"]})
                if place <= len(built):  # (past the end when this seat's last view was further on)
                    del built[place:]  # what was there is another log's, or undone
                    built.append((e, projection))
            if "to" in e:
                if seat is None or seat not in e["to"]:
                    continue
            elif "hide" in e and seat is not None and seat in e["hide"]:
                continue
            fresh.append(projection)
        projected = (shown + fresh if shown else fresh) if fresh else shown
        memos[seat] = (entries, len(entries), projected)
        return projected

    def outcome(self, state: State) -> dict[str, Any] | None:
        """None while the game runs; then {"scores": [...], "winners": [...], "breakdown": [[line...]...],
        "tiebreak": {"en", "fr"} or None}. Each seat's breakdown lines sum to its score."""
        return self.score(state) if self.finished(state) else None

    @staticmethod
    def encode(state: State) -> str:
        """The canonical text: `json.dumps(state, sort_keys=True, separators=(",", ":"),
        ensure_ascii=False)`, written by orjson, which gives the same text twenty times faster (the server
        encodes the state at every action; the conformance suite checks the two agree)."""
        return orjson.dumps(state, option=orjson.OPT_SORT_KEYS).decode()

    @staticmethod
    def decode(text: str) -> State:
        return orjson.loads(text)

    def canonical_after(self, state: State, previous: State) -> tuple[State, str]:
        """`decode(encode(state))` and `encode(state)` for a state that follows the canonical `previous`, without
        reading the whole text back (the log is most of it, and decoding it was most of an action's cost in the
        server): the log entries the two have in common (all but the new ones, or fewer after an undo) are
        `previous`'s own objects, already canonical; the rest goes through the canonical text. Sharing them also
        lets what is built from the log (each seat's visible log, the pages' regions) be built for the new
        entries only."""
        log = state.get("log")
        if log is None:
            text = self.encode(state)
            return self.decode(text), text
        old = previous.get("log") or []
        shared = len(old)
        if log[:shared] != old:  # (in C, by identity first: `apply` keeps its predecessor's entries)
            shared = 0
            for was, now in zip(old, log):
                if was is not now and was != now:
                    break
                shared += 1
        canonical = self.decode(self.encode({**state, "log": log[shared:]}))
        canonical["log"][:0] = old[:shared]
        # Every dict in it has its keys in canonical order already (read from sorted text): no sort needed.
        return canonical, orjson.dumps(canonical).decode()

    def render_log(self, entry: dict[str, Any], lang: str, names: list[str]) -> str:
        """One visible log entry in words; args whose name ends in "seat" become player names."""
        return render(self.messages, entry["key"], entry["args"], lang, names)

    def confirmation_text(self, code: str, args: dict[str, Any], lang: str, names: list[str] | None = None) -> str:
        """Why a move asks for a confirmation, in words (a code of the view's "confirm"), as `refusal_text`."""
        return render(self.confirmations, code, args, lang, names)

    def resample(self, state: State, seat: Seat | None, seed: int) -> State:
        """A state `seat` cannot tell apart from `state`: everything it cannot know (other hands, deck orders,
        face-down cards, secret missions, hidden money, the PRNG) drawn anew from `seed` by the game's
        `redraw`, and so is each state of the undo window, each as that seat saw it then."""
        window = state.get(UNDO_KEY)
        new_state = self.redraw(without_undo(state), seat, seed)
        if window:
            new_state[UNDO_KEY] = []
            for step in window:
                earlier = self.redraw({**step["state"], "log": state.get("log", [])[:step["log"]]}, seat, seed)
                # A redraw may keep only the log entries `seat` sees: the step's place in the new log follows.
                new_state[UNDO_KEY].append({"seat": step["seat"], "log": len(earlier.get("log", ())),
                                            "state": without_log(earlier)})
        return new_state

    def refusal_text(self, code: str, args: dict[str, Any], lang: str, names: list[str] | None = None) -> str:
        """A refusal in words, in `lang` (English when the game has no text in that language); args whose name
        ends in "seat" become player names (without `names`: "player 1", "player 2"...)."""
        return render(self.refusals, code, args, lang, names)

    def illegal(self, code: str, args: dict[str, Any] | None = None) -> IllegalAction:
        """The refusal `code` (one of `refusals`) as the exception `apply` raises, its message in English."""
        return IllegalAction(self.refusal_text(code, args or {}, "en"), code, args)

    # --------------------------------------------------------------------------------------- hooks

    def start(self, players: int, rng_state: int, options: dict[str, Any]) -> State:
        """Hook: the initial state; it must keep `rng_state` under "rng" and the player count under "players"."""
        raise NotImplementedError

    def actors(self, state: State) -> Iterable[Seat]:
        """Hook: the seats that may act now (only called while the game is not finished)."""
        raise NotImplementedError

    def finished(self, state: State) -> bool:
        """Hook: has the game ended?"""
        raise NotImplementedError

    def moves(self, state: State, seat: Seat) -> list[Action]:
        """Hook: every legal action of `seat`, which is one of the actors."""
        raise NotImplementedError

    def play(self, state: State, seat: Seat, action: Action) -> None:
        """Hook: carry out a legal action on a private copy of the state (mutate it)."""
        raise NotImplementedError

    def observe(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """Hook: the game's own part of a view, built as an allow-list."""
        raise NotImplementedError

    def score(self, state: State) -> dict[str, Any]:
        """Hook: the outcome of a finished game (see `outcome`)."""
        raise NotImplementedError

    def redraw(self, state: State, seat: Seat | None, seed: int) -> State:
        """Hook: a state `seat` cannot tell apart from `state` (which has no undo window; see `resample`):
        everything it cannot know drawn anew from `seed`. It must depend only on what `seat` knows:
        redrawing a redrawn state with the same seed gives the same state. Used by the leak test and by bots."""
        raise NotImplementedError

    def reveal(self, state: State) -> list[dict[str, Any]]:
        """Hook (optional): what no seat's view shows (deck orders, face-down piles...), for the replay of a
        finished game, where everyone sees everything; each seat's own secrets (hand, money, mission, sealed
        bid) are in that seat's view. Lines of `reveal_line`. Never called while a game runs."""
        return []

    def keeps_undo(self, state: State, seat: Seat, action: Action, after: State) -> bool:
        """Hook: may `seat` take back `action`, a legal move on `state` that gave `after`, as long as it alone
        goes on acting? Only if the move revealed nothing to anybody (no card drawn or turned up, no hidden
        choice collected); the core itself closes the window on any random draw and whenever another seat is
        asked to act. Each game says which of its moves keep the window open, and why."""
        return False

    def confirmation(self, state: State, seat: Seat, action: Action) -> str | None:
        """Hook: a code of `confirmations` when `action`, a legal move of `seat`, cannot be taken back and
        matters enough to ask first (it ends the seat's game, or gives up something for good); else None.
        It may only read what `seat` knows."""
        return None

    def copy(self, state: State) -> State:
        """Hook (optional): a copy `play` may mutate without touching `state`. Log entries are never changed
        once written, so the copy shares them (copying the whole log at every action would make long games
        quadratic) but not the log list itself. A game may replace this generic deep copy by one that knows
        its state's shape; the conformance suite checks that such a copy shares nothing mutable."""
        new_state = clone({k: v for k, v in state.items() if k != "log"})
        if "log" in state:
            new_state["log"] = list(state["log"])
        return new_state

    def refusal(self, state: State, seat: Seat, action: Action) -> tuple[str, dict[str, Any]] | None:
        """Hook (optional): why an actor's illegal action is refused, more precisely than "not allowed": a code
        of `refusals` and its arguments. Neither may reveal anything the seat cannot know."""
        return None

    def action_bound(self, players: int) -> int:
        """Hook: an upper bound on the number of actions in one game (the conformance suite checks it)."""
        return 10_000

    # ------------------------------------------------------------------------------ presentation
    # What a page shows that only the rules know. Each hook reads a view (never a state), so that it can
    # only show what that seat may know.

    # Hook: the module holding the game's components as data (cards, boards and their names in both
    # languages), for the code that draws the game (app/pages/presenters/<slug>.py reads it from here).
    components: ClassVar[Any] = None

    def points(self, view: dict[str, Any]) -> list[int] | None:
        """Hook (optional): each seat's points as this view shows them, counted by the code that counts the
        final score; once the game is over, the final scores. None: the game shows no running score."""
        return list(view["outcome"]["scores"]) if view["outcome"] is not None else None

    def waiting_for(self, view: dict[str, Any], lang: str) -> str:
        """Hook (optional): what the game waits for, said after the names of the seats to act ("place dice
        in a building")."""
        return in_lang(PLAY, lang)


PLAY: dict[str, str] = {"en": "play", "fr": "jouer", "it": "giocare"}


def state_players(state: State) -> int:
    return state["players"]


def without_undo(state: State) -> State:
    """The state less its undo window (a shallow copy when it has one)."""
    return {k: v for k, v in state.items() if k != UNDO_KEY} if UNDO_KEY in state else state


def without_log(state: State) -> State:
    return {k: v for k, v in state.items() if k != "log"}


def render(templates: dict[str, dict[str, str]], key: str, args: dict[str, Any], lang: str,
           names: list[str] | None) -> str:
    """The template `key` in `lang` (else English) filled with `args` (`format_text`: plural fields too); args
    whose name ends in "seat" are seats, shown by their player's name."""
    texts = templates.get(key, {})
    template = texts.get(lang) or texts.get("en")
    if template is None:
        return key
    if not texts.get(lang):  # the English text, with the English plural rule
        lang = "en"
    shown = {k: (seat_name(v, names) if k.endswith("seat") and isinstance(v, int) else v) for k, v in args.items()}
    try:
        return format_text(template, lang, **shown)
    except (KeyError, IndexError, ValueError):
        return template


def seat_name(seat: Seat, names: list[str] | None) -> Any:
    if names is None:
        return f"player {seat + 1}"
    return names[seat] if 0 <= seat < len(names) else seat
