"""The César & Cléopâtre engine: the `Game` subclass, which hands each hook of the contract to rules.py,
view.py and scoring.py."""

from __future__ import annotations

from typing import Any

from games.core import CORE_CONFIRMATIONS, CORE_MESSAGES, CORE_REFUSALS, Action, Game, Option, Seat, State
from games.core.bots import MOVE_WEIGHTS

from . import components, rules, scoring, view
from .messages import CONFIRMATIONS, MESSAGES, REFUSALS, render_args, waiting_for


class CesarCleopatre(Game):
    slug = "cesar_cleopatre"
    move_weights = MOVE_WEIGHTS[slug]  # of the random playouts and the bots
    title = {"en": "Caesar & Cleopatra", "fr": "César & Cléopâtre", "it": "Cesare e Cleopatra"}
    pitch = {"en": "Two rivals buy the patricians of Rome with influence cards, some face down, and dirty tricks.",
             "fr": "Deux rivaux achètent les patriciens de Rome à coups de cartes Influence, cachées ou non, "
                   "et de manipulations.",
             "it": "Due rivali si contendono i patrizi di Roma con carte Influenza, coperte o scoperte, e "
                   "manipolazioni senza scrupoli."}
    min_players = 2
    max_players = 2
    rules_version = 2  # 2: passes never end the game, only a true deadlock does (RULES 1.4.7)
    options = (
        Option("action_pile", "shuffle", ("shuffle", "arrange"),
               choice_names=({"en": "shuffled", "fr": "mélangée", "it": "mescolata"},
                             {"en": "arranged by its owner", "fr": "classée par son propriétaire",
                              "it": "ordinata dal proprietario"}),
               text={"en": "How each player's 13 action cards are stacked: shuffled (advised for beginners), or "
                           "arranged by their owner card by card before the game.",
                     "fr": "Comment chaque joueur empile ses 13 cartes Manipulation : mélangées (conseillé aux "
                           "débutants), ou classées par leur propriétaire, carte par carte, avant la partie.",
                     "it": "Come ogni giocatore impila le sue 13 carte Manipolazione: mescolate (consigliato ai "
                           "principianti) oppure ordinate dal proprietario, carta per carta, prima della partita."},
               label={"en": "Action pile", "fr": "Réserve de manipulation", "it": "Riserva di Manipolazione"}),
        Option("two_face_down", False, (False, True),
               text={"en": "Italian house rule: a player who plays no action card may place 2 influence cards "
                           "face down instead of 1.",
                     "fr": "Variante italienne : un joueur qui ne joue pas de carte Manipulation peut poser 2 "
                           "cartes Influence face cachée au lieu d'une.",
                     "it": "Variante italiana: chi non gioca alcuna carta Manipolazione può posare 2 carte "
                           "Influenza coperte anziché una sola."},
               label={"en": "Two face down without an action card", "fr": "Deux faces cachées sans manipulation",
                      "it": "Due coperte senza Manipolazione"}),
        Option("orgy_removed_on_exhaustion", False, (False, True),
               text={"en": "Author's option 1: when a second group of patricians is exhausted, one plain Orgy "
                           "card leaves the game (never the reshuffle one).",
                     "fr": "Option 1 de l'auteur : dès qu'un second groupe de patriciens est épuisé, une carte "
                           "Orgie simple quitte le jeu (jamais celle qui fait remélanger).",
                     "it": "Opzione 1 dell'autore: quando un secondo gruppo di patrizi è esaurito, una carta Orgia "
                           "semplice esce dal gioco (mai quella che fa rimescolare)."},
               label={"en": "Fewer Orgies later", "fr": "Moins d'Orgies en cours de partie",
                      "it": "Meno Orge nel corso della partita"}),
        Option("orgy_removed_before", False, (False, True),
               text={"en": "Author's option 2: one plain Orgy card is removed from the vote cards before the game.",
                     "fr": "Option 2 de l'auteur : une carte Orgie simple est retirée des cartes Suffrage avant "
                           "la partie.",
                     "it": "Opzione 2 dell'autore: prima della partita si toglie una carta Orgia semplice dalle "
                           "carte Suffragio."},
               label={"en": "One Orgy fewer", "fr": "Une Orgie de moins", "it": "Un'Orgia in meno"}),
        Option("tiebreak_patricians", False, (False, True),
               text={"en": "A tie on points is won by the player with more patricians (otherwise it is a draw).",
                     "fr": "À égalité de points, le joueur qui a le plus de patriciens gagne (sinon, match nul).",
                     "it": "A parità di punti vince chi ha più patrizi (altrimenti è pareggio)."},
               label={"en": "Break ties by patricians", "fr": "Départager par les patriciens",
                      "it": "Spareggio con i patrizi"}),
    )
    messages = {**CORE_MESSAGES, **MESSAGES}
    refusals = {**CORE_REFUSALS, **REFUSALS}
    confirmations = {**CORE_CONFIRMATIONS, **CONFIRMATIONS}

    # ------------------------------------------------------------------------------------- hooks

    def start(self, players: int, rng_state: int, options: dict[str, Any]) -> State:
        return rules.initial_state(rng_state, options)

    def actors(self, state: State) -> list[Seat]:
        return rules.actors(state)

    def finished(self, state: State) -> bool:
        return rules.finished(state)

    def moves(self, state: State, seat: Seat) -> list[Action]:
        return rules.moves(state, seat)

    def play(self, state: State, seat: Seat, action: Action) -> None:
        rules.play(state, seat, action)

    def keeps_undo(self, state: State, seat: Seat, action: Action, after: State) -> bool:
        return rules.keeps_undo(state, seat, action, after)

    def confirmation(self, state: State, seat: Seat, action: Action) -> str | None:
        return rules.confirmation(state, seat, action)

    def copy(self, state: State) -> State:
        return rules.copy_state(state)

    def observe(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.observe(state, seat)

    def score(self, state: State) -> dict[str, Any]:
        return scoring.score(state)

    def redraw(self, state: State, seat: Seat | None, seed: int) -> State:
        return view.resample(state, seat, seed)

    def reveal(self, state: State) -> list[dict[str, Any]]:
        return view.unseen(state)

    def action_bound(self, players: int) -> int:
        return rules.action_bound()

    def playout_weight(self, state: State, seat: Seat, action: Action) -> float:
        kind = action["type"]
        if kind == "place":
            return 1.0 if action["face"] == "down" else 0.7
        if kind == "draw":
            return 1.0 if action["pile"] == "influence" else 0.4
        if kind == "refill":
            return 1.0 + action["influence"]
        return self.move_weights.get(kind, 1.0)

    def render_log(self, entry: dict[str, Any], lang: str, names: list[str]) -> str:
        return super().render_log({**entry, "args": render_args(entry["key"], entry["args"], lang)}, lang, names)

    def refusal(self, state: State, seat: Seat, action: Action) -> tuple[str, dict[str, Any]] | None:
        return rules.refusal(state, seat, action)

    components = components

    def points(self, view: dict[str, Any]) -> list[int]:
        return scoring.points(view)

    def waiting_for(self, view: dict[str, Any], lang: str) -> str:
        return waiting_for(view, lang)
