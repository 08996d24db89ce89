"""RULES.md (English) and RULES.fr.md (French) describe the rules as implemented: every rule test is cited,
every cited test exists, and both languages number the same rules and cite the same tests."""

import pathlib
import re

from . import test_rules

PACKAGE = pathlib.Path(__file__).resolve().parents[3] / "games" / "ave_cesar"
TEST_NAME = re.compile(r"`(test_[a-z0-9_]+)`")
RULE_NUMBER = re.compile(r"^- \*\*(\d\.[0-9A-Za-z.]+)", re.MULTILINE)


def _cited(path):
    return set(TEST_NAME.findall(path.read_text(encoding="utf-8")))


def test_rules_md_cites_every_rule_test_and_only_existing_ones():
    tests = {name for name in dir(test_rules) if name.startswith("test_")}
    cited = _cited(PACKAGE / "RULES.md")
    assert cited - tests == set(), "RULES.md cites tests that do not exist"
    assert tests - cited == set(), "rule tests missing from RULES.md"


def test_rules_fr_md_numbers_the_same_rules_and_cites_the_same_tests():
    english = (PACKAGE / "RULES.md").read_text(encoding="utf-8")
    french = (PACKAGE / "RULES.fr.md").read_text(encoding="utf-8")
    assert RULE_NUMBER.findall(english) == RULE_NUMBER.findall(french)
    assert len(RULE_NUMBER.findall(english)) > 60
    assert _cited(PACKAGE / "RULES.md") == _cited(PACKAGE / "RULES.fr.md")
