"""César & Cléopâtre (Caesar & Cleopatra, W. Lüdtke, Kosmos 1997): the complete rules engine for 2 players.

The rules are in RULES.md (English) and RULES.fr.md (French), numbered like ../shared/RULINGS.md §1. The
package: cards.py (the components as data), rules.py (state, moves, effects, votes, scoring), view.py (the
per-seat view and the resample), knowledge.py (what a seat knows of the opponent's hidden cards),
messages.py (the game log in two languages).
"""

from __future__ import annotations

from typing import Any

from games.core import Action, Game, Option, Seat, State

from . import rules
from .cards import GROUP_INDEX, OWN_LIMIT
from .messages import MESSAGES, render_args
from .view import observe, resample

__all__ = ["CesarCleopatre"]

# Relative weights of the random playout policy (novice bots, conformance playouts): a real player mostly
# places influence and sometimes plays an action card; rarely stays passive.
PLAYOUT_WEIGHTS = {"passive": 0.05, "play_action": 0.12, "discard": 1.0, "end_turn": 0.3}


class CesarCleopatre(Game):
    slug = "cesar_cleopatre"
    title_en = "Caesar & Cleopatra"
    title_fr = "César & Cléopâtre"
    pitch_en = "Two rivals buy the patricians of Rome with influence cards, some face down, and dirty tricks."
    pitch_fr = "Deux rivaux achètent les patriciens de Rome à coups de cartes Influence, cachées ou non, et de manipulations."
    min_players = 2
    max_players = 2
    rules_version = 1
    options = (
        Option("action_pile", "shuffle", ("shuffle", "arrange"),
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
    messages = MESSAGES

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

    def copy(self, state: State) -> State:
        return rules.copy_state(state)

    def observe(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return observe(state, seat)

    def score(self, state: State) -> dict[str, Any]:
        return rules.score(state)

    def resample(self, state: State, seat: Seat | None, seed: int) -> State:
        return resample(state, seat, seed)

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
        return PLAYOUT_WEIGHTS.get(kind, 1.0)

    def render_log(self, entry: dict[str, Any], lang: str, names: list[str]) -> str:
        return super().render_log({**entry, "args": render_args(entry["key"], entry["args"], lang)}, lang, names)

    def refusal(self, state: State, seat: Seat, action: Action) -> str | None:
        return refusal(state, seat, action)


def refusal(state: State, seat: Seat, action: Action) -> str | None:
    """A precise sentence for a refused action. It speaks only of the seat's own cards and of public facts."""
    kind = action.get("type")
    phase = state["phase"]
    t = state["t"]
    if phase == "setup":
        return "First place one card of your setup series at each group, then arrange your action pile."
    if phase == "veto":
        if kind == "veto" and "veto" not in state["hand_actions"][seat]:
            return "You hold no Veto card."
        return "Answer the action card: Veto it or let it pass."
    if phase == "spy":
        return "Choose one card of your opponent's hand for him to discard."
    if phase == "castle":
        return "Place the cards taken back face down at the two castled groups, within the limits."
    if phase in ("draw", "spy_draw"):
        return "Draw from the influence reserve or from the action reserve."
    if kind == "place":
        group = action.get("group")
        if not isinstance(group, str) or group not in GROUP_INDEX:
            return "There is no such group."
        gi = GROUP_INDEX[group]
        if phase == "exchange":
            return "You are passive this turn: no influence is placed."
        if action.get("value") not in rules.values_of(state["hand"][seat]):
            return "You have no such influence card in hand."
        if not state["left"][gi]:
            return "That group has no patricians left."
        if len(state["up"][seat][gi]) + len(state["down"][seat][gi]) >= OWN_LIMIT:
            return "You already have 5 cards at that group."
        if rules.room(state, gi, seat) <= 0:
            return "That group already holds 8 cards."
        if phase == "turn":
            if t["mode"] == "up" and t["placed"] == 1:
                return "Your second card must also go face up."
            if rules.placement_done(t):
                return "You have already placed your influence this turn."
            if action.get("face") == "up":
                return "Two cards go face up together, and the second one would have nowhere to go."
        return "That placement is not allowed."
    if kind == "play_action":
        if phase == "final":
            return "No action card is played in the last turn."
        if phase == "exchange":
            return "You are passive this turn: no action card is played."
        if t["action"] != "none":
            return "Only one action card may be played per turn."
        if t["mode"] == "up" and t["placed"] == 1:
            return "Place your second face-up card first."
        if action.get("card") not in state["hand_actions"][seat]:
            return "You have no such action card in hand."
        if action.get("card") == "veto":
            return "A Veto is only played against your opponent's action card."
        return "That action card has no such target."
    if kind == "passive":
        return "You have already begun an active turn." if t["started"] else "You cannot stay passive now."
    if kind == "discard":
        if phase != "exchange":
            return "Cards are discarded only in a passive turn."
        if t["drew"]:
            return "You have started drawing: no more discards."
        return "You have no such card in hand."
    if kind in ("draw", "refill"):
        if phase == "turn" and not rules.placement_done(t):
            return "Place your influence before drawing."
        return "You cannot draw now."
    if kind == "end_turn":
        return "You still have to place influence or draw cards."
    if phase == "final":
        return "In the last turn, place every influence card you can."
    return None

