"""The replay viewer: a table's game step by step, rebuilt from its stored action log by re-running the engine
from the seed (no state is stored for it).

A step is a version of the table after its start: the start itself, then each action and each seat change (a
bot taking a seat over, its player taking it back), in version order. What a reader sees of a step is a view:
while the game runs (or after it was abandoned, which keeps its secrets) a seat's own view at that step and a
spectator's public one, never more; once the game is finished everyone may look through any seat's eyes, and
`Game.reveal` adds what no seat's view shows (deck orders...). Views only: the state and the raw actions (a
sealed bid, a card played face down) never leave this module.

The replayed states of the few tables looked at last are kept (bounded), with the version they were replayed at,
so that stepping through a game re-runs its engine once, and a game in play only for the steps added since.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from games.core import Game

from ..i18n import N_, words
from ..models import FINISHED, LOBBY, PLAYERS_CHAT, SPECTATORS_CHAT
from .chat import ChatService
from .errors import BadRequest, Conflict, Forbidden
from .tables import TablesService

# The replayed tables kept (each the states of its steps, a few kB each): at most CACHE_TABLES tables and
# CACHE_STEPS states in all (a few MB at most), the least recently viewed going first, the one viewed now
# always kept. It pays while someone steps through a game (one replay of the engine, not one per step).
CACHE_TABLES = 8
CACHE_STEPS = 4000

# A seat change in words (public: every seat sees who plays each seat).
# The sentences of the seat changes (msgids of the catalogs), and the bot levels' words.
CHANGES = {
    "takeover": N_("A bot ({level}) plays {name}'s seat now."),
    "reclaim": N_("{name} takes their seat back."),
}
LEVEL_WORDS = {"novice": N_("novice"), "strong": N_("strong")}


class Replays:
    """The steps of tables, for the replay routes. One per process."""

    def __init__(self, service: TablesService, chat: ChatService, size: int = CACHE_TABLES,
                 steps: int = CACHE_STEPS):
        self.service = service
        self.chat = chat
        self.size = size
        self.steps = steps
        # table id -> (the table's version, its steps at that version)
        self._states: OrderedDict[str, tuple[int, list[dict[str, Any]]]] = OrderedDict()

    def held(self) -> dict[str, int]:
        """The replayed tables kept, and their steps (each a state), for the /metrics gauge tabula_held."""
        return {"replays": len(self._states), "replay_steps": sum(len(steps) for _, steps in self._states.values())}

    def _replayed(self, game: Game, history: dict[str, Any]) -> list[dict[str, Any]]:
        """Each step: its version, the state after it, and the seat changes it made (none for an action). A log
        only grows, so the steps kept for an earlier version of the table are the start of its steps now."""
        row = history["row"]
        kept = self._states.get(row.id)
        if kept is not None and kept[0] == row.version:
            self._states.move_to_end(row.id)
            return kept[1]
        changes: dict[int, list[dict[str, Any]]] = {}
        for change in history["seat_changes"]:
            changes.setdefault(change["version"], []).append(change)
        actions = {a["version"]: a for a in history["actions"]}
        versions = sorted({*actions, *changes})
        if kept is not None and kept[0] < row.version:
            steps = list(kept[1])
        else:
            start = game.setup(row.players, row.seed, history["options"])
            steps = [{"version": (versions[0] - 1) if versions else row.version, "state": start, "changes": []}]
        state = steps[-1]["state"]
        for version in (v for v in versions if v > steps[-1]["version"]):
            if version in actions:
                state = game.apply_marked(state, actions[version]["seat"], actions[version]["action"])
            steps.append({"version": version, "state": state, "changes": changes.get(version, [])})
        self._states[row.id] = (row.version, steps)
        self._states.move_to_end(row.id)
        while len(self._states) > 1 and (len(self._states) > self.size or self.held()["replay_steps"] > self.steps):
            self._states.popitem(last=False)
        return steps

    async def step(self, table_id: str, credential: str | None, step: Any = None, as_seat: Any = None) -> dict[str, Any]:
        """One step of a table's replay as the caller may see it, with the chat the caller reads (their own
        channels, written up to that step). `step`: its index (default the last one); `as_seat`: once the game
        is finished, whose eyes to look through (a seat number; default the caller's own seat, a spectator's is
        seat 0). A delayed spectator's replay stops at the version they see of the game (`seen_by`)."""
        ident = await self.service.identify(table_id, credential)
        history = await self.service.history(table_id)
        row = history["row"]
        if row.status == LOBBY:
            raise Conflict("The game has not started yet.")
        game = self.service.game(row.game)
        seen = await self.service.seen_by(await self.service.current(table_id), ident.seat)
        steps = self._replayed(game, history)
        # The start is always shown; later steps only up to the version the reader sees.
        steps = steps[:1] + [s for s in steps[1:] if s["version"] <= seen.version]
        if step is None:
            step = len(steps) - 1
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < len(steps):
            raise BadRequest("There is no such step in this replay.")
        everything = row.status == FINISHED
        if as_seat is None:
            as_seat = ident.seat if ident.seat is not None or not everything else 0
        elif not isinstance(as_seat, int) or isinstance(as_seat, bool) or not 0 <= as_seat < row.players:
            raise BadRequest("There is no such seat at this table.")
        elif not everything and as_seat != ident.seat:
            raise Forbidden("Until the game is over, a replay shows only what you could see.")
        chat = await self.chat.chat_for(table_id, ident.seat, steps[step]["version"])
        return {**step_body(game, self.service.client_view(seen, as_seat)["table"], steps, step, as_seat, everything),
                "chat": {"channel": PLAYERS_CHAT if ident.seat is not None else SPECTATORS_CHAT, "messages": chat}}


def replay_view(game: Game, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A seat's view of a past state, without its legal actions (nothing can be played in a replay)."""
    return {**game.view(state, seat), "legal_actions": [], "confirm": []}


def step_body(game: Game, table: dict[str, Any], steps: list[dict[str, Any]], index: int, seat: int | None,
              everything: bool) -> dict[str, Any]:
    """What the replay of one step shows `seat`: built from its views of that step and the one before, the seat
    changes (public) and, once the game is finished, what no view shows. The leak test builds it from a
    resampled state too, and finds the same bytes."""
    current = steps[index]
    view = replay_view(game, current["state"], seat)
    seen = len(replay_view(game, steps[index - 1]["state"], seat)["log"]) if index else 0
    return {
        "step": index,
        "steps": len(steps),
        "version": current["version"],
        "everything": everything,
        "as": seat,
        "entries": view["log"][seen:],
        "changes": [{"seat": c["seat"], "kind": c["kind"], "level": c["level"]} for c in current["changes"]],
        "hidden": game.reveal(current["state"]) if everything else None,
        "view": {"table": {**table, "you": seat, "deadline": None}, "game": view},
    }


def change_words(change: dict[str, Any], names: list[str], lang: str) -> str:
    """A seat change in the reader's language."""
    _ = words(lang)
    level = _(LEVEL_WORDS[change["level"]]) if change["level"] in LEVEL_WORDS else change["level"]
    return _(CHANGES[change["kind"]]).format(level=level, name=names[change["seat"]])
