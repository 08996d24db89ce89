"""The game-log sentences, in English and French, and how their arguments are put into words.

Log arguments stay small codes (a group name, a card value, an action card name); `render_args` turns them
into the words of one language just before formatting. Arguments whose name ends in "seat" are seats and
become player names (the core does that).
"""

from __future__ import annotations

from typing import Any

from .components import ACTION_NAMES, END_REASONS, GROUP_NAMES, PILE_NAMES, VOTE_CARD_NAMES

MESSAGES: dict[str, dict[str, str]] = {
    "setup_done": {"en": "{seat} has placed a face-down card at each group.",
                   "fr": "{seat} a posé une carte face cachée devant chaque groupe."},
    "arranged": {"en": "{seat} has arranged the action pile.",
                 "fr": "{seat} a classé sa réserve de manipulation."},
    "turn": {"en": "Turn {n}: {seat}.", "fr": "Tour {n} : {seat}."},
    "final_turn": {"en": "{out_seat} has no influence cards left: {seat} plays a last turn and must place "
                         "every influence card the limits allow.",
                   "fr": "{out_seat} n'a plus de cartes Influence : {seat} joue un dernier tour et doit poser "
                         "toutes les cartes Influence que les limites permettent."},
    "passive": {"en": "{seat} stays passive.", "fr": "{seat} reste passif."},
    "pass": {"en": "{seat} passes.", "fr": "{seat} passe."},
    "discard": {"en": "{seat} discards {card}.", "fr": "{seat} défausse {card}."},
    "place_down": {"en": "{seat} places a card face down at the {group}.",
                   "fr": "{seat} pose une carte face cachée devant les {group}."},
    "place_down_own": {"en": "You place your {card} face down at the {group}.",
                       "fr": "Vous posez votre {card} face cachée devant les {group}."},
    "place_up": {"en": "{seat} places {card} face up at the {group}.",
                 "fr": "{seat} pose {card} face visible devant les {group}."},
    "refill": {"en": "{seat} draws {influence} influence and {actions} action card(s).",
               "fr": "{seat} pioche {influence} carte(s) Influence et {actions} Manipulation."},
    "refill_own": {"en": "You draw: {cards}.", "fr": "Vous piochez : {cards}."},
    "replacement": {"en": "{seat} draws a replacement card from the {pile}.",
                    "fr": "{seat} pioche une carte de remplacement dans la {pile}."},
    "replacement_own": {"en": "You draw a replacement: {card}.", "fr": "Vous piochez en remplacement : {card}."},
    "announce": {"en": "{seat} plays {action}{target}.", "fr": "{seat} joue {action}{target}."},
    "allow": {"en": "{seat} lets it pass.", "fr": "{seat} laisse faire."},
    "veto": {"en": "{seat} vetoes the {action}: both cards are discarded.",
             "fr": "{seat} oppose son Veto à la carte {action} : les deux cartes sont défaussées."},
    "assassinated": {"en": "{seat}'s {card} at the {group} is assassinated.",
                     "fr": "La carte {card} de {seat} devant les {group} est assassinée."},
    "scouted": {"en": "{seat}'s cards at the {group} are turned face up: {values}.",
                "fr": "Les cartes de {seat} devant les {group} sont retournées : {values}."},
    "wrath": {"en": "The wrath of the gods strikes the {group}: {a_seat} loses {a_values}, {b_seat} loses {b_values}.",
              "fr": "La colère des dieux frappe les {group} : {a_seat} perd {a_values}, {b_seat} perd {b_values}."},
    "spy_seen": {"en": "{seat}'s hand: {cards}.", "fr": "Main de {seat} : {cards}."},
    "spy_discard": {"en": "{seat} must discard {card}.", "fr": "{seat} doit défausser {card}."},
    "castling_taken": {"en": "{seat} takes back {count} card(s) from the {group} and the {group2}.",
                       "fr": "{seat} reprend {count} carte(s) devant les {group} et les {group2}."},
    "castled": {"en": "{seat} redeals them face down: {count} at the {group}, {count2} at the {group2}.",
                "fr": "{seat} les répartit face cachée : {count} devant les {group}, {count2} devant les {group2}."},
    "vote_card": {"en": "Vote card: {card}.", "fr": "Carte Suffrage : {card}."},
    "reshuffle": {"en": "The vote cards are reshuffled.", "fr": "Les cartes Suffrage sont remélangées."},
    "vote_tie": {"en": "Vote on the {group}{cause}: {a_seat} {a_values} = {a_sum}, {b_seat} {b_values} = {b_sum}. "
                       "A tie: nobody wins, the cards stay face up.",
                 "fr": "Suffrage des {group}{cause} : {a_seat} {a_values} = {a_sum}, {b_seat} {b_values} = {b_sum}. "
                       "Égalité : personne ne gagne, les cartes restent face visible."},
    "vote_won": {"en": "Vote on the {group}{cause}: {a_seat} {a_values} = {a_sum}, {b_seat} {b_values} = {b_sum}"
                       "{reversed}. {winner_seat} wins a patrician.",
                 "fr": "Suffrage des {group}{cause} : {a_seat} {a_values} = {a_sum}, {b_seat} {b_values} = {b_sum}"
                       "{reversed}. {winner_seat} recrute un patricien."},
    "vote_discard": {"en": "{seat} discards {values}.", "fr": "{seat} défausse {values}."},
    "exhausted": {"en": "The last of the {group} is won: their cards are discarded and their vote card leaves the game.",
                  "fr": "Le dernier des {group} est recruté : leurs cartes sont défaussées et leur carte Suffrage "
                        "quitte le jeu."},
    "orgy_removed": {"en": "A second group is exhausted: one Orgy card leaves the game.",
                     "fr": "Un second groupe est épuisé : une carte Orgie quitte le jeu."},
    "game_over": {"en": "The game is over: {reason}. Missions: {a_seat} {a_mission}, {b_seat} {b_mission}.",
                  "fr": "La partie est finie : {reason}. Missions : {a_seat} {a_mission}, {b_seat} {b_mission}."},
}


def _lang(lang: str) -> int:
    return 1 if lang == "fr" else 0


def card_words(card: Any, lang: str) -> str:
    """An influence value or an action card in words."""
    i = _lang(lang)
    if isinstance(card, int):
        return ("Philosopher", "Philosophe")[i] if card == 0 else str(card)
    return ACTION_NAMES.get(card, (str(card), str(card)))[i]


def cards_words(cards: list[Any], lang: str) -> str:
    if not cards:
        return ("nothing", "rien")[_lang(lang)]
    return ", ".join(card_words(c, lang) for c in cards)


def render_args(key: str, args: dict[str, Any], lang: str) -> dict[str, Any]:
    i = _lang(lang)
    out = dict(args)
    for name in ("group", "group2"):
        if name in args:
            out[name] = GROUP_NAMES[args[name]][i]
    if "value" in args:
        out["card"] = card_words(args["value"], lang)
    if key in ("discard", "spy_discard") and "card" in args:
        out["card"] = card_words(args["card"], lang)
    if key == "replacement_own":
        out["card"] = card_words(args["card"], lang)
    if key == "vote_card":
        out["card"] = VOTE_CARD_NAMES[args["card"]][i]
    for name in ("values", "a_values", "b_values", "cards"):
        if name in args:
            out[name] = cards_words(args[name], lang)
    if "pile" in args:
        out["pile"] = PILE_NAMES[args["pile"]][i]
    if "reason" in args:
        out["reason"] = END_REASONS[args["reason"]][i]
    for name in ("a_mission", "b_mission"):
        if name in args:
            out[name] = GROUP_NAMES[args[name]][i]
    if "cause" in args:
        out["cause"] = ((" (8 cards)", " (8 cartes)")[i]) if args["cause"] == "eight" else ""
    if "reversed" in args:
        out["reversed"] = ((", reversed by the Philosophers", ", inversé par les Philosophes")[i]
                           if args["reversed"] else "")
    if key in ("announce", "veto"):
        out["action"] = ACTION_NAMES[args["card"]][i]
    if key == "announce":
        target = ""
        if "groups" in args:
            a, b = (GROUP_NAMES[g][i] for g in args["groups"])
            target = (f" on the {a} and the {b}", f" sur les {a} et les {b}")[i]
        elif "value" in args:
            target = (f" on the {out['card']} at the {out['group']}",
                      f" sur le {out['card']} devant les {out['group']}")[i]
        elif "group" in args:
            target = (f" on the {out['group']}", f" sur les {out['group']}")[i]
        out["target"] = target
    return out


def waiting_for(view: dict[str, Any], lang: str) -> str:
    """What the game waits for, after the names of the seats to act."""
    i = _lang(lang)
    phase, t = view["phase"], view["turn_state"]
    if phase == "veto":
        card = card_words(view["pending"]["card"], lang) if view["pending"] else ""
        return (f"veto the {card} or let it pass", f"opposer son Veto à la carte {card} ou laisser faire")[i]
    if phase in WAITING:
        return WAITING[phase][i]
    if t["mode"] == "up" and t["placed"] == 1:
        return ("place the second face-up card", "poser la seconde carte face visible")[i]
    if t["mode"] and (t["mode"] == "down" or t["placed"] == 2):
        return ("play an action card or draw", "jouer une carte Manipulation ou piocher")[i]
    return ("place influence, play an action card or stay passive",
            "poser de l'influence, jouer une carte Manipulation ou rester passif")[i]


# Why a move asks for a confirmation (rules.confirmation): code -> the sentence in each language.
CONFIRMATIONS: dict[str, dict[str, str]] = {
    "cc.turn_with_actions_unused": {
        "en": "Drawing now ends your turn without the action card you could still play.",
        "fr": "Piocher maintenant termine votre tour sans la carte Manipulation que vous pouviez encore jouer."},
}


WAITING = {
    "setup": ("place a face-down card at each group", "poser une carte face cachée devant chaque groupe"),
    "spy": ("choose a card of the spied hand", "choisir une carte de la main espionnée"),
    "spy_draw": ("draw a replacement card", "piocher une carte de remplacement"),
    "castle": ("redeal the castled cards face down", "répartir face cachée les cartes du Roque"),
    "draw": ("refill the hand to 5 cards", "compléter sa main à 5 cartes"),
    "exchange": ("discard cards, then draw (passive turn)", "défausser puis piocher (tour passif)"),
    "final": ("place every influence card the limits allow (last turn)",
              "poser toutes les cartes Influence possibles (dernier tour)"),
}


# Why an action is refused (rules.refusal): code -> the sentence in each language.
REFUSALS: dict[str, dict[str, str]] = {
    "cc.setup_first": {"en": "First place one card of your setup series at each group, then arrange your action pile.",
                       "fr": "Posez d'abord une carte de votre série de départ à chaque groupe, puis classez votre "
                             "réserve de manipulation."},
    "cc.no_veto": {"en": "You hold no Veto card.",
                   "fr": "Vous n'avez pas de carte Veto."},
    "cc.answer_action": {"en": "Answer the action card: Veto it or let it pass.",
                         "fr": "Répondez à la carte Manipulation : opposez-lui un Veto ou laissez-la passer."},
    "cc.spy_choose": {"en": "Choose one card of your opponent's hand for him to discard.",
                      "fr": "Choisissez une carte de la main de votre adversaire, qu'il défaussera."},
    "cc.castle_place": {"en": "Place the cards taken back face down at the two castled groups, within the limits.",
                        "fr": "Posez les cartes reprises face cachée aux deux groupes du roque, dans les limites."},
    "cc.draw_now": {"en": "Draw from the influence reserve or from the action reserve.",
                    "fr": "Piochez dans la réserve d'influence ou dans la réserve de manipulation."},
    "cc.no_such_group": {"en": "There is no such group.",
                         "fr": "Ce groupe n'existe pas."},
    "cc.passive_no_place": {"en": "You are passive this turn: no influence is placed.",
                            "fr": "Vous êtes passif ce tour-ci : aucune carte Influence n'est posée."},
    "cc.no_such_influence": {"en": "You have no such influence card in hand.",
                             "fr": "Vous n'avez pas cette carte Influence en main."},
    "cc.group_closed": {"en": "That group has no patricians left.",
                        "fr": "Ce groupe n'a plus de patriciens."},
    "cc.own_limit": {"en": "You already have {limit} cards at that group.",
                     "fr": "Vous avez déjà {limit} cartes à ce groupe."},
    "cc.group_full": {"en": "That group already holds {limit} cards.",
                      "fr": "Ce groupe a déjà {limit} cartes."},
    "cc.second_face_up": {"en": "Your second card must also go face up.",
                          "fr": "Votre seconde carte doit aussi être posée face visible."},
    "cc.placed_already": {"en": "You have already placed your influence this turn.",
                          "fr": "Vous avez déjà posé votre influence ce tour-ci."},
    "cc.no_second_face_up": {"en": "Two cards go face up together, and the second one would have nowhere to go.",
                             "fr": "Les cartes face visible se posent par deux, et la seconde n'aurait nulle part où "
                                   "aller."},
    "cc.placement_not_allowed": {"en": "That placement is not allowed.",
                                 "fr": "Cette pose n'est pas permise."},
    "cc.final_no_action": {"en": "No action card is played in the last turn.",
                           "fr": "Aucune carte Manipulation n'est jouée au dernier tour."},
    "cc.passive_no_action": {"en": "You are passive this turn: no action card is played.",
                             "fr": "Vous êtes passif ce tour-ci : aucune carte Manipulation n'est jouée."},
    "cc.one_action": {"en": "Only one action card may be played per turn.",
                      "fr": "Une seule carte Manipulation peut être jouée par tour."},
    "cc.second_face_up_first": {"en": "Place your second face-up card first.",
                                "fr": "Posez d'abord votre seconde carte face visible."},
    "cc.no_such_action_card": {"en": "You have no such action card in hand.",
                               "fr": "Vous n'avez pas cette carte Manipulation en main."},
    "cc.veto_only_answer": {"en": "A Veto is only played against your opponent's action card.",
                            "fr": "Un Veto ne se joue que contre une carte Manipulation de l'adversaire."},
    "cc.no_such_target": {"en": "That action card has no such target.",
                          "fr": "Cette carte Manipulation ne peut pas viser cela."},
    "cc.active_begun": {"en": "You have already begun an active turn.",
                        "fr": "Vous avez déjà commencé un tour actif."},
    "cc.no_passive": {"en": "You cannot stay passive now.",
                      "fr": "Vous ne pouvez pas rester passif maintenant."},
    "cc.discard_passive_only": {"en": "Cards are discarded only in a passive turn.",
                                "fr": "On ne défausse des cartes que lors d'un tour passif."},
    "cc.drawing_started": {"en": "You have started drawing: no more discards.",
                           "fr": "Vous avez commencé à piocher : plus de défausse."},
    "cc.no_such_card": {"en": "You have no such card in hand.",
                        "fr": "Vous n'avez pas cette carte en main."},
    "cc.place_before_draw": {"en": "Place your influence before drawing.",
                             "fr": "Posez votre influence avant de piocher."},
    "cc.no_draw": {"en": "You cannot draw now.",
                   "fr": "Vous ne pouvez pas piocher maintenant."},
    "cc.turn_unfinished": {"en": "You still have to place influence or draw cards.",
                           "fr": "Vous devez encore poser de l'influence ou piocher."},
    "cc.final_place_all": {"en": "In the last turn, place every influence card you can.",
                           "fr": "Au dernier tour, posez toutes les cartes Influence que vous pouvez."},
}
