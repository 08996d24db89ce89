"""How the benchmark card game is drawn: a hand of cards, each with its own "play" button, and the pile."""

from __future__ import annotations

from typing import Any

from ..controls import Control
from . import Presenter

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class BenchCardsPresenter(Presenter):
    slug = "bench_cards"
    board_template = "games/bench_cards/board.html"
    MAX_MOVES = 60

    @staticmethod
    def card(card: str, _) -> str:
        return card[:-1] + SUITS[card[-1]]

    def seat_line(self, view: dict[str, Any], seat: int, _) -> str:
        g = view["game"]
        return _.ngettext("{n} card in hand", "{n} cards in hand", g["hand_sizes"][seat]).format(n=g["hand_sizes"][seat])

    def describe(self, action: dict[str, Any], view: dict[str, Any], _, names: list[str]) -> Control:
        index = action["index"]
        card = self.card(view["game"]["hand"][index], _)
        return Control(action, _("Play the {card}").format(card=card), _("Play"), zone=f"card:{index}")


PRESENTER = BenchCardsPresenter()
