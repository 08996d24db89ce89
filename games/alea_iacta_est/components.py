"""The components of Alea Iacta Est as data (RULES 3.1, 3.2, 3.10).

Everything the rules code counts on is here: dice per player, the province and patrician tiles, the
Fortuna tiles, the Senate cards (a PROPOSED, reconstructed set: one table, see 3.10) and the set-up
table by player count. Ids are short strings so that states stay plain JSON:

- a province is ``"<colour>-<value>"`` (``"gallia-3"``), the grey joker is ``"joker-0"``;
- a patrician is ``"<colour>-<m|w><value>"`` (``"gallia-w2"`` is the woman of value II of Gallia);
- a Senate card is its Roman numeral (``"IV"``); a Fortuna tile is its value (1, 2 or 3).

Province tiles and patricians in a face-down pile are never shown, so their ids never follow a hidden
tile (RULES 0.1); once revealed they are public.
"""

from __future__ import annotations

from typing import Any

DICE_PER_PLAYER = 8
DIE_FACES = 6

# The five player colours of the dice, by seat (cosmetic; RULES 3.1).
DIE_COLOURS = ("grey", "brown", "blue", "green", "yellow")

# The buildings, in the order the round is evaluated (RULES 3.3.2).
TEMPLUM, SENATUS, CASTRUM, FORUM, LATRINA = "templum", "senatus", "castrum", "forum", "latrina"
BUILDINGS = (TEMPLUM, SENATUS, CASTRUM, FORUM, LATRINA)
BUILDING_NAMES = {TEMPLUM: "Templum", SENATUS: "Senatus", CASTRUM: "Castrum", FORUM: "Forum Romanum",
                  LATRINA: "Latrina"}

# The six colours of provinces and patricians. The names are cosmetic (RULES 3.1: one province name per
# colour, the sixth, Gallia, PROPOSED); the rules only compare colour keys.
COLOURS: tuple[dict[str, str], ...] = (
    {"key": "gallia", "name": "Gallia", "css": "#b03a2e", "en": "red", "fr": "rouge", "it": "rosso"},
    {"key": "germania", "name": "Germania", "css": "#1f618d", "en": "blue", "fr": "bleu", "it": "blu"},
    {"key": "hispania", "name": "Hispania", "css": "#d4ac0d", "en": "yellow", "fr": "jaune", "it": "giallo"},
    {"key": "britannia", "name": "Britannia", "css": "#1e8449", "en": "green", "fr": "vert", "it": "verde"},
    {"key": "macedonia", "name": "Macedonia", "css": "#7d3c98", "en": "purple", "fr": "violet", "it": "viola"},
    {"key": "aegyptus", "name": "Aegyptus", "css": "#ca6f1e", "en": "orange", "fr": "orange", "it": "arancione"},
)
COLOUR_KEYS = tuple(c["key"] for c in COLOURS)
COLOUR_NAMES = {c["key"]: c["name"] for c in COLOURS}

PROVINCE_VALUES = (1, 2, 3, 4)
JOKER = "joker-0"
JOKER_VALUE = 0
PATRICIAN_VALUES = (1, 2, 3)
MAN, WOMAN = "m", "w"

ROMAN = {0: "0", 1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "IX",
         10: "X", 11: "XI", 12: "XII", 13: "XIII"}

# 6 colours x I-IV, plus the grey joker worth 0: 25 tiles.
PROVINCES: tuple[str, ...] = tuple(f"{c}-{v}" for c in COLOUR_KEYS for v in PROVINCE_VALUES) + (JOKER,)
# id -> (colour key or None for the joker, value)
PROVINCE_INFO: dict[str, tuple[str | None, int]] = {
    **{f"{c}-{v}": (c, v) for c in COLOUR_KEYS for v in PROVINCE_VALUES}, JOKER: (None, JOKER_VALUE)}

# Per colour a man and a woman of values I, II and III: 36 tiles.
PATRICIANS: tuple[str, ...] = tuple(f"{c}-{g}{v}" for c in COLOUR_KEYS for g in (MAN, WOMAN)
                                    for v in PATRICIAN_VALUES)
# id -> (colour key, "m" or "w", value)
PATRICIAN_INFO: dict[str, tuple[str, str, int]] = {
    f"{c}-{g}{v}": (c, g, v) for c in COLOUR_KEYS for g in (MAN, WOMAN) for v in PATRICIAN_VALUES}

# Fortuna tiles: 8 x I, 14 x II, 8 x III (RULES 3.1).
FORTUNA_TILES: tuple[int, ...] = (1,) * 8 + (2,) * 14 + (3,) * 8

# Senate cards (RULES 3.10): NOT FOUND in any source; this whole table is the PROPOSED reconstruction.
# 13 kinds, 19 cards. "effect" names the scoring rule (see scoring.py); "points" and "param" are its
# numbers; "min_players" removes card IV at 2-3 players (RULES 3.2).
SENATE_CARDS: tuple[dict[str, Any], ...] = (
    {"id": "I", "qty": 2, "effect": "full_province", "points": 2, "param": None, "min_players": 2,
     "en": "+2 for each of your provinces holding both a man and a woman.",
     "fr": "+2 pour chacune de vos provinces qui accueille un homme et une femme.",
     "it": "+2 per ogni vostra provincia che ospita un uomo e una donna."},
    {"id": "II", "qty": 2, "effect": "empty_face_value", "points": 1, "param": None, "min_players": 2,
     "en": "Your empty provinces do not lose the 1 point: they score their face value (does not add up "
           "with a second card II).",
     "fr": "Vos provinces vides ne perdent pas 1 point : elles rapportent leur valeur (ne se cumule pas "
           "avec une seconde carte II).",
     "it": "Le vostre province vuote non perdono 1 punto: valgono il loro valore (non si somma con una seconda carta II)."},
    {"id": "III", "qty": 1, "effect": "unplaced_patrician", "points": 1, "param": None, "min_players": 2,
     "en": "+1 for each of your patricians not placed in a province.",
     "fr": "+1 pour chacun de vos habitants qui n'est installé dans aucune province.",
     "it": "+1 per ogni vostro patrizio non insediato in una provincia."},
    {"id": "IV", "qty": 1, "effect": "fortuna_tile", "points": 1, "param": None, "min_players": 4,
     "en": "+1 for each Fortuna tile you own. (Removed at 2 and 3 players.)",
     "fr": "+1 pour chaque jeton « faveur divine » que vous possédez. (Retirée à 2 et 3 joueurs.)",
     "it": "+1 per ogni tessera Fortuna che possedete. (Tolta in 2 e 3 giocatori.)"},
    {"id": "V", "qty": 1, "effect": "chips_full", "points": 1, "param": None, "min_players": 2,
     "en": "Each Repete chip is worth 1 point instead of 1 point per pair.",
     "fr": "Chaque jeton « relance » rapporte 1 point au lieu d'1 point par paire.",
     "it": "Ogni gettone Repete vale 1 punto invece di 1 punto ogni due."},
    {"id": "VI", "qty": 2, "effect": "most_provinces", "points": 5, "param": None, "min_players": 2,
     "en": "+5 if you have the most provinces (a tie counts as the most).",
     "fr": "+5 si vous avez le plus de provinces (une égalité compte comme le plus).",
     "it": "+5 se avete più province di tutti (la parità conta come il massimo)."},
    {"id": "VII", "qty": 2, "effect": "most_patricians", "points": 5, "param": None, "min_players": 2,
     "en": "+5 if you have the most patricians (a tie counts as the most).",
     "fr": "+5 si vous avez le plus d'habitants (une égalité compte comme le plus).",
     "it": "+5 se avete più patrizi di tutti (la parità conta come il massimo)."},
    {"id": "VIII", "qty": 1, "effect": "province_colours", "points": 1, "param": None, "min_players": 2,
     "en": "+1 for each different colour among your provinces (the joker does not count).",
     "fr": "+1 par couleur différente parmi vos provinces (le joker ne compte pas).",
     "it": "+1 per ogni colore diverso tra le vostre province (il jolly non conta)."},
    {"id": "IX", "qty": 1, "effect": "province_value", "points": 3, "param": 4, "min_players": 2,
     "en": "+3 for each of your provinces of value IV.",
     "fr": "+3 pour chacune de vos provinces de valeur IV.",
     "it": "+3 per ogni vostra provincia di valore IV."},
    {"id": "X", "qty": 1, "effect": "placed_women", "points": 1, "param": None, "min_players": 2,
     "en": "+1 for each woman placed in one of your provinces.",
     "fr": "+1 pour chaque femme installée dans une de vos provinces.",
     "it": "+1 per ogni donna insediata in una delle vostre province."},
    {"id": "XI", "qty": 1, "effect": "placed_men", "points": 1, "param": None, "min_players": 2,
     "en": "+1 for each man placed in one of your provinces.",
     "fr": "+1 pour chaque homme installé dans une de vos provinces.",
     "it": "+1 per ogni uomo insediato in una delle vostre province."},
    {"id": "XII", "qty": 1, "effect": "low_province_peopled", "points": 2, "param": [1, 2], "min_players": 2,
     "en": "+2 for each of your provinces of value I or II holding at least one patrician.",
     "fr": "+2 pour chacune de vos provinces de valeur I ou II qui accueille au moins un habitant.",
     "it": "+2 per ogni vostra provincia di valore I o II che ospita almeno un patrizio."},
    {"id": "XIII", "qty": 3, "effect": "flat", "points": 3, "param": None, "min_players": 2,
     "en": "+3.", "fr": "+3.", "it": "+3."},
)
SENATE_CARD: dict[str, dict[str, Any]] = {c["id"]: c for c in SENATE_CARDS}
SENATE_ORDER: dict[str, int] = {c["id"]: i for i, c in enumerate(SENATE_CARDS)}


def senate_deck(players: int) -> list[str]:
    """The Senate cards in play at this player count, in table order (RULES 3.2: no IV at 2-3)."""
    return [c["id"] for c in SENATE_CARDS if players >= c["min_players"] for _ in range(c["qty"])]


# Set-up by player count (RULES 3.2): rounds, Templum used, Forum columns (= patricians revealed per
# round), provinces revealed per round (= number of players).
SETUP: dict[int, dict[str, Any]] = {
    2: {"rounds": 6, "templum": False, "columns": 4, "provinces": 2},
    3: {"rounds": 6, "templum": False, "columns": 5, "provinces": 3},
    4: {"rounds": 5, "templum": True, "columns": 6, "provinces": 4},
    5: {"rounds": 5, "templum": True, "columns": 7, "provinces": 5},
}

# Templum scoring (RULES 3.4.2): tiles kept by the best player and by every other player there.
TEMPLUM_KEEP_BEST = 2
TEMPLUM_KEEP_OTHER = 1
# Senatus scoring (RULES 3.5.3): cards drawn, and how many ranked players receive one, by player count.
SENATE_DRAW = 3
SENATE_RECEIVERS = {2: 1, 3: 2, 4: 2, 5: 3}
# Forum (RULES 3.7.1): two dice may go together only if they add up to this.
FORUM_PAIR_SUM = 5


def province_label(pid: str) -> str:
    """Language-neutral label: "Gallia III", or "Joker" for the grey joker."""
    colour, value = PROVINCE_INFO[pid]
    return "Joker" if colour is None else f"{COLOUR_NAMES[colour]} {ROMAN[value]}"


def patrician_label(pid: str) -> str:
    """Language-neutral label: "Gallia ♂II" (a man) or "Gallia ♀II" (a woman)."""
    colour, gender, value = PATRICIAN_INFO[pid]
    return f"{COLOUR_NAMES[colour]} {'♂' if gender == MAN else '♀'}{ROMAN[value]}"


PROVINCE_ORDER = {pid: i for i, pid in enumerate(PROVINCES)}
PATRICIAN_ORDER = {pid: i for i, pid in enumerate(PATRICIANS)}


def sort_provinces(ids: list[str]) -> list[str]:
    return sorted(ids, key=PROVINCE_ORDER.__getitem__)


def sort_patricians(ids: list[str]) -> list[str]:
    return sorted(ids, key=PATRICIAN_ORDER.__getitem__)
