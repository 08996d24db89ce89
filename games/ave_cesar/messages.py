"""Ave César's game-log sentences in English and French; card ids in their arguments are put in words in the
reader's language (`render_args`)."""

from __future__ import annotations

from typing import Any

from .components import card_name


def _m(en: str, fr: str) -> dict[str, str]:
    return {"en": en, "fr": fr}


MESSAGES: dict[str, dict[str, str]] = {
    "first_player": _m("{seat} plays first.", "{seat} joue en premier."),
    "dealt": _m("You are dealt {cards}.", "Vous recevez {cards}."),
    "start_money": _m("You start with {amount} coins behind your screen.",
                      "Vous commencez avec {amount} pièces derrière votre paravent."),
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
    "offer_price": _m("A senator is offered for {price}.", "Un sénateur est proposé pour {price} pièces."),
    "offer_taken": _m("{seat} buys the senator for {price}.", "{seat} achète le sénateur pour {price} pièces."),
    "offer_unsold": _m("Nobody buys the senator.", "Personne n'achète le sénateur."),
    "civil_exempt": _m("{seat} holds a Governor and pays nothing.", "{seat} possède un Gouverneur et ne paie rien."),
    "civil_paid": _m("{seat} pays {amount} to the bank.", "{seat} paie {amount} pièces à la banque."),
    "evicted": _m("{seat} discards {cards}.", "{seat} défausse {cards}."),
    "evict_protected": _m("{seat} keeps his Governors (Tribunes' Support).",
                          "{seat} garde ses Gouverneurs (Soutien des tribuns)."),
    "majority_income": _m("{seat} receives {amount} from the bank (opponents with fewer senators: {weaker}).",
                          "{seat} reçoit {amount} pièces de la banque (adversaires avec moins de sénateurs : {weaker})."),
    "senator_sold": _m("{seat} sells a senator to the bank for 5.", "{seat} vend un sénateur à la banque pour 5 pièces."),
    "senator_sold_debt": _m("{seat} must sell a senator to the bank for 5 to pay.",
                            "{seat} doit vendre un sénateur à la banque pour 5 pièces afin de payer."),
    "eliminated": _m("{seat} has no senator left and is out of the game.",
                     "{seat} n'a plus de sénateur et sort du jeu."),
    "eliminated_cards": _m("{seat}'s cards are discarded: {cards}.", "Les cartes de {seat} sont défaussées : {cards}."),
    "chooses_auction": _m("{seat} holds an Auction.", "{seat} fait une Mise aux enchères."),
    "deck_rebuilt": _m("The {dots} deck is empty: its {count} discarded cards are shuffled into a new deck.",
                       "La pioche {dots} est vide : ses {count} cartes défaussées sont mélangées en une nouvelle pioche."),
    "board_empty": _m("The {dots} board has nothing to offer.", "Le plateau {dots} n'a rien à proposer."),
    "senate_rebuilt": _m("The Senate deck is empty: its {count} used cards are shuffled into a new deck.",
                         "La pioche Sénat est vide : ses {count} cartes utilisées sont mélangées en une nouvelle pioche."),
    "senate_empty": _m("The Senate board has nothing to offer.", "Le plateau Sénat n'a rien à proposer."),
    "lots": _m("Lots: {cards}.", "Lots : {cards}."),
    "bid": _m("{seat} bids {amount} on {card}.", "{seat} mise {amount} sur {card}."),
    "bids_done": _m("{seat} has finished bidding.", "{seat} a fini de miser."),
    "free_lot": _m("Nobody bid on {card}: {seat} takes it for free.",
                   "Personne n'a misé sur {card} : {seat} l'obtient gratuitement."),
    "lot_sold": _m("{seat} lets {buyer_seat} buy {card} for {amount}.",
                   "{seat} laisse {buyer_seat} acheter {card} pour {amount} pièces."),
    "lot_bought": _m("{seat} buys {card} himself, paying {amount} to {bidder_seat}.",
                     "{seat} achète lui-même {card} et paie {amount} pièces à {bidder_seat}."),
    "lot_merchants": _m("{seat} takes {card} for {amount}, paid to {bidder_seat} (Merchants).",
                        "{seat} prend {card} pour {amount} pièce, payée à {bidder_seat} (Marchands)."),
    "lot_discarded": _m("{card} is discarded.", "{card} est défaussée."),
    "chooses_extortion": _m("{seat} chooses Extortion and takes {amount} from the bank.",
                            "{seat} choisit l'Extorsion et prend {amount} pièces à la banque."),
    "prefects_protect": _m("{seat} puts the Prefects on {card}.", "{seat} place les Préfets sur {card}."),
    "prefects_none": _m("{seat} protects nothing.", "{seat} ne protège rien."),
    "extort_target": _m("{seat} targets {card} of {target_seat}.", "{seat} cible {card} de {target_seat}."),
    "extort_price": _m("{seat} names a price of {amount}.", "{seat} propose un prix de {amount} pièces."),
    "extort_paid": _m("{seat} pays {amount} and keeps {card}.", "{seat} paie {amount} pièces et garde {card}."),
    "extort_sold": _m("{seat} gives up {card} for {amount}.", "{seat} cède {card} pour {amount} pièces."),
    "extort_spared": _m("{seat} spares {target_seat}.", "{seat} épargne {target_seat}."),
    "chooses_counters": _m("{seat} goes to the Counters.", "{seat} va aux Comptoirs."),
    "counters_join": _m("{seat} pays {amount} to {active_seat} and goes to the Counters first.",
                        "{seat} paie {amount} pièces à {active_seat} et va d'abord aux Comptoirs."),
    "counters_decline": _m("{seat} does not go to the Counters.", "{seat} ne va pas aux Comptoirs."),
    "vox_populi": _m("{seat} gains 1 senator (Vox Populi).", "{seat} gagne 1 sénateur (Vox Populi)."),
    "sale": _m("{seat} sells {cards} for {amount}.", "{seat} vend {cards} pour {amount} pièces."),
    "quaestor_sale": _m("{seat} plays a Quaestor and sells {cards} for {amount}.",
                        "{seat} joue un Questeur et vend {cards} pour {amount} pièces."),
    "sale_run": _m("(including {amount} for a run of one resource)", "(dont {amount} pour une suite d'une même ressource)"),
    "sale_pontifex": _m("(including {amount} from the Pontifex Maximus)", "(dont {amount} grâce au Pontifex Maximus)"),
    "senator_bought": _m("{seat} buys a senator for {price}.", "{seat} achète un sénateur pour {price} pièces."),
    "consul": _m("{seat} plays a Consul: senators cost {price} during these Counters.",
                 "{seat} joue un Consul : les sénateurs coûtent {price} pièces pendant ces Comptoirs."),
    "censor": _m("{seat} plays a Censor and takes a senator from {target_seat}.",
                 "{seat} joue un Censeur et prend un sénateur à {target_seat}."),
    "counters_done": _m("{seat} leaves the Counters.", "{seat} quitte les Comptoirs."),
    "game_over": _m("The game is over.", "La partie est terminée."),
}


def render_args(args: dict[str, Any], lang: str) -> dict[str, Any]:
    """Card ids in a log entry's arguments, put in words in the reader's language."""
    i = 1 if lang == "fr" else 0
    args = dict(args)
    if "card" in args:
        args["card"] = card_name(args["card"])[i]
    if "cards" in args:
        values = {g: v for g, v in args.get("values", ())}
        args["cards"] = ", ".join(card_name(c)[i] + (f" (= {values[c]})" if c in values else "")
                                  for c in args["cards"])
    return args


WAITING = {
    "draft": ("choose an influence card", "choisir une carte Influence"),
    "sealed_bid": ("seal a secret bid", "cacher une mise secrète"),
    "new_senator": ("accept or decline the New Senator", "accepter ou refuser le Nouveau Sénateur"),
    "choose_action": ("choose Auction, Extortion or Counters", "choisir Enchères, Extorsion ou Comptoirs"),
    "auction_bidding": ("bid on the lots", "miser sur les lots"),
    "auction_settling": ("settle the lots", "régler les lots"),
    "prefects": ("protect a card with the Prefects, or not", "protéger une carte avec les Préfets, ou non"),
    "extortion_target": ("choose a card to extort", "choisir une carte à extorquer"),
    "extortion_price": ("name the price", "fixer le prix"),
    "extortion_answer": ("pay or give up the card", "payer ou céder la carte"),
    "counters_join": ("join the Counters or not", "rejoindre les Comptoirs ou non"),
    "counters": ("trade at the Counters", "commercer aux Comptoirs"),
    "governor_value": ("choose the Governor's value", "choisir la valeur du Gouverneur"),
}


def waiting_for(view: dict[str, Any], lang: str) -> str:
    """What the game waits for, after the names of the seats to act."""
    return WAITING.get(view["phase"], ("play", "jouer"))[1 if lang == "fr" else 0]
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
