"""The components of César & Cléopâtre as data (RULES 1.1, 1.2, 1.5, 1.10), and every name shown to players.

Conventions used everywhere in the engine:
- seat 0 is Cléopâtre (she starts, RULES 1.3.6), seat 1 is César;
- an influence card is its value, an int: 1..5, and 0 for a Philosopher (it counts 0, RULES 1.6.1);
- an action card is its name (ACTION_CARDS); a vote card is a group name, "orgy" or "orgy_reshuffle";
- groups are indexed in the order of GROUPS inside the state; actions and views use their names.

Every number of the rulebook is a named constant here, and every PROPOSED ruling (our own choice, with no
source behind it) is listed in PROPOSED so that the rules text can mark it "reconstructed".
"""

from __future__ import annotations

from bisect import bisect
from functools import lru_cache
from typing import Any

SIDES = ("cleopatra", "caesar")
SIDE_NAMES = {"cleopatra": {"en": "Cleopatra", "fr": "Cléopâtre", "it": "Cleopatra"},
              "caesar": {"en": "Caesar", "fr": "César", "it": "Cesare"}}
FIRST_SEAT = 0  # Cléopâtre starts (RULES 1.3.6; FR-C&C 3 "en commençant par Cléopâtre").

# --- patricians (RULES 1.1): 21 in 5 groups.
GROUPS = ("senators", "praetors", "quaestors", "aediles", "censors")
GROUP_SIZE = (5, 5, 5, 3, 3)
PATRICIANS = sum(GROUP_SIZE)  # 21
GROUP_INDEX = {g: i for i, g in enumerate(GROUPS)}
GROUP_NAMES = {  # "many": the group, "one": one of its patricians
    "senators": {"many": {"en": "Senators", "fr": "Sénateurs", "it": "Senatori"},
                 "one": {"en": "Senator", "fr": "Sénateur", "it": "Senatore"}},
    "praetors": {"many": {"en": "Praetors", "fr": "Préteurs", "it": "Pretori"},
                 "one": {"en": "Praetor", "fr": "Préteur", "it": "Pretore"}},
    "quaestors": {"many": {"en": "Quaestors", "fr": "Questeurs", "it": "Questori"},
                  "one": {"en": "Quaestor", "fr": "Questeur", "it": "Questore"}},
    "aediles": {"many": {"en": "Aediles", "fr": "Édiles", "it": "Edili"},
                "one": {"en": "Aedile", "fr": "Édile", "it": "Edile"}},
    "censors": {"many": {"en": "Censors", "fr": "Censeurs", "it": "Censori"},
                "one": {"en": "Censor", "fr": "Censeur", "it": "Censore"}},
}

# --- influence cards (RULES 1.1): per side 7 of each value 1..5 and 2 Philosophers.
PHILOSOPHER = 0
VALUES = (1, 2, 3, 4, 5)
COPIES_PER_VALUE = 7
PHILOSOPHERS_PER_SIDE = 2
INFLUENCE_PER_SIDE = COPIES_PER_VALUE * len(VALUES) + PHILOSOPHERS_PER_SIDE  # 37
# Set aside at setup: two series 1..5 (RULES 1.3.2); one is placed face down, one is the starting hand.
SETUP_SERIES = VALUES
SERIES_SET_ASIDE = 2


def influence_deck() -> list[int]:
    """All 37 influence cards of one side, sorted."""
    return sorted([PHILOSOPHER] * PHILOSOPHERS_PER_SIDE + [v for v in VALUES for _ in range(COPIES_PER_VALUE)])


def influence_reserve() -> list[int]:
    """The 27 cards shuffled into the influence reserve: the deck minus the two set-aside series."""
    deck = influence_deck()
    for _ in range(SERIES_SET_ASIDE):
        for v in SETUP_SERIES:
            deck.remove(v)
    return deck


# --- action cards (RULES 1.2): 13 per side.
ACTION_CARDS = ("assassination", "spy", "castling", "scout", "wrath", "veto")
ACTION_COUNTS = {"assassination": 4, "spy": 2, "castling": 2, "scout": 2, "wrath": 1, "veto": 2}
ACTIONS_PER_SIDE = sum(ACTION_COUNTS.values())  # 13
ACTION_RANK = {a: i for i, a in enumerate(ACTION_CARDS)}
ACTION_NAMES = {
    "assassination": {"en": "Assassination", "fr": "Assassinat", "it": "Assassinio"},
    "spy": {"en": "Spy", "fr": "Espion", "it": "Spia"},
    "castling": {"en": "Castling", "fr": "Roque", "it": "Arrocco"},
    "scout": {"en": "Scout", "fr": "Courtisan", "it": "Cortigiano"},
    "wrath": {"en": "Wrath of the Gods", "fr": "Colère des dieux", "it": "Ira degli dèi"},
    "veto": {"en": "Veto", "fr": "Veto", "it": "Veto"},
}


def action_deck() -> list[str]:
    """All 13 action cards of one side, in ACTION_CARDS order."""
    return [a for a in ACTION_CARDS for _ in range(ACTION_COUNTS[a])]


# --- vote cards (RULES 1.5.1): one per group, two plain Orgies, one Orgy that reshuffles.
ORGY = "orgy"
ORGY_RESHUFFLE = "orgy_reshuffle"
VOTE_CARDS = GROUPS + (ORGY, ORGY, ORGY_RESHUFFLE)
VOTE_CARD_NAMES = {
    ORGY: {"en": "Orgy, no vote today", "fr": "Orgie, pas de suffrage aujourd'hui",
           "it": "Orgia, niente suffragio oggi"},
    ORGY_RESHUFFLE: {"en": "Orgy, reshuffle the vote cards", "fr": "Orgie, remélangez le paquet",
                     "it": "Orgia, rimescolate le carte Suffragio"},
    **{g: {"en": f"Vote: {GROUP_NAMES[g]['one']['en']}", "fr": f"Suffrage : {GROUP_NAMES[g]['one']['fr']}",
           "it": f"Suffragio: {GROUP_NAMES[g]['one']['it']}"} for g in GROUPS},
}
EXHAUSTED_GROUPS_FOR_ORGY_REMOVAL = 2  # author's option (a): when the second group is exhausted (RULES 1.5.5)

# --- secret missions, "influence bonus" (RULES 1.1, 1.10): 6 cards.
MISSIONS = ("senators", "senators", "praetors", "praetors", "quaestors", "quaestors")

# --- limits (RULES 1.4.2, 1.4.3).
HAND_SIZE = 5
OWN_LIMIT = 5  # a player's own cards at one group
GROUP_LIMIT = 8  # both players' cards at one group; reaching it calls a vote (RULES 1.4.5)

# --- scoring (RULES 1.10).
PATRICIAN_POINTS = 1
MAJORITY = {5: 3, 3: 2}  # group size -> patricians needed for the majority
MAJORITY_POINTS = 1
ALL_POINTS = 1
MISSION_THRESHOLD = 3
MISSION_POINTS = 2

# --- cosmetic names of the influence cards (RULES 1.1, PROPOSED value mapping, Low confidence).
INFLUENCE_NAMES = {
    "caesar": {5: {"en": "Consul", "fr": "Consul", "it": "Console"},
               4: {"en": "Courtier", "fr": "Courtisan", "it": "Cortigiano"},
               3: {"en": "Prefect", "fr": "Préfet", "it": "Prefetto"},
               2: {"en": "Centurion", "fr": "Centurion", "it": "Centurione"},
               1: {"en": "Slave", "fr": "Esclave", "it": "Schiavo"},
               0: {"en": "Philosopher", "fr": "Philosophe", "it": "Filosofo"}},
    "cleopatra": {5: {"en": "High Priestess", "fr": "Grande prêtresse", "it": "Grande sacerdotessa"},
                  4: {"en": "Dancer", "fr": "Danseuse", "it": "Danzatrice"},
                  3: {"en": "Scribe", "fr": "Scribe", "it": "Scriba"},
                  2: {"en": "Muse", "fr": "Muse", "it": "Musa"},
                  1: {"en": "Slave", "fr": "Esclave", "it": "Schiava"},
                  0: {"en": "Philosopher", "fr": "Philosophe", "it": "Filosofo"}},
}

PILE_NAMES = {"influence": {"en": "influence reserve", "fr": "réserve d'influence", "it": "riserva di Influenza"},
              "action": {"en": "action reserve", "fr": "réserve de manipulation", "it": "riserva di Manipolazione"}}

END_REASONS = {
    "last_patrician": {"en": "the last patrician has been won", "fr": "le dernier patricien a été recruté",
                       "it": "l'ultimo patrizio è stato conquistato"},
    "no_influence": {"en": "both players are out of influence cards",
                     "fr": "les deux joueurs n'ont plus de cartes Influence",
                     "it": "entrambi i giocatori hanno finito le carte Influenza"},
    "final_turn": {"en": "the last turn of the player who still had influence cards is over",
                   "fr": "le dernier tour du joueur qui avait encore des cartes Influence est joué",
                   "it": "l'ultimo turno del giocatore che aveva ancora carte Influenza è finito"},
    "stalemate": {"en": "neither player can ever place an influence card again: nothing can change any more",
                  "fr": "aucun joueur ne pourra plus poser de carte Influence : plus rien ne peut changer",
                  "it": "nessun giocatore potrà più posare una carta Influenza: nulla può più cambiare"},
}

# Rules that are our own choice, where the sources are silent: the rules text
# marks these "reconstructed". Keys are the rule numbers of games/cesar_cleopatre/RULES.md.
PROPOSED = {
    "1.1": "the value-to-character mapping of the influence cards (cosmetic)",
    "1.4.6": "no legal placement forces a passive turn; no exchange possible means a pass",
    "1.4.7": "only a true deadlock (neither player can ever place again) ends the game early",
    "1.4.8": "a group whose patricians are all won takes no more cards",
    "1.5.2": "the reshuffle Orgy goes back into the vote deck with the discards",
    "1.5.4": "an empty vote deck is refilled from the discards",
    "1.5.6": "an Orgy removed by option (a) comes from the discard pile when one is there",
    "1.6.7": "a reversed vote against a player with no cards is won by that player",
    "1.8.1": "a vetoed card still uses the turn's action card",
    "1.8.3": "the spied player chooses the reserve of his replacement card",
    "1.8.4": "Castling needs at least one of your cards at the two groups",
    "1.8.8": "an action card with no legal target cannot be played",
    "1.9.3": "8-card votes are resolved in the final turn; no action card is played in it",
    "1.9.5": "at the end every face-down card and both missions are revealed",
    "1.10.2": "a tied score is a draw; optional tiebreak by patricians won",
}


# --- influence cards in the state: strings of digits, one per card ("0" is a Philosopher), sorted except in a
# reserve ("0135" is a Philosopher, a 1, a 3 and a 5). A state is copied at every action, and a string copies
# far faster than a list; actions, views and the log use int values.


def cards_of(values: Any) -> str:
    """Influence values -> their sorted string: [3, 0, 5] -> "035"."""
    return "".join(sorted(map(str, values)))


def values_of(cards: str) -> list[int]:
    """A string of influence cards -> their values, in the string's order."""
    return list(map(int, cards))


@lru_cache(maxsize=4096)
def kinds_of(cards: str) -> tuple[int, ...]:
    """The different values among influence cards, ascending (asked at almost every move generation, about
    few different hands: remembered)."""
    return tuple(int(c) for c in sorted(set(cards)))


def with_card(cards: str, value: int) -> str:
    """A sorted string of cards with one more card."""
    c = str(value)
    i = bisect(cards, c)
    return cards[:i] + c + cards[i:]


def without_card(cards: str, value: int) -> str:
    """A string of cards with one card of `value` less."""
    i = cards.index(str(value))
    return cards[:i] + cards[i + 1:]


def merged(cards: str, more: str) -> str:
    return "".join(sorted(cards + more))


def strength(cards: str) -> int:
    """The sum of influence cards (a Philosopher counts 0, RULES 1.6.1)."""
    return sum(map(int, cards))


ZONE_DOWN = tuple(f"d{i}" for i in range(len(GROUPS)))  # knowledge zones of the face-down cards per group
