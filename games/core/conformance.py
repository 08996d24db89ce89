"""The conformance checks every registered game must pass (run by tests/games/test_conformance.py).

Each check raises AssertionError with a readable reason. `run_conformance` plays random games to the
end and applies every check at sampled points: the outcome is complete, states round-trip through
JSON, illegal input is refused without touching the state, with a code every language renders and that
is the same in a world resampled for the actor, replays are deterministic, a resampled state is a world
the engine can play on, and, the strongest of them, the resample leak test: for every seat and the
spectator, a state that differs only in what that seat cannot know gives that seat exactly the same view.
"""

from __future__ import annotations

import itertools
import json
import string
from dataclasses import dataclass, field
from typing import Any, Callable

from . import rng
from .game import (LANGS, PLURAL_RULES, UNDO, UNDO_KEY, Action, Game, IllegalAction, Seat, State, log_entry,
                   without_undo)

# How often the conformance suite's random playouts take back a move when they may (against 1 for a move of
# weight 1): rarely, so that games still end. Golden playthroughs and the other callers of `random_step` never do.
UNDO_WEIGHT = 0.05


@dataclass
class Report:
    games: int = 0
    actions: int = 0
    resample_checks: int = 0
    resample_changed: int = 0  # checks where the resampled state really differed outside the PRNG
    lengths: list[int] = field(default_factory=list)
    refusal_codes: set[str] = field(default_factory=set)  # every refusal code the fuzzing met
    resample_actions: int = 0  # legal actions applied in resampled worlds


def option_sets(game: Game) -> list[dict[str, Any]]:
    """Every combination of the game's option values."""
    names = [o.name for o in game.options]
    return [dict(zip(names, values)) for values in itertools.product(*(o.choices for o in game.options))]


def pick(holder: dict[str, Any], items: list[Any], weights: list[float] | None = None) -> Any:
    """A reproducible random choice (driven by our own PRNG, so playouts never change with Python)."""
    if not weights:
        return items[rng.below(holder, len(items))]
    ints = [max(1, int(w * 1000)) for w in weights]
    r = rng.below(holder, sum(ints))
    for item, w in zip(items, ints):
        if r < w:
            return item
        r -= w
    return items[-1]


def random_step(game: Game, state: State, holder: dict[str, Any], undo_weight: float = 0.0) -> tuple[Seat, Action]:
    """One random legal (seat, action): a seat among those to act, then one of its actions, weighted by
    the game's `playout_weight` hook when it has one; an undo only with a positive `undo_weight`."""
    seat = pick(holder, sorted(game.to_act(state)))
    actions = game.legal_actions(state, seat)
    if not undo_weight:
        actions = [a for a in actions if a != UNDO]
    assert actions, f"seat {seat} is to act but has no legal action"
    weigh = getattr(game, "playout_weight", None)
    weights = [undo_weight if a == UNDO else weigh(state, seat, a) for a in actions] if weigh else None
    if weights is None and undo_weight:
        weights = [undo_weight if a == UNDO else 1.0 for a in actions]
    return seat, pick(holder, actions, weights)


def random_game(game: Game, players: int, seed: int, options: dict[str, Any], policy_seed: int,
                visit: Callable[[State, int], None] | None = None,
                undo_weight: float = 0.0) -> tuple[State, list[tuple[Seat, Action]]]:
    """Plays one random game to the end; returns the final state and the actions taken."""
    state = game.setup(players, seed, options)
    holder = {"rng": rng.seed_state(policy_seed)}
    history: list[tuple[Seat, Action]] = []
    bound = game.action_bound(players)
    while not game.finished(state):
        if visit:
            visit(state, len(history))
        assert len(history) < bound, f"{game.slug}: no end after {bound} actions (seed {seed})"
        seat, action = random_step(game, state, holder, undo_weight)
        state = game.apply(state, seat, action)
        history.append((seat, action))
    assert game.to_act(state) == frozenset(), "a finished game has nobody to act"
    if visit:
        visit(state, len(history))
    return state, history


def check_outcome(game: Game, state: State) -> None:
    players = state["players"]
    result = game.outcome(state)
    assert result is not None, "a finished game has an outcome"
    assert json.loads(json.dumps(result)) == result, "the outcome is plain JSON"
    assert len(result["scores"]) == players, "one score per seat"
    assert result["winners"] and set(result["winners"]) <= set(range(players)), "winners are seats"
    assert len(result["breakdown"]) == players, "one breakdown per seat"
    for seat, lines in enumerate(result["breakdown"]):
        assert all({*LANGS, "points"} <= set(line) and all(line[lang] for lang in LANGS) for line in lines), \
            "breakdown lines have a text in every language and points"
        assert sum(line["points"] for line in lines) == result["scores"][seat], \
            f"seat {seat}: breakdown lines add up to its score"
    if result.get("tiebreak") is not None:
        assert all(result["tiebreak"].get(lang) for lang in LANGS), "the tiebreak is said in every language"


def check_log_words(game: Game, state: State) -> None:
    """Every log entry renders in every language, with every place filled."""
    names = [f"P{s}" for s in range(state["players"])]
    for entry in state.get("log", ()):
        texts = game.messages.get(entry["key"], {})
        assert set(LANGS) <= set(texts), f"{game.slug}: log message {entry['key']!r} lacks {set(LANGS) - set(texts)}"
        for lang in LANGS:
            text = game.render_log(entry, lang, names)
            assert text and "{" not in text and text != entry["key"], \
                f"{game.slug}: {entry['key']} does not render in {lang}: {text!r}"


def texts_of(game: Game) -> dict[str, dict[str, str]]:
    """Every fixed text a game gives, by where it is: title, pitch, options (what, label, choices), log
    messages, refusals, confirmations. Each must have every language (`check_words`)."""
    found: dict[str, dict[str, str]] = {"title": game.title}
    if game.pitch:
        found["pitch"] = game.pitch
    for option in game.options:
        found[f"option {option.name}"] = option.text
        if option.label:
            found[f"option {option.name} label"] = option.label
        for choice in option.choices:
            found[f"option {option.name} = {choice!r}"] = option.words(choice)
    for kind, table in (("message", game.messages), ("refusal", game.refusals),
                        ("confirmation", game.confirmations)):
        for key, texts in table.items():
            found[f"{kind} {key}"] = texts
    return found


def check_words(game: Game) -> None:
    """Every text the game gives exists in every language (LANGS), none empty, and each of its plural fields
    (`{count:card|cards}`, games.core.format_text) gives as many forms as its language's plural rule has."""
    lacking = {where: sorted(set(LANGS) - {lang for lang, text in texts.items() if text})
               for where, texts in texts_of(game).items()}
    lacking = {where: langs for where, langs in lacking.items() if langs}
    assert not lacking, f"{game.slug}: texts without every language: {lacking}"
    wrong = [(where, lang, spec) for where, texts in texts_of(game).items() for lang, text in texts.items()
             for _, _, spec, _ in string.Formatter().parse(text)
             if spec and not (len(spec.split("|")) == PLURAL_RULES[lang][0] if "|" in spec else formats(spec))]
    assert not wrong, f"{game.slug}: plural fields without their language's number of forms: {wrong}"


def formats(spec: str) -> bool:
    """Is `spec` a format spec for a number or a text (else a plural field that lacks its "|")?"""
    for value in (1, ""):
        try:
            format(value, spec)
            return True
        except ValueError:
            pass
    return False


def check_roundtrip(game: Game, state: State) -> None:
    text = game.encode(state)
    back = game.decode(text)
    assert back == state, "decode(encode(state)) gives the same state"
    assert game.encode(back) == text, "encoding is canonical"
    assert text == json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False), \
        "the canonical text is the standard library's sorted compact JSON"


def mutable_parts(data: Any, log: Any = None) -> dict[int, Any]:
    """Every list and dict inside `data` by id, but the items of the list `log` (log entries are shared
    between states: they are never changed once written)."""
    found: dict[int, Any] = {}
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, dict)):
            found[id(item)] = item
            values = item.values() if isinstance(item, dict) else item
            if item is not log:
                stack.extend(values)
    return found


def check_copy_shares_nothing(game: Game, state: State) -> None:
    """`copy` gives an equal state that `play` may mutate without touching the original: no list or dict
    is shared, but the log entries (never changed once written). The core never hands it the undo window."""
    state = without_undo(state)
    copy = game.copy(state)
    assert copy == state, "a copy equals the state"
    before = mutable_parts(state, log=state.get("log"))
    after = mutable_parts(copy, log=copy.get("log"))
    shared = [before[i] for i in before.keys() & after.keys()]
    assert not shared, f"{game.slug}: the copy shares mutable parts with the state: {shared[:3]}"


def check_views_plain(game: Game, state: State) -> None:
    for seat in [*range(state["players"]), None]:
        view = game.view(state, seat)
        assert json.loads(json.dumps(view)) == view, f"the view of seat {seat} is plain JSON"
        for action in view["legal_actions"]:
            assert isinstance(action, dict) and isinstance(action.get("type"), str), "actions are {type: ...}"
        check_confirm(game, view["legal_actions"], view["confirm"], view["players"])
        assert "rng" not in json.dumps(view), "no view names the PRNG"


def check_confirm(game: Game, actions: list[Action], confirm: list[str | None], players: int) -> set[str]:
    """A view's "confirm" runs parallel to its legal actions, and each reason is a code of the game's
    `confirmations` that renders in every language. Returns the codes met."""
    assert len(confirm) == len(actions), f"{game.slug}: confirm is not parallel to legal_actions"
    codes = {code for code in confirm if code is not None}
    for code in codes:
        assert code in game.confirmations, f"{game.slug}: confirmation code {code!r} has no text"
        for lang in LANGS:
            text = game.confirmation_text(code, {}, lang, names=[f"P{s}" for s in range(players)])
            assert text and "{" not in text and text == game.confirmations[code][lang], \
                f"{game.slug}: {code} does not render in {lang}: {text!r}"
    return codes


def mutations(action: Action) -> list[Any]:
    """Near misses of a legal action: extra keys, and each value changed."""
    out: list[Any] = [{**action, "unexpected": 1}, {"type": action["type"] + "_nope"}]
    for key, value in action.items():
        if key == "type":
            continue
        if isinstance(value, bool):
            out.append({**action, key: not value})
        elif isinstance(value, int):
            out += [{**action, key: value + 997}, {**action, key: -1 - value}, {**action, key: str(value)}]
        elif isinstance(value, str):
            out += [{**action, key: value + "?"}, {**action, key: 0}]
        elif isinstance(value, list):
            out += [{**action, key: value + value + [0]}, {**action, key: None}]
        else:
            out.append({**action, key: "?"})
        out.append({k: v for k, v in action.items() if k != key})
    return out


GARBAGE: list[Any] = [None, "play", 42, [], {}, {"type": 5}, {"type": "no_such_action"}, {"kind": "play"}]


def check_illegal_rejected(game: Game, state: State, holder: dict[str, Any], seed: int = 0,
                           codes: set[str] | None = None) -> int:
    """Every refused input raises IllegalAction with a code of `game.refusals` (its English text is the
    message; every language renders it) and leaves the state untouched; an actor's refusal is the same in a
    state resampled for that actor (so it carries no secret). The codes met go into `codes`. Returns how many
    inputs were tried."""
    before = game.encode(state)
    players = state["players"]
    to_act = game.to_act(state)
    twins = {seat: game.resample(state, seat, seed) for seat in to_act}
    tried = 0

    def refusal_of(world: State, seat: Any, action: Any) -> tuple[str, dict[str, Any]]:
        try:
            game.apply(world, seat, action)
        except IllegalAction as e:
            return e.code, e.args
        raise AssertionError(f"{game.slug}: seat {seat} was allowed {action!r}")

    def refused(seat: Any, action: Any) -> None:
        nonlocal tried
        tried += 1
        try:
            game.apply(state, seat, action)
        except IllegalAction as e:
            assert e.code in game.refusals, f"{game.slug}: refusal code {e.code!r} has no text"
            assert str(e) == game.refusal_text(e.code, e.args, "en"), "the message is the code's English text"
            for lang in LANGS:
                text = game.refusal_text(e.code, e.args, lang, names=[f"P{s}" for s in range(players)])
                assert text and "{" not in text, f"{game.slug}: {e.code} does not render in {lang}: {text!r}"
            if codes is not None:
                codes.add(e.code)
            if seat in twins:
                assert refusal_of(twins[seat], seat, action) == (e.code, e.args), \
                    f"{game.slug}: the refusal of {action!r} depends on what seat {seat} cannot know"
        else:
            raise AssertionError(f"{game.slug}: seat {seat} was allowed {action!r}")
        assert game.encode(state) == before, "a refused action changed the state"

    for seat in to_act:
        legal = game.legal_actions(state, seat)
        for junk in GARBAGE:
            refused(seat, junk)
        for action in [pick(holder, legal) for _ in range(3)]:
            for wrong in mutations(action):
                if wrong not in legal:
                    refused(seat, wrong)
            for other in set(range(players)) - to_act:
                refused(other, action)
            refused(-1, action)
            refused(players, action)
    return tried


def check_resample_hides(game: Game, state: State, seed: int) -> tuple[int, int]:
    """The resample leak test at one state, for every seat and the spectator.
    Returns (checks, how many of them really changed hidden information)."""
    checks = changed = 0
    for seat in [*range(state["players"]), None]:
        other = game.resample(state, seat, seed)
        check_roundtrip(game, other)
        assert game.view(other, seat) == game.view(state, seat), \
            f"{game.slug}: seat {seat}'s view depends on something it cannot know"
        # The resample must be a function of what the seat knows, not of the true hidden state.
        again = game.resample(other, seat, seed + 1)
        assert game.encode(again) == game.encode(game.resample(state, seat, seed + 1)), \
            f"{game.slug}: the resample for seat {seat} depends on hidden information"
        checks += 1
        if {k: v for k, v in other.items() if k != "rng"} != {k: v for k, v in state.items() if k != "rng"}:
            changed += 1
    return checks, changed


def check_resample_playable(game: Game, state: State, seed: int) -> int:
    """A resample is a world the engine can play on: from `state` resampled for every seat and the spectator,
    every legal action of every seat to act applies without an exception other than a refusal. Returns how
    many actions were applied."""
    applied = 0
    for viewer in [*range(state["players"]), None]:
        world = game.resample(state, viewer, seed)
        for seat in sorted(game.to_act(world)):
            for action in game.legal_actions(world, seat):
                try:
                    game.apply(world, seat, action)
                except IllegalAction:
                    pass
                except Exception as e:
                    raise AssertionError(f"{game.slug}: seat {seat} cannot play {action!r} in a world resampled "
                                         f"for {viewer}: {e!r}") from e
                applied += 1
    return applied


def check_determinism(game: Game, players: int, seed: int, options: dict[str, Any],
                      history: list[tuple[Seat, Action]], final: State) -> None:
    state = game.setup(players, seed, options)
    assert game.encode(state) == game.encode(game.setup(players, seed, options)), "setup is deterministic"
    for seat, action in history:
        state = game.apply(state, seat, action)
    assert game.encode(state) == game.encode(final), "same seed and actions give the same state"


def run_conformance(game: Game, players: int, options: dict[str, Any], seeds: range,
                    samples_per_game: int = 3) -> Report:
    """Random games over `seeds`, with every check at a few sampled points of each."""
    report = Report()
    for seed in seeds:
        holder = {"rng": rng.seed_state(seed * 7919 + 17)}
        sampled: list[State] = []
        expected_length = game.action_bound(players)

        def visit(state: State, step: int) -> None:
            # Sample early, middle and late states (a cheap reservoir by step number).
            if step == 0 or rng.below(holder, max(1, expected_length // (4 * samples_per_game))) == 0:
                sampled.append(state)

        final, history = random_game(game, players, seed, options, policy_seed=seed, visit=visit,
                                     undo_weight=UNDO_WEIGHT)
        report.games += 1
        report.actions += len(history)
        report.lengths.append(len(history))
        check_outcome(game, final)
        if seed % 10 == 1:  # one game in ten: rendering every line in every language is slow, and lines repeat
            check_log_words(game, final)
        check_roundtrip(game, final)
        check_views_plain(game, final)
        chosen = sampled if len(sampled) <= samples_per_game else [
            sampled[rng.below(holder, len(sampled))] for _ in range(samples_per_game)]
        for state in chosen:
            check_roundtrip(game, state)
            check_copy_shares_nothing(game, state)
            check_views_plain(game, state)
            if not game.finished(state):
                check_illegal_rejected(game, state, holder, seed=seed * 131 + len(history),
                                       codes=report.refusal_codes)
            report.resample_actions += check_resample_playable(game, state, seed=seed * 37 + len(history))
            checks, changed = check_resample_hides(game, state, seed=seed * 31 + len(history))
            report.resample_checks += checks
            report.resample_changed += changed
        if seed % 10 == 0:
            check_determinism(game, players, seed, options, history, final)
    return report


# ------------------------------------------------------------------------------------------------ undo


def check_undo_window(game: Game, before: State, seat: Seat, action: Action, after: State) -> bool:
    """Right after `seat` played `action` on `before`, undo is offered only if the step drew no random number
    (no roll, no shuffle), left `seat` alone to act before and after (nobody else was asked to answer, no
    sealed choice collected), and taught `seat` nothing (in any world `seat` could not tell from `before`, the
    same step shows it the same view), and then to `seat` only. Returns whether undo is offered."""
    offered = [s for s in sorted(game.to_act(after)) if game.can_undo(after, s)]
    if action == UNDO or not offered:
        return False
    assert offered == [seat], f"{game.slug}: undo offered to {offered} after a step of seat {seat}"
    assert after["rng"] == before["rng"], f"{game.slug}: undo offered after {action!r}, which drew at random"
    assert game.to_act(before) == {seat} == game.to_act(after), \
        f"{game.slug}: undo offered after {action!r}, though another seat was or is to act"
    return True


def check_undo_taught_nothing(game: Game, before: State, seat: Seat, action: Action, after: State,
                              seed: int) -> None:
    """Undo offered after `seat` played `action` on `before`: the step showed `seat` nothing it could not know
    (no card drawn, say): replayed in a world resampled for `seat`, it gives `seat` the same view."""
    twin = game.apply(game.resample(before, seat, seed), seat, action)
    assert game.view(twin, seat) == game.view(after, seat), \
        f"{game.slug}: undo offered after {action!r}, which showed seat {seat} something new"


def check_undo_restores(game: Game, before: State, seat: Seat, action: Action, after: State, seed: int) -> None:
    """Undo offered after `seat` played `action` on `before`: it gives `before` back exactly, but for one public
    log entry, and so every seat's and the spectator's view (legal actions and confirmations included); and
    for every other viewer, undo in a world resampled for it shows it what it saw before the step: taking a
    move back reveals nothing. (That the step taught `seat` nothing is check_undo_taught_nothing.)"""
    assert game.legal_actions(after, seat)[-1] == UNDO, f"{game.slug}: undo allowed but not listed last"
    undone = game.apply(after, seat, UNDO)
    check_roundtrip(game, undone)
    entry = log_entry("core.undo", seat=seat)
    assert undone.get("log") == [*before.get("log", ()), entry], f"{game.slug}: undo does not restore the log"
    rest = {k: v for k, v in undone.items() if k != "log"}
    assert rest == {k: v for k, v in before.items() if k != "log"}, \
        f"{game.slug}: undo of {action!r} does not restore the state"
    for viewer in [*range(before["players"]), None]:
        was, now = game.view(before, viewer), game.view(undone, viewer)
        assert now["log"][-1]["key"] == "core.undo" and now["log"][:-1] == was["log"], \
            f"{game.slug}: the log after an undo is not the log before the step and one public entry"
        assert {**now, "log": None} == {**was, "log": None}, \
            f"{game.slug}: the view of {viewer} after undoing {action!r} is not the view before it"
    for viewer in [*range(before["players"]), None]:
        if viewer != seat:
            world = game.resample(after, viewer, seed)
            assert game.view(game.apply(world, seat, UNDO), viewer) == game.view(undone, viewer), \
                f"{game.slug}: undoing {action!r} shows {viewer} something it had not seen"


@dataclass
class UndoReport:
    games: int = 0
    offered: int = 0  # steps after which undo was offered
    restored: int = 0  # of them, checked in full (check_undo_restores)
    taken: int = 0  # undos the random playouts took
    confirmations: set[str] = field(default_factory=set)  # the confirmation codes met in the actors' views


def run_undo_checks(game: Game, players: int, options: dict[str, Any], seeds: range,
                    full_checks_per_game: int = 3) -> UndoReport:
    """Random games (taking back a move now and then) over `seeds`: after every step, the undo window is
    checked (check_undo_window) and, when it is open, that the step taught its player nothing
    (check_undo_taught_nothing); after a few steps per game that left it open, undo is checked in full."""
    report = UndoReport()
    for seed in seeds:
        holder = {"rng": rng.seed_state(seed * 6151 + 3)}
        policy = {"rng": rng.seed_state(seed)}
        state = game.setup(players, seed, options)
        bound, steps = game.action_bound(players), 0
        full = 0
        while not game.finished(state):
            assert steps < bound, f"{game.slug}: no end after {bound} actions with undos (seed {seed})"
            seat, action = random_step(game, state, policy, UNDO_WEIGHT)
            legal = game.legal_actions(state, seat)
            report.confirmations |= check_confirm(game, legal, game.confirm(state, seat, legal), players)
            after = game.apply(state, seat, action)
            steps += 1
            report.taken += action == UNDO
            if check_undo_window(game, state, seat, action, after):
                report.offered += 1
                check_undo_taught_nothing(game, state, seat, action, after, seed=seed * 17 + steps)
                if full < full_checks_per_game and rng.below(holder, 4) == 0:
                    check_undo_restores(game, state, seat, action, after, seed=seed * 17 + steps)
                    full += 1
                    report.restored += 1
            state = after
        report.games += 1
    return report
