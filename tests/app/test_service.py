"""The service layer on its own: an engine bug is a 500 that says nothing and writes nothing; secrets stay
out of the server's logs."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import text

from app.config import Settings
from app.db import make_async_engine, migrate
from app.main import RedactSecrets
from app.services.errors import EngineFailure
from app.services.tables import TablesService
from games.bench_cards import BenchCards


class BrokenCards(BenchCards):
    slug = "broken_cards"

    def play(self, state, seat, action):
        raise ZeroDivisionError(f"secret deck {state['deck'][:3]}")


async def test_an_engine_bug_is_a_500_that_reveals_and_changes_nothing(fresh_db_url, caplog):
    settings = Settings(database_url=fresh_db_url)
    migrate(settings)
    engine = make_async_engine(settings)
    try:
        service = TablesService(engine, {"broken_cards": BrokenCards()}, is_postgres=settings.is_postgres)
        snap = await service.create("broken_cards", 2)
        tokens = [(await service.join(snap.id, snap.invite_key, name))[1] for name in ("A", "B")]
        before = await service.current(snap.id)
        with caplog.at_level(logging.ERROR), pytest.raises(EngineFailure) as failure:
            await service.act(snap.id, tokens[0], before.version, {"type": "play", "index": 0})
        assert failure.value.status == 500
        assert "deck" not in failure.value.message
        async with engine.connect() as conn:
            version = (await conn.execute(text("SELECT version FROM tables WHERE id = :id"),
                                          {"id": snap.id})).scalar()
            logged = (await conn.execute(text("SELECT count(*) FROM actions WHERE table_id = :id"),
                                         {"id": snap.id})).scalar()
        assert (version, logged) == (before.version, 0)
    finally:
        await engine.dispose()


def test_seat_tokens_and_keys_are_redacted_from_access_logs():
    f = RedactSecrets()
    ws = logging.LogRecord("uvicorn.error", 20, "", 0, '%s - "WebSocket %s" [accepted]',
                           ("127.0.0.1:1", "/ws/tables/T?token=SECRET&since=3"), None)
    f.filter(ws)
    assert ws.getMessage() == '127.0.0.1:1 - "WebSocket /ws/tables/T?token=***&since=3" [accepted]'
    access = logging.LogRecord("uvicorn.access", 20, "", 0, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:1", "GET", "/t/T/seat/SECRET", "1.1", 303), None)
    f.filter(access)
    assert "SECRET" not in access.getMessage() and isinstance(access.args, tuple)
    invite = logging.LogRecord("uvicorn.access", 20, "", 0, "%s", ("/t/T/join?key=INVITE",), None)
    f.filter(invite)
    assert invite.getMessage() == "/t/T/join?key=***"


async def test_a_delayed_spectator_sees_no_seat_change_the_delayed_game_has_not_reached(fresh_db_url):
    """Spectators see the game as it was N versions ago: who plays which seat too (the log's seat changes)."""
    from app.services import bots

    settings = Settings(database_url=fresh_db_url)
    migrate(settings)
    engine = make_async_engine(settings)
    try:
        service = TablesService(engine, {"bench_cards": BenchCards()}, is_postgres=settings.is_postgres)
        snap = await service.create("bench_cards", 2, spectator_delay=2)
        tokens = [(await service.join(snap.id, snap.invite_key, name))[1] for name in ("A", "B")]
        left = await bots.leave_game(service, snap.id, tokens[0], "novice")  # a seat change: a new version
        current = await service.current(snap.id)
        assert current.version == left["version"] and [c["version"] for c in current.seat_changes] == [left["version"]]
        shown = await service.spectator_snapshot(current)
        assert shown.version == current.version - 2
        assert shown.seat_changes == ()
    finally:
        await engine.dispose()
