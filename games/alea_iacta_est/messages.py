"""Game-log sentences, refusals and confirmations in every language, and how their arguments are printed.

Log entries keep their arguments compact (a log is copied with every state): `render_args` turns them into
language-neutral words before the sentence is filled in. Arguments whose name ends in "seat" are seats
(the core prints player names); "roll", "dice", "new", "tiles" and "combo" are values packed as digits
(345 is 3-4-5, 0 is none), and "tiles_count" says how many tiles "tiles" holds (for the words that agree
with it); "building" is a building key; "province"/"patrician" are ids,
"provinces"/"patricians"/"cards" lists of ids, and "per_seat" a count per seat ("Ann 2, Bob 1").
Entries sent with `to=[seat]` are private to that seat, so they may say "you".
"""

from typing import Any

from games.core import add_language, in_lang
from games.core.game import PLAY

from .components import BUILDING_NAMES, patrician_label, province_label

PACKED_ARGS = ("roll", "dice", "new", "tiles", "combo")


def unpack(value: int) -> str:
    return "-".join(str(value)) if value else "—"


def render_args(args: dict[str, Any], names: list[str]) -> dict[str, Any]:
    out = dict(args)
    for key, value in args.items():
        if key in PACKED_ARGS:
            out[key] = unpack(value)
            if key == "tiles":
                out["tiles_count"] = len(str(value)) if value else 0
        elif key == "building":
            out[key] = BUILDING_NAMES[value]
        elif key == "province":
            out[key] = province_label(value)
        elif key == "provinces":
            out[key] = ", ".join(province_label(p) for p in value) or "—"
        elif key == "patrician":
            out[key] = patrician_label(value)
        elif key == "patricians":
            out[key] = ", ".join(patrician_label(p) for p in value) or "—"
        elif key == "cards":
            out[key] = ", ".join(value)
        elif key == "per_seat":
            out[key] = ", ".join(f"{names[s] if s < len(names) else s} {count}"
                                 for s, count in enumerate(value) if count) or "—"
    return out


MESSAGES: dict[str, dict[str, str]] = {
    "first_player": {
        "en": "{seat} is drawn by lot to be the first start player.",
        "fr": "{seat} est tiré au sort comme premier joueur.",
    },
    "round_start": {
        "en": "Round {round} of {rounds}, {seat} starts. Provinces at the Castrum: {provinces}. "
              "Patricians at the Forum: {patricians}.",
        "fr": "Manche {round} sur {rounds}, {seat} commence. Provinces au Castrum : {provinces}. "
              "Habitants au Forum : {patricians}.",
    },
    "reroll": {
        "en": "{seat} spends a Repete chip ({chips} left) and re-rolls {dice}: {new}.",
        "fr": "{seat} dépense un jeton « relance » (il en reste {chips}) et relance {dice} : {new}.",
    },
    "place": {
        "en": "{seat} rolls {roll} and places {dice} in the {building}.",
        "fr": "{seat} obtient {roll} et place {dice} au {building}.",
    },
    "place_templum": {
        "en": "{seat} rolls {roll} and places {dice} in the Templum, drawing {count} Fortuna {count:tile|tiles} face "
              "down.",
        "fr": "{seat} obtient {roll} et place {dice} au Templum : il pioche {count} {count:jeton|jetons} "
              "« faveur divine » face cachée.",
    },
    "forum_out": {
        "en": "A {die} of {owner_seat} leaves the Forum for the Latrina.",
        "fr": "Un {die} de {owner_seat} sort du Forum et part aux latrines.",
    },
    "latrina_forced": {
        "en": "{seat} rolls {roll}, cannot place any die and puts a {die} in the Latrina.",
        "fr": "{seat} obtient {roll}, ne peut placer aucun dé et met un {die} aux latrines.",
    },
    "last_die": {
        "en": "{seat} has placed his last die: the round ends when this pass is over.",
        "fr": "{seat} a placé son dernier dé : la manche se termine à la fin de ce tour de table.",
    },
    "round_end": {
        "en": "End of round {round}. Unplaced dice go to the Latrina: {per_seat}.",
        "fr": "Fin de la manche {round}. Les dés non placés vont aux latrines : {per_seat}.",
    },
    "fortuna_draw_own": {
        "en": "You draw the Fortuna {tiles_count:tile|tiles} {tiles}.",
        "fr": "Vous piochez {tiles_count:le jeton|les jetons} « faveur divine » {tiles}.",
    },
    "fortuna_reshuffle": {
        "en": "{count} discarded Fortuna {count:tile is|tiles are} shuffled into a new draw pile.",
        "fr": "{count} {count:jeton|jetons} « faveur divine » {count:défaussé est mélangé|défaussés sont mélangés} "
              "en une nouvelle pioche.",
    },
    "fortuna_empty": {
        "en": "No Fortuna tile is left for {seat}.",
        "fr": "Il ne reste aucun jeton « faveur divine » pour {seat}.",
    },
    "templum_best": {
        "en": "Templum: {seat} is first and keeps two tiles; the others there keep one.",
        "fr": "Templum : {seat} est premier et garde deux jetons ; les autres joueurs présents en gardent un.",
    },
    "fortuna_keep": {
        "en": "{seat} keeps the Fortuna {tiles_count:tile|tiles} {tiles} face up and discards {count} "
              "{count:tile|tiles}.",
        "fr": "{seat} garde {tiles_count:le jeton|les jetons} {tiles} face visible et en défausse {count}.",
    },
    "senate_draw": {
        "en": "Senatus: {seat} has the best straight and draws {count} Senate {count:card|cards}.",
        "fr": "Senatus : {seat} a la meilleure suite et pioche {count} {count:carte|cartes} sénat.",
    },
    "senate_see": {"en": "You look at the Senate cards {cards}.", "fr": "Vous regardez les cartes sénat {cards}."},
    "senate_keep": {"en": "{seat} keeps a Senate card.", "fr": "{seat} garde une carte sénat."},
    "senate_pass": {
        "en": "{seat} passes {count} Senate {count:card|cards} to {to_seat}.",
        "fr": "{seat} passe {count} {count:carte|cartes} sénat à {to_seat}.",
    },
    "senate_under": {
        "en": "{count} Senate {count:card goes|cards go} under the deck.",
        "fr": "{count} {count:carte sénat retourne|cartes sénat retournent} sous la pioche.",
    },
    "senate_latrina": {
        "en": "{seat} gets no Senate card: {count} Senatus {count:die goes|dice go} to the Latrina.",
        "fr": "{seat} n'obtient pas de carte sénat : {count} {count:dé du Senatus va|dés du Senatus vont} aux "
              "latrines.",
    },
    "castrum_take": {
        "en": "Castrum: {seat} ({combo}) takes the province {province}.",
        "fr": "Castrum : {seat} ({combo}) prend la province {province}.",
    },
    "castrum_latrina": {
        "en": "{seat}'s Castrum combination {combo} wins nothing and goes to the Latrina.",
        "fr": "La combinaison {combo} de {seat} au Castrum ne rapporte rien et part aux latrines.",
    },
    "provinces_removed": {
        "en": "Provinces nobody took leave the game: {provinces}.",
        "fr": "Les provinces que personne n'a prises sont retirées du jeu : {provinces}.",
    },
    "forum_take": {
        "en": "Forum: {seat} (die {die}) takes the patrician {patrician}.",
        "fr": "Forum : {seat} (dé {die}) prend l'habitant {patrician}.",
    },
    "patricians_removed": {
        "en": "Patricians nobody took leave the game: {patricians}.",
        "fr": "Les habitants que personne n'a pris sont retirés du jeu : {patricians}.",
    },
    "chips": {
        "en": "Latrina: one Repete chip per die there: {per_seat}.",
        "fr": "Latrines : un jeton « relance » par dé présent : {per_seat}.",
    },
    "game_end": {
        "en": "The last round is over: final scoring.",
        "fr": "La dernière manche est finie : décompte final.",
    },
}


# Why a move asks for a confirmation (rules.confirmation): code -> the sentence in each language.
CONFIRMATIONS: dict[str, dict[str, str]] = {
    "aie.templum_final": {"en": "A Templum placement draws Fortuna tiles: it cannot be taken back.",
                          "fr": "Un placement au Templum fait piocher des jetons « faveur divine » : il ne pourra "
                                "pas être repris."},
}


WAITING: dict[str, dict[str, str]] = {
    "turn": {"en": "place dice in a building", "fr": "placer des dés dans un bâtiment",
             "it": "piazzare dadi in un edificio"},
    "end_turn": {"en": "pass the dice", "fr": "passer les dés", "it": "passare i dadi"},
    "fortuna": {"en": "keep Fortuna tiles", "fr": "garder des jetons « faveur divine »",
                "it": "tenere tessere Fortuna"},
    "senate": {"en": "keep a Senate card", "fr": "garder une carte sénat", "it": "tenere una carta Senato"},
    "castrum": {"en": "choose a province", "fr": "choisir une province", "it": "scegliere una provincia"},
    "forum": {"en": "choose a patrician", "fr": "choisir un habitant", "it": "scegliere un patrizio"},
}


def waiting_for(view: dict[str, Any], lang: str) -> str:
    """What the game waits for, after the names of the seats to act."""
    phase = "end_turn" if view["phase"] == "turn" and not view["rolled"] else view["phase"]
    return in_lang(WAITING.get(phase, PLAY), lang)
# Why an action is refused (rules.refusal): code -> the sentence in each language.
REFUSALS: dict[str, dict[str, str]] = {
    "aie.now_end_turn": {"en": "Your dice are placed: pass the dice to the next player, or take back your move.",
                         "fr": "Vos dés sont placés : passez les dés au joueur suivant, ou reprenez votre coup."},
    "aie.now_turn": {"en": "Now roll, re-roll or place dice.",
                     "fr": "À vous de relancer ou de placer des dés."},
    "aie.now_fortuna": {"en": "Now choose the Fortuna tiles you keep.",
                        "fr": "Choisissez maintenant les jetons « faveur divine » que vous gardez."},
    "aie.now_senate": {"en": "Now choose the Senate card you keep.",
                       "fr": "Choisissez maintenant la carte sénat que vous gardez."},
    "aie.now_castrum": {"en": "Now choose a province.",
                        "fr": "Choisissez maintenant une province."},
    "aie.now_forum": {"en": "Now choose a patrician.",
                      "fr": "Choisissez maintenant un habitant."},
    "aie.extra_fields": {"en": "That action has fields it does not take.",
                         "fr": "Cette action a des champs qu'elle ne prend pas."},
    "aie.dice_values": {"en": "Name the dice by their values.",
                        "fr": "Désignez les dés par leurs valeurs."},
    "aie.not_your_dice": {"en": "Those dice are not among your unplaced dice.",
                          "fr": "Ces dés ne sont pas parmi vos dés non placés."},
    "aie.no_chip": {"en": "You have no Repete chip left.",
                    "fr": "Vous n'avez plus de jeton « relance »."},
    "aie.no_reroll": {"en": "You cannot re-roll that.",
                      "fr": "Vous ne pouvez pas relancer cela."},
    "aie.latrina_not_placeable": {"en": "Dice go to the Latrina only when no building can take any (or when pushed "
                                        "out of the Forum).",
                                  "fr": "Les dés ne vont aux latrines que si aucun bâtiment ne peut en recevoir (ou "
                                        "s'ils sont chassés du Forum)."},
    "aie.no_such_building": {"en": "There is no such building.",
                             "fr": "Ce bâtiment n'existe pas."},
    "aie.no_templum": {"en": "The Templum is only used with 4 or 5 players.",
                       "fr": "Le Templum ne sert qu'à 4 ou 5 joueurs."},
    "aie.dice_order": {"en": "List the dice in increasing order.",
                       "fr": "Donnez les dés dans l'ordre croissant."},
    "aie.templum_one": {"en": "In the Templum your dice must come to exactly {count} with a sum above {sum}: place 1 "
                              "die.",
                        "fr": "Au Templum, vos dés doivent être exactement {count} avec une somme supérieure à {sum} "
                              ": placez 1 dé."},
    "aie.templum_more": {"en": "In the Templum your dice must come to exactly {count} with a sum above {sum}: place "
                               "{need} dice.",
                         "fr": "Au Templum, vos dés doivent être exactement {count} avec une somme supérieure à "
                               "{sum} : placez {need} dés."},
    "aie.senatus_straight": {"en": "Your Senatus dice must form one straight that beats the best straight there.",
                             "fr": "Vos dés au Senatus doivent former une suite qui bat la meilleure suite présente."},
    "aie.castrum_one_value": {"en": "A Castrum combination is made of dice of one value.",
                              "fr": "Une combinaison du Castrum est faite de dés d'une même valeur."},
    "aie.castrum_tie": {"en": "That Castrum combination would equal another player's, and ties are not allowed.",
                        "fr": "Cette combinaison du Castrum égalerait celle d'un autre joueur, et les égalités sont "
                              "interdites."},
    "aie.forum_rule": {"en": "The Forum takes one die, or two dice adding up to {sum}.",
                       "fr": "Le Forum prend un dé, ou deux dés dont la somme fait {sum}."},
    "aie.latrina_placeable": {"en": "You can place a die in a building, so none goes to the Latrina.",
                              "fr": "Vous pouvez placer un dé dans un bâtiment : aucun ne va aux latrines."},
    "aie.keep_fortuna": {"en": "Keep exactly {count} of the Fortuna tiles you drew this round.",
                         "fr": "Gardez exactement {count} des jetons « faveur divine » piochés cette manche."},
    "aie.keep_senate": {"en": "Keep one of the Senate cards you are offered.",
                        "fr": "Gardez l'une des cartes sénat qui vous sont proposées."},
    "aie.take_province": {"en": "Choose one of the provinces under the Castrum.",
                          "fr": "Choisissez l'une des provinces sous le Castrum."},
    "aie.take_patrician": {"en": "Choose one of the patricians under the Forum.",
                           "fr": "Choisissez l'un des habitants sous le Forum."},
}


# ---------------------------------------------------------------------------------------------- Italian

add_language(MESSAGES, "it", {
    "first_player": "{seat} è sorteggiato come primo giocatore.",
    "round_start": "Round {round} di {rounds}, comincia {seat}. Province al Castrum: {provinces}. "
                   "Patrizi al Foro: {patricians}.",
    "reroll": "{seat} spende un gettone Repete (gliene {chips:resta|restano} {chips}) e rilancia {dice}: {new}.",
    "place": "{seat} ottiene {roll} e piazza {dice} nel {building}.",
    "place_templum": "{seat} ottiene {roll} e piazza {dice} nel Templum, pescando {count} {count:tessera|tessere} "
                     "Fortuna {count:coperta|coperte}.",
    "forum_out": "Un {die} di {owner_seat} esce dal Foro e finisce nella Latrina.",
    "latrina_forced": "{seat} ottiene {roll}, non può piazzare nessun dado e mette un {die} nella Latrina.",
    "last_die": "{seat} ha piazzato il suo ultimo dado: il round finisce al termine di questo giro.",
    "round_end": "Fine del round {round}. I dadi non piazzati vanno nella Latrina: {per_seat}.",
    "fortuna_draw_own": "Pescate {tiles_count:la tessera|le tessere} Fortuna {tiles}.",
    "fortuna_reshuffle": "{count} {count:tessera Fortuna scartata è mescolata|tessere Fortuna scartate sono "
                         "mescolate} in un nuovo mazzo.",
    "fortuna_empty": "Non resta nessuna tessera Fortuna per {seat}.",
    "templum_best": "Templum: {seat} è primo e tiene due tessere; gli altri presenti ne tengono una.",
    "fortuna_keep": "{seat} tiene {tiles_count:scoperta la tessera|scoperte le tessere} Fortuna {tiles} e ne "
                    "scarta {count}.",
    "senate_draw": "Senatus: {seat} ha la scala migliore e pesca {count} {count:carta|carte} Senato.",
    "senate_see": "Guardate le carte Senato {cards}.",
    "senate_keep": "{seat} tiene una carta Senato.",
    "senate_pass": "{seat} passa {count} {count:carta|carte} Senato a {to_seat}.",
    "senate_under": "{count} {count:carta Senato torna|carte Senato tornano} sotto il mazzo.",
    "senate_latrina": "{seat} non ottiene carte Senato: {count} {count:dado del Senatus va|dadi del Senatus vanno} "
                      "nella Latrina.",
    "castrum_take": "Castrum: {seat} ({combo}) prende la provincia {province}.",
    "castrum_latrina": "La combinazione {combo} di {seat} al Castrum non vince nulla e finisce nella Latrina.",
    "provinces_removed": "Le province che nessuno ha preso escono dal gioco: {provinces}.",
    "forum_take": "Foro: {seat} (dado {die}) prende il patrizio {patrician}.",
    "patricians_removed": "I patrizi che nessuno ha preso escono dal gioco: {patricians}.",
    "chips": "Latrina: un gettone Repete per ogni dado presente: {per_seat}.",
    "game_end": "L'ultimo round è finito: conteggio finale.",
})

add_language(CONFIRMATIONS, "it", {
    "aie.templum_final": "Un piazzamento nel Templum fa pescare tessere Fortuna: non si potrà riprendere.",
})

add_language(REFUSALS, "it", {
    "aie.now_end_turn": "I vostri dadi sono piazzati: passate i dadi al giocatore successivo o riprendete la mossa.",
    "aie.now_turn": "Ora rilanciate o piazzate dadi.",
    "aie.now_fortuna": "Ora scegliete le tessere Fortuna che tenete.",
    "aie.now_senate": "Ora scegliete la carta Senato che tenete.",
    "aie.now_castrum": "Ora scegliete una provincia.",
    "aie.now_forum": "Ora scegliete un patrizio.",
    "aie.extra_fields": "Questa azione ha campi che non prevede.",
    "aie.dice_values": "Indicate i dadi con i loro valori.",
    "aie.not_your_dice": "Questi dadi non sono tra i vostri dadi non piazzati.",
    "aie.no_chip": "Non avete più gettoni Repete.",
    "aie.no_reroll": "Non potete rilanciare questo.",
    "aie.latrina_not_placeable": "I dadi vanno nella Latrina solo se nessun edificio può accoglierne (o se sono "
                                 "cacciati dal Foro).",
    "aie.no_such_building": "Questo edificio non esiste.",
    "aie.no_templum": "Il Templum si usa solo con 4 o 5 giocatori.",
    "aie.dice_order": "Indicate i dadi in ordine crescente.",
    "aie.templum_one": "Nel Templum i vostri dadi devono essere esattamente {count} con una somma superiore a {sum}: "
                       "piazzate 1 dado.",
    "aie.templum_more": "Nel Templum i vostri dadi devono essere esattamente {count} con una somma superiore a "
                        "{sum}: piazzate {need} dadi.",
    "aie.senatus_straight": "I vostri dadi nel Senatus devono formare una scala che batta la migliore scala presente.",
    "aie.castrum_one_value": "Una combinazione del Castrum è fatta di dadi di uno stesso valore.",
    "aie.castrum_tie": "Questa combinazione del Castrum eguaglierebbe quella di un altro giocatore, e le parità "
                       "non sono ammesse.",
    "aie.forum_rule": "Il Foro accoglie un dado, o due dadi la cui somma fa {sum}.",
    "aie.latrina_placeable": "Potete piazzare un dado in un edificio, quindi nessuno va nella Latrina.",
    "aie.keep_fortuna": "Tenete esattamente {count} delle tessere Fortuna pescate in questo round.",
    "aie.keep_senate": "Tenete una delle carte Senato che vi sono proposte.",
    "aie.take_province": "Scegliete una delle province sotto il Castrum.",
    "aie.take_patrician": "Scegliete uno dei patrizi sotto il Foro.",
})
