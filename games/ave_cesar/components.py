"""Ave César's components and numbers, as data (RULES 2.1–2.5).

Two kinds of numbers live here:

- the rulebook's own numbers (FR-AVE), as named constants;
- every number (or list) the rulings mark **PROPOSED**, in the one table `PROPOSED`, so that each can be
  corrected when the real component is known without touching the rules code. The in-app rules text marks
  these as "reconstructed".

Card ids are plain strings. Resource cards are unique (`"wheat9"`: type then value). Senate cards and events
have identical copies, so their id is their kind (`"censor"` five times): a hidden card never carries an id
that could follow it from zone to zone.
"""

from __future__ import annotations

from typing import Any

from ..core.game import LANGS, Text, fill

# --------------------------------------------------------------------------------------- PROPOSED
# Numbers and lists with no source behind them (RULES.md marks them reconstructed). One table, read by the
# rules code.
PROPOSED: dict[str, Any] = {
    # 2.1: the three resource decks by value band (told apart by 1, 2 or 3 dots on the back).
    "deck_values": ((1, 2, 3), (4, 5, 6), (7, 8, 9)),
    # 2.1: resource -> province (only Meat = Gaul is legible in FR-AVE); cosmetic.
    "provinces": {
        "wheat": {"en": "Egypt", "fr": "Égypte", "it": "Egitto"},
        "meat": {"en": "Gaul", "fr": "Gaule", "it": "Gallia"},
        "iron": {"en": "Britannia", "fr": "Bretagne", "it": "Britannia"},
        "cloth": {"en": "Asia", "fr": "Asie", "it": "Asia"},
        "wood": {"en": "Germania", "fr": "Germanie", "it": "Germania"},
        "olives": {"en": "Hispania", "fr": "Hispanie", "it": "Hispania"},
    },
    # 2.6 A.5: the bid spaces of every board ("case Mise" numbers lost in the OCR).
    "bid_spaces": tuple(range(1, 16)),
    # 2.4 fill 1: the amounts printed on the three Public Deficit cards.
    "deficit_amounts": (10, 15, 20),
    # 2.4 fill 2: the smallest War total that counts as "the highest bid" (all at 0: nobody gains).
    "war_min_winning_total": 1,
    # 2.4 fill 3: the New Senator price stops here; nobody at this price means no senator.
    "new_senator_floor": 1,
    # 2.6 B.3: the smallest price an extortion may name.
    "extortion_min_price": 1,
}

# ------------------------------------------------------------------------------- rulebook numbers
START_SENATORS = 5                      # 2.2.1
START_MONEY = (10, 13, 16, 19, 22)      # 2.2.4, clockwise from the first player
SENATOR_PRICE = 10                      # 2.6 C.2
CONSUL_SENATOR_PRICE = 7                # 2.3 Consul
COUNTERS_JOIN_FEE = 5                   # 2.6 C.1
SENATOR_SALE = 5                        # 2.8.1
CIVIL_CONFLICT_TAX = 5                  # 2.4 Civil Conflict
MAJORITY_PER_WEAKER = 2                 # 2.4 Senate Majority
PRINCEPS_PER_WEAKER = 3                 # 2.5 Princeps Senatus
EXTORTION_INCOME = 3                    # 2.6 B.1
LICTORS_EXTORTION_INCOME = 8            # 2.5 Lictors
CAVALRY_BONUS = 3                       # 2.5 Cavalry
PONTIFEX_BONUS = 9                      # 2.5 Pontifex Maximus, per value-1 card sold
MERCHANTS_PRICE = 1                     # 2.5 Merchants
RUN_BONUS = 15                          # 2.6 C.2, on top of the sum
SET_SIZE = 3                            # 2.6 C.2 / 2.3 Quaestor
NEW_SENATOR_START = 15                  # 2.4 New Senator
WARS_TO_END = 4                         # 2.9.1: the 4th War ends the game unresolved
# 2.4 anti-bad-luck variant: the 17 other events split 8 + 9; 2 Wars go into the upper pile, 3 into the lower.
ANTI_BAD_LUCK_PILES = ((8, 2), (9, 3))  # (other events, Wars) for the upper then the lower pile

# --------------------------------------------------------------------------------------- resources
RESOURCE_TYPES = ("wheat", "meat", "iron", "cloth", "wood", "olives")
RESOURCE_NAMES = {
    "wheat": {"en": "Wheat", "fr": "Blé", "it": "Grano"},
    "meat": {"en": "Meat", "fr": "Viande", "it": "Carne"},
    "iron": {"en": "Iron", "fr": "Fer", "it": "Ferro"},
    "cloth": {"en": "Cloth", "fr": "Tissu", "it": "Stoffa"},
    "wood": {"en": "Wood", "fr": "Bois", "it": "Legno"},
    "olives": {"en": "Olives", "fr": "Olives", "it": "Olive"},
}
VALUES = tuple(range(1, 10))
BAND_DOTS = ("●", "●●", "●●●")


def resource_id(kind: str, value: int) -> str:
    return f"{kind}{value}"


RESOURCES = tuple(resource_id(t, v) for t in RESOURCE_TYPES for v in VALUES)
RESOURCE_TYPE = {c: c[:-1] for c in RESOURCES}
RESOURCE_VALUE = {c: int(c[-1]) for c in RESOURCES}
BAND_OF_VALUE = {v: band for band, values in enumerate(PROPOSED["deck_values"]) for v in values}
RESOURCE_BAND = {c: BAND_OF_VALUE[RESOURCE_VALUE[c]] for c in RESOURCES}
DECKS = tuple(tuple(c for c in RESOURCES if RESOURCE_BAND[c] == band) for band in range(3))

# ------------------------------------------------------------------------------------ Senate cards
GOVERNORS = tuple(f"governor_{t}" for t in RESOURCE_TYPES)
GOVERNOR_TYPE = {g: g[len("governor_"):] for g in GOVERNORS}
SENATE_COUNTS = {**{g: 1 for g in GOVERNORS}, "censor": 5, "consul": 2, "quaestor": 2}
SENATE_DECK = tuple(card for card, n in SENATE_COUNTS.items() for _ in range(n))
SENATE_NAMES = {
    **{g: fill({"en": "Governor of {province} ({resource})", "fr": "Gouverneur de {province} ({resource})",
                "it": "Governatore di {province} ({resource})"},
               province=PROPOSED["provinces"][GOVERNOR_TYPE[g]], resource=RESOURCE_NAMES[GOVERNOR_TYPE[g]])
       for g in GOVERNORS},
    "censor": {"en": "Censor", "fr": "Censeur", "it": "Censore"},
    "consul": {"en": "Consul", "fr": "Consul", "it": "Console"},
    "quaestor": {"en": "Quaestor", "fr": "Questeur", "it": "Questore"},
}

# ------------------------------------------------------------------------------------------ events
DEFICITS = tuple(f"deficit_{amount}" for amount in PROPOSED["deficit_amounts"])
DEFICIT_AMOUNT = {d: int(d[len("deficit_"):]) for d in DEFICITS}
EVENT_COUNTS = {"war": 5, "new_senator": 3, **{d: DEFICITS.count(d) for d in DEFICITS},
                "civil_conflict": 3, "eviction": 2, "senate_majority": 6}
EVENT_DECK = tuple(card for card, n in EVENT_COUNTS.items() for _ in range(n))
EVENT_NAMES = {
    "war": {"en": "War", "fr": "Guerre", "it": "Guerra"},
    "new_senator": {"en": "New Senator", "fr": "Nouveau Sénateur", "it": "Nuovo Senatore"},
    **{d: fill({"en": "Public Deficit ({amount})", "fr": "Déficit public ({amount})",
                "it": "Deficit pubblico ({amount})"}, amount=DEFICIT_AMOUNT[d]) for d in DEFICITS},
    "civil_conflict": {"en": "Civil Conflict", "fr": "Conflit civil", "it": "Conflitto civile"},
    "eviction": {"en": "Eviction", "fr": "Éviction", "it": "Espulsione"},
    "senate_majority": {"en": "Senate Majority", "fr": "Majorité au Sénat", "it": "Maggioranza in Senato"},
}

# ------------------------------------------------------------------------- influence cards (variant)
INFLUENCE = ("vox_populi", "tribunes", "lictors", "merchants", "cavalry", "pontifex", "princeps", "prefects",
             "praetors")
INFLUENCE_NAMES = {
    "vox_populi": {"en": "Vox Populi", "fr": "Vox Populi", "it": "Vox Populi"},
    "tribunes": {"en": "Tribunes' Support", "fr": "Soutien des tribuns", "it": "Sostegno dei Tribuni"},
    "lictors": {"en": "Lictors", "fr": "Licteurs", "it": "Littori"},
    "merchants": {"en": "Merchants", "fr": "Marchands", "it": "Mercanti"},
    "cavalry": {"en": "Cavalry", "fr": "Cavalerie", "it": "Cavalleria"},
    "pontifex": {"en": "Pontifex Maximus", "fr": "Pontifex Maximus", "it": "Pontifex Maximus"},
    "princeps": {"en": "Princeps Senatus", "fr": "Princeps Senatus", "it": "Princeps Senatus"},
    "prefects": {"en": "Prefects", "fr": "Préfets", "it": "Prefetti"},
    "praetors": {"en": "Praetors", "fr": "Praetors", "it": "Pretori"},
}


def card_name(card: str) -> Text:
    """The name of any card id, in every language."""
    if card in RESOURCE_VALUE:
        return fill({lang: "{resource} {value}" for lang in LANGS}, resource=RESOURCE_NAMES[RESOURCE_TYPE[card]],
                    value=RESOURCE_VALUE[card])
    for table in (SENATE_NAMES, INFLUENCE_NAMES, EVENT_NAMES):
        if card in table:
            return table[card]
    raise KeyError(card)

