"""The benchmark card game: the exact workload of ../shared/bench/peer-boardgameio (game.js).

Two seats; a 104-card deck (two 52-card decks) shuffled at setup and kept hidden; hidden hands of 5.
One action, play(index): the card goes to the public pile, its rank (A=1 ... K=13) is added to the
player's public score and the player draws the top card of the deck. Turns alternate 0, 1, 0, 1 ...
and the game ends after 60 moves. It is never offered in the lobby: the server serves it only when
benchmarking, and the conformance suite uses it as the smallest game with hidden information.
"""

from __future__ import annotations

from typing import Any

from games.core import Game, Seat, State, rng, score_line

HAND_SIZE = 5
MAX_MOVES = 60
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")


def fresh_deck() -> list[str]:
    return [rank + suit for _copy in range(2) for suit in SUITS for rank in RANKS]


def rank_value(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


class BenchCards(Game):
    slug = "bench_cards"
    title = {"en": "Benchmark cards", "fr": "Cartes de banc d'essai", "it": "Carte di prova"}
    min_players = 2
    max_players = 2

    def start(self, players: int, rng_state: int, options: dict[str, Any]) -> State:
        state: State = {"players": players, "rng": rng_state, "log": []}
        deck = fresh_deck()
        rng.shuffle(state, deck)
        state["hands"] = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(players)]
        state["deck"] = deck[players * HAND_SIZE:]
        state["pile"] = []
        state["scores"] = [0] * players
        state["move_count"] = 0
        return state

    def finished(self, state: State) -> bool:
        return state["move_count"] >= MAX_MOVES

    def actors(self, state: State) -> list[Seat]:
        return [state["move_count"] % 2]

    def moves(self, state: State, seat: Seat) -> list[dict[str, Any]]:
        return [{"type": "play", "index": i} for i in range(len(state["hands"][seat]))]

    def copy(self, state: State) -> State:
        # The state's shape is fixed and shallow (the server copies it at every move of the benchmark).
        return {**state, "log": list(state["log"]), "hands": [list(h) for h in state["hands"]],
                "deck": list(state["deck"]), "pile": list(state["pile"]), "scores": list(state["scores"])}

    def play(self, state: State, seat: Seat, action: dict[str, Any]) -> None:
        card = state["hands"][seat].pop(action["index"])
        state["pile"].append(card)
        state["scores"][seat] += rank_value(card)
        if state["deck"]:
            state["hands"][seat].append(state["deck"].pop(0))
        state["move_count"] += 1

    def observe(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return {
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state["hands"]],
            "deck_size": len(state["deck"]),
            "pile": list(state["pile"]),
            "scores": list(state["scores"]),
            "move_count": state["move_count"],
        }

    def points(self, view: dict[str, Any]) -> list[int]:
        return list(view["scores"])

    def score(self, state: State) -> dict[str, Any]:
        scores = list(state["scores"])
        best = max(scores)
        return {
            "scores": scores,
            "winners": [s for s, v in enumerate(scores) if v == best],
            "breakdown": [[score_line({"en": "Ranks of the cards played", "fr": "Valeurs des cartes jouées",
                                       "it": "Valori delle carte giocate"}, v)] for v in scores],
            "tiebreak": None,
        }

    def redraw(self, state: State, seat: Seat | None, seed: int) -> State:
        new = dict(state)
        hidden_hands = [s for s in range(state["players"]) if s != seat]
        unknown = sorted(state["deck"] + [c for s in hidden_hands for c in state["hands"][s]])
        new["rng"] = rng.seed_state(seed)
        rng.shuffle(new, unknown)
        hands = [list(h) for h in state["hands"]]
        for s in hidden_hands:
            hands[s] = [unknown.pop() for _ in state["hands"][s]]
        new["hands"] = hands
        new["deck"] = unknown
        new["rng"] = rng.seed_state(seed ^ 0x5EED)
        return new

    def action_bound(self, players: int) -> int:
        return MAX_MOVES
