"""Bot knowledge for Alea Iacta Est (used by games/core/bots.py, whose docstring describes the levels).

The Strong bot searches its own decisions of the turn (which dice to re-roll, where to place), plays the
round out with a placement policy that knows what wins each building, lets the round be scored, and then
judges the position by the end-of-game score of what everyone holds (RULES 3.9, with the reconstructed
Senate cards of 3.10, as the engine scores it), turned into winning chances that sharpen as the rounds
run out. Every state these hooks see is a determinisation, never the true state of a table.
"""

from __future__ import annotations

import math
from typing import Any

from games.core import Action, Game, Seat, State
from games.core.bots import BotHooks

from .components import (
    CASTRUM, FORUM, PATRICIAN_INFO, PROVINCE_INFO, SENATE_CARD, SENATUS, SETUP, TEMPLUM,
)
from .scoring import score

# Winning chances: a softmax of the current scores, softer while many rounds remain.
TEMPERATURE_BASE = 2.0
TEMPERATURE_PER_ROUND_LEFT = 2.5
# What a Senate card is usually worth (points) to a player, for the playout policy's choice.
SENATE_GUESS = {"flat": 3.0, "most_provinces": 2.5, "most_patricians": 2.5, "full_province": 2.0,
                "province_colours": 2.5, "placed_women": 2.0, "placed_men": 2.0, "province_value": 1.5,
                "low_province_peopled": 2.0, "empty_face_value": 1.0, "unplaced_patrician": 1.0,
                "fortuna_tile": 2.0, "chips_full": 1.5}


def castrum_strength(count: int, value: int) -> float:
    return count + value / 7.0


class AleaHooks(BotHooks):
    iterations = 80
    horizon = 200  # a safety net: `stop` ends a playout when the round under way has been scored
    exploration = 0.5
    fresh_resample = True

    # ------------------------------------------------------------------------------- search

    def mark(self, game: Game, state: State) -> Any:
        return state["round"]

    def stop(self, game: Game, state: State, mark: Any) -> bool:
        return state["round"] != mark

    def candidates(self, game: Game, state: State, seat: Seat, actions: list[Action]) -> list[Action]:
        """Re-rolls worth comparing: all the dice, or all but the dice of one value (kept for a
        combination); placements are all kept."""
        rolled = state["rolled"]
        worth = []
        for a in actions:
            if a["type"] != "reroll":
                worth.append(a)
                continue
            dice = a["dice"]
            if len(dice) == len(rolled):
                worth.append(a)
                continue
            kept = list(rolled)
            for v in dice:
                kept.remove(v)
            if len(set(kept)) == 1 and kept[0] not in dice:
                worth.append(a)
        return worth or actions

    def policy(self, game: Game, state: State, seat: Seat, actions: list[Action]) -> list[float]:
        phase = state["phase"]
        if phase == "turn":
            return [self._placement_weight(game, state, seat, a) for a in actions]
        if phase == "castrum":
            return [self._province_worth(state, seat, a["province"]) ** 2 for a in actions]
        if phase == "forum":
            return [self._patrician_worth(state, seat, a["patrician"]) ** 2 for a in actions]
        if phase == "fortuna":
            return [float(sum(a["tiles"])) ** 2 for a in actions]
        if phase == "senate":
            return [SENATE_GUESS.get(SENATE_CARD[a["card"]]["effect"], 1.0) ** 2 for a in actions]
        return [1.0] * len(actions)

    def _placement_weight(self, game: Game, state: State, seat: Seat, a: Action) -> float:
        kind = a["type"]
        if kind == "reroll":
            return game.move_weights.get(kind, 1.0)
        if kind in ("latrina", "end_turn"):
            return 1.0
        building, dice = a["building"], a["dice"]
        k = len(dice)
        left = state["unplaced"][seat] - k
        if building == CASTRUM:
            value = dice[0]
            total = state["castrum"][seat][value - 1] + k
            # A combination wins a province if it ranks among the provinces on offer.
            beaten = sum(1 for s in range(state["players"]) for v in range(1, 7)
                         if state["castrum"][s][v - 1] and s != seat
                         and castrum_strength(state["castrum"][s][v - 1], v) > castrum_strength(total, value))
            chance = 1.0 if beaten < len(state["province_offer"]) else 0.15
            return chance * (0.5 + total) / (0.6 + 0.4 * k)
        if building == SENATUS:
            length = len(state["senatus"][seat]) + k
            return 0.4 * length / (0.5 + 0.5 * k) + (0.5 if left == 0 else 0.0)
        if building == FORUM:
            if k == 1:
                return 0.3 + (7 - dice[0]) / 3.0
            return 0.8
        if building == TEMPLUM:
            return 0.6 + sum(dice) / (6.0 * k)
        return 1.0

    def _province_worth(self, state: State, seat: Seat, province: str) -> float:
        colour, value = PROVINCE_INFO[province]
        mine = state["patricians"][seat]
        match = sum(1 for p in mine if colour is None or PATRICIAN_INFO[p][0] == colour)
        return 1.0 + value + min(2, match) * 1.5

    def _patrician_worth(self, state: State, seat: Seat, patrician: str) -> float:
        colour, _gender, value = PATRICIAN_INFO[patrician]
        homes = sum(1 for p in state["provinces"][seat] if PROVINCE_INFO[p][0] in (colour, None))
        return 0.5 + value * (1.0 if homes else 0.4)

    def evaluate(self, game: Game, state: State) -> list[float]:
        scores = score(state)["scores"]
        rounds_left = SETUP[state["players"]]["rounds"] - state["round"] + (state["phase"] == "turn")
        temperature = TEMPERATURE_BASE + TEMPERATURE_PER_ROUND_LEFT * rounds_left
        top = max(scores)
        e = [math.exp((x - top) / temperature) for x in scores]
        total = sum(e)
        return [x / total for x in e]


HOOKS = AleaHooks()
