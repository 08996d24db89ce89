"""Bot knowledge for César & Cléopâtre (used by games/core/bots.py, whose docstring describes the levels).

The Strong bot searches a few turns ahead (ISMCTS over determinisations) and then judges the position with
`evaluate`: the points already won, plus, for every group still open, the patricians left shared out by
who leads its vote now (sums of influence, reversed when the Philosopher counts differ, RULES 1.6.2),
with the majority, "all of them" and mission bonuses (RULES 1.10) counted on the projected shares.
Every state these hooks see is a determinisation (the opponent's face-down cards and hand are guesses
consistent with what the bot's seat knows), never the true state of a table.
"""

from __future__ import annotations

import math

from games.core import Action, Game, Seat, State
from games.core.bots import BotHooks

from .components import (
    ALL_POINTS, GROUP_INDEX, GROUP_SIZE, MAJORITY, MAJORITY_POINTS, MISSION_POINTS, MISSION_THRESHOLD,
    PATRICIAN_POINTS, PHILOSOPHER, strength,
)

PHILOSOPHER_CARD = str(PHILOSOPHER)  # influence cards are kept as strings of digits in the state

# How sharply a lead in influence sum turns into the patricians of a group (a lead of 3 is worth ~75 %).
LEAD_SCALE = 3.0
# How sharply a projected point lead turns into a winning chance.
POINT_SCALE = 2.0


def sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def group_share(state: State, gi: int, seat: int) -> float:
    """The chance that `seat` wins the next vote of group `gi` as the cards stand (RULES 1.6)."""
    up, down = state["up"], state["down"]
    mine = up[seat][gi] + down[seat][gi]
    theirs = up[1 - seat][gi] + down[1 - seat][gi]
    if not mine and not theirs:
        return 0.5
    lead = strength(mine) - strength(theirs)
    if mine.count(PHILOSOPHER_CARD) != theirs.count(PHILOSOPHER_CARD):
        lead = -lead  # a reversed vote: the lower sum wins (1.6.2)
    return sigmoid(lead / LEAD_SCALE)


def projected_points(state: State, seat: int) -> float:
    """Points won plus a smooth projection of the open groups (RULES 1.10)."""
    total = 0.0
    mission = GROUP_INDEX[state["missions"][seat]]
    left = state["left"]
    for gi, size in enumerate(GROUP_SIZE):
        won = state["won"][seat][gi]
        n = won + left[gi] * group_share(state, gi, seat) if left[gi] else won
        total += n * PATRICIAN_POINTS
        total += MAJORITY_POINTS * sigmoid(2.0 * (n - MAJORITY[size] + 0.5))
        total += ALL_POINTS * sigmoid(2.0 * (n - size + 0.5))
        if gi == mission:
            total += MISSION_POINTS * sigmoid(2.0 * (n - MISSION_THRESHOLD + 0.5))
    return total


class CesarCleopatreHooks(BotHooks):
    iterations = 80
    horizon = 30
    fresh_resample = True
    exploration = 0.6

    def policy(self, game: Game, state: State, seat: Seat, actions: list[Action]) -> list[float]:
        """The playout policy: the novice's, but influence goes preferably where it turns or keeps a vote,
        and Philosophers where a vote is lost anyway."""
        out = []
        shares: dict[str, float] = {}
        for a in actions:
            kind = a["type"]
            if kind == "place":
                name = a["group"]
                share = shares.get(name)
                if share is None:
                    share = shares[name] = group_share(state, GROUP_INDEX[name], seat)
                value = a["value"]
                w = 1.0 if a["face"] == "down" else 0.7
                if value == PHILOSOPHER:
                    w *= 0.5 + 2.0 * (1.0 - share)
                else:
                    w *= 0.5 + value * (1.0 - abs(share - 0.5))
                out.append(w)
            elif kind == "draw":
                out.append(3.0 if a["pile"] == "influence" else 1.0)
            elif kind == "refill":  # all missing cards at once, `influence` of them from that reserve
                out.append(1.0 + a["influence"])
            else:
                out.append(game.move_weights.get(kind, 1.0))
        return out

    def evaluate(self, game: Game, state: State) -> list[float]:
        lead = projected_points(state, 0) - projected_points(state, 1)
        p0 = sigmoid(lead / POINT_SCALE)
        return [p0, 1.0 - p0]


HOOKS = CesarCleopatreHooks()
