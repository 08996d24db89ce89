"""The site's languages: which one a reader gets, and the words in it.

The site's own words are gettext messages: `_("English")` in Python and templates, `ngettext` where a count
is involved, their translations in the catalogs app/locale/<lang>/LC_MESSAGES/messages.po (extracted, updated
and compiled by `tabula i18n`, see README). The catalogs are compiled in memory when first needed, from the
.po files themselves: a fresh checkout needs no build step and can never serve a stale .mo.

The games' words (log lines, refusals, card names...) are data in games/, one text per language code
(`games.core.LANGS`); `Words.pick` reads them.

The language: an explicit ?lang=, the `tabula_lang` cookie (set by the switch in the header), else the
browser's Accept-Language, else English.
"""

from __future__ import annotations

import gettext
import re
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any, Mapping

from jinja2 import Environment, pass_context
from markupsafe import Markup

from games.core import LANGS

DEFAULT_LANG = "en"  # the language the code is written in (msgids)
LANG_COOKIE = "tabula_lang"
LANG_NAMES = {"en": "English", "fr": "Français", "it": "Italiano"}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"


def normalise(lang: str | None) -> str | None:
    if not lang:
        return None
    lang = lang.strip().lower()[:2]
    return lang if lang in LANGS else None


def from_accept_language(header: str | None) -> str | None:
    """The first of our languages in an Accept-Language header, by preference (q) then order."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        piece = part.strip()
        if not piece:
            continue
        tag, _, params = piece.partition(";")
        q = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                q = float(match.group(1))
            except ValueError:
                q = 0.0
        lang = normalise(tag)
        if lang and q > 0:
            ranked.append((-q, index, lang))
    return min(ranked)[2] if ranked else None


def pick_lang(cookies: Mapping[str, str], headers: Mapping[str, str], query: str | None = None) -> str:
    """The reader's language: an explicit ?lang=, the cookie, Accept-Language, else English."""
    return (normalise(query) or normalise(cookies.get(LANG_COOKIE))
            or from_accept_language(headers.get("accept-language")) or DEFAULT_LANG)


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (English: the msgids themselves, with English plural rules). Fuzzy
    entries are left out, as msgfmt does."""
    if lang == DEFAULT_LANG or not catalog_path(lang).is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


class Words:
    """The words of one language for the app's Python code: `_("...")` is gettext, `_.ngettext(singular,
    plural, n)` and `_.pgettext(context, message)` the same as gettext's, `_.pick(text)` a game's text (a
    dict keyed by language code, or an object with `name_<lang>` attributes)."""

    def __init__(self, lang: str):
        self.lang = lang
        self._t = translations(lang)

    def __call__(self, message: str) -> str:
        return self._t.gettext(message)

    gettext = __call__

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._t.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._t.pgettext(context, message)

    def pick(self, text: Any, name: str = "") -> str:
        return pick_text(text, self.lang, name)


@lru_cache(maxsize=None)
def words(lang: str) -> Words:
    return Words(lang)


def translator(lang: str) -> Words:
    return words(lang)


def pick_text(text: Any, lang: str, name: str = "") -> str:
    """A game's text in `lang` (else English): `text[lang]`, or `text[name_lang]` / `text.name_lang`."""
    keys = (f"{name}_{lang}", f"{name}_{DEFAULT_LANG}") if name else (lang, DEFAULT_LANG)
    for key in keys:
        value = text.get(key) if isinstance(text, Mapping) else getattr(text, key, None)
        if value:
            return value
    return ""


def N_(message: str) -> str:
    """Marks an English sentence for the catalogs where it is written; it is translated where it is shown."""
    return message


def page_words(lang: str) -> dict[str, Any]:
    """What a template needs to speak `lang`: its name and the Python-side words (handed to presenters)."""
    return {"lang": lang, "words": words(lang)}


# ---------------------------------------------------------------------------------------- templates
# Jinja's i18n extension with newstyle gettext: `_("Hello %(name)s", name=x)` escapes and formats. The
# callables are installed once and read the language of the render they are called in (the context's
# `lang`), so one environment serves every language and a page rendered in one never borrows another's words.

def _lang(ctx: Any) -> str:
    return normalise(ctx.get("lang")) or DEFAULT_LANG


@pass_context
def _gettext(ctx: Any, message: str) -> str:
    return words(_lang(ctx))(message)


@pass_context
def _ngettext(ctx: Any, singular: str, plural: str, n: int) -> str:
    return words(_lang(ctx)).ngettext(singular, plural, n)


@pass_context
def _pgettext(ctx: Any, context: str, message: str) -> str:
    return words(_lang(ctx)).pgettext(context, message)


@pass_context
def _npgettext(ctx: Any, context: str, singular: str, plural: str, n: int) -> str:
    return translations(_lang(ctx)).npgettext(context, singular, plural, n)


@pass_context
def _pick(ctx: Any, text: Any, name: str = "") -> str:
    return pick_text(text, _lang(ctx), name)


@pass_context
def _quick_gettext(ctx: Any, message: str, **variables: Any) -> str:
    """The templates' `_()`: what Jinja's newstyle `gettext` gives, with a sentence without places looked up once
    per language (a page says a hundred of them, and each took a tenth of a millisecond's worth of calls)."""
    if variables:  # (the translation looked up once too: Jinja's own path was a twentieth of a soak's CPU)
        return _translated(_lang(ctx), ctx.eval_ctx.autoescape, message) % variables
    return _sentence(_lang(ctx), ctx.eval_ctx.autoescape, message)


@lru_cache(maxsize=4096)
def _translated(lang: str, autoescape: bool, message: str) -> str:
    text = words(lang)(message)
    return Markup(text) if autoescape else text  # as Jinja's gettext: markup, whose `%` escapes the values


@lru_cache(maxsize=4096)
def _sentence(lang: str, autoescape: bool, message: str) -> str:
    return _translated(lang, autoescape, message) % {}  # as Jinja's gettext: always a format ("%%" is "%")


def install(env: Environment) -> None:
    """Teach a Jinja environment the site's languages (it must load `jinja2.ext.i18n`)."""
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True, pgettext=_pgettext,  # type: ignore[attr-defined]
                                  npgettext=_npgettext)
    env.globals["_"] = _quick_gettext
    env.globals["pick"] = _pick
    env.globals["LANG_NAMES"] = LANG_NAMES
    env.globals["LANGS"] = LANGS


# ------------------------------------------------------------------------------------ service sentences

def service_message(error: Any, lang: str) -> str:
    """A service error (app.services.errors.ServiceError) in `lang`: its English msgid translated, then its
    `{name}` places filled with its values (a value that is a text by language code in that language)."""
    template = getattr(error, "template", None) or getattr(error, "message", str(error))
    values = {k: pick_text(v, lang) if isinstance(v, Mapping) else v
              for k, v in (getattr(error, "values", None) or {}).items()}
    text = words(lang)(template)
    try:
        return text.format(**values) if values else text
    except (KeyError, IndexError, ValueError):  # a translation that lost a place: the English is still right
        return getattr(error, "message", template)
