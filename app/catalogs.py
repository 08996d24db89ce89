"""The catalogs of the site's words: extract the msgids from the code and templates, update each language's
.po with them, compile each to .mo. One command does all three (README, "Translations"):

    tabula i18n            # extract + update + compile; prints what each catalog still lacks
    tabula i18n --check    # the same without writing: exit 1 when a catalog lacks or fuzzes a msgid

The .po files are the source of truth and are committed (their comments name the files that use each msgid,
without line numbers, so that moving code does not touch them); the app compiles them in memory when it
starts (app/i18n.py), so the .pot and .mo files this writes (not committed) are for other gettext tools.
"""

from __future__ import annotations

from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from games.core import LANGS

from .config import project_root
from .i18n import DEFAULT_LANG, DOMAIN, LOCALE_DIR, catalog_path

# The calls whose string arguments are msgids: gettext's, and the app's helpers that take an English sentence
# and translate it where it is shown (service errors, message pages, rate limits, socket refusals).
KEYWORDS: dict[str, tuple | None] = {
    "_": None, "gettext": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "_message": (3,), "error_response": (3,), "refuse": (2,),
    **{error: None for error in ("ServiceError", "BadRequest", "Forbidden", "NotFound", "Conflict", "Illegal",
                                 "EngineFailure")},
}
WIDTH = 120


def extract(root: Path | None = None) -> Catalog:
    """Every msgid the code and templates use (babel.cfg says where to look)."""
    root = root or project_root()
    with (root / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    template = Catalog(project="Tabula", charset="utf-8", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True):
        if not (message[0] if isinstance(message, tuple) else message):
            continue
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def load(lang: str) -> Catalog:
    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def missing(catalog: Catalog, template: Catalog) -> list[str]:
    """The msgids of `template` that `catalog` has no usable translation for (absent, empty or fuzzy)."""
    out = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        strings = found.string if found is not None else None
        if isinstance(strings, tuple):
            empty = not all(strings)
        else:
            empty = not strings
        if found is None or empty or found.fuzzy:
            out.append(message.id if isinstance(message.id, str) else message.id[0])
    return out


def run(check: bool = False) -> int:
    template = extract()
    langs = [lang for lang in LANGS if lang != DEFAULT_LANG]
    problems = 0
    if not check:
        pot = LOCALE_DIR / f"{DOMAIN}.pot"
        template.creation_date = datetime(2026, 1, 1, tzinfo=timezone.utc)  # a stable file: no noise in diffs
        with pot.open("wb") as f:
            write_po(f, template, width=WIDTH, sort_output=True, include_lineno=False)
    print(f"{len([m for m in template if m.id])} msgids in the code and templates")
    for lang in langs:
        path = catalog_path(lang)
        if path.exists():
            catalog = load(lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Tabula", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.fuzzy = False  # the header is complete (plural forms from the locale): msgfmt must not skip it
        lacking = missing(catalog, template)
        obsolete = len(catalog.obsolete)
        if not check:
            catalog.obsolete.clear()  # removed msgids go: git keeps their history
            with path.open("wb") as f:
                write_po(f, catalog, width=WIDTH, sort_output=True, ignore_obsolete=True, include_lineno=False)
            with path.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog)
        print(f"{lang}: {len([m for m in catalog if m.id])} msgids, {len(lacking)} untranslated or fuzzy"
              + (f", {obsolete} no longer used" if obsolete else ""))
        for msgid in lacking[:50]:
            print(f"  {lang} lacks: {msgid!r}")
        problems += len(lacking)
    return 1 if check and problems else 0


def compiled(lang: str) -> bytes:
    """The .mo of `lang` as `tabula i18n` writes it (for tests)."""
    out = BytesIO()
    write_mo(out, load(lang))
    return out.getvalue()
