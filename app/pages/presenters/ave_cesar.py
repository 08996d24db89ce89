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
    def name(card: str, tr) -> str:
        en, fr = ac_data.card_name(card)
        return tr(en, fr)

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
    def rname(card: str, tr) -> str:
        en, fr = ac_data.RESOURCE_NAMES[ac_data.RESOURCE_TYPE[card]]
        return tr(en, fr)

    @staticmethod
    def dots(band: int) -> str:
        return ac_data.BAND_DOTS[band]

    @staticmethod
    def band(card: str) -> int:
        return ac_data.RESOURCE_BAND.get(card, 0)

    def board_name(self, board: int, tr) -> str:
        if board == 3:
            return tr("Senate", "Sénat")
        return tr(f"Market {self.dots(board)}", f"Marché {self.dots(board)}")



    def seat_line(self, view, seat, tr) -> str:
        row = view["game"]["table"][seat]
        if row["out"]:
            return tr("out of the game", "sorti du jeu")
        return tr(f"{row['senators']} senator(s) · {row['hand_size']} card(s) in hand",
                  f"{row['senators']} sénateur(s) · {row['hand_size']} carte(s) en main")

    def describe(self, action, view, tr, names) -> Control:
        kind = action["type"]
        g = view["game"]
        if kind == "sell_senator":
            return Control(action, tr("Sell one of your senators to the bank for 5",
                                      "Vendre un de vos sénateurs à la banque pour 5"),
                           tr("Sell a senator (+5)", "Vendre un sénateur (+5)"), zone="me", style="secondary")
        if kind == "draft":
            n = self.name(action["card"], tr)
            return Control(action, tr(f"Take the influence card {n}", f"Prendre la carte Influence {n}"), n,
                           zone="draft")
        if kind == "seal_bid":
            a = action["amount"]
            return Control(action, tr(f"Seal a bid of {a}", f"Miser {a} en secret"), str(a), select="seal",
                           select_label=tr("Your secret bid:", "Votre mise secrète :"),
                           select_button=tr("Seal my bid", "Cacher ma mise"))
        if kind == "accept_senator":
            price = (g.get("new_senator") or {}).get("price")
            return Control(action, tr(f"Buy the New Senator for {price}", f"Acheter le Nouveau Sénateur pour {price}"),
                           tr(f"Accept ({price})", f"Accepter ({price})"))
        if kind == "decline_senator":
            return Control(action, tr("Decline the New Senator", "Refuser le Nouveau Sénateur"),
                           tr("Decline", "Refuser"), style="secondary")
        if kind in ("auction", "extortion", "counters"):
            words = {"auction": (tr("Auction", "Enchères"), tr("Turn up a lot on each board and let the others bid",
                                                                 "Retourner un lot par plateau ; les autres misent")),
                     "extortion": (tr("Extortion", "Extorsion"), tr("Take money from the bank and extort face-up cards",
                                                                     "Prendre de l'argent à la banque et extorquer des cartes")),
                     "counters": (tr("Counters", "Comptoirs"), tr("Sell sets, buy senators and play Senate cards",
                                                                   "Vendre des séries, acheter des sénateurs, jouer des cartes Sénat"))}[kind]
            return Control(action, f"{words[0]}: {words[1]}", words[0], zone="choose", style="big")
        if kind == "bid":
            lot, a = action["lot"], action["amount"]
            card = self._lot_card(g, lot, tr)
            return Control(action, tr(f"Bid {a} on {card}", f"Miser {a} sur {card}"), str(a), zone=f"lot:{lot}",
                           select=f"bid{lot}", select_label=tr("Bid", "Miser"), select_button=tr("Bid", "Miser"))
        if kind == "end_bids":
            return Control(action, tr("Finish your bids", "Terminer vos mises"), tr("Done bidding", "Fin des mises"))
        if kind in ("sell_lot", "buy_lot", "merchants"):
            lot = action["lot"]
            card = self._lot_card(g, lot, tr)
            words = {"sell_lot": (tr(f"Let the highest bidder buy {card}", f"Laisser le meilleur enchérisseur acheter {card}"),
                                  tr("Sell", "Vendre")),
                     "buy_lot": (tr(f"Buy {card} yourself (pay the highest bid to its bidder)",
                                    f"Acheter {card} vous-même (payer la meilleure mise à son auteur)"),
                                 tr("Buy", "Acheter")),
                     "merchants": (tr(f"Merchants: take {card} for 1", f"Marchands : prendre {card} pour 1"),
                                   tr("Merchants (1)", "Marchands (1)"))}[kind]
            return Control(action, words[0], words[1], zone=f"lot:{lot}", style="" if kind != "sell_lot" else "secondary")
        if kind == "protect":
            n = self.name(action["card"], tr)
            return Control(action, tr(f"Protect {n} with the Prefects", f"Protéger {n} avec les Préfets"),
                           tr(f"Protect {n}", f"Protéger {n}"))
        if kind == "no_protection":
            return Control(action, tr("Protect nothing", "Ne rien protéger"), tr("No protection", "Pas de protection"),
                           style="secondary")
        if kind == "extort":
            n = self.name(action["card"], tr)
            target = (g.get("extortion") or {}).get("target")
            who = names[target] if target is not None else ""
            return Control(action, tr(f"Extort {who}'s {n}", f"Extorquer la carte {n} de {who}"),
                           tr(f"Extort {n}", f"Extorquer {n}"), zone=f"seat:{target}", style="danger")
        if kind == "spare":
            return Control(action, tr("Spare this player", "Épargner ce joueur"), tr("Spare", "Épargner"),
                           style="secondary")
        if kind == "price":
            a = action["amount"]
            return Control(action, tr(f"Name the price {a}", f"Fixer le prix à {a}"), str(a), select="price",
                           select_label=tr("Price:", "Prix :"), select_button=tr("Name this price", "Fixer ce prix"))
        if kind == "pay":
            price = (g.get("extortion") or {}).get("price")
            return Control(action, tr(f"Pay {price} and keep the card", f"Payer {price} et garder la carte"),
                           tr(f"Pay {price}", f"Payer {price}"))
        if kind == "give_up":
            return Control(action, tr("Sell the card for the price", "Céder la carte pour ce prix"),
                           tr("Give up the card", "Céder la carte"), style="secondary")
        if kind == "join_counters":
            return Control(action, tr("Join the Counters (pay 5 to the active player)",
                                      "Rejoindre les Comptoirs (payer 5 au joueur actif)"),
                           tr("Join (5)", "Rejoindre (5)"))
        if kind == "decline_counters":
            return Control(action, tr("Do not join the Counters", "Ne pas rejoindre les Comptoirs"),
                           tr("Decline", "Refuser"), style="secondary")
        if kind in ("sell", "quaestor_sale"):
            cards = action["cards"]
            words = ", ".join(self.name(c, tr) for c in cards)
            quaestor = kind == "quaestor_sale"
            label = (tr(f"Quaestor sale: {words}", f"Vente du Questeur : {words}") if quaestor
                     else tr(f"Sell the set {words}", f"Vendre la série {words}"))
            return Control(action, label, label, zone="sell", pick="cards:" + ",".join(cards))
        if kind == "buy_senator":
            return Control(action, tr("Buy a senator", "Acheter un sénateur"), tr("Buy a senator", "Acheter un sénateur"))
        if kind == "play_consul":
            return Control(action, tr("Play the Consul: senators cost 7 during this Counters",
                                      "Jouer le Consul : les sénateurs coûtent 7 pendant ces Comptoirs"),
                           tr("Play the Consul", "Jouer le Consul"))
        if kind == "censor":
            who = names[action["target"]]
            return Control(action, tr(f"Censor: steal a senator from {who}", f"Censeur : voler un sénateur à {who}"),
                           tr(f"Censor {who}", f"Censeur sur {who}"), style="danger")
        if kind == "end_counters":
            return Control(action, tr("Leave the Counters", "Quitter les Comptoirs"), tr("Done", "Terminer"),
                           style="secondary")
        if kind == "governor_value":
            v = action["value"]
            return Control(action, tr(f"The Governor counts as {v}", f"Le Gouverneur vaut {v}"), str(v),
                           select="govval", select_label=tr("Governor's value:", "Valeur du Gouverneur :"),
                           select_button=tr("Choose", "Choisir"))
        return super().describe(action, view, tr, names)

    def _lot_card(self, g, lot: int, tr) -> str:
        auction = g.get("auction")
        return "" if not auction else self.name(auction["lots"][lot]["card"], tr)


PRESENTER = AveCesarPresenter()
