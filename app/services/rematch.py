"""The rematch: the players of a finished table play again, at a new table of the same game, player count, options
and settings (turn timer, spectators allowed, spectator delay, private), with a fresh seed and the seats rotated
so that another player starts.

The first seated player who asks creates the new table and links the old one to it (once: the link is a
conditional write, so two players asking at the same time cannot make two tables; the table that lost the race
is deleted before anyone sat at it). Each player who accepts is seated at the new table straight away, in the
seat after theirs, and gets a new seat token (their seat cookie or link moves with them). Bots stay bots in
their rotated seat; seats nobody took wait for their players behind the new table's invite link.
"""

from __future__ import annotations

from typing import Any

from ..models import FINISHED
from .errors import Conflict, Forbidden
from .tables import TablesService


def rotated(seat: int, players: int) -> int:
    """A seat's place at the rematch: the next one round the table, so that seat 0 changes player."""
    return (seat + 1) % players


async def accept(service: TablesService, table_id: str, credential: str | None) -> dict[str, Any]:
    """Seats the player holding `credential` at the rematch of their finished table (creating it if they are the
    first to ask); returns {"table", "seat", "token"}. A player who already sat there gets a 409 (their token
    of the new table is the one they got then)."""
    ident = await service.identify(table_id, credential)
    if ident.seat is None:
        raise Forbidden("Only the players of a table can start its rematch.")
    snap = await service.current(table_id)
    if snap.status != FINISHED:
        raise Conflict("Only a finished game can be played again.")
    history = await service.history(table_id)
    rematch_id = history["row"].rematch_id
    if rematch_id is None:
        levels = [None] * snap.players
        for seat in range(snap.players):
            if snap.seat_bots[seat] and not snap.seat_takeovers[seat]:  # a bot seat, not a player's
                levels[rotated(seat, snap.players)] = snap.seat_bots[seat]
        created = await service.create(snap.game, snap.players, snap.options, history["row"].turn_timer,
                                       bots=levels, spectators_allowed=snap.spectators_allowed,
                                       spectator_delay=snap.spectator_delay, private=snap.private)
        rematch_id = await service.link_rematch(table_id, created.id)
        if rematch_id != created.id:
            await service.drop_unlinked_rematch(created.id)
    new = await service.current(rematch_id)
    seat = rotated(ident.seat, snap.players)
    if new.seat_hashes[seat] is not None:
        raise Conflict("Your seat at the rematch is taken already: open the rematch from where you accepted it.")
    _seat, token = await service.join(rematch_id, new.invite_key, snap.seat_names[ident.seat], seat)
    return {"table": rematch_id, "seat": seat, "token": token}
