"""Ave César's game-log sentences, refusals and confirmations in every language; card ids in their arguments
are put in words in the reader's language (`render_args`)."""

from __future__ import annotations

from typing import Any

from games.core import add_language, in_lang
from games.core.game import PLAY

from .components import card_name


def _m(en: str, fr: str) -> dict[str, str]:
    return {"en": en, "fr": fr}


MESSAGES: dict[str, dict[str, str]] = {
    "first_player": _m("{seat} plays first.", "{seat} joue en premier."),
    "dealt": _m("You are dealt {cards}.", "Vous recevez {cards}."),
    "start_money": _m("You start with {amount} {amount:coin|coins} behind your screen.",
                      "Vous commencez avec {amount} {amount:pièce|pièces} derrière votre paravent."),
    "draft_offer": _m("Influence cards on offer: {cards}.", "Cartes Influence proposées : {cards}."),
    "drafted": _m("{seat} takes {card}.", "{seat} prend {card}."),
    "draft_leftover": _m("{cards} goes back to the box.", "{cards} retourne dans la boîte."),
    "turn": _m("Turn {turn}: {seat} plays.", "Tour {turn} : {seat} joue."),
    "event": _m("{seat} reveals the event {card}.", "{seat} révèle l'événement {card}."),
    "last_war": _m("It is the 4th War: it is not resolved and the game ends.",
                   "C'est la 4e Guerre : elle n'est pas appliquée et la partie s'arrête."),
    "sealed_you": _m("You secretly bid {amount}.", "Vous misez secrètement {amount}."),
    "bid_revealed": _m("{seat} bid {amount}.", "{seat} a misé {amount}."),
    "bid_revealed_cavalry": _m("{seat} bid {amount}, {total} with the Cavalry.",
                               "{seat} a misé {amount}, {total} avec la Cavalerie."),
    "bids_to_bank": _m("All the money bid goes to the bank.", "Tout l'argent misé va à la banque."),
    "war_nobody": _m("Nobody bid anything: no senator is won.", "Personne n'a rien misé : aucun sénateur n'est gagné."),
    "war_won": _m("{seat} bid the most and gains 1 senator.", "{seat} a misé le plus et gagne 1 sénateur."),
    "deficit_total": _m("The bids total {total} against a deficit of {amount}.",
                        "Les mises totalisent {total} pour un déficit de {amount}."),
    "deficit_gain": _m("{seat} bid the most and gains 1 senator.", "{seat} a misé le plus et gagne 1 sénateur."),
    "deficit_loss": _m("{seat} bid the least and loses 1 senator.", "{seat} a misé le moins et perd 1 sénateur."),
    "offer_price": _m("A senator is offered for {price} {price:coin|coins}.",
                      "Un sénateur est proposé pour {price} {price:pièce|pièces}."),
    "offer_taken": _m("{seat} buys the senator for {price} {price:coin|coins}.",
                      "{seat} achète le sénateur pour {price} {price:pièce|pièces}."),
    "offer_unsold": _m("Nobody buys the senator.", "Personne n'achète le sénateur."),
    "civil_exempt": _m("{seat} holds a Governor and pays nothing.", "{seat} possède un Gouverneur et ne paie rien."),
    "civil_paid": _m("{seat} pays {amount} {amount:coin|coins} to the bank.",
                     "{seat} paie {amount} {amount:pièce|pièces} à la banque."),
    "evicted": _m("{seat} discards {cards}.", "{seat} défausse {cards}."),
    "evict_protected": _m("{seat} keeps his Governors (Tribunes' Support).",
                          "{seat} garde ses Gouverneurs (Soutien des tribuns)."),
    "majority_income": _m("{seat} receives {amount} {amount:coin|coins} from the bank (opponents with fewer "
                          "senators: {weaker}).",
                          "{seat} reçoit {amount} {amount:pièce|pièces} de la banque (adversaires avec moins de "
                          "sénateurs : {weaker})."),
    "senator_sold": _m("{seat} sells a senator to the bank for 5.", "{seat} vend un sénateur à la banque pour 5 pièces."),
    "senator_sold_debt": _m("{seat} must sell a senator to the bank for 5 to pay.",
                            "{seat} doit vendre un sénateur à la banque pour 5 pièces afin de payer."),
    "eliminated": _m("{seat} has no senator left and is out of the game.",
                     "{seat} n'a plus de sénateur et sort du jeu."),
    "eliminated_cards": _m("{seat}'s cards are discarded: {cards}.", "Les cartes de {seat} sont défaussées : {cards}."),
    "chooses_auction": _m("{seat} holds an Auction.", "{seat} fait une Mise aux enchères."),
    "deck_rebuilt": _m("The {dots} deck is empty: its {count} discarded {count:card is|cards are} shuffled into a "
                       "new deck.",
                       "La pioche {dots} est vide : {count} {count:carte défaussée est mélangée|cartes défaussées sont "
                       "mélangées} en une nouvelle pioche."),
    "board_empty": _m("The {dots} board has nothing to offer.", "Le plateau {dots} n'a rien à proposer."),
    "senate_rebuilt": _m("The Senate deck is empty: its {count} used {count:card is|cards are} shuffled into a "
                         "new deck.",
                         "La pioche Sénat est vide : {count} {count:carte utilisée est mélangée|cartes utilisées sont "
                         "mélangées} en une nouvelle pioche."),
    "senate_empty": _m("The Senate board has nothing to offer.", "Le plateau Sénat n'a rien à proposer."),
    "lots": _m("Lots: {cards}.", "Lots : {cards}."),
    "bid": _m("{seat} bids {amount} on {card}.", "{seat} mise {amount} sur {card}."),
    "bids_done": _m("{seat} has finished bidding.", "{seat} a fini de miser."),
    "free_lot": _m("Nobody bid on {card}: {seat} takes it for free.",
                   "Personne n'a misé sur {card} : {seat} l'obtient gratuitement."),
    "lot_sold": _m("{seat} lets {buyer_seat} buy {card} for {amount} {amount:coin|coins}.",
                   "{seat} laisse {buyer_seat} acheter {card} pour {amount} {amount:pièce|pièces}."),
    "lot_bought": _m("{seat} buys {card} himself, paying {amount} {amount:coin|coins} to {bidder_seat}.",
                     "{seat} achète lui-même {card} et paie {amount} {amount:pièce|pièces} à {bidder_seat}."),
    "lot_merchants": _m("{seat} takes {card} for {amount} {amount:coin|coins}, paid to {bidder_seat} (Merchants).",
                        "{seat} prend {card} pour {amount} {amount:pièce, payée|pièces, payées} à {bidder_seat} "
                        "(Marchands)."),
    "lot_discarded": _m("{card} is discarded.", "{card} est défaussée."),
    "chooses_extortion": _m("{seat} chooses Extortion and takes {amount} {amount:coin|coins} from the bank.",
                            "{seat} choisit l'Extorsion et prend {amount} {amount:pièce|pièces} à la banque."),
    "prefects_protect": _m("{seat} puts the Prefects on {card}.", "{seat} place les Préfets sur {card}."),
    "prefects_none": _m("{seat} protects nothing.", "{seat} ne protège rien."),
    "extort_target": _m("{seat} targets {card} of {target_seat}.", "{seat} cible {card} de {target_seat}."),
    "extort_price": _m("{seat} names a price of {amount} {amount:coin|coins}.",
                      "{seat} propose un prix de {amount} {amount:pièce|pièces}."),
    "extort_paid": _m("{seat} pays {amount} {amount:coin|coins} and keeps {card}.",
                     "{seat} paie {amount} {amount:pièce|pièces} et garde {card}."),
    "extort_sold": _m("{seat} gives up {card} for {amount} {amount:coin|coins}.",
                     "{seat} cède {card} pour {amount} {amount:pièce|pièces}."),
    "extort_spared": _m("{seat} spares {target_seat}.", "{seat} épargne {target_seat}."),
    "chooses_counters": _m("{seat} goes to the Counters.", "{seat} va aux Comptoirs."),
    "counters_join": _m("{seat} pays {amount} {amount:coin|coins} to {active_seat} and goes to the Counters first.",
                        "{seat} paie {amount} {amount:pièce|pièces} à {active_seat} et va d'abord aux Comptoirs."),
    "counters_decline": _m("{seat} does not go to the Counters.", "{seat} ne va pas aux Comptoirs."),
    "vox_populi": _m("{seat} gains 1 senator (Vox Populi).", "{seat} gagne 1 sénateur (Vox Populi)."),
    "sale": _m("{seat} sells {cards} for {amount} {amount:coin|coins}.",
              "{seat} vend {cards} pour {amount} {amount:pièce|pièces}."),
    "quaestor_sale": _m("{seat} plays a Quaestor and sells {cards} for {amount} {amount:coin|coins}.",
                        "{seat} joue un Questeur et vend {cards} pour {amount} {amount:pièce|pièces}."),
    "sale_run": _m("(including {amount} for a run of one resource)", "(dont {amount} pour une suite d'une même ressource)"),
    "sale_pontifex": _m("(including {amount} from the Pontifex Maximus)", "(dont {amount} grâce au Pontifex Maximus)"),
    "senator_bought": _m("{seat} buys a senator for {price} {price:coin|coins}.",
                        "{seat} achète un sénateur pour {price} {price:pièce|pièces}."),
    "consul": _m("{seat} plays a Consul: senators cost {price} {price:coin|coins} during these Counters.",
                 "{seat} joue un Consul : les sénateurs coûtent {price} {price:pièce|pièces} pendant ces Comptoirs."),
    "censor": _m("{seat} plays a Censor and takes a senator from {target_seat}.",
                 "{seat} joue un Censeur et prend un sénateur à {target_seat}."),
    "counters_done": _m("{seat} leaves the Counters.", "{seat} quitte les Comptoirs."),
    "game_over": _m("The game is over.", "La partie est terminée."),
}


def render_args(args: dict[str, Any], lang: str) -> dict[str, Any]:
    """Card ids in a log entry's arguments, put in words in the reader's language."""
    args = dict(args)
    if "card" in args:
        args["card"] = in_lang(card_name(args["card"]), lang)
    if "cards" in args:
        values = {g: v for g, v in args.get("values", ())}
        args["cards"] = ", ".join(in_lang(card_name(c), lang) + (f" (= {values[c]})" if c in values else "")
                                  for c in args["cards"])
    return args


WAITING: dict[str, dict[str, str]] = {
    "draft": {"en": "choose an influence card", "fr": "choisir une carte Influence",
              "it": "scegliere una carta Influenza"},
    "sealed_bid": {"en": "seal a secret bid", "fr": "cacher une mise secrète", "it": "fare un'offerta segreta"},
    "new_senator": {"en": "accept or decline the New Senator", "fr": "accepter ou refuser le Nouveau Sénateur",
                    "it": "accettare o rifiutare il Nuovo Senatore"},
    "choose_action": {"en": "choose Auction, Extortion or Counters", "fr": "choisir Enchères, Extorsion ou Comptoirs",
                      "it": "scegliere Asta, Estorsione o Empori"},
    "auction_bidding": {"en": "bid on the lots", "fr": "miser sur les lots", "it": "puntare sui lotti"},
    "auction_settling": {"en": "settle the lots", "fr": "régler les lots", "it": "assegnare i lotti"},
    "prefects": {"en": "protect a card with the Prefects, or not", "fr": "protéger une carte avec les Préfets, ou non",
                 "it": "proteggere o no una carta con i Prefetti"},
    "extortion_target": {"en": "choose a card to extort", "fr": "choisir une carte à extorquer",
                         "it": "scegliere una carta da estorcere"},
    "extortion_price": {"en": "name the price", "fr": "fixer le prix", "it": "fissare il prezzo"},
    "extortion_answer": {"en": "pay or give up the card", "fr": "payer ou céder la carte",
                         "it": "pagare o cedere la carta"},
    "counters_join": {"en": "join the Counters or not", "fr": "rejoindre les Comptoirs ou non",
                      "it": "andare o no agli Empori"},
    "counters": {"en": "trade at the Counters", "fr": "commercer aux Comptoirs", "it": "commerciare agli Empori"},
    "governor_value": {"en": "choose the Governor's value", "fr": "choisir la valeur du Gouverneur",
                       "it": "scegliere il valore del Governatore"},
}


def waiting_for(view: dict[str, Any], lang: str) -> str:
    """What the game waits for, after the names of the seats to act."""
    return in_lang(WAITING.get(view["phase"], PLAY), lang)

# Why an action is refused (rules.refusal): code -> the sentence in each language.
# Why a move asks for a confirmation (rules.confirmation): code -> the sentence in each language.
CONFIRMATIONS: dict[str, dict[str, str]] = {
    "ac.last_senator": {"en": "This is your last senator: selling it puts you out of the game.",
                        "fr": "C'est votre dernier sénateur : le vendre vous élimine de la partie."},
    "ac.sealed_bid": {"en": "A sealed bid cannot be changed once given.",
                      "fr": "Une mise secrète ne peut plus être changée une fois donnée."},
}


REFUSALS: dict[str, dict[str, str]] = {
    "ac.only_draft": {"en": "Now you may only choose an influence card (or sell a senator).",
                      "fr": "Vous pouvez seulement choisir une carte Influence (ou vendre un sénateur)."},
    "ac.only_sealed_bid": {"en": "Now you may only seal a bid (or sell a senator).",
                           "fr": "Vous pouvez seulement miser secrètement (ou vendre un sénateur)."},
    "ac.only_new_senator": {"en": "Now you may only accept or decline the senator on offer (or sell a senator).",
                            "fr": "Vous pouvez seulement accepter ou refuser le sénateur proposé (ou vendre un "
                                  "sénateur)."},
    "ac.only_choose_action": {"en": "Now you may only choose Auction, Extortion or Counters (or sell a senator).",
                              "fr": "Vous pouvez seulement choisir la Mise aux enchères, l'Extorsion ou les "
                                    "Comptoirs (ou vendre un sénateur)."},
    "ac.only_auction_bidding": {"en": "Now you may only bid on the lots or finish bidding (or sell a senator).",
                                "fr": "Vous pouvez seulement miser sur les lots ou finir de miser (ou vendre un "
                                      "sénateur)."},
    "ac.only_auction_settling": {"en": "Now you may only settle the lots (or sell a senator).",
                                 "fr": "Vous pouvez seulement régler les lots (ou vendre un sénateur)."},
    "ac.only_prefects": {"en": "Now you may only protect one of your cards with the Prefects, or not (or sell a "
                               "senator).",
                         "fr": "Vous pouvez seulement protéger une de vos cartes avec les Préfets, ou non (ou vendre "
                               "un sénateur)."},
    "ac.only_extortion_target": {"en": "Now you may only choose a card to extort, or spare this player (or sell a "
                                       "senator).",
                                 "fr": "Vous pouvez seulement choisir une carte à extorquer, ou épargner ce joueur "
                                       "(ou vendre un sénateur)."},
    "ac.only_extortion_price": {"en": "Now you may only name a price (or sell a senator).",
                                "fr": "Vous pouvez seulement proposer un prix (ou vendre un sénateur)."},
    "ac.only_extortion_answer": {"en": "Now you may only pay the price or give up the card (or sell a senator).",
                                 "fr": "Vous pouvez seulement payer le prix ou céder la carte (ou vendre un "
                                       "sénateur)."},
    "ac.only_counters_join": {"en": "Now you may only join the Counters or not (or sell a senator).",
                              "fr": "Vous pouvez seulement aller aux Comptoirs ou non (ou vendre un sénateur)."},
    "ac.only_counters": {"en": "Now you may only sell, buy senators, play Senate cards or leave the Counters (or "
                               "sell a senator).",
                         "fr": "Vous pouvez seulement vendre, acheter des sénateurs, jouer des cartes Sénat ou "
                               "quitter les Comptoirs (ou vendre un sénateur)."},
    "ac.only_governor_value": {"en": "Now you may only choose the value your Governor counts as (or sell a senator).",
                               "fr": "Vous pouvez seulement choisir la valeur de votre Gouverneur (ou vendre un "
                                     "sénateur)."},
    "ac.no_such_lot": {"en": "There is no such lot.",
                       "fr": "Ce lot n'existe pas."},
    "ac.cube_on_lot": {"en": "You already have a cube on that lot.",
                       "fr": "Vous avez déjà un cube sur ce lot."},
    "ac.bid_space": {"en": "A bid goes on one of the bid spaces, {low} to {high}.",
                     "fr": "Une mise se place sur une des cases Mise, de {low} à {high}."},
    "ac.bid_too_low": {"en": "A bid must be strictly higher than the best bid on that lot ({best}).",
                       "fr": "Une mise doit être strictement supérieure à la meilleure mise sur ce lot ({best})."},
    "ac.bids_over_cash": {"en": "Your bids may not total more than the coins you hold.",
                          "fr": "Le total de vos mises ne peut dépasser les pièces que vous avez."},
    "ac.lot_too_dear": {"en": "You do not have enough coins to buy that lot (you may sell a senator first).",
                        "fr": "Vous n'avez pas assez de pièces pour acheter ce lot (vous pouvez d'abord vendre un "
                              "sénateur)."},
    "ac.amount": {"en": "The amount must be a whole number you can pay from your own coins.",
                  "fr": "Le montant doit être un nombre entier que vous pouvez payer avec vos propres pièces."},
    "ac.not_enough_coins": {"en": "You do not have enough coins for that (you may sell a senator first).",
                            "fr": "Vous n'avez pas assez de pièces pour cela (vous pouvez d'abord vendre un "
                                  "sénateur)."},
    "ac.no_sale": {"en": "Those are not three cards you hold that make a sale (one type or one value; any three with "
                         "a Quaestor).",
                   "fr": "Ce ne sont pas trois cartes à vous qui forment une vente (un même type ou une même valeur "
                         "; trois quelconques avec un Questeur)."},
    "ac.censor_target": {"en": "A Censor targets a player with more senators than you who does not hold the Praetors.",
                         "fr": "Un Censeur vise un joueur qui a plus de sénateurs que vous et qui n'a pas les "
                               "Praetors."},
}


# ---------------------------------------------------------------------------------------------- Italian

add_language(MESSAGES, "it", {
    "first_player": "{seat} gioca per primo.",
    "dealt": "Ricevete {cards}.",
    "start_money": "Cominciate con {amount} {amount:moneta|monete} dietro il vostro paravento.",
    "draft_offer": "Carte Influenza proposte: {cards}.",
    "drafted": "{seat} prende {card}.",
    "draft_leftover": "{cards} torna nella scatola.",
    "turn": "Turno {turn}: gioca {seat}.",
    "event": "{seat} rivela l'evento {card}.",
    "last_war": "È la 4ª Guerra: non viene risolta e la partita finisce.",
    "sealed_you": "Offrite in segreto {amount}.",
    "bid_revealed": "{seat} ha offerto {amount}.",
    "bid_revealed_cavalry": "{seat} ha offerto {amount}, {total} con la Cavalleria.",
    "bids_to_bank": "Tutto il denaro offerto va alla banca.",
    "war_nobody": "Nessuno ha offerto nulla: nessun senatore è conquistato.",
    "war_won": "{seat} ha offerto di più e guadagna 1 senatore.",
    "deficit_total": "Le offerte ammontano a {total} contro un deficit di {amount}.",
    "deficit_gain": "{seat} ha offerto di più e guadagna 1 senatore.",
    "deficit_loss": "{seat} ha offerto di meno e perde 1 senatore.",
    "offer_price": "Un senatore è offerto per {price} {price:moneta|monete}.",
    "offer_taken": "{seat} compra il senatore per {price} {price:moneta|monete}.",
    "offer_unsold": "Nessuno compra il senatore.",
    "civil_exempt": "{seat} ha un Governatore e non paga nulla.",
    "civil_paid": "{seat} paga {amount} {amount:moneta|monete} alla banca.",
    "evicted": "{seat} scarta {cards}.",
    "evict_protected": "{seat} tiene i suoi Governatori (Sostegno dei Tribuni).",
    "majority_income": "{seat} riceve {amount} {amount:moneta|monete} dalla banca (avversari con meno senatori: "
                       "{weaker}).",
    "senator_sold": "{seat} vende un senatore alla banca per 5 monete.",
    "senator_sold_debt": "{seat} deve vendere un senatore alla banca per 5 monete per pagare.",
    "eliminated": "{seat} non ha più senatori ed esce dal gioco.",
    "eliminated_cards": "Le carte di {seat} sono scartate: {cards}.",
    "chooses_auction": "{seat} indice un'Asta.",
    "deck_rebuilt": "Il mazzo {dots} è vuoto: {count} {count:carta scartata è mescolata|carte scartate sono mescolate} "
                    "in un nuovo mazzo.",
    "board_empty": "Il tabellone {dots} non ha nulla da offrire.",
    "senate_rebuilt": "Il mazzo del Senato è vuoto: {count} {count:carta usata è mescolata|carte usate sono mescolate} "
                      "in un nuovo mazzo.",
    "senate_empty": "Il tabellone del Senato non ha nulla da offrire.",
    "lots": "Lotti: {cards}.",
    "bid": "{seat} punta {amount} su {card}.",
    "bids_done": "{seat} ha finito di puntare.",
    "free_lot": "Nessuno ha puntato su {card}: {seat} lo prende gratis.",
    "lot_sold": "{seat} lascia che {buyer_seat} compri {card} per {amount} {amount:moneta|monete}.",
    "lot_bought": "{seat} compra lui stesso {card} e paga {amount} {amount:moneta|monete} a {bidder_seat}.",
    "lot_merchants": "{seat} prende {card} per {amount} {amount:moneta, pagata|monete, pagate} a {bidder_seat} "
                     "(Mercanti).",
    "lot_discarded": "{card} è scartata.",
    "chooses_extortion": "{seat} sceglie l'Estorsione e prende {amount} {amount:moneta|monete} dalla banca.",
    "prefects_protect": "{seat} mette i Prefetti su {card}.",
    "prefects_none": "{seat} non protegge nulla.",
    "extort_target": "{seat} prende di mira {card} di {target_seat}.",
    "extort_price": "{seat} fissa un prezzo di {amount} {amount:moneta|monete}.",
    "extort_paid": "{seat} paga {amount} {amount:moneta|monete} e tiene {card}.",
    "extort_sold": "{seat} cede {card} per {amount} {amount:moneta|monete}.",
    "extort_spared": "{seat} risparmia {target_seat}.",
    "chooses_counters": "{seat} va agli Empori.",
    "counters_join": "{seat} paga {amount} {amount:moneta|monete} a {active_seat} e va per primo agli Empori.",
    "counters_decline": "{seat} non va agli Empori.",
    "vox_populi": "{seat} guadagna 1 senatore (Vox Populi).",
    "sale": "{seat} vende {cards} per {amount} {amount:moneta|monete}.",
    "quaestor_sale": "{seat} gioca un Questore e vende {cards} per {amount} {amount:moneta|monete}.",
    "sale_run": "(di cui {amount} per una scala di una stessa risorsa)",
    "sale_pontifex": "(di cui {amount} grazie al Pontifex Maximus)",
    "senator_bought": "{seat} compra un senatore per {price} {price:moneta|monete}.",
    "consul": "{seat} gioca un Console: i senatori costano {price} {price:moneta|monete} durante questi Empori.",
    "censor": "{seat} gioca un Censore e prende un senatore a {target_seat}.",
    "counters_done": "{seat} lascia gli Empori.",
    "game_over": "La partita è finita.",
})

add_language(CONFIRMATIONS, "it", {
    "ac.last_senator": "È il vostro ultimo senatore: venderlo vi elimina dalla partita.",
    "ac.sealed_bid": "Un'offerta segreta non si può più cambiare una volta data.",
})

_OR_SELL = " (o vendere un senatore)."
add_language(REFUSALS, "it", {
    "ac.only_draft": "Ora potete solo scegliere una carta Influenza" + _OR_SELL,
    "ac.only_sealed_bid": "Ora potete solo fare un'offerta segreta" + _OR_SELL,
    "ac.only_new_senator": "Ora potete solo accettare o rifiutare il senatore proposto" + _OR_SELL,
    "ac.only_choose_action": "Ora potete solo scegliere Asta, Estorsione o Empori" + _OR_SELL,
    "ac.only_auction_bidding": "Ora potete solo puntare sui lotti o smettere di puntare" + _OR_SELL,
    "ac.only_auction_settling": "Ora potete solo assegnare i lotti" + _OR_SELL,
    "ac.only_prefects": "Ora potete solo proteggere o no una vostra carta con i Prefetti" + _OR_SELL,
    "ac.only_extortion_target": "Ora potete solo scegliere una carta da estorcere o risparmiare questo giocatore"
                                + _OR_SELL,
    "ac.only_extortion_price": "Ora potete solo fissare un prezzo" + _OR_SELL,
    "ac.only_extortion_answer": "Ora potete solo pagare il prezzo o cedere la carta" + _OR_SELL,
    "ac.only_counters_join": "Ora potete solo andare o no agli Empori" + _OR_SELL,
    "ac.only_counters": "Ora potete solo vendere, comprare senatori, giocare carte Senato o lasciare gli Empori"
                        + _OR_SELL,
    "ac.only_governor_value": "Ora potete solo scegliere il valore del vostro Governatore" + _OR_SELL,
    "ac.no_such_lot": "Questo lotto non esiste.",
    "ac.cube_on_lot": "Avete già un cubetto su questo lotto.",
    "ac.bid_space": "Un'offerta va su una delle caselle Puntata, da {low} a {high}.",
    "ac.bid_too_low": "Un'offerta deve superare la migliore offerta su questo lotto ({best}).",
    "ac.bids_over_cash": "Le vostre offerte non possono superare in totale le monete che avete.",
    "ac.lot_too_dear": "Non avete abbastanza monete per comprare questo lotto (potete prima vendere un senatore).",
    "ac.amount": "L'importo deve essere un numero intero che potete pagare con le vostre monete.",
    "ac.not_enough_coins": "Non avete abbastanza monete (potete prima vendere un senatore).",
    "ac.no_sale": "Queste non sono tre vostre carte che formano una vendita (uno stesso tipo o uno stesso valore; "
                  "tre qualsiasi con un Questore).",
    "ac.censor_target": "Un Censore colpisce un giocatore che ha più senatori di voi e non ha i Pretori.",
})
