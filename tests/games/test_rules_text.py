"""Each game's RULES.md and the code cite each other, so neither can drift from the other.

- Every `RULES x.y` cited in the code or the tests names a rule (or a section) of that game's RULES.md; the
  chapter says which game (1 César & Cléopâtre, 2 Ave César, 3 Alea Iacta Est; 0, what applies to all three).
- Every rule of a RULES.md is cited by at least one test: a test named after it (`test_1_4_7_...`), a test
  whose code cites it (`RULES 1.4.7`), or a test the rule's own text names.
- Every test a RULES.md names exists.
- Every rule says where it comes from: the rulebook, a published variant, or reconstructed, with the reason.

A rule is a numbered item (`- **1.4.7** ...`), or a numbered section without numbered items (`## 1.7 ...`)."""

import ast
import pathlib
import re

import pytest

from games import REGISTRY

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADING = re.compile(r"^## (\d+(?:\.\d+)*)\.? ")
ITEM = re.compile(r"^\s*- \*\*(\d+(?:\.[0-9A-Za-z]+)+)\b")
CITATION = re.compile(r"\bRULES (\d+(?:\.[0-9A-Za-z]*[0-9])*)")
SOURCE = re.compile(r"\*Source: (rulebook|published variant|reconstructed)\b([^*]*)\*")
TEST_NAME = re.compile(r"`(?:[\w./]+::)?(test_\w+)`")


def rules_of(slug: str) -> dict[str, str]:
    """The rules of a game's RULES.md: number -> its text (a numbered item, or a section without items)."""
    rules: dict[str, list[str]] = {}
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    in_code = False
    for line in (ROOT / "games" / slug / "RULES.md").read_text().splitlines():
        in_code = in_code != line.startswith("```")
        if line.startswith("#"):
            heading = HEADING.match(line)
            current = sections.setdefault(heading.group(1), []) if heading else None
            continue
        item = ITEM.match(line)
        if item and not in_code:
            current = rules.setdefault(item.group(1), [])
        if current is not None:
            current.append(line)
    for number, lines in sections.items():
        if not any(rule.startswith(number + ".") for rule in rules):
            rules[number] = lines
    return {number: "\n".join(lines) for number, lines in rules.items()}


RULES = {slug: rules_of(slug) for slug in REGISTRY}
CHAPTERS = {slug: {number.split(".")[0] for number in rules} - {"0"} for slug, rules in RULES.items()}


def targets(slug: str) -> set[str]:
    """What a citation may name: a rule, one of its ancestors (a section, a chapter)."""
    out = set()
    for number in RULES[slug]:
        parts = number.split(".")
        out |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return out


def games_of_chapter(chapter: str) -> list[str]:
    return [slug for slug in RULES if chapter == "0" or chapter in CHAPTERS[slug]]


def python_files() -> list[pathlib.Path]:
    return [p for folder in ("games", "app", "tests") for p in (ROOT / folder).rglob("*.py")]


def test_every_game_has_its_own_chapter():
    chapters = [CHAPTERS[slug] for slug in RULES]
    assert all(len(c) == 1 for c in chapters) and len(set.union(*chapters)) == len(RULES), chapters


def test_every_citation_in_code_and_tests_names_a_rule_of_that_game():
    wrong = []
    for path in python_files():
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for number in CITATION.findall(line):
                games = games_of_chapter(number.split(".")[0])
                if not games or any(number not in targets(slug) for slug in games):
                    wrong.append(f"{path.relative_to(ROOT)}:{n}: RULES {number}")
    assert not wrong, "citations of rules that do not exist:\n" + "\n".join(wrong)


def citations_by_test() -> dict[str, set[str]]:
    """Every test function: its name -> the rule numbers it cites (by its name or by `RULES x.y` in its code)."""
    out: dict[str, set[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        source = path.read_text()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                cited = set(CITATION.findall(ast.get_source_segment(source, node) or ""))
                parts = []
                for token in node.name.split("_")[1:]:
                    if not re.fullmatch(r"\d+|[a-z]\d+", token):
                        break
                    parts.append(token)
                for i in range(1, len(parts) + 1):
                    cited.add(".".join(parts[:i]))
                out.setdefault(node.name, set()).update(cited)
    return out


TESTS = citations_by_test()


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_every_test_a_rules_text_names_exists(slug):
    missing = {name for text in RULES[slug].values() for name in TEST_NAME.findall(text)} - set(TESTS)
    assert not missing, f"{slug}/RULES.md names tests that do not exist: {sorted(missing)}"


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_every_rule_is_cited_by_at_least_one_test(slug):
    cited = {number.lower() for numbers in TESTS.values() for number in numbers}
    uncited = [number for number, text in RULES[slug].items()
               if not any(c == number.lower() or c.startswith(number.lower() + ".") for c in cited)
               and not set(TEST_NAME.findall(text)) & set(TESTS)]
    assert not uncited, f"{slug}: rules no test cites: {uncited}"


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_every_rule_says_where_it_comes_from(slug):
    wrong = []
    for number, text in RULES[slug].items():
        sources = SOURCE.findall(text)
        if len(sources) != 1 or (sources[0][0] == "reconstructed" and len(sources[0][1].strip(" ,:;.")) < 10):
            wrong.append(number)
    assert not wrong, f"{slug}: rules without exactly one source (a reconstructed one with its reason): {wrong}"
