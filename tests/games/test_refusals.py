"""Refusals in every language: every code an engine can raise has an English and a French text with the same
placeholders, and the fuzzing of the conformance suite meets no code beyond those the source names.

The codes an engine can raise are derived twice, so that neither list is kept by hand: from the source
(every string literal of games/ shaped like a refusal code) and from the refusals the conformance suite's
fuzzing actually meets (it also checks that each refusal is the same in a world resampled for the actor)."""

import ast
import pathlib
import re
import string

import pytest

from games import ALL_GAMES
from games.core import CORE_REFUSALS, LANGS, Game, IllegalAction
from games.core.conformance import run_conformance

ROOT = pathlib.Path(__file__).resolve().parents[2]
CODE_SHAPE = re.compile(r"^[a-z]+\.[a-z_]+$")


def prefix(code: str) -> str:
    return code.split(".", 1)[0]


def game_prefix(game: Game) -> str | None:
    """The game's own code prefix (every code it adds to the core's shares one), None if it adds none."""
    prefixes = {prefix(c) for c in game.refusals} - {"core"}
    assert len(prefixes) <= 1, f"{game.slug}: refusal codes with several prefixes {prefixes}"
    return prefixes.pop() if prefixes else None


def codes_in_source(folder: pathlib.Path, prefixes: set[str]) -> set[str]:
    """Every string literal under `folder` shaped like a refusal code with one of `prefixes`, outside the
    tables of texts themselves (assignments to a name ending in REFUSALS, MESSAGES or CONFIRMATIONS). Log
    message keys and confirmation codes have the same shape: `refusal_codes_in_source` leaves them out."""
    found = set()
    for path in folder.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        tables = {id(n) for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))
                  and any(getattr(t, "id", "").endswith(("REFUSALS", "MESSAGES", "CONFIRMATIONS"))
                          for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
                  for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_SHAPE.match(node.value) \
                    and prefix(node.value) in prefixes and id(node) not in tables:
                found.add(node.value)
    return found


def refusal_codes_in_source(folder: pathlib.Path, prefixes: set[str], game: Game) -> set[str]:
    """The codes of `codes_in_source` that are neither a log message key nor a confirmation code of `game`."""
    return codes_in_source(folder, prefixes) - set(game.messages) - set(game.confirmations)


def package_of(game: Game) -> pathlib.Path:
    return ROOT / "games" / type(game).__module__.split(".")[1]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_core_raises_exactly_its_guard_codes():
    assert refusal_codes_in_source(ROOT / "games" / "core", {"core"}, Game()) == set(CORE_REFUSALS) == {
        "core.malformed", "core.game_over", "core.no_such_seat", "core.not_your_turn", "core.not_allowed",
        "core.no_undo"}


@pytest.mark.parametrize("slug", list(ALL_GAMES))
def test_every_code_in_the_source_has_a_text_in_every_language_with_the_same_placeholders(slug):
    game = ALL_GAMES[slug]
    own = game_prefix(game)
    assert set(CORE_REFUSALS) <= set(game.refusals)
    used = refusal_codes_in_source(package_of(game), {"core"} | ({own} if own else set()), game)
    missing = used - set(game.refusals)
    assert not missing, f"{slug}: codes used without a text: {sorted(missing)}"
    unused = set(game.refusals) - used - set(CORE_REFUSALS)
    assert not unused, f"{slug}: texts for codes nothing raises: {sorted(unused)}"
    for code, texts in game.refusals.items():
        assert set(texts) == set(LANGS) and all(texts[lang].strip() for lang in LANGS), code
        assert all(placeholders(texts["en"]) == placeholders(texts[lang]) for lang in LANGS), code


@pytest.mark.parametrize("slug", list(ALL_GAMES))
def test_the_codes_met_while_fuzzing_are_all_known_to_the_source(slug):
    """The conformance suite's fuzzing (illegal actions at random states of random games) meets only codes
    the source names: no code is built at run time, so the scan above sees them all."""
    game = ALL_GAMES[slug]
    own = game_prefix(game)
    met: set[str] = set()
    for players in range(game.min_players, game.max_players + 1):
        met |= run_conformance(game, players, {}, seeds=range(1, 9)).refusal_codes
    assert met <= refusal_codes_in_source(package_of(game), {"core"} | ({own} if own else set()), game) \
        | set(CORE_REFUSALS)
    assert {"core.malformed", "core.no_such_seat", "core.not_your_turn"} <= met


def test_refusal_text_names_seats_and_falls_back_to_english():
    game = next(iter(ALL_GAMES.values()))
    texts = {"demo.seat": {"en": "{other_seat} holds it.", "fr": "{other_seat} l'a."}}
    demo = type("Demo", (type(game),), {"refusals": {**game.refusals, **texts}})()
    assert demo.refusal_text("demo.seat", {"other_seat": 1}, "fr", ["Ann", "Bob"]) == "Bob l'a."
    assert demo.refusal_text("demo.seat", {"other_seat": 1}, "de", ["Ann", "Bob"]) == "Bob holds it."
    assert demo.refusal_text("demo.seat", {"other_seat": 0}, "en") == "player 1 holds it."
    e = demo.illegal("demo.seat", {"other_seat": 0})
    assert isinstance(e, IllegalAction) and str(e) == "player 1 holds it."
    assert e.code == "demo.seat" and e.args == {"other_seat": 0}
