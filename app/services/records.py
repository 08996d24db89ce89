"""Game records: an ended table as one JSON object, everything needed to replay it and nothing secret that
the game still hides (only ended tables have records, so their seed may be told). `tabula export` writes
them (one per line), `tabula import` loads them into another server, and a replay download uses the same
object.

    {"format": "tabula-game-record", "format_version": 1,
     "id", "game", "rules_version", "players", "options", "seed", "status", "version", "turn_timer",
     "created_at", "started_at", "finished_at",
     "seats": [{"number", "name", "bot"}],                       # bot: the level playing it at the end, or null
     "actions": [{"version", "seat", "action", "at"}],           # the log, in version order
     "seat_changes": [{"version", "seat", "kind", "reason", "level", "at"}]}

A record is checked before it is loaded: its log must replay from its seed to a game whose end matches
its status, at its version (`replay_record` here, then the check of `tabula replay-check`,
app/services/tables.replay_problem).
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, Mapping, Sequence

from games.core import Game, IllegalAction

from ..models import ENDED, RECLAIM, TAKEOVER

FORMAT = "tabula-game-record"
FORMAT_VERSION = 1
FIELDS = ("id", "game", "rules_version", "players", "options", "seed", "status", "version", "turn_timer",
          "created_at", "started_at", "finished_at", "seats", "actions", "seat_changes")


class BadRecord(ValueError):
    """A record that cannot be loaded; the message says why, in a sentence."""


def make_record(table: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], actions: Sequence[Mapping[str, Any]],
                seat_changes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The record of an ended table from its rows (dates as ISO strings, actions as objects)."""
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        **{key: table[key] for key in FIELDS[:12]},
        "seats": [{"number": s["number"], "name": s["name"], "bot": s["bot"]} for s in seats],
        "actions": [{"version": a["version"], "seat": a["seat"], "action": a["action"], "at": a["at"]}
                    for a in actions],
        "seat_changes": [{"version": c["version"], "seat": c["seat"], "kind": c["kind"], "reason": c["reason"],
                          "level": c["level"], "at": c["at"]} for c in seat_changes],
    }


def replay_record(games: Mapping[str, Game], record: Any) -> SimpleNamespace:
    """Checks a record's shape and replays its log; returns the table row it describes (with `state`, the
    encoded final state) and its log rows, for the replay check (tables.replay_problem) and the load.
    Raises BadRecord."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise BadRecord(f"This is not a {FORMAT} object.")
    if record.get("format_version") != FORMAT_VERSION:
        raise BadRecord(f"Only format_version {FORMAT_VERSION} records can be loaded.")
    missing = [key for key in FIELDS if key not in record]
    if missing:
        raise BadRecord(f"The record lacks {', '.join(missing)}.")
    game = games.get(record["game"])
    if game is None:
        raise BadRecord(f"This server does not offer the game {record['game']!r}.")
    if record["status"] not in ENDED:
        raise BadRecord("Only ended games have records.")
    if record["rules_version"] != game.rules_version:
        raise BadRecord(f"The record was played under rules version {record['rules_version']}, "
                        f"this server has {game.rules_version}.")
    seats = record["seats"]
    if not isinstance(seats, list) or [s.get("number") for s in seats] != list(range(record["players"])):
        raise BadRecord("The record's seats do not match its number of players.")
    if any(c.get("kind") not in (TAKEOVER, RECLAIM) for c in record["seat_changes"]):
        raise BadRecord("A seat change of the record is neither a takeover nor a reclaim.")
    try:
        state = game.setup(record["players"], record["seed"], record["options"])
        for entry in record["actions"]:
            state = game.apply_marked(state, entry["seat"], entry["action"])
        actions = [SimpleNamespace(version=a["version"], seat=a["seat"], action=json.dumps(a["action"]))
                   for a in record["actions"]]
    except (IllegalAction, ValueError, KeyError, TypeError) as e:
        raise BadRecord(f"The record's log does not replay: {e}") from None
    return SimpleNamespace(game=record["game"], players=record["players"], options=record["options"],
                           seed=record["seed"], status=record["status"], version=record["version"],
                           state=game.encode(state), actions=actions,
                           seat_changes=[c["version"] for c in record["seat_changes"]])
