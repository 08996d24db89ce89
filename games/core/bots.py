"""Bots that play any game through the engine contract, and the registry of bot levels.

A bot decides from what its seat may know, and nothing else. The only entry point is
`Bot.choose(game, state, seat)`, and its first act is to replace the true state by
`game.resample(state, seat, bot_seed)`: a state drawn anew in everything the seat cannot know.
The conformance suite proves that this resample depends only on what the seat knows
(resample(resample(s, seat, a), seat, b) == resample(s, seat, b)), so nothing the bot computes
afterwards can depend on the hidden part of the true state. The decision itself (`Bot.decide`)
only ever receives an `InformationSet`, which holds that resampled state and nothing else.

Two levels, for every game:

* `Novice`: a random legal action, weighted by the game's `playout_weight` hook (when it has one)
  and by the per-game weights of `games/<slug>/bots.py`, so that games end at a normal length.
* `Strong`: information-set Monte Carlo search (ISMCTS). Each iteration draws a determinisation
  (`game.resample` of the information set with a fresh seed), walks a search tree over the bot's own
  consecutive decisions (UCB1 with availability counts, since the legal actions of a later step may
  differ between determinisations), then plays the rest out with the cheap weighted policy (the
  per-game `policy` weights) up to a horizon, and scores the end with the game's outcome or the
  per-game evaluation. The action chosen is the most visited one at the root.

Everything is deterministic for a given bot seed: the only randomness is games.core.rng, seeded from
the bot seed and the information set. The per-decision budget is a number of iterations (deterministic);
an optional time cap (`Budget.seconds`) protects a live table against a slow machine, at the price of
determinism when it is hit. Windows out of turn (a veto, joining a Counters action, sealed bids) are
decisions like any other: a bot is asked for every seat in `game.to_act(state)` it plays.

Per-game knowledge lives in `games/<slug>/bots.py` as `HOOKS`, an instance of `BotHooks`; a game without
such a module gets the generic hooks (play to the end, score by the outcome).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import math
import time
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

import orjson

from . import rng
from .game import LANGS, Action, Game, Seat, State, without_undo

# How often random playouts and bots take a kind of move, per game, against 1 for a kind not listed. The
# random playouts (the game's `playout_weight`: conformance suite, golden playthroughs, novice bots) and the
# strong bot's playout policy read the same value (`Game.move_weights`), so that they cannot drift apart.
MOVE_WEIGHTS: dict[str, dict[str, float]] = {
    # A real player mostly places influence and sometimes plays an action card; rarely stays passive.
    "cesar_cleopatre": {"passive": 0.05, "play_action": 0.12, "discard": 1.0, "end_turn": 0.3},
    # A chip is spent on about one turn in ten when the player has some.
    "alea_iacta_est": {"reroll": 0.005},
    # Selling a senator for 5 outside a debt is rare.
    "ave_cesar": {"sell_senator": 0.02},
}


# Share of a terminal value that comes from winning; the rest rewards a good score, so that the search
# still has a gradient when every line wins (or every line loses).
WIN_SHARE = 0.8


# ------------------------------------------------------------------------------------------- budget


@dataclass(frozen=True)
class Budget:
    """How much thinking one decision may take.

    `iterations`: determinised simulations per decision (None: the game's default).
    `seconds`: a wall-clock cap per decision; None for fully deterministic play (tests, simulations).
    `horizon`: actions simulated after the bot's own move before evaluating (None: the game's default).
    """

    iterations: int | None = None
    seconds: float | None = 0.5
    horizon: int | None = None

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """"200", "200:0.5" (iterations:seconds) or "200:none:40" (iterations:seconds:horizon)."""
        parts = [p.strip().lower() for p in text.split(":")]
        if not 1 <= len(parts) <= 3 or not parts[0]:
            raise ValueError(f"a budget is ITERATIONS[:SECONDS[:HORIZON]], not {text!r}")

        def number(p: str, kind: type) -> Any:
            return None if p in ("", "none", "default") else kind(p)

        iterations = number(parts[0], int)
        seconds = number(parts[1], float) if len(parts) > 1 else None
        horizon = number(parts[2], int) if len(parts) > 2 else None
        if iterations is not None and iterations < 1:
            raise ValueError("a budget needs at least 1 iteration")
        return cls(iterations=iterations, seconds=seconds, horizon=horizon)


# ------------------------------------------------------------------------------------ randomness


def derive_seed(*parts: Any) -> int:
    """A 64-bit seed from any JSON-able parts, stable across Python versions and runs (no hash())."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def uniform(holder: dict[str, Any]) -> float:
    """A float in [0, 1) from our own PRNG."""
    return (rng.next_u64(holder) >> 11) * (1.0 / (1 << 53))


def weighted_index(holder: dict[str, Any], weights: Sequence[float]) -> int:
    """An index drawn in proportion to `weights` (non-positive weights are never drawn unless all are)."""
    total = 0.0
    for w in weights:
        if w > 0:
            total += w
    if total <= 0:
        return rng.below(holder, len(weights))
    r = uniform(holder) * total
    last = 0
    for i, w in enumerate(weights):
        if w > 0:
            last = i
            if r < w:
                return i
            r -= w
    return last


def action_key(action: Action) -> bytes:
    """The identity of an action in the search tree (canonical JSON, as bytes: made at every step)."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)


# ------------------------------------------------------------------------------- per-game hooks


class BotHooks:
    """Per-game knowledge for the bots. `games/<slug>/bots.py` defines `HOOKS = <a subclass>()`.

    Every hook receives states the bot may look at: the resampled information-set state or one of its
    determinisations, never the true state of a table.
    """

    # Strong: determinised simulations per decision when the budget does not say.
    iterations: ClassVar[int] = 300
    # Strong: actions simulated after the bot's own decisions before evaluating (None: to the end).
    horizon: ClassVar[int | None] = None
    # Strong: UCB1 exploration constant (values are in [0, 1]).
    exploration: ClassVar[float] = 0.7
    # The game's resample returns a state that shares no list or dict with its input, so a determinisation
    # needs no second copy (tests/games/test_bots.py checks this claim for every game that makes it).
    fresh_resample: ClassVar[bool] = False

    def weights(self, game: Game, state: State, seat: Seat, actions: list[Action]) -> list[float]:
        """Novice weights of `actions`: the game's own playout_weight, times `weight`."""
        game_weight = getattr(game, "playout_weight", None)
        out = []
        for a in actions:
            w = game_weight(state, seat, a) if game_weight else 1.0
            out.append(w * self.weight(game, state, seat, a))
        return out

    def weight(self, game: Game, state: State, seat: Seat, action: Action) -> float:
        """An extra per-action weight for the novice (and, by default, the playouts)."""
        return 1.0

    def policy(self, game: Game, state: State, seat: Seat, actions: list[Action]) -> list[float]:
        """The cheap policy of the Strong bot's playouts (default: the novice weights)."""
        return self.weights(game, state, seat, actions)

    def candidates(self, game: Game, state: State, seat: Seat, actions: list[Action]) -> list[Action]:
        """The actions the Strong bot's tree considers (a subset of `actions`, never empty).
        A game with very many near-equivalent actions (every bid amount) prunes them here."""
        return actions

    def beliefs(self, game: Game, state: State, seat: Seat) -> Any:
        """What the seat can work out from what it has seen (e.g. purses from the public log), computed
        once per decision from the information-set state; None: nothing to add to the resample."""
        return None

    def refine(self, game: Game, state: State, seat: Seat, beliefs: Any, holder: dict[str, Any]) -> None:
        """Make a determinisation agree with `beliefs` (called only when they are not None)."""

    def mark(self, game: Game, state: State) -> Any:
        """Something remembered when a playout starts, handed to `stop` (e.g. the round number)."""
        return None

    def stop(self, game: Game, state: State, mark: Any) -> bool:
        """End the playout here and `evaluate` (e.g. once the round under way has been scored)."""
        return False

    def evaluate(self, game: Game, state: State) -> list[float]:
        """The value of an unfinished state for every seat, in [0, 1] (reached at the horizon or `stop`)."""
        raise NotImplementedError(f"{game.slug}: a playout horizon needs an evaluation hook")

    def terminal(self, game: Game, state: State) -> list[float]:
        """The value of a finished game for every seat, in [0, 1]: the win (shared wins split) and a
        little for the score relative to the others."""
        result = game.score(state)
        return outcome_values(result["scores"], result["winners"])


def outcome_values(scores: Sequence[float], winners: Sequence[Seat]) -> list[float]:
    low, high = min(scores), max(scores)
    spread = (high - low) or 1
    win = 1.0 / len(winners) if winners else 0.0
    return [WIN_SHARE * (win if s in winners else 0.0) + (1 - WIN_SHARE) * (scores[s] - low) / spread
            for s in range(len(scores))]


GENERIC_HOOKS = BotHooks()
_HOOKS_CACHE: dict[str, BotHooks] = {}


def hooks_for(game: Game) -> BotHooks:
    """The game's `games/<slug>/bots.py` HOOKS, or the generic hooks when it has none."""
    slug = game.slug
    if slug not in _HOOKS_CACHE:
        hooks = GENERIC_HOOKS
        package = importlib.util.find_spec(f"games.{slug}")
        if package is not None and package.submodule_search_locations is not None \
                and importlib.util.find_spec(f"games.{slug}.bots") is not None:
            hooks = getattr(importlib.import_module(f"games.{slug}.bots"), "HOOKS", GENERIC_HOOKS)
        _HOOKS_CACHE[slug] = hooks
    return _HOOKS_CACHE[slug]


# ------------------------------------------------------------------------------ information set


class InformationSet:
    """What one seat may know, and nothing else: a state resampled for that seat.

    It is built from the true state by `game.resample(state, seat, seed)` and keeps only the result,
    so a bot holding it cannot reach the hidden part of the true state. `determinisation(seed)` draws
    one more complete state consistent with it (a private copy the caller may mutate).
    """

    __slots__ = ("game", "seat", "_sample", "_fresh")

    def __init__(self, game: Game, state: State, seat: Seat, seed: int):
        self.game = game
        self.seat = seat
        # Without the undo window: a bot never takes a move back (nothing in the search could use it).
        self._sample = game.resample(without_undo(state), seat, seed)
        self._fresh = hooks_for(game).fresh_resample

    @property
    def fingerprint(self) -> str:
        """A canonical text of the information set (the same for every state the seat cannot tell apart)."""
        return self.game.encode(self._sample)

    def view(self) -> dict[str, Any]:
        return self.game.view(self._sample, self.seat)

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions(self._sample, self.seat)

    def sample(self) -> State:
        """A private copy of the resampled state itself."""
        return self.game.copy(self._sample)

    def determinisation(self, seed: int) -> State:
        """One more complete state consistent with the information set: a private copy."""
        state = self.game.resample(self._sample, self.seat, seed)
        return state if self._fresh else self.game.copy(state)


# ------------------------------------------------------------------------------------------ bots


class Bot:
    """A player. `choose(game, state, seat)` returns a legal action of `seat`, decided only from what
    that seat may know. Bots keep no memory between decisions, so a table can recreate its bot at
    every turn (or in another process) and get the same play."""

    level: ClassVar[str] = ""
    label: ClassVar[dict[str, str]] = {}  # the bot's name in every language (LANGS); label_en... derived

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for lang in LANGS:
            setattr(cls, f"label_{lang}", cls.label.get(lang) or cls.label.get("en", ""))

    def __init__(self, seed: int = 0, budget: Budget | None = None):
        self.seed = seed
        self.budget = budget or Budget()

    def choose(self, game: Game, state: State, seat: Seat) -> Action:
        if seat not in game.to_act(state):
            raise ValueError(f"seat {seat} has nothing to decide now")
        info = InformationSet(game, state, seat, derive_seed("info", self.seed, seat))
        del state  # from here on, only the information set
        holder = {"rng": rng.seed_state(derive_seed("decide", self.level, self.seed, info.fingerprint))}
        return self.decide(info, holder)

    def decide(self, info: InformationSet, holder: dict[str, Any]) -> Action:
        """Hook: the decision, from the information set and a seeded PRNG holder only."""
        raise NotImplementedError


class Novice(Bot):
    """A random legal action, weighted so that games end at a normal length."""

    level = "novice"
    label = {"en": "Novice bot", "fr": "Robot débutant", "it": "Bot principiante"}

    def decide(self, info: InformationSet, holder: dict[str, Any]) -> Action:
        state = info.sample()
        actions = info.game.legal_actions(state, info.seat)
        if len(actions) == 1:
            return actions[0]
        weights = hooks_for(info.game).weights(info.game, state, info.seat, actions)
        return actions[weighted_index(holder, weights)]


class _Node:
    """A node of the search tree over the bot's own consecutive decisions."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[bytes, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


@dataclass
class SearchStats:
    iterations: int = 0
    simulated_actions: int = 0
    seconds: float = 0.0


class Strong(Bot):
    """Information-set Monte Carlo tree search with per-game policy and evaluation hooks."""

    level = "strong"
    label = {"en": "Strong bot", "fr": "Robot fort", "it": "Bot esperto"}

    def __init__(self, seed: int = 0, budget: Budget | None = None):
        super().__init__(seed, budget)
        self.last_stats = SearchStats()

    def decide(self, info: InformationSet, holder: dict[str, Any]) -> Action:
        game, seat = info.game, info.seat
        hooks = hooks_for(game)
        root_state = info.sample()
        legal = game.legal_actions(root_state, seat)
        self.last_stats = SearchStats()
        if len(legal) == 1:
            return legal[0]
        iterations = self.budget.iterations or hooks.iterations
        horizon = self.budget.horizon if self.budget.horizon is not None else hooks.horizon
        deadline = None if self.budget.seconds is None else time.perf_counter() + self.budget.seconds
        started = time.perf_counter()
        root = _Node()
        stats = self.last_stats
        by_key: dict[bytes, Action] = {}
        beliefs = hooks.beliefs(game, root_state, seat)
        for i in range(iterations):
            if deadline is not None and i > 0 and time.perf_counter() > deadline:
                break
            det = info.determinisation(derive_seed("det", rng.next_u64(holder)))
            if beliefs is not None:
                hooks.refine(game, det, seat, beliefs, holder)
            self._iterate(game, hooks, det, seat, root, holder, horizon, by_key, stats)
            stats.iterations += 1
        stats.seconds = time.perf_counter() - started
        legal_keys = {action_key(a) for a in legal}
        best_key = max((k for k in root.children if k in legal_keys),
                       key=lambda k: (root.children[k].visits, root.children[k].total), default=None)
        if best_key is None:  # no iteration ran (a zero time cap): follow the policy
            weights = hooks.policy(game, root_state, seat, legal)
            return legal[weighted_index(holder, weights)]
        return by_key[best_key]

    def _iterate(self, game: Game, hooks: BotHooks, state: State, seat: Seat, root: _Node,
                 holder: dict[str, Any], horizon: int | None, by_key: dict[bytes, Action],
                 stats: SearchStats) -> None:
        path = [root]
        node = root
        c = hooks.exploration
        mark = hooks.mark(game, state)
        # Selection and expansion over the bot's own decisions, until another seat acts.
        while not game.finished(state):
            actors = game.actors(state)
            if seat not in actors:
                break
            actions = hooks.candidates(game, state, seat, game.moves(state, seat))
            keys = [action_key(a) for a in actions]
            unvisited = []
            for k, a in zip(keys, actions):
                child = node.children.get(k)
                if child is None:
                    child = node.children[k] = _Node()
                child.avail += 1
                if child.visits == 0:
                    unvisited.append(k)
                by_key.setdefault(k, a)
            if unvisited:
                # Expansion: an untried action, in the order of the policy's preference.
                if len(unvisited) == 1:
                    key = unvisited[0]
                else:
                    subset = [by_key[k] for k in unvisited]
                    weights = hooks.policy(game, state, seat, subset)
                    key = unvisited[weighted_index(holder, weights)]
                chosen = node.children[key]
                action = by_key[key]
                game.play(state, seat, action)
                stats.simulated_actions += 1
                path.append(chosen)
                break
            best_key, best_score = keys[0], -1.0
            for k in keys:
                child = node.children[k]
                score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best_key, best_score = k, score
            node = node.children[best_key]
            game.play(state, seat, by_key[best_key])
            stats.simulated_actions += 1
            path.append(node)
        # Playout by the cheap policy.
        steps = 0
        limit = horizon if horizon is not None else game.action_bound(state["players"])
        while not game.finished(state) and steps < limit and not hooks.stop(game, state, mark):
            actors = sorted(game.actors(state))
            actor = actors[0] if len(actors) == 1 else actors[rng.below(holder, len(actors))]
            actions = game.moves(state, actor)
            if len(actions) == 1:
                action = actions[0]
            else:
                action = actions[weighted_index(holder, hooks.policy(game, state, actor, actions))]
            game.play(state, actor, action)
            steps += 1
        stats.simulated_actions += steps
        values = hooks.terminal(game, state) if game.finished(state) else hooks.evaluate(game, state)
        reward = values[seat]
        for n in path:
            n.visits += 1
            n.total += reward


LEVELS: dict[str, type[Bot]] = {"novice": Novice, "strong": Strong}


def make_bot(level: str, seed: int = 0, budget: Budget | None = None) -> Bot:
    """A bot of a registered level (the table service and the simulation command use this)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
    return LEVELS[level](seed=seed, budget=budget)

