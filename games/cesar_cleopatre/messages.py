"""The game-log sentences, refusals and confirmations in every language, and how their arguments are put into words.

Log arguments stay small codes (a group name, a card value, an action card name); `render_args` turns them
into the words of one language just before formatting. Arguments whose name ends in "seat" are seats and
become player names (the core does that).
"""

from __future__ import annotations

from typing import Any

from games.core import add_language, in_lang

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
    "refill": {"en": "{seat} draws {influence} influence {influence:card|cards} and {actions} action "
                     "{actions:card|cards}.",
               "fr": "{seat} pioche {influence} {influence:carte|cartes} Influence et {actions} "
                     "{actions:carte|cartes} Manipulation."},
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
    "castling_taken": {"en": "{seat} takes back {count} {count:card|cards} from the {group} and the {group2}.",
                       "fr": "{seat} reprend {count} {count:carte|cartes} devant les {group} et les {group2}."},
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


def card_words(card: Any, lang: str) -> str:
    """An influence value or an action card in words."""
    if isinstance(card, int):
        return in_lang(PHILOSOPHER, lang) if card == 0 else str(card)
    return in_lang(ACTION_NAMES[card], lang) if card in ACTION_NAMES else str(card)


def cards_words(cards: list[Any], lang: str) -> str:
    if not cards:
        return in_lang(NOTHING, lang)
    return ", ".join(card_words(c, lang) for c in cards)


PHILOSOPHER = {"en": "Philosopher", "fr": "Philosophe", "it": "Filosofo"}
NOTHING = {"en": "nothing", "fr": "rien", "it": "niente"}
EIGHT_CARDS = {"en": " (8 cards)", "fr": " (8 cartes)", "it": " (8 carte)"}
REVERSED = {"en": ", reversed by the Philosophers", "fr": ", inversé par les Philosophes",
            "it": ", invertito dai Filosofi"}
TARGET_GROUPS = {"en": " on the {a} and the {b}", "fr": " sur les {a} et les {b}", "it": " sui {a} e sui {b}"}
TARGET_CARD = {"en": " on the {card} at the {group}", "fr": " sur le {card} devant les {group}",
               "it": " sul {card} davanti ai {group}"}
TARGET_GROUP = {"en": " on the {group}", "fr": " sur les {group}", "it": " sui {group}"}


def render_args(key: str, args: dict[str, Any], lang: str) -> dict[str, Any]:
    out = dict(args)

    def group(name: str) -> str:
        return in_lang(GROUP_NAMES[name]["many"], lang)

    for name in ("group", "group2"):
        if name in args:
            out[name] = group(args[name])
    if "value" in args:
        out["card"] = card_words(args["value"], lang)
    if key in ("discard", "spy_discard") and "card" in args:
        out["card"] = card_words(args["card"], lang)
    if key == "replacement_own":
        out["card"] = card_words(args["card"], lang)
    if key == "vote_card":
        out["card"] = in_lang(VOTE_CARD_NAMES[args["card"]], lang)
    for name in ("values", "a_values", "b_values", "cards"):
        if name in args:
            out[name] = cards_words(args[name], lang)
    if "pile" in args:
        out["pile"] = in_lang(PILE_NAMES[args["pile"]], lang)
    if "reason" in args:
        out["reason"] = in_lang(END_REASONS[args["reason"]], lang)
    for name in ("a_mission", "b_mission"):
        if name in args:
            out[name] = group(args[name])
    if "cause" in args:
        out["cause"] = in_lang(EIGHT_CARDS, lang) if args["cause"] == "eight" else ""
    if "reversed" in args:
        out["reversed"] = in_lang(REVERSED, lang) if args["reversed"] else ""
    if key in ("announce", "veto"):
        out["action"] = in_lang(ACTION_NAMES[args["card"]], lang)
    if key == "announce":
        target = ""
        if "groups" in args:
            a, b = (group(g) for g in args["groups"])
            target = in_lang(TARGET_GROUPS, lang).format(a=a, b=b)
        elif "value" in args:
            target = in_lang(TARGET_CARD, lang).format(card=out["card"], group=out["group"])
        elif "group" in args:
            target = in_lang(TARGET_GROUP, lang).format(group=out["group"])
        out["target"] = target
    return out


def waiting_for(view: dict[str, Any], lang: str) -> str:
    """What the game waits for, after the names of the seats to act."""
    phase, t = view["phase"], view["turn_state"]
    if phase == "veto":
        card = card_words(view["pending"]["card"], lang) if view["pending"] else ""
        return in_lang(WAITING["veto"], lang).format(card=card)
    if phase in WAITING:
        return in_lang(WAITING[phase], lang)
    if t["mode"] == "up" and t["placed"] == 1:
        return in_lang(WAITING["second_up"], lang)
    if t["mode"] and (t["mode"] == "down" or t["placed"] == 2):
        return in_lang(WAITING["action_or_draw"], lang)
    return in_lang(WAITING["turn"], lang)


WAITING: dict[str, dict[str, str]] = {
    "setup": {"en": "place a face-down card at each group", "fr": "poser une carte face cachée devant chaque groupe",
              "it": "posare una carta coperta davanti a ogni gruppo"},
    "spy": {"en": "choose a card of the spied hand", "fr": "choisir une carte de la main espionnée",
            "it": "scegliere una carta della mano spiata"},
    "spy_draw": {"en": "draw a replacement card", "fr": "piocher une carte de remplacement",
                 "it": "pescare una carta sostitutiva"},
    "castle": {"en": "redeal the castled cards face down", "fr": "répartir face cachée les cartes du Roque",
               "it": "ridistribuire coperte le carte dell'Arrocco"},
    "draw": {"en": "refill the hand to 5 cards", "fr": "compléter sa main à 5 cartes",
             "it": "riportare la mano a 5 carte"},
    "exchange": {"en": "discard cards, then draw (passive turn)", "fr": "défausser puis piocher (tour passif)",
                 "it": "scartare e poi pescare (turno passivo)"},
    "final": {"en": "place every influence card the limits allow (last turn)",
              "fr": "poser toutes les cartes Influence possibles (dernier tour)",
              "it": "posare tutte le carte Influenza consentite dai limiti (ultimo turno)"},
    "veto": {"en": "veto the {card} or let it pass", "fr": "opposer son Veto à la carte {card} ou laisser faire",
             "it": "opporre il Veto alla carta {card} o lasciar fare"},
    "second_up": {"en": "place the second face-up card", "fr": "poser la seconde carte face visible",
                  "it": "posare la seconda carta scoperta"},
    "action_or_draw": {"en": "play an action card or draw", "fr": "jouer une carte Manipulation ou piocher",
                       "it": "giocare una carta Manipolazione o pescare"},
    "turn": {"en": "place influence, play an action card or stay passive",
             "fr": "poser de l'influence, jouer une carte Manipulation ou rester passif",
             "it": "posare Influenza, giocare una carta Manipolazione o restare passivo"},
}


# Why a move asks for a confirmation (rules.confirmation): code -> the sentence in each language.
CONFIRMATIONS: dict[str, dict[str, str]] = {
    "cc.turn_with_actions_unused": {
        "en": "Drawing now ends your turn without the action card you could still play.",
        "fr": "Piocher maintenant termine votre tour sans la carte Manipulation que vous pouviez encore jouer."},
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
    "cc.own_limit": {"en": "You already have {limit} {limit:card|cards} at that group.",
                     "fr": "Vous avez déjà {limit} {limit:carte|cartes} à ce groupe."},
    "cc.group_full": {"en": "That group already holds {limit} {limit:card|cards}.",
                      "fr": "Ce groupe a déjà {limit} {limit:carte|cartes}."},
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


# ---------------------------------------------------------------------------------------------- Italian
# The vocabulary of the Italian rule summary (Patrizi, Influenza, Manipolazione, Suffragio, Riserva).

add_language(MESSAGES, "it", {
    "setup_done": "{seat} ha posato una carta coperta davanti a ogni gruppo.",
    "arranged": "{seat} ha ordinato la riserva di Manipolazione.",
    "turn": "Turno {n}: {seat}.",
    "final_turn": "{out_seat} non ha più carte Influenza: {seat} gioca un ultimo turno e deve posare tutte le "
                  "carte Influenza che i limiti consentono.",
    "passive": "{seat} resta passivo.",
    "pass": "{seat} passa.",
    "discard": "{seat} scarta {card}.",
    "place_down": "{seat} posa una carta coperta davanti ai {group}.",
    "place_down_own": "Posate il vostro {card} coperto davanti ai {group}.",
    "place_up": "{seat} posa {card} scoperta davanti ai {group}.",
    "refill": "{seat} pesca {influence} {influence:carta|carte} Influenza e {actions} {actions:carta|carte} "
              "Manipolazione.",
    "refill_own": "Pescate: {cards}.",
    "replacement": "{seat} pesca una carta sostitutiva dalla {pile}.",
    "replacement_own": "Pescate in sostituzione: {card}.",
    "announce": "{seat} gioca {action}{target}.",
    "allow": "{seat} lascia fare.",
    "veto": "{seat} oppone il Veto alla carta {action}: entrambe le carte sono scartate.",
    "assassinated": "La carta {card} di {seat} davanti ai {group} è assassinata.",
    "scouted": "Le carte di {seat} davanti ai {group} vengono scoperte: {values}.",
    "wrath": "L'ira degli dèi colpisce i {group}: {a_seat} perde {a_values}, {b_seat} perde {b_values}.",
    "spy_seen": "Mano di {seat}: {cards}.",
    "spy_discard": "{seat} deve scartare {card}.",
    "castling_taken": "{seat} riprende {count} {count:carta|carte} davanti ai {group} e ai {group2}.",
    "castled": "{seat} le ridistribuisce coperte: {count} davanti ai {group}, {count2} davanti ai {group2}.",
    "vote_card": "Carta Suffragio: {card}.",
    "reshuffle": "Le carte Suffragio vengono rimescolate.",
    "vote_tie": "Suffragio dei {group}{cause}: {a_seat} {a_values} = {a_sum}, {b_seat} {b_values} = {b_sum}. "
                "Parità: nessuno vince, le carte restano scoperte.",
    "vote_won": "Suffragio dei {group}{cause}: {a_seat} {a_values} = {a_sum}, {b_seat} {b_values} = {b_sum}"
                "{reversed}. {winner_seat} conquista un patrizio.",
    "vote_discard": "{seat} scarta {values}.",
    "exhausted": "L'ultimo dei {group} è conquistato: le loro carte sono scartate e la loro carta Suffragio "
                 "esce dal gioco.",
    "orgy_removed": "Un secondo gruppo è esaurito: una carta Orgia esce dal gioco.",
    "game_over": "La partita è finita: {reason}. Missioni: {a_seat} {a_mission}, {b_seat} {b_mission}.",
})

add_language(CONFIRMATIONS, "it", {
    "cc.turn_with_actions_unused": "Pescare ora chiude il vostro turno senza la carta Manipolazione che potevate "
                                   "ancora giocare.",
})

add_language(REFUSALS, "it", {
    "cc.setup_first": "Posate prima una carta della vostra serie iniziale a ogni gruppo, poi ordinate la riserva "
                      "di Manipolazione.",
    "cc.no_veto": "Non avete carte Veto.",
    "cc.answer_action": "Rispondete alla carta Manipolazione: opponete il Veto o lasciate fare.",
    "cc.spy_choose": "Scegliete una carta della mano dell'avversario, che lui scarterà.",
    "cc.castle_place": "Posate coperte le carte riprese davanti ai due gruppi dell'Arrocco, entro i limiti.",
    "cc.draw_now": "Pescate dalla riserva di Influenza o dalla riserva di Manipolazione.",
    "cc.no_such_group": "Questo gruppo non esiste.",
    "cc.passive_no_place": "Questo turno siete passivi: non si posa Influenza.",
    "cc.no_such_influence": "Non avete questa carta Influenza in mano.",
    "cc.group_closed": "Questo gruppo non ha più patrizi.",
    "cc.own_limit": "Avete già {limit} {limit:carta|carte} davanti a questo gruppo.",
    "cc.group_full": "Questo gruppo ha già {limit} {limit:carta|carte}.",
    "cc.second_face_up": "Anche la seconda carta va posata scoperta.",
    "cc.placed_already": "Avete già posato la vostra Influenza in questo turno.",
    "cc.no_second_face_up": "Le carte scoperte si posano in coppia, e la seconda non avrebbe dove andare.",
    "cc.placement_not_allowed": "Questa posa non è consentita.",
    "cc.final_no_action": "Nell'ultimo turno non si gioca nessuna carta Manipolazione.",
    "cc.passive_no_action": "Questo turno siete passivi: non si gioca nessuna carta Manipolazione.",
    "cc.one_action": "Si può giocare una sola carta Manipolazione per turno.",
    "cc.second_face_up_first": "Posate prima la vostra seconda carta scoperta.",
    "cc.no_such_action_card": "Non avete questa carta Manipolazione in mano.",
    "cc.veto_only_answer": "Il Veto si gioca solo contro una carta Manipolazione dell'avversario.",
    "cc.no_such_target": "Questa carta Manipolazione non può avere questo bersaglio.",
    "cc.active_begun": "Avete già cominciato un turno attivo.",
    "cc.no_passive": "Ora non potete restare passivi.",
    "cc.discard_passive_only": "Si scartano carte solo in un turno passivo.",
    "cc.drawing_started": "Avete cominciato a pescare: niente più scarti.",
    "cc.no_such_card": "Non avete questa carta in mano.",
    "cc.place_before_draw": "Posate la vostra Influenza prima di pescare.",
    "cc.no_draw": "Ora non potete pescare.",
    "cc.turn_unfinished": "Dovete ancora posare Influenza o pescare.",
    "cc.final_place_all": "Nell'ultimo turno posate tutte le carte Influenza che potete.",
})
