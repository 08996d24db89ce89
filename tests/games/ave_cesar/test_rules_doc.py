"""RULES.md describes the rules as implemented: every rule test is cited and every cited test exists. That every
translation (RULES.fr.md, RULES.it.md) numbers the same rules and cites the same tests is checked for every game by
tests/games/test_rules_translations.py."""

import pathlib
import re

from . import test_rules

PACKAGE = pathlib.Path(__file__).resolve().parents[3] / "games" / "ave_cesar"
TEST_NAME = re.compile(r"`(test_[a-z0-9_]+)`")


def _cited(path):
    return set(TEST_NAME.findall(path.read_text(encoding="utf-8")))


def test_rules_md_cites_every_rule_test_and_only_existing_ones():
    tests = {name for name in dir(test_rules) if name.startswith("test_")}
    cited = _cited(PACKAGE / "RULES.md")
    assert cited - tests == set(), "RULES.md cites tests that do not exist"
    assert tests - cited == set(), "rule tests missing from RULES.md"

