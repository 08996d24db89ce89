"""Bot knowledge for Ave César (used by games/core/bots.py, whose docstring describes the levels).

The Strong bot searches its own decisions of the turn (ISMCTS over determinisations), lets the game run a
few turns by a sensible playout policy (sell sets and buy senators at the Counters, take cheap senators,
bid moderately), and judges the position with `evaluate`: a wealth per seat (senators, money at the price
of a senator, cards at what they will sell for), turned into winning chances that sharpen as the Wars run
out (the 4th War ends the game, RULES 2.9.1).

Money is hidden (RULES 2.7), but every coin that changes hands is announced to the table: the start
money follows from the first player (2.2.4) and every payment is in the public log. `beliefs` therefore
counts the other seats' purses from the log the bot's seat can see, and `refine` puts them in each
determinisation (the engine's resample draws them at random, as it may not assume that a player keeps
such an account). It only reads the seat's visible log: it is a player keeping count.
Every state these hooks see is a determinisation, never the true state of a table.
"""

from __future__ import annotations

import math
from typing import Any

from games.core import Action, Game, Seat, State
from games.core.bots import BotHooks, weighted_index

from . import components
from .rules import best_bid, committed, normal_sets, senator_price

# Wealth, in senators. A senator costs 10 coins at the Counters (2.6 C.2), but only senators count at the
# end (money only breaks ties, 2.9.2) and coins become senators only on a Counters turn: a coin is worth
# less than a tenth of a senator, and less still as the Wars run out.
COIN = 1 / components.SENATOR_PRICE
COIN_SHARE_BASE = 0.45
COIN_SHARE_PER_WAR_LEFT = 0.1
CARD_SALE_SHARE = 0.7  # a resource card sells for its value, once it is part of a set
SENATE_WORTH = {"censor": 1.2, "consul": 0.5, "quaestor": 0.6}
GOVERNOR_WORTH = 0.8
INFLUENCE_WORTH = {"vox_populi": 1.5, "pontifex": 0.6, "lictors": 0.5, "princeps": 0.5, "cavalry": 0.5}
OUT_WORTH = -20.0
# Winning chances: a softmax of the wealth, sharper as the Wars run out.
TEMPERATURE_BASE = 0.6
TEMPERATURE_PER_WAR_LEFT = 0.45

# Amounts the search considers (every amount stays legal; these are the ones worth comparing).
BID_STEPS = (1, 2, 4)
SEAL_AMOUNTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25)
PRICE_AMOUNTS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15)


def coin_worth(state: State) -> float:
    return COIN * (COIN_SHARE_BASE + COIN_SHARE_PER_WAR_LEFT * (components.WARS_TO_END - state["wars"]))


def card_worth(card: str, coin: float = COIN * 0.8) -> float:
    if card in components.RESOURCE_VALUE:
        return components.RESOURCE_VALUE[card] * coin * CARD_SALE_SHARE
    if card in components.GOVERNOR_TYPE:
        return GOVERNOR_WORTH
    return SENATE_WORTH.get(card, 0.3)


def wealth(state: State, seat: int, coin: float) -> float:
    if state["out"][seat]:
        return OUT_WORTH
    w = state["senators"][seat] + state["money"][seat] * coin
    for card in state["hands"][seat]:
        w += card_worth(card, coin)
    for card in state["resources"][seat]:
        w += card_worth(card, coin)
    for card in state["senate"][seat]:
        w += card_worth(card, coin)
    for card in state["influence"][seat]:
        w += INFLUENCE_WORTH.get(card, 0.3)
    return w


def sellable_sets(state: State, seat: int) -> int:
    items = state["hands"][seat] + state["resources"][seat]
    return len(normal_sets(items)) if len(items) >= components.SET_SIZE else 0


# ------------------------------------------------------------------------------ keeping count

def tracked_money(state: State, seat: int | None) -> list[int] | None:
    """Every purse, worked out from the game log `seat` can see: the start money follows from the first
    player (RULES 2.2.4) and every payment is announced. None if the log does not add up (the count of
    the seat's own purse, which it knows, must agree), so that a change in the engine's log can only
    make the bot forget its count, never believe a wrong one."""
    n = state["players"]
    money = [0] * n
    active = None
    for entry in state["log"]:
        key, args = entry["key"], entry["args"]
        if key == "first_player":
            first = args["seat"]
            for k in range(n):
                money[(first + k) % n] = components.START_MONEY[k]
        elif key == "turn":
            active = args["seat"]
        elif key in ("senator_sold", "senator_sold_debt"):
            money[args["seat"]] += components.SENATOR_SALE
        elif key in ("bid_revealed", "bid_revealed_cavalry", "offer_taken", "civil_paid", "senator_bought"):
            money[args["seat"]] -= args.get("amount", args.get("price", 0))
        elif key == "lot_sold":
            money[args["buyer_seat"]] -= args["amount"]
            money[args["seat"]] += args["amount"]
        elif key in ("lot_bought", "lot_merchants"):
            money[args["seat"]] -= args["amount"]
            money[args["bidder_seat"]] += args["amount"]
        elif key in ("chooses_extortion", "majority_income", "sale", "quaestor_sale"):
            money[args["seat"]] += args["amount"]
        elif key == "extort_paid" and active is not None:
            money[args["seat"]] -= args["amount"]
            money[active] += args["amount"]
        elif key == "extort_sold" and active is not None:
            money[args["seat"]] += args["amount"]
            money[active] -= args["amount"]
        elif key == "counters_join":
            money[args["seat"]] -= args["amount"]
            money[args["active_seat"]] += args["amount"]
        elif key == "eliminated":
            money[args["seat"]] = 0
    if seat is not None and money[seat] != state["money"][seat]:
        return None
    if any(m < 0 for m in money):
        return None
    return money


class AveCesarHooks(BotHooks):
    iterations = 80
    horizon = 40
    exploration = 0.5
    fresh_resample = True

    # ------------------------------------------------------------------------------- novice

    def weight(self, game: Game, state: State, seat: Seat, action: Action) -> float:
        """On top of the game's playout weights: a beginner still sells his sets and buys senators."""
        kind = action["type"]
        if kind in ("sell", "buy_senator"):
            return 4.0
        return 1.0

    # ------------------------------------------------------------------------------- search

    def candidates(self, game: Game, state: State, seat: Seat, actions: list[Action]) -> list[Action]:
        """Drop selling a senator (5 coins for a senator that costs 10; a debt sells them by itself) and
        keep a handful of amounts for bids, sealed bids and extortion prices."""
        out = []
        for a in actions:
            kind = a["type"]
            if kind == "sell_senator":
                continue
            if kind == "bid":
                lot = state["auction"]["lots"][a["lot"]]
                if a["amount"] - best_bid(lot) not in BID_STEPS:
                    continue
            elif kind == "seal_bid":
                if a["amount"] not in SEAL_AMOUNTS and a["amount"] != state["money"][seat]:
                    continue
            elif kind == "price":
                if a["amount"] not in PRICE_AMOUNTS:
                    continue
            out.append(a)
        return out or actions

    def policy(self, game: Game, state: State, seat: Seat, actions: list[Action]) -> list[float]:
        money = state["money"][seat]
        sets = None
        out = []
        for a in actions:
            kind = a["type"]
            w = 1.0
            if kind == "sell_senator":
                w = game.move_weights.get(kind, 1.0)
            elif kind == "seal_bid":
                x = a["amount"]
                sealed = state["sealed"]
                if sealed["kind"] == "war":
                    target = min(money * 0.35, 9)
                else:
                    target = min(money * 0.3, sealed["amount"] / max(1, state["players"] - 1))
                w = math.exp(-((x - target) / 3.0) ** 2) + 0.02
            elif kind == "accept_senator":
                w = 4.0 if state["offer"]["price"] <= 9 else 0.15
            elif kind in ("auction", "extortion", "counters"):
                if sets is None:
                    sets = sellable_sets(state, seat)
                if kind == "counters":
                    w = 0.3 + 4.0 * (sets > 0) + 3.0 * (money >= senator_price_now(state))
                elif kind == "auction":
                    w = 1.5
                else:
                    w = 0.6
            elif kind == "bid":
                lot = state["auction"]["lots"][a["lot"]]
                room = min(money - committed(state, seat), components.PROPOSED["bid_spaces"][-1])
                step = a["amount"] - best_bid(lot)
                w = (1.0 / step) * (1.0 if a["amount"] <= 1 + 1.2 * 10 * card_worth(lot["card"]) else 0.05)
                w *= 1.0 if room > 0 else 0.0
            elif kind == "end_bids":
                w = 1.0
            elif kind == "sell_lot":
                w = 2.0
            elif kind == "buy_lot":
                lot = state["auction"]["lots"][a["lot"]]
                w = 2.5 if best_bid(lot) * COIN < card_worth(lot["card"]) else 0.3
            elif kind == "merchants":
                w = 4.0
            elif kind == "price":
                w = 1.0 if 2 <= a["amount"] <= 8 else 0.1
            elif kind == "pay":
                price = state["extortion"]["price"]
                w = 2.0 if price * COIN < card_worth(state["extortion"]["card"]) else 0.4
            elif kind == "join_counters":
                if sets is None:
                    sets = sellable_sets(state, seat)
                w = 3.0 if sets or money >= 15 else 0.1
            elif kind == "sell":
                w = 6.0
            elif kind == "quaestor_sale":
                w = 0.5
            elif kind == "buy_senator":
                w = 10.0
            elif kind == "play_consul":
                w = 2.0 if money >= 14 else 0.1
            elif kind == "censor":
                w = 6.0
            elif kind == "end_counters":
                w = 0.4
            elif kind == "governor_value":
                w = a["value"]
            out.append(w)
        return out

    def beliefs(self, game: Game, state: State, seat: Seat) -> Any:
        return tracked_money(state, seat)

    def refine(self, game: Game, state: State, seat: Seat, beliefs: Any, holder: dict[str, Any]) -> None:
        """The purses as counted; sealed bids already made are redrawn within them (by the playout
        policy's preferences, the bot's model of how people bid)."""
        money = state["money"]
        sealed = state["sealed"]
        for s in range(state["players"]):
            if s == seat or state["out"][s]:
                continue
            money[s] = beliefs[s]
            if sealed is not None and sealed["bids"][s] is not None:
                amounts = [{"type": "seal_bid", "amount": x} for x in range(money[s] + 1)]
                sealed["bids"][s] = amounts[weighted_index(holder, self.policy(game, state, s, amounts))]["amount"]

    def evaluate(self, game: Game, state: State) -> list[float]:
        n = state["players"]
        wars_left = components.WARS_TO_END - state["wars"]
        temperature = TEMPERATURE_BASE + TEMPERATURE_PER_WAR_LEFT * wars_left
        coin = coin_worth(state)
        w = [wealth(state, s, coin) for s in range(n)]
        top = max(w)
        e = [math.exp((x - top) / temperature) for x in w]
        total = sum(e)
        return [x / total for x in e]

    def terminal(self, game: Game, state: State) -> list[float]:
        """A won game, plus a little for the senators (a second place is no victory, RULES 2.9.2)."""
        result = game.score(state)
        winners = result["winners"]
        scores = result["scores"]
        top = max(scores) or 1
        return [0.85 * (1.0 / len(winners) if s in winners else 0.0) + 0.15 * scores[s] / top
                for s in range(state["players"])]


def senator_price_now(state: State) -> int:
    return senator_price(state) if state["counters"] is not None else components.SENATOR_PRICE


HOOKS = AveCesarHooks()
