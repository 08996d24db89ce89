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
    title_en = "Caesar & Cleopatra"
    title_fr = "César & Cléopâtre"
    pitch_en = "Two rivals buy the patricians of Rome with influence cards, some face down, and dirty tricks."
    pitch_fr = "Deux rivaux achètent les patriciens de Rome à coups de cartes Influence, cachées ou non, et de manipulations."
    min_players = 2
    max_players = 2
    rules_version = 2  # 2: passes never end the game, only a true deadlock does (RULES 1.4.7)
    options = (
        Option("action_pile", "shuffle", ("shuffle", "arrange"),
               choice_names=(("shuffled", "mélangée"), ("arranged by its owner", "classée par son propriétaire")),
               en="How each player's 13 action cards are stacked: shuffled (advised for beginners), or arranged "
                  "by their owner card by card before the game.",
               fr="Comment chaque joueur empile ses 13 cartes Manipulation : mélangées (conseillé aux débutants), "
                  "ou classées par leur propriétaire, carte par carte, avant la partie.",
               label_en="Action pile", label_fr="Réserve de manipulation"),
        Option("two_face_down", False, (False, True),
               en="Italian house rule: a player who plays no action card may place 2 influence cards face down "
                  "instead of 1.",
               fr="Variante italienne : un joueur qui ne joue pas de carte Manipulation peut poser 2 cartes "
                  "Influence face cachée au lieu d'une.",
               label_en="Two face down without an action card", label_fr="Deux faces cachées sans manipulation"),
        Option("orgy_removed_on_exhaustion", False, (False, True),
               en="Author's option 1: when a second group of patricians is exhausted, one plain Orgy card leaves "
                  "the game (never the reshuffle one).",
               fr="Option 1 de l'auteur : dès qu'un second groupe de patriciens est épuisé, une carte Orgie "
                  "simple quitte le jeu (jamais celle qui fait remélanger).",
               label_en="Fewer Orgies later", label_fr="Moins d'Orgies en cours de partie"),
        Option("orgy_removed_before", False, (False, True),
               en="Author's option 2: one plain Orgy card is removed from the vote cards before the game.",
               fr="Option 2 de l'auteur : une carte Orgie simple est retirée des cartes Suffrage avant la partie.",
               label_en="One Orgy fewer", label_fr="Une Orgie de moins"),
        Option("tiebreak_patricians", False, (False, True),
               en="A tie on points is won by the player with more patricians (otherwise it is a draw).",
               fr="À égalité de points, le joueur qui a le plus de patriciens gagne (sinon, match nul).",
               label_en="Break ties by patricians", label_fr="Départager par les patriciens"),
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
