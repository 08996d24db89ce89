"""The fast paths of the write path and the pushes keep every guarantee of the slow ones:

- group commit (app/services/commits.py): moves of different tables that wait together share one statement
  and one commit, yet each is its own compare-and-set, is logged, and is acknowledged only once committed;
  a stale move in a batch fails alone; a batch that fails as a whole is retried move by move;
- the act path checks against this process's snapshot of the table, and a snapshot that fell behind the
  database (another process moved the table on) costs at most a 409, never a lost or doubled move;
- patches computed once for the parts of the view that several seats share are the same bytes as patches
  computed seat by seat (app/realtime/diff.py);
- `"ack": "patch"` (PROTOCOL.md) acknowledges a move inside the patch that carries it, and only then,
  whatever re-read of the table comes while it is committed;
- a move's delivery (the views) is prepared while its commit is on its way, and told to nobody before the
  commit; the committer's own connections (app/db.py) go with the engine;
- on SQLite, one batch is written at a time (the moves that come meanwhile go together in the next), and
  the sockets' presence is written in one hop on the committer's connection, not beside it; on Postgres a
  table's moves do not wait for its presence being written;
- after a move, the seats the game waits for are sent the change first;
- the version notifications between processes pack many tables into one payload, under Postgres's limit;
- a new snapshot shares its log entries with the one before, and each seat projects only the new ones, yet
  every view is that of the state decoded afresh.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace

import httpx
import jsonpatch
import orjson
import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.db import SqliteWriter, make_async_engine, migrate
from app.pages.render import log_lines
from app.realtime.diff import PatchMemo, patch_message, view_patch
from app.realtime.pubsub import MAX_PAYLOAD, version_payloads
from app.services.commits import GroupCommitter
from app.services.errors import Conflict
from app.services.tables import Snapshot, TablesService, _write_presence, compact
from games import ALL_GAMES, REGISTRY
from games.bench_cards import BenchCards
from games.core import rng
from games.core.conformance import random_game, random_step

from .client import Socket, bearer, create_full

PLAY = {"type": "play", "index": 0}


async def _service(url: str) -> TablesService:
    settings = Settings(database_url=url)
    migrate(settings)
    return TablesService(make_async_engine(settings), {"bench_cards": BenchCards()},
                         is_postgres=settings.is_postgres)


async def _started_table(service: TablesService) -> tuple[str, list[str]]:
    snap = await service.create("bench_cards", 2)
    tokens = [(await service.join(snap.id, snap.invite_key, name))[1] for name in ("A", "B")]
    return snap.id, tokens


async def _logged(service: TablesService, table_id: str) -> tuple[int, list[int]]:
    async with service.engine.connect() as conn:
        version = (await conn.execute(text("SELECT version FROM tables WHERE id = :id"), {"id": table_id})).scalar()
        logged = list((await conn.execute(text(
            "SELECT version FROM actions WHERE table_id = :id ORDER BY version"), {"id": table_id})).scalars())
    return version, logged


async def test_group_commit_moves_of_many_tables_share_commits_and_each_is_logged(fresh_db_url):
    """Style §8 (one writer per table, commit before publish) with moves batched across tables."""
    service = await _service(fresh_db_url)
    try:
        tables = [await _started_table(service) for _ in range(12)]
        versions = {t: (await service.current(t)).version for t, _ in tables}
        committed_before_ack: list[bool] = []

        async def move(table_id: str, token: str) -> int:
            version = await service.act(table_id, token, versions[table_id], PLAY)
            # Acknowledged: the database already holds this version and its log row.
            stored, logged = await _logged(service, table_id)
            committed_before_ack.append(stored >= version and version in logged)
            return version

        results = await asyncio.gather(*(move(t, tokens[0]) for t, tokens in tables))
        assert results == [versions[t] + 1 for t, _ in tables]
        assert all(committed_before_ack)
        stats = service.committer.stats
        assert stats.moves == 12 and stats.batches < 12 and stats.largest > 1
        for table_id, _ in tables:
            stored, logged = await _logged(service, table_id)
            assert stored == versions[table_id] + 1 and logged == [versions[table_id] + 1]
    finally:
        await service.engine.dispose()


async def test_a_stale_move_fails_alone_in_its_batch(fresh_db_url):
    """Style §8: a stale version is a 409 with the current view; the other moves of its batch commit."""
    service = await _service(fresh_db_url)
    try:
        (a, ta), (b, tb) = [await _started_table(service) for _ in range(2)]
        va, vb = (await service.current(a)).version, (await service.current(b)).version
        # Another writer moves table b on behind this process's back: its snapshot of b is now behind.
        async with service.engine.begin() as conn:
            await conn.execute(text("UPDATE tables SET version = version + 1 WHERE id = :id"), {"id": b})
        done = await asyncio.gather(service.act(a, ta[0], va, PLAY), service.act(b, tb[0], vb, PLAY),
                                    return_exceptions=True)
        assert done[0] == va + 1
        assert isinstance(done[1], Conflict) and done[1].status == 409
        assert done[1].body()["version"] == vb + 1  # the current version, read again
        assert (await _logged(service, b)) == (vb + 1, [])  # nothing of the stale move was written
        assert service.committer.stats.largest == 2  # both went in one batch
    finally:
        await service.engine.dispose()


async def test_a_snapshot_behind_the_database_costs_a_409_never_a_lost_move(fresh_db_url):
    """Two server processes on one database (two services): each checks against its own snapshot."""
    first = await _service(fresh_db_url)
    second = TablesService(first.engine, first.games, is_postgres=first.is_postgres)
    try:
        table_id, tokens = await _started_table(first)
        v = (await first.current(table_id)).version
        await second.current(table_id)  # the second process has a snapshot at v too
        assert await first.act(table_id, tokens[0], v, PLAY) == v + 1
        # The second is behind: a move at the old version is refused, and at the new one it is read again.
        with pytest.raises(Conflict):
            await second.act(table_id, tokens[0], v, PLAY)
        assert await second.act(table_id, tokens[1], v + 1, PLAY) == v + 2
        assert await _logged(first, table_id) == (v + 2, [v + 1, v + 2])
        assert first.cache.get(table_id).version == v + 1  # never ahead of the database, only behind
    finally:
        await first.engine.dispose()


async def test_on_sqlite_the_moves_that_come_while_a_batch_is_written_go_together_in_the_next(fresh_db_url):
    """SQLite has one writer: a second batch in flight would only wait for the first. The moves that come
    while one batch is written, one by one, wait together and go in one batch after it."""
    service = await _service(fresh_db_url)
    if service.is_postgres:
        await service.engine.dispose()
        pytest.skip("Postgres writes several batches at once, on several connections")
    try:
        tables = [await _started_table(service) for _ in range(6)]
        versions = {t: (await service.current(t)).version for t, _ in tables}
        before = service.committer.stats.batches
        await service._write_lock.acquire()  # the first batch's write is slow
        moves = []
        for table_id, tokens in tables:  # each move in its own turn of the event loop
            moves.append(asyncio.ensure_future(service.act(table_id, tokens[0], versions[table_id], PLAY)))
            for _ in range(5):
                await asyncio.sleep(0)
        service._write_lock.release()
        assert await asyncio.gather(*moves) == [versions[t] + 1 for t, _ in tables]
        assert service.committer.stats.batches - before == 2  # the first move's, then the five others'
    finally:
        await service.engine.dispose()


async def test_on_sqlite_the_presence_is_written_in_one_hop_beside_the_moves(fresh_db_url):
    """The sockets' presence, written while games are played, is one transaction on the committer's own
    connection (app/db.py `SqliteWriter.run_sync`): no statement through aiosqlite's hops, during which it
    held SQLite's one write lock (and every move of the process waited) for 8-16 ms. What it writes and
    answers is the same on both databases."""
    service = await _service(fresh_db_url)
    through_the_engine: list[str] = []
    event.listen(service.engine.sync_engine, "before_cursor_execute",
                 lambda _conn, _cursor, statement, *_: through_the_engine.append(statement))
    try:
        table_id, _tokens = await _started_table(service)
        through_the_engine.clear()
        shown = await service.write_presence("here", {table_id: {0: (2, 1), 1: (1, 0), None: (3, 3)}}, 45.0)
        assert await service.refresh_presence("here", 45.0) == []
        if not service.is_postgres:
            assert through_the_engine == []
        assert shown[table_id]["connected"] == [0, 1] and shown[table_id]["away"] == [1]
        assert shown[table_id]["spectators"] == 3 and None not in shown[table_id]["since"]
        assert await service.read_presence(table_id) == shown[table_id]  # read back as the pages read it
    finally:
        await service.engine.dispose()


async def test_a_tables_moves_do_not_wait_for_its_presence_being_written(fresh_db_url):
    """Postgres: a table's presence being written (its transaction open, another process's) holds no lock a
    move of the table waits for; it locked the table's row, and every move waited through its round trips.
    SQLite has one writer: there the presence is one short hop (above)."""
    service = await _service(fresh_db_url)
    try:
        if not service.is_postgres:
            pytest.skip("SQLite writes one transaction at a time")
        table_id, tokens = await _started_table(service)
        v = (await service.current(table_id)).version
        async with service.engine.connect() as conn:  # another process, in the middle of its presence write
            shown = await conn.run_sync(_write_presence, "elsewhere", {table_id: {0: (1, 1)}}, 45.0)
            assert shown[table_id]["connected"] == [0]
            async with asyncio.timeout(5):
                assert await service.act(table_id, tokens[0], v, PLAY) == v + 1
            await conn.commit()
        assert (await service.read_presence(table_id))["connected"] == [0]
    finally:
        await service.engine.dispose()


async def test_a_tables_snapshot_is_read_while_every_pooled_connection_is_taken(fresh_db_url):
    """SQLite: the read that comes with every request, page socket and bot turn (`current`) needs none of the
    engine's pooled connections. Through aiosqlite each of its statements was a hop to a connection's thread and
    back, with the connection checked out across the busy event loop's turns; in a club's soak (200 tables)
    bot turns waited the pool's 30 s for one and failed. Here every pooled connection is held elsewhere."""
    service = await _service(fresh_db_url)
    held = []
    try:
        if service.is_postgres:
            pytest.skip("Postgres reads through asyncpg's pool: no thread to hop to")
        table_id, tokens = await _started_table(service)
        pool = service.engine.sync_engine.pool
        for _ in range(pool.size() + pool._max_overflow):
            held.append(await service.engine.connect())
        v = (await service.current(table_id)).version
        async with asyncio.timeout(5):
            assert await service.act(table_id, tokens[0], v, PLAY) == v + 1
            snap = await service.current(table_id)  # the cache's, found to be current
            service.cache.drop(table_id)
            assert (await service.current(table_id)).version == snap.version == v + 1  # loaded afresh
    finally:
        for conn in held:
            await conn.close()
        await service.engine.dispose()
    assert service._readers._threads is None  # closed with the engine


async def test_after_a_move_the_seats_the_game_waits_for_hear_first(fresh_db_url):
    """A change goes to the seat whose turn it now is before the others (the mover, the spectators): its
    answer is what the table waits for next. Whatever order the sockets came in."""
    from app.realtime.hub import Connection, Hub

    heard: list[int | None] = []

    class Recorder(Connection):
        async def send(self, message: str) -> None:
            if json.loads(message)["type"] == "patch":
                heard.append(self.seat)

    service = await _service(fresh_db_url)
    hub = Hub(service, database_url=fresh_db_url, is_postgres=service.is_postgres, heartbeat=60)
    try:
        table_id, tokens = await _started_table(service)
        for seat in (None, 0, 1):  # the spectator first, then the seats in order
            assert await hub.attach(Recorder(None, table_id, seat, None if seat is None else
                                             (await service.current(table_id)).seat_hashes[seat]), None)
        for _ in range(4):
            snap = await service.current(table_id)
            (mover,) = service.game(snap.game).to_act(snap.state)
            heard.clear()
            await service.act(table_id, tokens[mover], snap.version, PLAY)
            assert heard == [1 - mover, None, mover] or heard == [1 - mover, mover, None]
    finally:
        await hub.stop()
        await service.engine.dispose()


@asynccontextmanager
async def _hub_at_a_table(url: str) -> AsyncIterator[SimpleNamespace]:
    """A hub over a started table of the benchmark game: `mover` is the seat to act, `watch()` makes one of
    its connections, and what they are sent goes to `sent`."""
    from app.realtime.hub import Connection, Hub

    sent: list[dict] = []

    class Recorder(Connection):
        async def send(self, message: str) -> None:
            sent.append(json.loads(message))

    service = await _service(url)
    hub = Hub(service, database_url=url, is_postgres=service.is_postgres, heartbeat=60)
    try:
        table_id, tokens = await _started_table(service)
        snap = await service.current(table_id)
        (mover,) = service.game(snap.game).to_act(snap.state)
        yield SimpleNamespace(service=service, hub=hub, table_id=table_id, tokens=tokens, snap=snap, mover=mover,
                              sent=sent, watch=lambda: Recorder(None, table_id, mover, snap.seat_hashes[mover]),
                              spectator=lambda table: Recorder(None, table, None, None))
    finally:
        await hub.stop()
        await service.engine.dispose()


async def test_a_move_committed_here_rides_its_ack_on_its_patch_whatever_reread_comes_meanwhile(fresh_db_url):
    """PROTOCOL.md "ack": the hub re-reads its tables on its own (the presence round, a lost notification's
    catch-up, a socket attaching). One that reaches the database between a move's commit and its delivery
    must not send the move's patch first, without the mover's acknowledgement (CI saw it, once)."""
    from app.realtime.hub import InlineAck

    async with _hub_at_a_table(fresh_db_url) as at:
        service, snap = at.service, at.snap
        me = at.watch()
        assert await at.hub.attach(me, None)
        channel = at.hub.channel(at.table_id)
        read_current = service.current

        async def read_after_the_commit(tid: str) -> Snapshot:
            while (await _logged(service, tid))[0] == snap.version:  # the commit is not done yet
                await asyncio.sleep(0.001)
            return await read_current(tid)

        service.current = read_after_the_commit
        rereads: list[asyncio.Future] = []
        service.on_writing.append(lambda _snap: rereads.append(asyncio.ensure_future(channel.advance(None))))
        at.sent.clear()
        inline = InlineAck(me, "m1")
        version = await service.act(at.table_id, at.tokens[at.mover], snap.version, PLAY, acknowledge=inline)
        async with asyncio.timeout(10):
            await asyncio.gather(*rereads)
        assert rereads and inline.delivered
        moves = [(m["type"], m.get("version"), m.get("ack")) for m in at.sent if m["type"] != "presence"]
        assert moves == [("patch", version, "m1")]  # (the attach's presence may come meanwhile)


async def test_the_hubs_round_reads_every_table_at_once_and_waits_for_no_move(fresh_db_url):
    """PROTOCOL.md: the hub re-reads the tables it serves every few seconds (the presence round), so that a lost
    notification only delays an update. It read one table at a time, each under the table's lock, which a move
    holds while it is committed: at a club's load the round took a minute and a half, and this process's
    presence rows (45 s to live) waited for it (tests/bench/RESULTS.md, 2026-11-30 morning). A table busy with
    a move must hold up nothing, and a table whose notification was lost must still be brought up to date."""
    async with _hub_at_a_table(fresh_db_url) as at:
        service, hub, behind = at.service, at.hub, at.table_id
        busy, _tokens = await _started_table(service)
        for conn in (at.watch(), at.spectator(busy)):
            assert await hub.attach(conn, None)
        hooks = service.on_commit[:], service.on_writing[:]
        service.on_commit.clear()  # the hub does not hear of this move: its notification is "lost"
        service.on_writing.clear()
        version = await service.act(behind, at.tokens[at.mover], at.snap.version, PLAY)
        service.on_commit[:], service.on_writing[:] = hooks
        assert hub.channel(behind).snapshot.version < version
        at.sent.clear()
        async with service.table_lock(busy):  # as while a move of the busy table is being committed
            async with asyncio.timeout(10):
                await hub.presence_round()
        assert hub.channel(behind).snapshot.version == version
        assert [m["version"] for m in at.sent if m["type"] == "patch"] == [version]


async def test_a_socket_attaching_while_the_tables_last_socket_leaves_keeps_its_channel(fresh_db_url):
    """A page reloaded: its new socket attaches while the old one leaves. The channel must not go with the old
    socket while the new one is still being attached (its read may wait for a move's commit), or the new socket
    is left on a channel the hub no longer has: it never hears a move, nor is its tab's hiding counted (CI saw
    a hidden tab never shown as away)."""
    async with _hub_at_a_table(fresh_db_url) as at:
        hub, table_id, mover = at.hub, at.table_id, at.mover
        old, new = at.watch(), at.watch()
        assert await hub.attach(old, None)
        async with at.service.table_lock(table_id):  # as while a move of this process is being committed
            attaching = asyncio.ensure_future(hub.attach(new, None))
            await asyncio.sleep(0.05)
            hub.detach(old)
        async with asyncio.timeout(10):
            assert await attaching
        channel = hub.channel(table_id)
        assert channel is not None and new in channel.conns[mover], "the new socket is on the hub's channel"
        hub.set_hidden(new, True)
        assert hub.local_hidden[table_id][mover] == 1, "its tab's hiding counts"
        at.sent.clear()
        version = await at.service.act(table_id, at.tokens[mover], at.snap.version, PLAY)
        assert [m["version"] for m in at.sent if m["type"] == "patch"] == [version], "it hears the move"


async def test_group_committer_retries_a_failed_batch_move_by_move():
    """A batch that fails as a whole (e.g. a deadlock with another process) is retried one move at a
    time, so one bad move cannot fail the others; a move that still fails gets its own error."""
    calls: list[list[str]] = []

    async def write_many(moves):
        calls.append([m["id"] for m in moves])
        await asyncio.sleep(0)
        if len(moves) > 1:
            raise RuntimeError("deadlock detected")
        if moves[0]["id"] == "bad":
            raise RuntimeError("this one is broken")
        return {m["id"] for m in moves if m["id"] != "stale"}

    committer = GroupCommitter(write_many, max_in_flight=1)
    results = await asyncio.gather(*(committer.write({"id": i}) for i in ("a", "bad", "stale", "b")),
                                   return_exceptions=True)
    assert results[0] is True and results[2] is False and results[3] is True
    assert isinstance(results[1], RuntimeError) and "broken" in str(results[1])
    assert calls[0] == ["a", "bad", "stale", "b"]  # one batch first
    assert sorted(map(tuple, calls[1:])) == [("a",), ("b",), ("bad",), ("stale",)]
    assert committer.stats.retried_alone == 4


async def test_a_moves_delivery_is_prepared_while_its_commit_is_on_its_way():
    """`meanwhile` runs once the batch's statement went out and before its commit is known; if it fails, the
    move is still committed and acknowledged (it only prepared)."""
    events: list[str] = []
    release = asyncio.Event()

    async def write_many(moves):
        events.append("sent")
        await release.wait()
        events.append("committed")
        return {m["id"] for m in moves}

    def broken():
        raise RuntimeError("a view failed")

    committer = GroupCommitter(write_many)
    writes = asyncio.gather(committer.write({"id": "a"}, lambda: events.append("prepared a")),
                            committer.write({"id": "b"}, broken))
    async with asyncio.timeout(10):
        while "prepared a" not in events:
            await asyncio.sleep(0.001)
        release.set()
        assert await writes == [True, True]
    assert events == ["sent", "prepared a", "committed"]


async def test_the_service_prepares_views_before_anyone_hears_of_the_move_and_closes_its_writers(fresh_db_url):
    service = await _service(fresh_db_url)
    heard: list[str] = []

    async def told(snap, _ack):
        heard.append(f"told {snap.version}: views of {sorted(snap.views, key=str)}")

    service.on_writing.append(lambda snap: (heard.append(f"writing {snap.version}"), service.client_view(snap, 1)))
    service.on_commit.append(told)
    try:
        table_id, tokens = await _started_table(service)
        v = (await service.current(table_id)).version
        heard.clear()  # creating and joining were told too
        await service.act(table_id, tokens[0], v, PLAY)
        assert heard == [f"writing {v + 1}", f"told {v + 1}: views of [1]"]
        assert await _logged(service, table_id) == (v + 1, [v + 1])
    finally:
        await service.engine.dispose()
    writer = service._batch_writer
    assert getattr(writer, "_pool", None) is None and getattr(writer, "_connection", None) is None


async def test_a_failed_sqlite_batch_is_rolled_back_and_the_next_one_commits(tmp_path):
    """A batch that fails in its statements or at its COMMIT (here a deferred foreign key) leaves no
    transaction open on the writer's connection: the next batch commits."""
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'writer.db'}")
    writer = SqliteWriter(engine)

    def broken(connection):
        connection.execute("INSERT INTO t VALUES (1)")
        raise RuntimeError("the batch failed")

    try:
        for statement in ("CREATE TABLE p (id PRIMARY KEY)", "INSERT INTO p VALUES (2)",
                          "CREATE TABLE t (x REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED)"):
            await writer.run(lambda connection: connection.execute(statement))
        with pytest.raises(RuntimeError, match="the batch failed"):
            await writer.run(broken)
        with pytest.raises(sqlite3.IntegrityError):  # refused at COMMIT only
            await writer.run(lambda connection: connection.execute("INSERT INTO t VALUES (3)"))
        await writer.run(lambda connection: connection.execute("INSERT INTO t VALUES (2)"))
        assert await writer.run(lambda connection: connection.execute("SELECT x FROM t").fetchall()) == [(2,)]
    finally:
        await engine.dispose()
    assert writer._connection is None  # closed with the engine


@pytest.mark.parametrize("slug", sorted(ALL_GAMES))
async def test_patches_shared_between_seats_are_the_bytes_of_patches_made_seat_by_seat(slug):
    """Style §7 (diff views, never states): the memo changes no byte of any seat's patch."""
    game = ALL_GAMES[slug]
    for players in (game.min_players, game.max_players):
        _, history = random_game(game, players, 7, {}, policy_seed=7)
        state = game.setup(players, 7, {})
        seats = [*range(players), None]
        views = {s: {"table": {"you": s}, "game": game.view(state, s)} for s in seats}
        for version, (seat, action) in enumerate(history[:80]):
            state = game.decode(game.encode(game.apply(state, seat, action)))
            new = {s: {"table": {"you": s}, "game": game.view(state, s)} for s in seats}
            memo = PatchMemo()
            for s in random.Random(version).sample(seats, len(seats)):
                shared = patch_message(version, version + 1, view_patch(views[s], new[s], memo), memo)
                alone = compact({"type": "patch", "from": version, "version": version + 1,
                                 "patch": view_patch(views[s], new[s])})
                assert shared == alone
                assert jsonpatch.apply_patch(views[s], json.loads(shared)["patch"]) == new[s]
            views = new


async def test_ack_in_the_patch_comes_only_with_the_committed_move(live):
    """PROTOCOL.md "ack": "patch": one message instead of two; errors are still answered on their own."""
    async with httpx.AsyncClient(base_url=live.base, timeout=30) as http:
        table = await create_full(http)
        me = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[0]}")
        other = await Socket.open(live.ws_base, table.id, f"?token={table.tokens[1]}")
        for s in (me, other):
            await s.until(lambda m: m["type"] == "full")
        version = me.version
        await me.send({"type": "act", "id": "m1", "version": version, "action": PLAY, "ack": "patch"})
        patch = await me.until(lambda m: m["type"] == "patch")
        assert patch["ack"] == "m1" and patch["version"] == version + 1
        stored = live.row(table.id)
        assert stored["table"]["version"] == version + 1 and stored["actions"][-1][0] == version + 1
        seen = await other.until(lambda m: m["type"] == "patch")
        assert "ack" not in seen
        # A refused move is answered by an error message, as always.
        await me.send({"type": "act", "id": "m2", "version": version, "action": PLAY, "ack": "patch"})
        refused = await me.reply("m2")
        assert refused["type"] == "error" and refused["status"] == 409
        # No separate ack came for m1.
        await me.send({"type": "ping"})
        await me.until(lambda m: m["type"] == "pong")
        assert not any(json.loads(raw).get("type") == "ack" for raw in me.raw)
        r = await http.get(f"/api/tables/{table.id}/view", headers=bearer(table.tokens[1]))
        assert r.json()["version"] == version + 1
        await me.close()
        await other.close()


def test_version_notifications_pack_many_tables_under_the_payload_limit():
    versions = {f"{n:016d}": 1000 + n for n in range(1000)}
    payloads = version_payloads("inst", versions)
    assert len(payloads) > 1 and all(len(p) < MAX_PAYLOAD for p in payloads)
    seen = {}
    for p in payloads:
        kind, instance, *items = p.split(" ")
        assert (kind, instance) == ("V", "inst")
        for item in items:
            table_id, _, version = item.rpartition(":")
            seen[table_id] = int(version)
    assert seen == versions


@pytest.mark.parametrize("slug", sorted(ALL_GAMES))
def test_fast_json_writes_the_bytes_of_the_standard_library(slug):
    """The wire format is the standard library's compact JSON (orjson only makes it faster): every view of
    a random game, and actions with the odd cases (non-ASCII, line separators, big integers)."""
    from app.services.tables import _std_canonical, _std_compact, canonical_action

    game = ALL_GAMES[slug]
    for players in (game.min_players, game.max_players):
        def visit(state, _n):
            for seat in [*range(players), None]:
                view = game.view(state, seat)
                assert compact(view) == _std_compact(view)
        random_game(game, players, 11, {}, policy_seed=11, visit=visit)
    for action in ({"type": "play", "index": 2}, {"b": [1, {"z": None, "a": "é\n\u2028"}], "a": True},
                   {"type": "x", "n": 10 ** 30}):
        assert canonical_action(action) == _std_canonical(action)
        assert compact(action) == _std_compact(action)


@pytest.mark.parametrize("slug", sorted(REGISTRY))
async def test_a_snapshot_shares_its_log_with_the_one_before_and_its_views_are_a_fresh_decodes(slug):
    """Each seat's view projects only the log entries new since its last view at that table (`Snapshot.view_memo`,
    `Game.canonical_after`): with two tables played in turns, undos now and then, every seat's and the spectator's
    view at every version is the view of the state decoded afresh, projected with no memo at all; the seats'
    views hold one projection of each entry between them, not one each; and a seat that sees nothing new keeps
    its log's list, in its view and in its page's lines (a list per seat and action, as long as the log, was a
    tenth of what the cycle collector walked: tests/bench/RESULTS.md). Likewise each part of a seat's view
    that did not change since its last view is that view's own object (`Game.view`), so that the pages and
    the patches compare it by identity, and the copy made anew dies at once instead of living until the
    next action; yet the view is, byte for byte, that of the state decoded afresh, and the state, whose lists
    the views show as they are, is never changed by them or by the next move."""
    game = REGISTRY[slug]
    service = TablesService(create_async_engine("sqlite+aiosqlite://"), REGISTRY, is_postgres=False)
    tables = []
    for n, players in enumerate((game.min_players, game.max_players)):
        snap = Snapshot(id=f"T{n}", game=slug, players=players, options={}, status="playing", version=1,
                        state=game.decode(game.encode(game.setup(players, 40 + n, {}))),
                        seat_names=tuple(f"P{s}" for s in range(players)), seat_hashes=(None,) * players,
                        invite_key="I", spectator_key="K")
        tables.append((snap, {"rng": rng.seed_state(n)}))
    shared_entries = 0
    seen: dict[tuple[str, int | None], tuple[list, list]] = {}  # each reader's last log and its page's lines
    kept = reused = 0
    written: dict[str, str] = {}  # each table's state as it was written
    last_views: dict[tuple[str, int | None], dict] = {}  # each reader's last view, by table
    while tables:
        for n, (snap, holder) in enumerate(tables):
            seat, action = random_step(game, snap.state, holder, undo_weight=0.2)
            new, params = service._apply(snap, seat, action)
            # The views share the state's objects (`observe`): neither they nor the next move changed it.
            assert snap.version == 1 or game.encode(snap.state) == written[snap.id]
            written[snap.id] = params["state"]
            old_log, new_log = snap.state["log"], new.state["log"]
            for was, now in zip(old_log, new_log):
                if was != now:
                    break
                assert was is now  # what the two states have in common is the same objects
                shared_entries += 1
            fresh = game.decode(params["state"])
            assert new.state == fresh
            assert orjson.dumps(new.state) == orjson.dumps(fresh)  # the same key order too, at every depth
            assert params["state"] == game.encode(new.state)  # what is written is the canonical text
            projections = set()
            for s in [*range(new.players), None]:
                view = service.client_view(new, s)["game"]
                alone = game.view(fresh, s, {})
                assert view == alone and orjson.dumps(view) == orjson.dumps(alone)  # (the types too: 1 is not True)
                last = last_views.get((new.id, s))
                for key, value in () if last is None else view.items():
                    if isinstance(value, (list, dict)) and key in last and orjson.dumps(last[key]) == orjson.dumps(value):
                        assert last[key] is value, key
                        reused += 1
                last_views[(new.id, s)] = view
                projections |= {id(entry) for entry in view["log"]}
                before = seen.get((new.id, s))
                lines = log_lines(game, view["log"], "en", list(new.seat_names), before)
                assert lines == log_lines(game, view["log"], "en", list(new.seat_names))
                if before is not None and before[0] == view["log"]:
                    assert view["log"] is before[0] and lines is before[1]
                    kept += 1
                seen[(new.id, s)] = (view["log"], lines)
            # the seats' facts are one list for every reader, and for the next version (a move changes no seat)
            parts = [service.client_view(new, s)["table"] for s in [*range(new.players), None]]
            assert all(p["seats"] is parts[0]["seats"] and p["seat_changes"] is parts[0]["seat_changes"] for p in parts)
            assert snap.version == 1 or parts[0]["seats"] is service.client_view(snap, 0)["table"]["seats"]
            # an entry seen by many seats is one object in all their views
            assert len(projections) <= len(new.state["log"])
            tables[n] = (new, holder)
        tables = [(snap, holder) for snap, holder in tables if not game.finished(snap.state)]
    assert shared_entries > 0 and kept > 0 and reused > 0
