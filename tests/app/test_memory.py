"""The bounds of the caches that keep tables in memory, each on its own (test_memory_release.py plays games to
the end on a real server and looks at every cache)."""

from __future__ import annotations

from types import SimpleNamespace

from app.models import PLAYING
from app.services.replays import Replays
from app.services.tables import Snapshot, SnapshotCache
from games import ALL_GAMES


def _snapshot(table_id: str, status: str, version: int = 1) -> Snapshot:
    return Snapshot(id=table_id, game="bench_cards", players=2, options={}, status=status, version=version,
                    state=None, seat_names=(None, None), seat_hashes=(None, None), invite_key="i",
                    spectator_key="s")


def test_the_snapshot_cache_keeps_only_tables_in_play_and_at_most_its_bound():
    cache = SnapshotCache(size=3)
    for n in range(5):
        cache.put(_snapshot(f"t{n}", PLAYING))
    assert cache.tables() == ["t2", "t3", "t4"]  # the least recently used went first
    cache.put(_snapshot("t3", "finished", version=2))
    assert cache.get("t3") is None and cache.tables() == ["t2", "t4"]


def test_a_spectators_snapshot_is_kept_only_beside_its_tables_and_goes_with_it():
    cache = SnapshotCache(size=2)
    cache.put_delayed(_snapshot("t0", PLAYING))
    assert cache.delayed_tables() == []  # its table is not held: it would outlive it
    for n in range(2):
        cache.put(_snapshot(f"t{n}", PLAYING, version=5))
        cache.put_delayed(_snapshot(f"t{n}", PLAYING, version=3))
    cache.put(_snapshot("t0", "finished", version=6))  # the game ended
    cache.put(_snapshot("t2", PLAYING))
    cache.put(_snapshot("t3", PLAYING))  # t1 is the least recently used: it goes
    assert cache.tables() == ["t2", "t3"] and cache.delayed_tables() == []


def test_replays_keep_a_bounded_number_of_states_and_always_the_one_viewed():
    game = ALL_GAMES["bench_cards"]
    replays = Replays(None, None, size=8, steps=30)

    def history(table_id: str, seed: int) -> dict:
        state, actions = game.setup(2, seed), []
        while not game.finished(state) and len(actions) < 25:
            seat = min(game.to_act(state))
            action = game.legal_actions(state, seat)[0]
            actions.append({"version": len(actions) + 1, "seat": seat, "action": action})
            state = game.apply(state, seat, action)
        row = SimpleNamespace(id=table_id, version=len(actions), players=2, seed=seed)
        return {"row": row, "options": {}, "seat_changes": [], "actions": actions}

    for n in range(4):
        steps = replays._replayed(game, history(f"t{n}", n))
        assert len(steps) > 10
        assert replays.held()["replay_steps"] <= max(30, len(steps))
    assert list(replays._states)[-1] == "t3"  # the one viewed last is kept
    assert replays.held()["replays"] < 4


def test_a_table_nobody_used_for_a_while_leaves_the_snapshot_cache():
    now = [0.0]
    cache = SnapshotCache(size=10, idle=60, clock=lambda: now[0])
    cache.put(_snapshot("t0", PLAYING))
    cache.put_delayed(_snapshot("t0", PLAYING))
    now[0] = 30
    cache.put(_snapshot("t1", PLAYING))
    now[0] = 70
    assert cache.get("t1") is not None and cache.tables() == ["t1"] and cache.delayed_tables() == []
    now[0] = 200
    assert cache.get("t1") is None and cache.tables() == []
