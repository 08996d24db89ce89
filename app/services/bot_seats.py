"""Bot seats of a new table: which seats go to bots, their display names, and the token hash nobody holds.
(Plain functions of the table's request, used by the tables service when it creates a table.)"""

from __future__ import annotations

import secrets
from typing import Any, Mapping, Sequence

from games.core.bots import LEVELS

from .credentials import TOKEN_BYTES, hash_token
from .errors import BadRequest


def seat_levels(bots: Any, players: int) -> list[str | None]:
    """The `bots` of a new table -> one bot level or None (a person) per seat.

    Accepted: None; a mapping of seat number (int or its text) to level, e.g. {"1": "strong"}; or a list
    with one level or None per seat."""
    levels: list[str | None] = [None] * players
    if bots is None:
        return levels
    if isinstance(bots, Mapping):
        items = list(bots.items())
    elif isinstance(bots, (list, tuple)):
        if len(bots) != players:
            raise BadRequest("\"bots\" as a list has one entry per seat ({players}).", {"players": players})
        items = [(n, level) for n, level in enumerate(bots) if level is not None]
    else:
        raise BadRequest("\"bots\" maps seat numbers to bot levels, or lists one level (or null) per seat.")
    for key, level in items:
        try:
            seat = int(key) if not isinstance(key, bool) else -1
        except (TypeError, ValueError):
            seat = -1
        if str(key).strip() != str(seat) or not 0 <= seat < players:
            raise BadRequest("There is no seat {seat} at this table.", {"seat": repr(key)})
        if level not in LEVELS:
            raise BadRequest("A bot is {levels}, not {level}.",
                             {"levels": " | ".join(repr(name) for name in LEVELS), "level": repr(level)})
        levels[seat] = level
    return levels


def bot_names(levels: Sequence[str | None]) -> list[str | None]:
    """Display names of bot seats: "Bot (strong)"; when several bots share a level, the seat number tells
    them apart in the game log ("Bot (novice) #2")."""
    names: list[str | None] = []
    for seat, level in enumerate(levels):
        if level is None:
            names.append(None)
        elif sum(1 for other in levels if other == level) > 1:
            names.append(f"Bot ({level}) #{seat + 1}")
        else:
            names.append(f"Bot ({level})")
    return names


def hidden_token_hash() -> str:
    """The token hash of a bot seat: of a fresh token that is thrown away, so nobody can act for it (the
    runner acts with the hash itself)."""
    return hash_token(secrets.token_urlsafe(TOKEN_BYTES))
