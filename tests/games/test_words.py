"""The games' own words have real plural forms: no fake plural like "card(s)" or "carte(s)" anywhere in a game's
texts, and a number's words agree with it in each language's plural rule (games.core.format_text): English and
Italian "1 card", "0 cards"; French "0 carte", "1 carte", "2 cartes".

The texts are derived from the games themselves, never listed by hand: every text of `texts_of` (log messages,
refusals, confirmations, options...), every text table of the game's modules (waiting-for sentences, names...),
and the words of a played game (each log line, waiting-for sentence and score line, which scoring builds on the
fly) in every language."""

import importlib
import pkgutil
import re
from typing import Any, Iterator

import pytest

from games import ALL_GAMES
from games.core import LANGS, Game, format_text, log_entry
from games.core.conformance import check_words, random_game, texts_of

# A letter followed at once by one to three letters in brackets: "card(s)", "le(s)", "retourne(nt)".
FAKE_PLURAL = re.compile(r"[^\W\d_]\([^\W\d_]{1,3}\)")


def texts_in(value: Any, seen: set[int]) -> Iterator[str]:
    """Every text of every language inside `value`: a dict keyed by "en" is one text in every language; other
    dicts, lists, tuples and objects with attributes (an Option) are searched through."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        if isinstance(value.get("en"), str):
            yield from (text for lang, text in value.items() if lang in LANGS and isinstance(text, str))
        for item in value.values():
            yield from texts_in(item, seen)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from texts_in(item, seen)


def table_texts(game: Game) -> list[str]:
    """The game's fixed texts: those of `texts_of` and those of every table in the modules of its package."""
    found = [text for texts in texts_of(game).values() for text in texts.values()]
    package = importlib.import_module(type(game).__module__.rsplit(".", 1)[0])
    seen: set[int] = set()
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        for value in vars(importlib.import_module(module.name)).values():
            found.extend(texts_in(value, seen))
    return found


def played_texts(game: Game, players: int, seed: int) -> list[str]:
    """The words of one random game, in every language: its log, what it waits for at every step, its
    score lines and its tiebreak."""
    found: list[str] = []
    names = [f"P{s}" for s in range(players)]

    def visit(state: dict[str, Any], _: int) -> None:
        view = game.view(state, None)
        found.extend(game.waiting_for(view, lang) for lang in LANGS)

    state, _ = random_game(game, players, seed, {}, policy_seed=seed, visit=visit)
    found.extend(game.render_log(entry, lang, names) for entry in state.get("log", ()) for lang in LANGS)
    outcome = game.outcome(state)
    found.extend(line[lang] for lines in outcome["breakdown"] for line in lines for lang in LANGS)
    found.extend((outcome.get("tiebreak") or {}).get(lang, "") for lang in LANGS)
    return found


@pytest.mark.parametrize("slug", list(ALL_GAMES))
def test_no_game_text_writes_a_fake_plural(slug):
    game = ALL_GAMES[slug]
    texts = table_texts(game)
    for players in range(game.min_players, game.max_players + 1):
        texts += played_texts(game, players, seed=players)
    fake = sorted({text for text in texts if FAKE_PLURAL.search(text)})
    assert not fake, f"{slug}: fake plurals, give each count its forms ({{n:card|cards}}): {fake}"


def test_the_detector_sees_the_usual_fake_plurals():
    assert all(FAKE_PLURAL.search(t) for t in ("2 card(s)", "le(s) jeton(s)", "retourne(nt)", "carta(e)"))
    assert not any(FAKE_PLURAL.search(t) for t in ("Public Deficit (5)", "Castrum: Ann (3-3) takes", "(= 4)"))


@pytest.mark.parametrize("lang,expected", [
    ("en", ["0 cards", "1 card", "2 cards", "21 cards"]),
    ("fr", ["0 carte", "1 carte", "2 cartes", "21 cartes"]),
    ("it", ["0 carte", "1 carta", "2 carte", "21 carte"]),
])
def test_a_plural_field_takes_the_form_of_its_languages_rule(lang, expected):
    forms = {"en": "card|cards", "fr": "carte|cartes", "it": "carta|carte"}[lang]
    assert [format_text("{n} {n:" + forms + "}", lang, n=n) for n in (0, 1, 2, 21)] == expected


def test_a_text_without_plural_fields_formats_as_str_format():
    assert format_text("{a} | {b:>3}", "fr", a="x", b=7) == "x |   7"


NAMES = ["Ann", "Bob"]
# One plural sentence of each game, by language, for the counts 0, 1 and 2.
SENTENCES = {
    "alea_iacta_est": (lambda n: log_entry("senate_pass", seat=0, to_seat=1, count=n), {
        "en": {1: "Ann passes 1 Senate card to Bob.", 2: "Ann passes 2 Senate cards to Bob."},
        "fr": {0: "Ann passe 0 carte sénat à Bob.", 1: "Ann passe 1 carte sénat à Bob.",
               2: "Ann passe 2 cartes sénat à Bob."},
        "it": {1: "Ann passa 1 carta Senato a Bob.", 2: "Ann passa 2 carte Senato a Bob."},
    }),
    "ave_cesar": (lambda n: log_entry("civil_paid", seat=0, amount=n), {
        "en": {1: "Ann pays 1 coin to the bank.", 2: "Ann pays 2 coins to the bank."},
        "fr": {0: "Ann paie 0 pièce à la banque.", 1: "Ann paie 1 pièce à la banque.",
               2: "Ann paie 2 pièces à la banque."},
        "it": {1: "Ann paga 1 moneta alla banca.", 2: "Ann paga 2 monete alla banca."},
    }),
    "cesar_cleopatre": (lambda n: log_entry("castling_taken", seat=0, group="senators", group2="praetors", count=n), {
        "en": {1: "Ann takes back 1 card from the Senators and the Praetors.",
               2: "Ann takes back 2 cards from the Senators and the Praetors."},
        "fr": {0: "Ann reprend 0 carte devant les Sénateurs et les Préteurs.",
               1: "Ann reprend 1 carte devant les Sénateurs et les Préteurs.",
               2: "Ann reprend 2 cartes devant les Sénateurs et les Préteurs."},
        "it": {1: "Ann riprende 1 carta davanti ai Senatori e ai Pretori.",
               2: "Ann riprende 2 carte davanti ai Senatori e ai Pretori."},
    }),
}


@pytest.mark.parametrize("slug", list(SENTENCES))
@pytest.mark.parametrize("lang", LANGS)
def test_a_game_sentence_agrees_with_its_count(slug, lang):
    entry, expected = SENTENCES[slug]
    assert {n: ALL_GAMES[slug].render_log(entry(n), lang, NAMES) for n in expected[lang]} == expected[lang]


def test_every_plural_field_gives_its_languages_forms_and_a_missing_language_falls_back_to_english():
    game = ALL_GAMES["cesar_cleopatre"]
    texts = {"demo.cards": {"en": "{n} {n:card|cards}", "fr": "{n} {n:carte|cartes}", "it": "{n} {n:carta}"}}
    demo = type("Demo", (type(game),), {"messages": {**game.messages, **texts}})()
    with pytest.raises(AssertionError, match="plural fields"):
        check_words(demo)
    texts["demo.cards"]["it"] = "{n} {n:carta|carte|cartine}"
    with pytest.raises(AssertionError, match="plural fields"):
        check_words(demo)
    del texts["demo.cards"]["it"]
    assert demo.render_log(log_entry("demo.cards", n=0), "fr", NAMES) == "0 carte"
    assert demo.render_log(log_entry("demo.cards", n=0), "it", NAMES) == "0 cards"
