"""The Ave César engine: the `Game` subclass, which hands each hook of the contract to rules.py, view.py and
scoring.py."""

from __future__ import annotations

from typing import Any

from games.core import CORE_CONFIRMATIONS, CORE_MESSAGES, CORE_REFUSALS, Action, Game, Option, Seat, State
from games.core.bots import MOVE_WEIGHTS

from . import components, rules, scoring, view
from .messages import CONFIRMATIONS, MESSAGES, REFUSALS, render_args, waiting_for


class AveCesar(Game):
    slug = "ave_cesar"
    move_weights = MOVE_WEIGHTS[slug]  # of the random playouts and the bots
    title = {"en": "Ave César (Senators)", "fr": "Ave César", "it": "Ave César (Senatori)"}
    # RULES 2.4.3, 2.9.2: the 4th War ends the game; the most senators wins.
    pitch = {"en": "Auctions, extortion and a hidden purse: win the most senators before the 4th War ends the game.",
             "fr": "Enchères, extorsion et bourse cachée : gagnez le plus de sénateurs avant que la 4e Guerre "
                   "ne termine la partie.",
             "it": "Aste, estorsioni e una borsa nascosta: conquistate più senatori di tutti prima che la 4ª "
                   "Guerra chiuda la partita."}
    min_players = 3
    max_players = 5
    rules_version = 1
    messages = {**CORE_MESSAGES, **MESSAGES}
    refusals = {**CORE_REFUSALS, **REFUSALS}
    confirmations = {**CORE_CONFIRMATIONS, **CONFIRMATIONS}
    options = (
        Option("influence", False, (False, True),
               text={"en": "Influence variant: players + 1 random influence cards are drafted before the first "
                           "turn, from the player to the right of the first player, counter-clockwise.",
                     "fr": "Variante Influence : nombre de joueurs + 1 cartes Influence tirées au hasard sont "
                           "choisies avant le premier tour, par le joueur à droite du premier joueur puis dans le "
                           "sens anti-horaire.",
                     "it": "Variante Influenza: prima del primo turno si scelgono a turno tante carte Influenza "
                           "estratte a caso quanti i giocatori più una, a partire dal giocatore a destra del primo "
                           "giocatore, in senso antiorario."},
               label={"en": "Influence cards", "fr": "Cartes Influence", "it": "Carte Influenza"}),
        Option("anti_bad_luck", False, (False, True),
               text={"en": "Anti-bad-luck event deck: 2 Wars shuffled into an upper pile of 10 cards, 3 into a "
                           "lower pile of 12, so the 4th War can only come from the lower pile.",
                     "fr": "Variante Anti-malchance : 2 Guerres mélangées dans un premier paquet de 10 cartes, 3 "
                           "dans un second de 12 ; la 4e Guerre ne peut venir que du second paquet.",
                     "it": "Mazzo degli eventi anti-sfortuna: 2 Guerre mescolate in un primo mazzo di 10 carte, 3 "
                           "in un secondo di 12, così la 4ª Guerra può venire solo dal secondo mazzo."},
               label={"en": "Anti-bad-luck events", "fr": "Événements anti-malchance",
                      "it": "Eventi anti-sfortuna"}),
    )

    # --------------------------------------------------------------------------------- contract

    def render_log(self, entry: dict[str, Any], lang: str, names: list[str]) -> str:
        return super().render_log({"key": entry["key"], "args": render_args(entry["args"], lang)}, lang, names)

    # ------------------------------------------------------------------------------------ hooks

    def start(self, players: int, rng_state: int, options: dict[str, Any]) -> State:
        state = rules.new_state(players, rng_state, options)
        rules.start(state)
        return state

    def actors(self, state: State) -> list[Seat]:
        return rules.actors(state)

    def finished(self, state: State) -> bool:
        return state["phase"] == "over"

    def moves(self, state: State, seat: Seat) -> list[Action]:
        return rules.moves(state, seat)

    def play(self, state: State, seat: Seat, action: Action) -> None:
        rules.play(state, seat, action)

    def copy(self, state: State) -> State:
        return rules.copy_state(state)

    def observe(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.observe(state, seat)

    def score(self, state: State) -> dict[str, Any]:
        return scoring.score(state)

    def keeps_undo(self, state: State, seat: Seat, action: Action, after: State) -> bool:
        return rules.keeps_undo(state, seat, action, after)

    def confirmation(self, state: State, seat: Seat, action: Action) -> str | None:
        return rules.confirmation(state, seat, action)

    def redraw(self, state: State, seat: Seat | None, seed: int) -> State:
        return view.resample(state, seat, seed)

    def reveal(self, state: State) -> list[dict[str, Any]]:
        return view.unseen(state)

    components = components

    def points(self, view: dict[str, Any]) -> list[int]:
        return scoring.points(view)

    def waiting_for(self, view: dict[str, Any], lang: str) -> str:
        return waiting_for(view, lang)

    def refusal(self, state: State, seat: Seat, action: Action) -> tuple[str, dict[str, Any]] | None:
        return rules.refusal(state, seat, action)

    def action_bound(self, players: int) -> int:
        return rules.ACTION_BOUND_PER_PLAYER * players

    def playout_weight(self, state: State, seat: Seat, action: Action) -> float:
        """Random playouts (conformance suite, novice bots): selling a senator outside a debt is rare, and each
        lot weighs as much as finishing one's bids, whatever the number of bid spaces left on it."""
        kind = action["type"]
        if kind == "bid":
            lot = state["auction"]["lots"][action["lot"]]
            room = min(state["money"][seat] - rules.committed(state, seat), components.PROPOSED["bid_spaces"][-1])
            return 1.0 / max(1, room - rules.best_bid(lot))
        return self.move_weights.get(kind, 1.0)
