"""Game-log sentences, English and French, and how their arguments are printed.

Log entries keep their arguments compact (a log is copied with every state): `render_args` turns them into
language-neutral words before the sentence is filled in. Arguments whose name ends in "seat" are seats
(the core prints player names); "roll", "dice", "new", "tiles" and "combo" are values packed as digits
(345 is 3-4-5, 0 is none); "building" is a building key; "province"/"patrician" are ids,
"provinces"/"patricians"/"cards" lists of ids, and "per_seat" a count per seat ("Ann 2, Bob 1").
Entries sent with `to=[seat]` are private to that seat, so they may say "you".
"""

from typing import Any

from .components import BUILDING_NAMES, patrician_label, province_label

PACKED_ARGS = ("roll", "dice", "new", "tiles", "combo")


def unpack(value: int) -> str:
    return "-".join(str(value)) if value else "—"


def render_args(args: dict[str, Any], names: list[str]) -> dict[str, Any]:
    out = dict(args)
    for key, value in args.items():
        if key in PACKED_ARGS:
            out[key] = unpack(value)
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
        "en": "{seat} rolls {roll} and places {dice} in the Templum, drawing {count} Fortuna tile(s) face down.",
        "fr": "{seat} obtient {roll} et place {dice} au Templum : il pioche {count} jeton(s) « faveur divine » "
              "face cachée.",
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
        "en": "You draw Fortuna tile(s) {tiles}.",
        "fr": "Vous piochez le(s) jeton(s) « faveur divine » {tiles}.",
    },
    "fortuna_reshuffle": {
        "en": "The {count} discarded Fortuna tiles are shuffled into a new draw pile.",
        "fr": "Les {count} jetons « faveur divine » défaussés sont mélangés en une nouvelle pioche.",
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
        "en": "{seat} keeps Fortuna {tiles} face up and discards {count} tile(s).",
        "fr": "{seat} garde les jetons {tiles} face visible et en défausse {count}.",
    },
    "senate_draw": {
        "en": "Senatus: {seat} has the best straight and draws {count} Senate cards.",
        "fr": "Senatus : {seat} a la meilleure suite et pioche {count} cartes sénat.",
    },
    "senate_see": {"en": "You look at the Senate cards {cards}.", "fr": "Vous regardez les cartes sénat {cards}."},
    "senate_keep": {"en": "{seat} keeps a Senate card.", "fr": "{seat} garde une carte sénat."},
    "senate_pass": {
        "en": "{seat} passes {count} Senate card(s) to {to_seat}.",
        "fr": "{seat} passe {count} carte(s) sénat à {to_seat}.",
    },
    "senate_under": {
        "en": "{count} Senate card(s) go under the deck.",
        "fr": "{count} carte(s) sénat retourne(nt) sous la pioche.",
    },
    "senate_latrina": {
        "en": "{seat} gets no Senate card: {count} Senatus dice go to the Latrina.",
        "fr": "{seat} n'obtient pas de carte sénat : {count} dés du Senatus vont aux latrines.",
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


WAITING = {
    "turn": ("place dice in a building", "placer des dés dans un bâtiment"),
    "fortuna": ("keep Fortuna tiles", "garder des jetons « faveur divine »"),
    "senate": ("keep a Senate card", "garder une carte sénat"),
    "castrum": ("choose a province", "choisir une province"),
    "forum": ("choose a patrician", "choisir un habitant"),
}


def waiting_for(view: dict[str, Any], lang: str) -> str:
    """What the game waits for, after the names of the seats to act."""
    return WAITING.get(view["phase"], ("play", "jouer"))[1 if lang == "fr" else 0]
