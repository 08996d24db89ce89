"""The Alea Iacta Est engine: the `Game` subclass, which hands each hook of the contract to rules.py, view.py and
scoring.py."""

from __future__ import annotations

from typing import Any

from games.core import CORE_CONFIRMATIONS, CORE_MESSAGES, CORE_REFUSALS, Game, Seat, State
from games.core.bots import MOVE_WEIGHTS

from . import components, rules, scoring, view
from .messages import CONFIRMATIONS, MESSAGES, REFUSALS, render_args, waiting_for


class AleaIactaEst(Game):
    slug = "alea_iacta_est"
    move_weights = MOVE_WEIGHTS[slug]  # of the random playouts and the bots
    title = {"en": "Alea Iacta Est", "fr": "César jouait-il aux dés ?", "it": "Alea Iacta Est"}
    # RULES 3.4: the Templum (and with it Fortuna) is in play at 4 and 5 players only.
    pitch = {"en": "Roll eight dice and place them in the Senatus, Castrum and Forum to win provinces, patricians "
                   "and Senate cards; at 4 or 5 players the Templum adds the favour of Fortuna.",
             "fr": "Lancez vos huit dés et placez-les au Senatus, au Castrum et au Forum pour gagner provinces, "
                   "habitants et cartes sénat ; à 4 ou 5 joueurs, le Templum ajoute les faveurs de Fortuna.",
             "it": "Lanciate otto dadi e piazzateli nel Senatus, nel Castrum e nel Foro per conquistare province, "
                   "patrizi e carte Senato; in 4 o 5 giocatori il Templum aggiunge il favore della Fortuna."}
    min_players = 2
    max_players = 5
    options = ()
    rules_version = 2  # 2: a placement waits for "end_turn" before the next roll, so that it can be undone (3.3.5)
    messages = {**CORE_MESSAGES, **MESSAGES}
    refusals = {**CORE_REFUSALS, **REFUSALS}
    confirmations = {**CORE_CONFIRMATIONS, **CONFIRMATIONS}

    # ----------------------------------------------------------------------------------- set-up

    def start(self, players: int, rng_state: int, options: dict[str, Any]) -> State:
        return rules.initial_state(players, rng_state)

    # ---------------------------------------------------------------------------------- contract

    def finished(self, state: State) -> bool:
        return state["phase"] == "over"

    def actors(self, state: State) -> list[Seat]:
        return rules.actors(state)

    def moves(self, state: State, seat: Seat) -> list[dict[str, Any]]:
        return rules.moves(state, seat)

    def play(self, state: State, seat: Seat, action: dict[str, Any]) -> None:
        rules.play(state, seat, action)

    def render_log(self, entry: dict[str, Any], lang: str, names: list[str]) -> str:
        """As the core does, after turning this game's compact arguments into words (messages.py)."""
        return super().render_log({"key": entry["key"], "args": render_args(entry["args"], names)}, lang, names)

    def keeps_undo(self, state: State, seat: Seat, action: dict[str, Any], after: State) -> bool:
        return rules.keeps_undo(state, seat, action)

    def confirmation(self, state: State, seat: Seat, action: dict[str, Any]) -> str | None:
        return rules.confirmation(state, seat, action)

    def copy(self, state: State) -> State:
        return rules.copy_state(state)

    def observe(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.observe(state, seat)

    def score(self, state: State) -> dict[str, Any]:
        return scoring.score(state)

    def redraw(self, state: State, seat: Seat | None, seed: int) -> State:
        return view.resample(state, seat, seed, finished=self.finished(state))

    def reveal(self, state: State) -> list[dict[str, Any]]:
        return view.unseen(state)

    components = components

    def points(self, view: dict[str, Any]) -> list[int]:
        return scoring.points(view)

    def waiting_for(self, view: dict[str, Any], lang: str) -> str:
        return waiting_for(view, lang)

    def refusal(self, state: State, seat: Seat, action: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return rules.refusal(state, seat, action)

    def action_bound(self, players: int) -> int:
        conf = components.SETUP[players]
        # Per round: at most 8 placements per player, each followed by passing the dice (RULES 3.3.5);
        # evaluation: one Fortuna choice per player, two Senate choices, one province per player, one
        # patrician per column. Re-rolls: one chip each, and
        # a player never gets more chips than dice sent to the Latrina, at most 8 a round.
        per_round = 2 * components.DICE_PER_PLAYER * players + players + 2 + players + conf["columns"]
        return conf["rounds"] * (per_round + components.DICE_PER_PLAYER * players)

    def playout_weight(self, state: State, seat: Seat, action: dict[str, Any]) -> float:
        return self.move_weights.get(action["type"], 1.0)
