"""The bots (games/core/bots.py) and the simulation command (games/core/simulate.py), for every game.

Issue 8: bots finish games of every game and player count without an illegal action; a bot decides
only from what its seat may know (its choice is identical under resampling its seat's unknowns);
decisions respect a budget and are deterministic for a bot seed; out-of-turn windows (a veto, sealed
bids) are answered like any decision. Per-game bot tests, and the CI check that Strong beats Novice in
each game, live in tests/games/test_bots_<slug>.py.
"""

from __future__ import annotations

import io
import time
from typing import Any

import pytest

from games import ALL_GAMES, REGISTRY
from games.bench_cards import BenchCards
from games.core import Game, State, log_entry, rng, score_line
from games.core.bots import (
    LEVELS,
    Bot,
    Budget,
    InformationSet,
    Novice,
    Strong,
    derive_seed,
    hooks_for,
    make_bot,
    weighted_index,
)
from games.core.conformance import random_game, run_conformance
from games.core.game import without_undo
from games.core.simulate import main as simulate_main
from games.core.simulate import play_game, report, run

# A small search budget for CI (no time cap: fully deterministic).
CI_BUDGET = Budget(iterations=8, seconds=None)
# Full games per game and player count in test_bots_finish_games: (Novices only, one Strong bot), plus
# one game of Strong bots only.
CI_GAMES = {"cesar_cleopatre": (80, 4), "ave_cesar": (50, 3), "alea_iacta_est": (40, 3), "bench_cards": (20, 2),
            "sealed_veto": (40, 2)}


# ---------------------------------------------------------------- a toy game with every kind of window


class SealedVeto(Game):
    """A toy game with hidden information, simultaneous sealed bids and an out-of-turn veto window.

    Three rounds. A public prize (1-9 points) is drawn; both seats bid 0..their money in secret
    (both act at once); the higher bid pays and wins the prize, unless the loser, in a window that
    opens whether or not he can use it (RULES 0.2), plays his hidden veto token. Money is public
    (bids are revealed); pending bids and veto tokens are hidden."""

    slug = "sealed_veto"
    title = {"en": "Sealed veto", "fr": "Sealed veto", "it": "Sealed veto"}
    messages = {"bids": {"en": "Bids: {a} and {b}.", "fr": "Mises : {a} et {b}.", "it": "Offerte: {a} e {b}."},
                "veto": {"en": "{seat} vetoes.", "fr": "{seat} met son veto.", "it": "{seat} oppone il veto."}}
    min_players = max_players = 2
    ROUNDS = 3

    def start(self, players: int, rng_state: int, options: dict[str, Any]) -> State:
        state: State = {"players": players, "rng": rng_state, "log": [], "round": 0, "money": [6, 6],
                        "points": [0, 0], "bids": [None, None], "phase": "bid", "loser": None, "winner": None}
        state["tokens"] = [rng.below(state, 2) == 1 for _ in range(players)]
        state["prize"] = rng.roll(state, 9)
        return state

    def finished(self, state: State) -> bool:
        return state["round"] >= self.ROUNDS

    def actors(self, state: State) -> list[int]:
        if state["phase"] == "veto":
            return [state["loser"]]
        return [s for s in range(2) if state["bids"][s] is None]

    def moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state["phase"] == "veto":
            return [{"type": "pass"}] + ([{"type": "veto"}] if state["tokens"][seat] else [])
        return [{"type": "bid", "amount": k} for k in range(state["money"][seat] + 1)]

    def play(self, state: State, seat: int, action: dict[str, Any]) -> None:
        if action["type"] == "bid":
            state["bids"][seat] = action["amount"]
            if None in state["bids"]:
                return
            a, b = state["bids"]
            state["log"].append(log_entry("bids", a=a, b=b))
            state["bids"] = [None, None]
            if a == b:
                self._next_round(state)
                return
            winner = 0 if a > b else 1
            state["money"][winner] -= max(a, b)
            state["phase"], state["winner"], state["loser"] = "veto", winner, 1 - winner
            return
        if action["type"] == "veto":
            state["tokens"][seat] = False
            state["log"].append(log_entry("veto", seat=seat))
        else:
            state["points"][state["winner"]] += state["prize"]
        self._next_round(state)

    def _next_round(self, state: State) -> None:
        state["round"] += 1
        state["phase"], state["winner"], state["loser"] = "bid", None, None
        state["prize"] = rng.roll(state, 9)

    def observe(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"round": state["round"], "money": list(state["money"]), "points": list(state["points"]),
                "prize": state["prize"], "phase": state["phase"], "winner": state["winner"],
                "bid_in": [b is not None for b in state["bids"]],
                "my_bid": state["bids"][seat] if seat is not None else None,
                "my_token": state["tokens"][seat] if seat is not None else None}

    def score(self, state: State) -> dict[str, Any]:
        points = list(state["points"])
        return {"scores": points, "winners": [s for s in range(2) if points[s] == max(points)],
                "breakdown": [[score_line({"en": "Prizes", "fr": "Prix", "it": "Premi"}, p)] for p in points], "tiebreak": None}

    def redraw(self, state: State, seat: int | None, seed: int) -> State:
        new = {k: (list(v) if isinstance(v, list) else v) for k, v in state.items()}
        new["rng"] = rng.seed_state(seed)
        for s in range(2):
            if s == seat:
                continue
            if state["bids"][s] is not None:
                new["bids"][s] = rng.below(new, state["money"][s] + 1)
            # A used veto is public (the log says so): such a seat holds none.
            used = any(e["key"] == "veto" and e["args"]["seat"] == s for e in state["log"])
            new["tokens"][s] = False if used else rng.below(new, 2) == 1
        new["rng"] = rng.seed_state(seed ^ 0xB0B)
        return new

    def action_bound(self, players: int) -> int:
        return 3 * self.ROUNDS


TOY = SealedVeto()
GAMES = {**ALL_GAMES, "sealed_veto": TOY}


def test_the_toy_game_is_a_valid_engine():
    """The toy game used below passes the conformance suite itself (so bots are tested on a real
    contract game with sealed bids and a veto window)."""
    report_ = run_conformance(TOY, 2, {}, seeds=range(1, 60))
    assert report_.resample_changed > 0


# ------------------------------------------------------------------------------------- finishing


def cases():
    for slug, game in GAMES.items():
        for players in range(game.min_players, game.max_players + 1):
            yield pytest.param(slug, players, id=f"{slug}-{players}p")


@pytest.mark.parametrize("slug,players", list(cases()))
def test_bots_finish_games_without_an_illegal_action(slug, players):
    """Issue 8: bots finish games of every game and player count (a few hundred games in all); every
    action goes through game.apply, whose guards raise IllegalAction on anything illegal. Novices play
    most games; then a Strong bot sits at each seat in turn, and one game is Strong bots only."""
    game = GAMES[slug]
    novice_games, strong_games = CI_GAMES.get(slug, (10, 3))
    line_ups = [["novice"] * players for _ in range(novice_games)]
    for index in range(strong_games):
        line_up = ["novice"] * players
        line_up[index % players] = "strong"
        line_ups.append(line_up)
    line_ups.append(["strong"] * players)
    for index, levels in enumerate(line_ups):
        bots = [make_bot(level, seed=derive_seed("t", index, i), budget=CI_BUDGET)
                for i, level in enumerate(levels)]
        record = play_game(game, bots, list(range(players)), seed=1000 + index)
        assert record.length <= game.action_bound(players)
        assert record.winners and set(record.winners) <= set(range(players))


# ------------------------------------------------------------------------- only what a seat knows


def sampled_states(game: Game, players: int, seed: int, count: int) -> list[State]:
    """Unfinished states spread over one random game."""
    seen: list[State] = []
    random_game(game, players, seed, {}, policy_seed=seed, visit=lambda s, i: seen.append(s))
    seen = [s for s in seen if not game.finished(s)]
    step = max(1, len(seen) // count)
    return seen[::step][:count]


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_bots_choice_is_identical_under_resampling_its_seats_unknowns(slug, level):
    """Issue 8 / RULES 0.1: a bot decides only from what its seat may know. Replacing the true state
    by any state that differs only in what the seat cannot know (game.resample) leaves its choice
    unchanged, for every seat to act, at states spread over whole games, at every player count."""
    game = GAMES[slug]
    checked = 0
    for players in range(game.min_players, game.max_players + 1):
        for state in sampled_states(game, players, seed=players * 17 + 3, count=4):
            for seat in sorted(game.to_act(state)):
                bot = make_bot(level, seed=99, budget=Budget(iterations=8, seconds=None))
                chosen = bot.choose(game, state, seat)
                assert chosen in game.legal_actions(state, seat)
                for other_seed in (5, 6):
                    other = game.resample(state, seat, other_seed)
                    again = make_bot(level, seed=99, budget=Budget(iterations=8, seconds=None))
                    assert again.choose(game, other, seat) == chosen, \
                        f"{slug}: the {level} bot of seat {seat} changed its choice when its unknowns changed"
                checked += 1
    assert checked >= 4


class PeekingBot(Bot):
    """A cheating bot that reads the opponent's hand in the true state (what the API exists to prevent)."""

    level = "peeking"

    def choose(self, game, state, seat):
        opponent_hand = state["hands"][1 - seat]
        actions = game.legal_actions(state, seat)
        return actions[sum(len(c) for c in opponent_hand) % len(actions)]


def test_the_invariance_check_catches_a_bot_that_peeks_at_hidden_cards():
    """The resampling check above can fail: a bot that reads the opponent's hidden hand changes its
    choice when that hand is redrawn."""
    game = BenchCards()
    changed = 0
    for state in sampled_states(game, 2, seed=3, count=10):
        seat = next(iter(game.to_act(state)))
        bot = PeekingBot()
        first = bot.choose(game, state, seat)
        changed += any(bot.choose(game, game.resample(state, seat, s), seat) != first for s in range(4))
    assert changed > 0


def test_a_bot_decides_from_an_information_set_holding_only_a_resampled_state():
    """Bot.choose hands `decide` an InformationSet built by game.resample(state, seat, ...): its state
    is the resample, not the true state (the opponent's hand and the deck are redrawn)."""
    game = BenchCards()
    state = game.setup(2, 7)
    received: list[InformationSet] = []

    class Spy(Novice):
        def decide(self, info, holder):
            received.append(info)
            return super().decide(info, holder)

    Spy(seed=4).choose(game, state, 0)
    (info,) = received
    sample = info.sample()
    assert sample["hands"][0] == state["hands"][0], "its own hand is known"
    assert sample["hands"][1] != state["hands"][1] or sample["deck"] != state["deck"]
    assert info.view() == game.view(state, 0)


def test_a_bot_refuses_to_decide_for_a_seat_that_is_not_to_act():
    game = BenchCards()
    state = game.setup(2, 1)
    with pytest.raises(ValueError):
        Novice().choose(game, state, 1)


# ------------------------------------------------------------------------- determinism and budget


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_bot_is_deterministic_for_its_seed(level):
    game = BenchCards()
    states = sampled_states(game, 2, seed=11, count=6)
    for state in states:
        seat = next(iter(game.to_act(state)))
        first = [make_bot(level, seed=s, budget=Budget(iterations=30, seconds=None)).choose(game, state, seat)
                 for s in range(5)]
        again = [make_bot(level, seed=s, budget=Budget(iterations=30, seconds=None)).choose(game, state, seat)
                 for s in range(5)]
        assert first == again


def test_the_novice_follows_its_seed_and_varies_between_seeds():
    game = BenchCards()
    state = game.setup(2, 2)
    choices = {Novice(seed=s).choose(game, state, 0)["index"] for s in range(40)}
    assert len(choices) >= 3, "different seeds give different random moves"


def test_the_strong_bot_runs_exactly_its_iteration_budget():
    game = BenchCards()
    state = game.setup(2, 5)
    bot = Strong(seed=1, budget=Budget(iterations=37, seconds=None))
    bot.choose(game, state, 0)
    assert bot.last_stats.iterations == 37


def test_the_strong_bot_stops_at_its_time_cap():
    """A decision respects its time budget: a huge iteration count with a 0.1 s cap stops near 0.1 s."""
    game = BenchCards()
    state = game.setup(2, 5)
    bot = Strong(seed=1, budget=Budget(iterations=10_000_000, seconds=0.1))
    started = time.perf_counter()
    action = bot.choose(game, state, 0)
    assert time.perf_counter() - started < 0.6
    assert action in game.legal_actions(state, 0)
    assert 1 <= bot.last_stats.iterations < 10_000_000


def test_the_default_budget_has_a_time_cap_well_under_a_second():
    assert Budget().seconds is not None and Budget().seconds < 1.0


def test_a_budget_parses_iterations_seconds_and_horizon():
    assert Budget.parse("200") == Budget(200, None, None)
    assert Budget.parse("200:0.5") == Budget(200, 0.5, None)
    assert Budget.parse("50:none:12") == Budget(50, None, 12)
    for bad in ("", "0", "x", "1:2:3:4"):
        with pytest.raises(ValueError):
            Budget.parse(bad)


def test_make_bot_knows_the_levels_and_refuses_others():
    assert set(LEVELS) == {"novice", "strong"}
    assert all(cls.level == name and cls.label_en and cls.label_fr for name, cls in LEVELS.items())
    assert isinstance(make_bot("strong", 3), Strong) and isinstance(make_bot("novice"), Novice)
    with pytest.raises(ValueError):
        make_bot("grandmaster")


def test_weighted_picks_follow_the_weights_and_never_pick_a_zero_weight():
    holder = {"rng": rng.seed_state(8)}
    counts = [0, 0, 0]
    for _ in range(6000):
        counts[weighted_index(holder, [1.0, 0.0, 3.0])] += 1
    assert counts[1] == 0 and 1300 < counts[0] < 1700


def test_the_novice_follows_the_games_playout_weight():
    """The novice is weighted by the game's playout_weight hook: an action of weight 0 is never chosen."""

    class NoAces(BenchCards):
        slug = "bench_cards"

        def playout_weight(self, state, seat, action):
            return 0.0 if state["hands"][seat][action["index"]].startswith("A") else 1.0

    game = NoAces()
    for seed in range(30):
        state = game.setup(2, seed)
        hand = state["hands"][0]
        if any(c.startswith("A") for c in hand) and not all(c.startswith("A") for c in hand):
            for bot_seed in range(10):
                index = Novice(seed=bot_seed).choose(game, state, 0)["index"]
                assert not hand[index].startswith("A")


def test_games_without_a_bots_module_get_the_generic_hooks():
    assert type(hooks_for(BenchCards())).__name__ == "BotHooks"
    assert type(hooks_for(TOY)).__name__ == "BotHooks"


# ---------------------------------------------------------------------------- out-of-turn windows


def test_bots_answer_sealed_bids_and_veto_windows():
    """RULES 0.2/0.3: sealed bids (both seats act at once) and a veto window out of turn are answered
    like any decision; the strong bot uses its veto against a winning prize it cannot afford to lose."""
    game = TOY
    state = game.setup(2, 3)
    assert game.to_act(state) == frozenset({0, 1})
    bot = Strong(seed=2, budget=Budget(iterations=200, seconds=None))
    bid0 = bot.choose(game, state, 0)
    bid1 = bot.choose(game, state, 1)
    assert bid0["type"] == bid1["type"] == "bid"
    # A veto window: seat 1 lost the last round of a close game and holds a veto.
    window = game.setup(2, 3)
    window.update(round=2, points=[5, 5], money=[6, 6], prize=9, phase="veto", winner=0, loser=1,
                  tokens=[False, True], bids=[None, None])
    assert game.to_act(window) == frozenset({1})
    assert bot.choose(game, window, 1) == {"type": "veto"}
    # Without a token the same window opens, and the only answer is to pass.
    window["tokens"] = [False, False]
    assert bot.choose(game, window, 1) == {"type": "pass"}


def test_strong_outbids_novice_in_the_toy_game():
    """The search plays sealed-bid games well: Strong beats Novice in most toy games."""
    records = run(TOY, ["strong", "novice"], 40, seed=4, budget=Budget(iterations=150, seconds=None))
    wins = sum(1 for r in records if r.seats[0] in r.winners and len(r.winners) == 1)
    assert wins / len(records) > 0.6, wins


# ------------------------------------------------------------------------------------ per-game hooks


def walk_containers(value: Any, seen: set[int]) -> None:
    if isinstance(value, (list, dict)):
        seen.add(id(value))
        for item in (value.values() if isinstance(value, dict) else value):
            walk_containers(item, seen)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_game_that_claims_a_fresh_resample_shares_nothing_with_its_input(slug):
    """BotHooks.fresh_resample lets the search skip a copy: the claim must hold, or playouts would
    change the information set itself. Log entries are never changed once written (the core's apply
    shares them too), so only the log list itself must be new."""
    game = GAMES[slug]
    if not hooks_for(game).fresh_resample:
        assert slug in ("bench_cards", "sealed_veto")  # the games without bot hooks
        return
    for players in range(game.min_players, game.max_players + 1):
        for state in sampled_states(game, players, seed=players, count=6):
            for seat in [*range(players), None]:
                other = game.resample(state, seat, 9)
                ours: set[int] = {id(state["log"])}
                theirs: set[int] = {id(other["log"])}
                for key in state:
                    if key != "log":
                        walk_containers(state[key], ours)
                        walk_containers(other[key], theirs)
                assert not ours & theirs, f"{slug}: resample shares a list or dict with its input"


@pytest.mark.parametrize("slug", sorted(REGISTRY))
def test_the_per_game_hooks_give_usable_weights_candidates_and_values(slug):
    """Every game's hooks, at states spread over random games of every player count: the novice and
    playout weights are one non-negative number per action with some positive, the search's candidates
    are a non-empty subset of the legal actions, and evaluations are one value in [0, 1] per seat."""
    game = REGISTRY[slug]
    hooks = hooks_for(game)
    assert type(hooks).__name__ != "BotHooks", f"{slug} has no games/{slug}/bots.py HOOKS"
    for players in range(game.min_players, game.max_players + 1):
        for state in sampled_states(game, players, seed=players + 40, count=8):
            state = without_undo(state)  # what a bot decides on (InformationSet): it never takes a move back
            for seat in sorted(game.to_act(state)):
                legal = game.legal_actions(state, seat)
                for weights in (hooks.weights(game, state, seat, legal), hooks.policy(game, state, seat, legal)):
                    assert len(weights) == len(legal) and min(weights) >= 0 and max(weights) > 0
                kept = hooks.candidates(game, state, seat, legal)
                assert kept and all(a in legal for a in kept)
            values = hooks.evaluate(game, state)
            assert len(values) == players and all(0 <= v <= 1 for v in values)


# ------------------------------------------------------------------------------------- simulation


def test_simulate_prints_results_per_entrant_and_seat_length_speed_and_decision_times(capsys):
    code = simulate_main(["--game", "bench_cards", "--games", "6", "--bots", "strong,novice",
                          "--budget", "10", "--seed", "3"])
    assert code == 0
    out = capsys.readouterr().out
    for text in ("#1 strong", "#2 novice", "seat 0", "seat 1", "mean length: 60.0 actions", "games/s",
                 "decision time strong", "decision time novice"):
        assert text in out, text


def test_simulate_rotates_the_strong_bot_through_the_seats():
    records = run(BenchCards(), ["strong", "novice"], 4, seed=1, budget=Budget(iterations=4, seconds=None))
    assert [r.seats[0] for r in records] == [0, 1, 0, 1]


def test_simulate_is_deterministic_for_a_seed():
    def once():
        out = io.StringIO()
        records = run(TOY, ["strong", "novice"], 6, seed=9, budget=Budget(iterations=20, seconds=None))
        report(["strong", "novice"], records, 1.0, out)
        return [(r.seats, r.scores, r.winners, r.length) for r in records]

    assert once() == once()


def test_simulate_refuses_a_wrong_number_of_bots():
    with pytest.raises(SystemExit):
        simulate_main(["--game", "bench_cards", "--bots", "strong,novice,novice"])


def test_a_bot_never_plays_an_illegal_action_through_apply():
    """The actions bots return are accepted by game.apply (the server's write path) on the true state."""
    for slug in ("bench_cards", "sealed_veto"):
        game = GAMES[slug]
        state = game.setup(2, 77)
        bots = {0: Strong(seed=1, budget=Budget(iterations=10, seconds=None)), 1: Novice(seed=2)}
        while not game.finished(state):
            seat = min(game.to_act(state))
            # game.apply raises IllegalAction (failing the test) on anything the rules refuse.
            state = game.apply(state, seat, bots[seat].choose(game, state, seat))
