"""The engine contract itself: PRNG stability, generic guards, purity of games/, and a leaky game
that the conformance suite must reject."""

import ast
import pathlib
import subprocess
import sys

import pytest

from games import ALL_GAMES, BENCHMARK_GAMES, REGISTRY
from games.bench_cards import BenchCards
from games.core import IllegalAction, rng
from games.core.conformance import (
    check_copy_shares_nothing, check_resample_hides, random_game, random_step, run_conformance,
)

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_prng_is_splitmix64_and_fixed_forever():
    # The published SplitMix64 test vector (state 1234567)...
    holder = {"rng": 1234567}
    assert [rng.next_u64(holder) for _ in range(2)] == [6457827717110365317, 3203168211198807973]
    # ...and our seeding and shuffle: if these change, every stored game would replay differently.
    holder = {"rng": rng.seed_state(42)}
    assert [rng.next_u64(holder) for _ in range(3)] == [
        10996452266160306281, 2958219263312191191, 3069497704473277141]
    holder = {"rng": rng.seed_state(7)}
    deck = list(range(10))
    rng.shuffle(holder, deck)
    assert deck == [1, 6, 8, 2, 4, 9, 3, 0, 7, 5]


def test_prng_below_is_uniform_enough():
    holder = {"rng": rng.seed_state(1)}
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.roll(holder) - 1] += 1
    assert all(9_500 < c < 10_500 for c in counts), counts


def test_registry_is_the_three_games_and_slugs_never_change():
    assert set(REGISTRY) <= {"cesar_cleopatre", "ave_cesar", "alea_iacta_est"}
    assert "bench_cards" not in REGISTRY, "the benchmark game is never offered in the lobby"
    for slug, game in ALL_GAMES.items():
        assert game.slug == slug
        assert game.title_en and game.title_fr
        assert 1 <= game.min_players <= game.max_players
        for option in game.options:
            assert option.default in option.choices and option.en and option.fr


def test_games_import_nothing_from_app():
    for path in (ROOT / "games").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name != "app" and not name.startswith("app."), f"{path} imports {name}"
    # And at run time: importing every engine loads nothing of the server.
    code = "import sys, games; assert not any(m == 'app' or m.startswith('app.') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_generic_guards_refuse_and_leave_state_untouched():
    game = BenchCards()
    state = game.setup(2, 3, {})
    before = game.encode(state)
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(state, 1, {"type": "play", "index": 0})
    with pytest.raises(IllegalAction, match="type"):
        game.apply(state, 0, "play")
    with pytest.raises(IllegalAction, match="not allowed"):
        game.apply(state, 0, {"type": "play", "index": 5})
    assert game.encode(state) == before
    final, _ = random_game(game, 2, 3, {}, policy_seed=1)
    with pytest.raises(IllegalAction, match="over"):
        game.apply(final, 0, {"type": "play", "index": 0})


def test_apply_checks_against_the_remembered_legal_actions_which_callers_cannot_change():
    game = BenchCards()
    state = game.setup(2, 3, {})
    legal = game.legal_actions(state, 0)
    hand_size = len(legal)
    legal[0]["index"] = 50  # the caller's copy, not what apply checks against
    legal.append({"type": "play", "index": 60})
    with pytest.raises(IllegalAction, match="not allowed"):
        game.apply(state, 0, legal[0])
    with pytest.raises(IllegalAction, match="not allowed"):
        game.apply(state, 0, legal[-1])
    assert game.legal_actions(state, 0) == [{"type": "play", "index": i} for i in range(hand_size)]
    # An equal state that is another object: its moves are generated again, with the same answer.
    twin = game.decode(game.encode(state))
    assert game.apply(twin, 0, {"type": "play", "index": 1}) == game.apply(state, 0, {"type": "play", "index": 1})


def test_setup_rejects_bad_player_counts_and_options():
    game = BenchCards()
    with pytest.raises(ValueError):
        game.setup(3, 1, {})
    with pytest.raises(ValueError):
        game.setup(2, 1, {"no_such_option": True})


def test_apply_never_modifies_its_input():
    game = BenchCards()
    state = game.setup(2, 9, {})
    before = game.encode(state)
    game.apply(state, 0, {"type": "play", "index": 0})
    assert game.encode(state) == before


class LeakyCards(BenchCards):
    """Shows the top of the hidden deck: exactly the bug boardgame.io has at sync."""

    slug = "leaky_cards"

    def observe(self, state, seat):
        return {**super().observe(state, seat), "next_card": state["deck"][0] if state["deck"] else None}


class OpponentHandCards(BenchCards):
    """Shows seat 0's hand to everyone."""

    slug = "opponent_hand_cards"

    def observe(self, state, seat):
        return {**super().observe(state, seat), "first_hand": list(state["hands"][0])}


class LazyResample(BenchCards):
    """A resample that changes nothing would let any leak through: the suite must notice."""

    slug = "lazy_resample"

    def resample(self, state, seat, seed):
        return dict(state)


class ShallowCopyCards(BenchCards):
    """A hand-written copy that forgets to copy the hands: play would change the previous state too."""

    slug = "shallow_copy_cards"

    def copy(self, state):
        return {**state, "log": list(state["log"])}


def test_the_suite_rejects_a_copy_that_shares_mutable_parts():
    game = ShallowCopyCards()
    with pytest.raises(AssertionError, match="shares mutable parts"):
        check_copy_shares_nothing(game, game.setup(2, 3, {}))
    with pytest.raises(AssertionError, match="shares mutable parts"):
        run_conformance(game, 2, {}, seeds=range(1, 3))
    check_copy_shares_nothing(BenchCards(), BenchCards().setup(2, 3, {}))


@pytest.mark.parametrize("leaky", [LeakyCards(), OpponentHandCards()], ids=lambda g: g.slug)
def test_leak_test_rejects_a_leaky_game(leaky):
    state = leaky.setup(2, 11, {})
    with pytest.raises(AssertionError, match="cannot know"):
        check_resample_hides(leaky, state, seed=5)
    with pytest.raises(AssertionError):
        run_conformance(leaky, 2, {}, seeds=range(1, 4))


def test_suite_notices_a_resample_that_changes_nothing():
    report = run_conformance(LazyResample(), 2, {}, seeds=range(1, 6))
    assert report.resample_changed == 0
    assert BENCHMARK_GAMES["bench_cards"] and run_conformance(
        BenchCards(), 2, {}, seeds=range(1, 6)).resample_changed > 0


@pytest.mark.parametrize("slug", sorted(REGISTRY))
def test_a_log_entry_shown_to_all_is_the_states_own_object_in_every_view(slug):
    """A view's log holds the state's own entry wherever every seat sees it (what a seat sees of it is all of
    it), and one projection per entry shown to some seats only, shared by their views: a table keeps no copy
    of its log per seat or for its views (issue #23, memory per live table)."""
    game = REGISTRY[slug]
    for players in (game.min_players, game.max_players):
        state = game.setup(players, 21, {})
        holder, memo, public = {"rng": rng.seed_state(21)}, {}, 0
        for _ in range(150):
            if game.finished(state):
                break
            seat, action = random_step(game, state, holder)
            state = game.apply_marked(state, seat, action)
            projections: dict[int, object] = {}
            for reader in [*range(players), None]:
                for entry in game.view(state, reader, memo)["log"]:
                    projections.setdefault(id(entry), entry)
            entries = state["log"]
            for entry in entries:
                if "to" not in entry and "hide" not in entry:
                    assert id(entry) in projections, entry
                    public += 1
            assert len(projections) <= len(entries)
        assert public
