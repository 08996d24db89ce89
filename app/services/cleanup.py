"""Stale tables: a table that never filled is deleted after `TABULA_LOBBY_EXPIRY_HOURS` (default a day); a
game where nobody acted for `TABULA_ABANDON_DAYS` (default 30) ends as abandoned (its log and snapshot
stay, like a finished game's); finished games are kept for their replays.

Every server process runs a `Cleanup` every `TABULA_CLEANUP_INTERVAL` seconds (and once when it starts);
`tabula cleanup` runs one at once. Several processes may clean at the same time: each deletion and each
ending is one conditional statement (still waiting and old enough; still playing at the version found), so
a table is cleaned once, and a player who joins or acts meanwhile wins (the table is then left alone).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..config import Settings
from .periodic import Periodic
from .tables import TablesService, now

log = logging.getLogger("tabula.cleanup")


@dataclass(frozen=True)
class Cutoffs:
    lobby_before: datetime  # tables waiting for players created before this expire
    idle_before: datetime  # games unchanged since before this are abandoned


class Cleanup(Periodic):
    name = "tabula-cleanup"

    def __init__(self, service: TablesService, *, lobby_expiry_hours: float = 24.0, abandon_days: float = 30.0,
                 interval: float = 3600.0):
        super().__init__(interval)
        self.service = service
        self.lobby_expiry = timedelta(hours=lobby_expiry_hours)
        self.abandon_after = timedelta(days=abandon_days)

    @classmethod
    def from_settings(cls, service: TablesService, settings: Settings) -> "Cleanup":
        return cls(service, lobby_expiry_hours=settings.lobby_expiry_hours, abandon_days=settings.abandon_days,
                   interval=settings.cleanup_interval)

    def cutoffs(self, at: datetime | None = None) -> Cutoffs:
        at = at or now()
        return Cutoffs(at - self.lobby_expiry, at - self.abandon_after)

    async def preview(self, at: datetime | None = None) -> dict[str, list[dict[str, Any]]]:
        """What a clean-up at `at` (now) would do: {"expire": [tables], "abandon": [tables]}."""
        cut = self.cutoffs(at)
        return await self.service.stale_tables(cut.lobby_before, cut.idle_before)

    async def round(self) -> dict[str, int]:
        return await self.run()

    async def run(self, at: datetime | None = None) -> dict[str, int]:
        """One clean-up: how many tables expired and how many games were abandoned by this call."""
        cut = self.cutoffs(at)
        stale = await self.service.stale_tables(cut.lobby_before, cut.idle_before)
        done = {"expired": 0, "abandoned": 0}
        for table in stale["expire"]:
            if await self.service.expire_lobby(table["id"], cut.lobby_before):
                done["expired"] += 1
        for table in stale["abandon"]:
            if await self.service.abandon(table["id"], table["version"]) is not None:
                done["abandoned"] += 1
        if any(done.values()):
            log.info("clean-up: %(expired)d waiting table(s) deleted, %(abandoned)d game(s) abandoned", done)
        return done
