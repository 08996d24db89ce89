"""Presenters: how a table page draws a game, for the templates of `templates/games/<slug>/`: each legal
action as a control (its words, where it goes on the board, what must be picked first) and the helpers
the templates call to draw cards, dice and boards. What only the rules know (the running score, what the
game waits for, the names of its cards and options) comes from the game itself (`games.core.Game`'s
presentation hooks and its `components`), reached through the registry.

A game's presenter is the module `app/pages/presenters/<slug>.py` (its `PRESENTER`), found by the game's
slug; a game without one is drawn by the generic presenter (every legal action a button in the prompt).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Callable

from games.core import UNDO

from ..controls import Control, Controls

# Seat colours of the generic shell (the games draw their own pieces in these colours).
SEAT_COLOURS = ("#b8442f", "#2f6f8f", "#c49a2c", "#4f7d3a", "#7b4d8f")


def seat_names(view: dict[str, Any], _: Callable[[str, str], str]) -> list[str]:
    return [s["name"] or _("Seat {number}").format(number=s["number"] + 1) for s in view["table"]["seats"]]


def join_names(names: list[str], _) -> str:
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + _(" and ") + names[-1]


class Presenter:
    """The generic presenter: every legal action is a button in the prompt (used by test-only games)."""

    slug = ""
    board_template = "games/generic/board.html"

    def colour(self, seat: int) -> str:
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def describe(self, action: dict[str, Any], view: dict[str, Any], _, names: list[str]) -> Control:
        if action == UNDO:  # offered by the core in every game (RULES 0.6)
            return Control(action, _("Take back your last move"),
                           _("Undo"), style="secondary")
        words = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
        text = action["type"].replace("_", " ") + (f" ({words})" if words else "")
        return Control(action, text, text)

    def seat_line(self, view: dict[str, Any], seat: int, _) -> str:
        return ""

    def controls(self, view: dict[str, Any], _, names: list[str]) -> Controls:
        game = view.get("game") or {}
        return Controls([self.describe(a, view, _, names) for a in game.get("legal_actions", [])])


GENERIC = Presenter()


@cache
def presenter_for(slug: str) -> Presenter:
    """The presenter of a game: its module under this package, else the generic one."""
    try:
        module = importlib.import_module(f"{__name__}.{slug}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{slug}":
            raise
        return GENERIC
    return module.PRESENTER
