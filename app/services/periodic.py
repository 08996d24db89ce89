"""A task of one server process that does one round at once (what came due while no server ran) and then
one every `interval` seconds until the server stops; a round that fails is logged and the next one runs."""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger("tabula.periodic")


class Periodic:
    name = "tabula-periodic"  # the task's name, and the subject of a failed round in the log

    def __init__(self, interval: float):
        self.interval = interval
        self._task: asyncio.Task | None = None

    async def round(self) -> object:
        raise NotImplementedError

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s: a round failed", self.name)
            await asyncio.sleep(self.interval)
