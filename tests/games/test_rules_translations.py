"""Every translation of a game's rules (`RULES.<lang>.md`) mirrors its `RULES.md`, so none can drop or invent a rule.

A translation keeps the numbered rules (`- **3.3.1** ...`, `- **D4** ...`) of RULES.md, no more and no fewer, its
headings (the same levels, in the same order, with the same section numbers: `## 3.1 ...`, `## D. ...`), its
tables (as many, each with as many rows and columns) and, under each rule, the tests it cites. Only the words change. The games and the translations are
found, not listed: every game of `games.ALL_GAMES` that has a RULES.md, and every `RULES.*.md` beside it.
"""

import pathlib
import re

import pytest

from games import ALL_GAMES, REGISTRY

from .test_rules_text import TEST_NAME

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADING = re.compile(r"^(#+) +(?:((?:\d+|[A-Z])(?:\.\d+)*)\.?(?= ))?")
ITEM = re.compile(r"^\s*- \*\*((?:\d+|[A-Z]\d+)(?:\.[0-9A-Za-z]+)*)\b")


def outline(path: pathlib.Path) -> tuple[list[str], list[str], list[tuple[int, int]], dict[str, set[str]]]:
    """The headings (level and section number, "" when unnumbered), the numbered rules and the tables (rows,
    columns of the header) of a rules file, in order; and the tests cited under each heading or rule."""
    headings, items, tables, in_code, in_table = [], [], [], False, False
    cited: dict[str, set[str]] = {"": set()}
    where = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        row = line.startswith("|")
        if row and not in_table:
            tables.append((0, len(re.split(r"(?<!\\)\|", line.strip())) - 2))
        if row:
            tables[-1] = (tables[-1][0] + 1, tables[-1][1])
        in_table = row
        heading = HEADING.match(line)
        if heading:
            headings.append(f"{heading.group(1)} {heading.group(2) or ''}".rstrip())
            where = f"{headings[-1]} (heading {len(headings)})"
        elif item := ITEM.match(line):
            items.append(item.group(1))
            where = item.group(1)
        cited.setdefault(where, set()).update(TEST_NAME.findall(line))
    return headings, items, tables, cited


def translations() -> list[pathlib.Path]:
    return sorted(p for slug in ALL_GAMES for p in (ROOT / "games" / slug).glob("RULES.*.md"))


@pytest.mark.parametrize("path", translations(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_translation_keeps_the_rules_headings_tables_and_cited_tests_of_rules_md(path):
    source_headings, source_items, source_tables, source_cited = outline(path.with_name("RULES.md"))
    headings, items, tables, cited = outline(path)
    assert sorted(set(source_items) - set(items)) == [], f"{path.name} misses rules of RULES.md"
    assert sorted(set(items) - set(source_items)) == [], f"{path.name} has rules RULES.md does not have"
    assert items == source_items, f"{path.name} numbers its rules in another order (or twice)"
    assert headings == source_headings, f"{path.name} has other headings than RULES.md (level, number, order)"
    assert tables == source_tables, f"{path.name} has other tables than RULES.md (rows, columns)"
    differ = {where: (sorted(tests - cited.get(where, set())), sorted(cited.get(where, set()) - tests))
              for where, tests in source_cited.items() if tests != cited.get(where, set())}
    assert differ == {}, f"{path.name} cites other tests than RULES.md (where: (missing, extra))"


def test_every_game_has_its_rules_in_the_same_languages():
    languages = {slug: sorted(p.name for p in (ROOT / "games" / slug).glob("RULES*.md")) for slug in REGISTRY}
    assert len(set(map(tuple, languages.values()))) == 1, languages


def test_outline_sees_a_removed_rule_a_changed_heading_and_a_shorter_table(tmp_path):
    """The comparison above can fail: a copy of RULES.md with one rule dropped, one heading demoted and one table row
    removed differs."""
    source = ROOT / "games" / "alea_iacta_est" / "RULES.md"
    text = source.read_text(encoding="utf-8")
    broken = tmp_path / "RULES.xx.md"
    broken.write_text(text.replace("- **3.4.3**", "- 3.4.3").replace("## 3.5 Senatus", "### 3.5 Senatus")
                      .replace("| XIII | 3 | +3. |\n", ""))
    (headings, items, tables, _), (_, _, source_tables, _) = outline(broken), outline(source)
    assert "3.4.3" not in items and "### 3.5" in headings
    assert len(tables) == len(source_tables) and tables != source_tables
