"""The site's words: every msgid the code and templates use is translated in every catalog (found by
extracting them with Babel, as `tabula i18n` does: nothing kept by hand), plurals are real plurals in every
language, and the reader's language is chosen from ?lang=, the cookie, then Accept-Language."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog

from app.catalogs import extract, load, missing
from app.i18n import DEFAULT_LANG, pick_lang, service_message, translations, words
from app.pages.render import ENV
from app.services.errors import BadRequest
from games.core import LANGS

CATALOGS = [lang for lang in LANGS if lang != DEFAULT_LANG]
PLACES = re.compile(r"\{\w*\}|%\(\w+\)[sd]")


@pytest.fixture(scope="module")
def used() -> Catalog:
    return extract()


def msgids(catalog: Catalog) -> list:
    return [m for m in catalog if m.id]


def test_the_code_and_templates_use_hundreds_of_msgids_and_no_inline_pairs_are_left(used):
    assert len(msgids(used)) > 500  # the extraction found the site's words (a broken mapping finds none)
    assert not any(isinstance(m.id, str) and re.search(r"\w\(s\)", m.id) for m in used), "a fake plural: ngettext"


@pytest.mark.parametrize("lang", CATALOGS)
def test_every_msgid_the_code_and_templates_use_is_translated_in_the_catalog(used, lang):
    lacking = missing(load(lang), used)
    assert not lacking, f"{lang} lacks (or has fuzzy or empty) {len(lacking)}: {lacking[:20]}"


@pytest.mark.parametrize("lang", CATALOGS)
def test_every_translation_keeps_the_places_of_its_msgid(used, lang):
    catalog = load(lang)
    wrong = []
    for message in msgids(used):
        found = catalog.get(message.id, context=message.context)
        singular = message.id[0] if isinstance(message.id, tuple) else message.id
        for text in (found.string if isinstance(found.string, tuple) else (found.string,)):
            # A plural form may leave the count out ("un patrizio"), never add or rename a place.
            if not set(PLACES.findall(text)) <= set(PLACES.findall(singular)) | {"%(num)d"}:
                wrong.append((singular, text))
            elif not isinstance(message.id, tuple) and set(PLACES.findall(text)) != set(PLACES.findall(singular)):
                wrong.append((singular, text))
    assert not wrong, wrong[:10]


PLURALS = {  # one plural msgid shown on the pages, in each language, for 1 and 2
    "en": ("1 patrician", "2 patricians"),
    "fr": ("1 patricien", "2 patriciens"),
    "it": ("1 patrizio", "2 patrizi"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_plurals_are_right_for_1_and_2_in_templates_and_python(lang):
    template = ENV.from_string('{{ ngettext("%(num)d patrician", "%(num)d patricians", n) }}')
    assert (template.render(lang=lang, n=1), template.render(lang=lang, n=2)) == PLURALS[lang]
    python = words(lang).ngettext("{n} patrician", "{n} patricians", 1).format(n=1), \
        words(lang).ngettext("{n} patrician", "{n} patricians", 2).format(n=2)
    assert python == PLURALS[lang]


@pytest.mark.parametrize("lang", CATALOGS)
def test_every_plural_has_a_singular_and_a_plural_form_in_the_catalog(used, lang):
    t = translations(lang)
    for message in msgids(used):
        if isinstance(message.id, tuple) and message.id[0] != message.id[1]:
            one, two = t.ngettext(*message.id, 1), t.ngettext(*message.id, 2)
            assert one != two, (lang, message.id, one, two)


def test_the_reader_gets_italian_from_the_query_the_cookie_or_the_browser():
    assert pick_lang({}, {}, "it") == "it"
    assert pick_lang({"tabula_lang": "it"}, {"accept-language": "fr"}) == "it"
    assert pick_lang({}, {"accept-language": "it-IT,it;q=0.9,en;q=0.5"}) == "it"
    assert pick_lang({}, {"accept-language": "de, it;q=0.4, fr;q=0.3"}) == "it"
    assert pick_lang({}, {"accept-language": "de"}) == DEFAULT_LANG


def test_a_service_error_is_translated_then_filled_with_its_values():
    error = BadRequest("{game} is played by {min} to {max} players.",
                       {"game": {"en": "Caesar & Cleopatra", "fr": "César & Cléopâtre", "it": "Cesare e Cleopatra"},
                        "min": 2, "max": 2})
    assert error.message == "Caesar & Cleopatra is played by 2 to 2 players."
    assert service_message(error, "fr") == "César & Cléopâtre se joue de 2 à 2 joueurs."
    assert service_message(error, "it") == "Cesare e Cleopatra si gioca da 2 a 2 giocatori."


def test_one_environment_renders_each_language_in_its_own_render():
    template = ENV.from_string("{{ _('Rules') }}|{{ pick({'en': 'a', 'fr': 'b', 'it': 'c'}) }}")
    assert [template.render(lang=lang) for lang in LANGS] == ["Rules|a", "Règles|b", "Regole|c"]


def test_the_templates_words_are_jinjas_own_gettext_looked_up_once():
    """`_()` (app/i18n.py `_quick_gettext`) gives what Jinja's newstyle `gettext` gives, with places and without,
    the values escaped and "%%" a percent sign, in every language."""
    calls = ["_('Rules')", "_('Select your card %(card)s', card=v)", "_('your face-down %(card)s', card=v)",
             "_('%(influence)s influence and %(action)s action cards in hand', influence=v, action=2)"]
    for call in calls:
        quick = ENV.from_string("{{ " + call + " }}")
        jinjas = ENV.from_string("{{ " + call.replace("_(", "gettext(", 1) + " }}")
        for lang in LANGS:
            for value in ("7", "<b>&'\"", 3):
                assert quick.render(lang=lang, v=value) == jinjas.render(lang=lang, v=value), (call, lang, value)


@pytest.mark.parametrize("lang", CATALOGS)
def test_no_translation_brings_markup_its_msgid_has_not(used, lang):
    """A template's translation is markup (Jinja's newstyle gettext escapes only the values put into it), so a
    translation may not bring a character that means something in HTML or in a quoted attribute."""
    catalog = load(lang)
    for message in msgids(used):
        found = catalog.get(message.id, context=message.context)
        singular = message.id[0] if isinstance(message.id, tuple) else message.id
        for text in (found.string if isinstance(found.string, tuple) else (found.string,)):
            assert all(ch in singular for ch in set(text) & set('<>&"')), (singular, text)
