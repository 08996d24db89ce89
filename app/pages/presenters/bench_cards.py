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
    def card(card: str, tr) -> str:
        return card[:-1] + SUITS[card[-1]]

    def seat_line(self, view: dict[str, Any], seat: int, tr) -> str:
        g = view["game"]
        return tr(f"{g['hand_sizes'][seat]} card(s) in hand", f"{g['hand_sizes'][seat]} carte(s) en main")

    def describe(self, action: dict[str, Any], view: dict[str, Any], tr, names: list[str]) -> Control:
        index = action["index"]
        card = self.card(view["game"]["hand"][index], tr)
        return Control(action, tr(f"Play the {card}", f"Jouer le {card}"), tr("Play", "Jouer"), zone=f"card:{index}")


PRESENTER = BenchCardsPresenter()
