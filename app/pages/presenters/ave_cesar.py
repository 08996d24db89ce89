"""How Ave César is drawn: words of its cards and actions, and where each legal action goes."""

from __future__ import annotations

from typing import Any

from games import ALL_GAMES

from ..controls import Control
from . import Presenter

ac_data = ALL_GAMES["ave_cesar"].components  # the game's cards and their names, as data


class AveCesarPresenter(Presenter):
    slug = "ave_cesar"
    board_template = "games/ave_cesar/board.html"
    COLOURS = ("#b8442f", "#2f6f8f", "#c49a2c", "#4f7d3a", "#7b4d8f")
    RESOURCE_COLOURS = {"wheat": "#d9b44a", "meat": "#b5483b", "iron": "#6d7a86", "cloth": "#8a5fa8",
                        "wood": "#7a5434", "olives": "#6f8a3a"}

    def colour(self, seat: int) -> str:
        return self.COLOURS[seat % len(self.COLOURS)]

    @staticmethod
    def name(card: str, _) -> str:
        return _.pick(ac_data.card_name(card))

    @staticmethod
    def kind(card: str) -> str:
        if card in ac_data.RESOURCE_VALUE:
            return "resource"
        if card in ac_data.SENATE_COUNTS:
            return "senate"
        if card in ac_data.INFLUENCE_NAMES:
            return "influence"
        return "event"

    @staticmethod
    def rtype(card: str) -> str:
        return ac_data.RESOURCE_TYPE.get(card, "")

    @staticmethod
    def rvalue(card: str) -> int:
        return ac_data.RESOURCE_VALUE.get(card, 0)

    @staticmethod
    def rname(card: str, _) -> str:
        return _.pick(ac_data.RESOURCE_NAMES[ac_data.RESOURCE_TYPE[card]])

    @staticmethod
    def dots(band: int) -> str:
        return ac_data.BAND_DOTS[band]

    @staticmethod
    def band(card: str) -> int:
        return ac_data.RESOURCE_BAND.get(card, 0)

    def board_name(self, board: int, _) -> str:
        if board == 3:
            return _("Senate")
        return _("Market {dots}").format(dots=self.dots(board))



    def seat_line(self, view, seat, _) -> str:
        row = view["game"]["table"][seat]
        if row["out"]:
            return _("out of the game")
        senators, hand = row["senators"], row["hand_size"]
        return (_.ngettext("{n} senator", "{n} senators", senators).format(n=senators) + " · "
                + _.ngettext("{n} card in hand", "{n} cards in hand", hand).format(n=hand))

    def describe(self, action, view, _, names) -> Control:
        kind = action["type"]
        g = view["game"]
        if kind == "sell_senator":
            return Control(action, _("Sell one of your senators to the bank for 5"),
                           _("Sell a senator (+5)"), zone="me", style="secondary")
        if kind == "draft":
            n = self.name(action["card"], _)
            return Control(action, _("Take the influence card {n}").format(n=n), n,
                           zone="draft")
        if kind == "seal_bid":
            a = action["amount"]
            return Control(action, _("Seal a bid of {a}").format(a=a), str(a), select="seal",
                           select_label=_("Your secret bid:"),
                           select_button=_("Seal my bid"))
        if kind == "accept_senator":
            price = (g.get("new_senator") or {}).get("price")
            return Control(action, _("Buy the New Senator for {price}").format(price=price),
                           _("Accept ({price})").format(price=price))
        if kind == "decline_senator":
            return Control(action, _("Decline the New Senator"),
                           _("Decline"), style="secondary")
        if kind in ("auction", "extortion", "counters"):
            words = {"auction": (_("Auction"), _("Turn up a lot on each board and let the others bid")),
                     "extortion": (_("Extortion"), _("Take money from the bank and extort face-up cards")),
                     "counters": (_("Counters"), _("Sell sets, buy senators and play Senate cards"))}[kind]
            return Control(action, f"{words[0]}: {words[1]}", words[0], zone="choose", style="big")
        if kind == "bid":
            lot, a = action["lot"], action["amount"]
            card = self._lot_card(g, lot, _)
            return Control(action, _("Bid {a} on {card}").format(a=a, card=card), str(a), zone=f"lot:{lot}",
                           select=f"bid{lot}", select_label=_("Bid"), select_button=_("Bid"))
        if kind == "end_bids":
            return Control(action, _("Finish your bids"), _("Done bidding"))
        if kind in ("sell_lot", "buy_lot", "merchants"):
            lot = action["lot"]
            card = self._lot_card(g, lot, _)
            words = {"sell_lot": (_("Let the highest bidder buy {card}").format(card=card),
                                  _("Sell")),
                     "buy_lot": (_("Buy {card} yourself (pay the highest bid to its bidder)").format(card=card),
                                 _("Buy")),
                     "merchants": (_("Merchants: take {card} for 1").format(card=card),
                                   _("Merchants (1)"))}[kind]
            return Control(action, words[0], words[1], zone=f"lot:{lot}", style="" if kind != "sell_lot" else "secondary")
        if kind == "protect":
            n = self.name(action["card"], _)
            return Control(action, _("Protect {n} with the Prefects").format(n=n),
                           _("Protect {n}").format(n=n))
        if kind == "no_protection":
            return Control(action, _("Protect nothing"), _("No protection"),
                           style="secondary")
        if kind == "extort":
            n = self.name(action["card"], _)
            target = (g.get("extortion") or {}).get("target")
            who = names[target] if target is not None else ""
            return Control(action, _("Extort {who}'s {n}").format(who=who, n=n),
                           _("Extort {n}").format(n=n), zone=f"seat:{target}", style="danger")
        if kind == "spare":
            return Control(action, _("Spare this player"), _("Spare"),
                           style="secondary")
        if kind == "price":
            a = action["amount"]
            return Control(action, _("Name the price {a}").format(a=a), str(a), select="price",
                           select_label=_("Price:"), select_button=_("Name this price"))
        if kind == "pay":
            price = (g.get("extortion") or {}).get("price")
            return Control(action, _("Pay {price} and keep the card").format(price=price),
                           _("Pay {price}").format(price=price))
        if kind == "give_up":
            return Control(action, _("Sell the card for the price"),
                           _("Give up the card"), style="secondary")
        if kind == "join_counters":
            return Control(action, _("Join the Counters (pay 5 to the active player)"),
                           _("Join (5)"))
        if kind == "decline_counters":
            return Control(action, _("Do not join the Counters"),
                           _("Decline"), style="secondary")
        if kind in ("sell", "quaestor_sale"):
            cards = action["cards"]
            words = ", ".join(self.name(c, _) for c in cards)
            quaestor = kind == "quaestor_sale"
            label = (_("Quaestor sale: {words}").format(words=words) if quaestor
                     else _("Sell the set {words}").format(words=words))
            return Control(action, label, label, zone="sell", pick="cards:" + ",".join(cards))
        if kind == "buy_senator":
            return Control(action, _("Buy a senator"), _("Buy a senator"))
        if kind == "play_consul":
            return Control(action, _("Play the Consul: senators cost 7 during this Counters"),
                           _("Play the Consul"))
        if kind == "censor":
            who = names[action["target"]]
            return Control(action, _("Censor: steal a senator from {who}").format(who=who),
                           _("Censor {who}").format(who=who), style="danger")
        if kind == "end_counters":
            return Control(action, _("Leave the Counters"), _("Done"),
                           style="secondary")
        if kind == "governor_value":
            v = action["value"]
            return Control(action, _("The Governor counts as {v}").format(v=v), str(v),
                           select="govval", select_label=_("Governor's value:"),
                           select_button=_("Choose"))
        return super().describe(action, view, _, names)

    def _lot_card(self, g, lot: int, _) -> str:
        auction = g.get("auction")
        return "" if not auction else self.name(auction["lots"][lot]["card"], _)


PRESENTER = AveCesarPresenter()
