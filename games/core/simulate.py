"""Bots play each other: win rates per bot and per seat, game length, speed and decision times.

    .venv/bin/python -m games.core.simulate --game ave_cesar --players 4 --games 500 \\
        --bots strong,novice,novice,novice [--seed N] [--budget 300[:0.5]] [--option NAME=VALUE] [--jobs 2]

The bots listed are the entrants; entrant i sits at seat (i + game number) mod players (--no-rotate keeps
it at seat i), so a strong bot goes through every seat and the first-player advantage cancels out. The
command prints, per entrant: wins (a shared win counts as a win, and is also counted apart), win rate,
mean score and how often it finished strictly ahead of each entrant of another level; per seat: wins and
mean score; then the mean game length in actions, games per second, and mean / max decision time per
level. Everything is deterministic for a given --seed (with the default budget, which has no time cap).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from . import rng
from .bots import LEVELS, Bot, Budget, derive_seed, hooks_for, make_bot


@dataclass
class GameRecord:
    seats: list[int]  # seats[entrant] = the seat that entrant played
    scores: list[float]  # per seat
    winners: list[int]  # seats
    length: int
    decision_times: dict[str, list[float]] = field(default_factory=dict)


def play_game(game: Any, bots: Sequence[Bot], seats: Sequence[int], seed: int,
              options: dict[str, Any] | None = None) -> GameRecord:
    """One game: bots[i] plays seat seats[i]. Every action goes through game.apply (all guards)."""
    players = len(bots)
    by_seat = {seats[i]: bots[i] for i in range(players)}
    state = game.setup(players, seed, options or {})
    holder = {"rng": rng.seed_state(derive_seed("order", seed))}
    bound = game.action_bound(players)
    length = 0
    times: dict[str, list[float]] = {}
    while not game.finished(state):
        if length >= bound:
            raise RuntimeError(f"{game.slug}: no end after {bound} actions (seed {seed})")
        actors = sorted(game.to_act(state))
        # Several seats may act at once (sealed bids, a veto window): any order must do.
        seat = actors[rng.below(holder, len(actors))] if len(actors) > 1 else actors[0]
        bot = by_seat[seat]
        started = time.perf_counter()
        action = bot.choose(game, state, seat)
        times.setdefault(bot.level, []).append(time.perf_counter() - started)
        state = game.apply(state, seat, action)
        length += 1
    result = game.outcome(state)
    return GameRecord(list(seats), list(result["scores"]), list(result["winners"]), length, times)


def seating(entrants: int, index: int, rotate: bool) -> list[int]:
    return [(i + index) % entrants if rotate else i for i in range(entrants)]


def run(game: Any, levels: Sequence[str], games: int, seed: int, budget: Budget,
        rotate: bool = True, options: dict[str, Any] | None = None,
        first: int = 0) -> list[GameRecord]:
    records = []
    for index in range(first, first + games):
        game_seed = derive_seed("game", seed, index)
        bots = [make_bot(level, seed=derive_seed("bot", seed, index, i), budget=budget)
                for i, level in enumerate(levels)]
        records.append(play_game(game, bots, seating(len(levels), index, rotate), game_seed, options))
    return records


def _run_chunk(args: tuple) -> list[GameRecord]:
    slug, levels, games, seed, budget, rotate, options, first = args
    from games import ALL_GAMES

    return run(ALL_GAMES[slug], levels, games, seed, budget, rotate, options, first)


def report(levels: Sequence[str], records: list[GameRecord], elapsed: float, out: Any = None) -> dict:
    out = out or sys.stdout
    n = len(records)
    players = len(levels)
    summary: dict[str, Any] = {"games": n, "entrants": [], "seats": []}
    print(f"{n} games, {players} players, bots: {', '.join(levels)}", file=out)
    print(f"{'entrant':<14} {'wins':>6} {'shared':>6} {'win %':>7} {'mean score':>10}  ahead of", file=out)
    for i, level in enumerate(levels):
        wins = sum(1 for r in records if r.seats[i] in r.winners)
        shared = sum(1 for r in records if r.seats[i] in r.winners and len(r.winners) > 1)
        mean = sum(r.scores[r.seats[i]] for r in records) / max(1, n)
        ahead = {}
        for j, other in enumerate(levels):
            if other != level:
                beat = sum(1 for r in records
                           if (r.seats[i] in r.winners and r.seats[j] not in r.winners)
                           or (r.scores[r.seats[i]] > r.scores[r.seats[j]]
                               and (r.seats[i] in r.winners) == (r.seats[j] in r.winners)))
                ahead[j] = beat / max(1, n)
        ahead_text = " ".join(f"#{j + 1}:{100 * v:.0f}%" for j, v in ahead.items())
        print(f"#{i + 1} {level:<11} {wins:>6} {shared:>6} {100 * wins / max(1, n):>6.1f}% {mean:>10.2f}  "
              f"{ahead_text}", file=out)
        summary["entrants"].append({"level": level, "wins": wins, "shared": shared,
                                    "win_rate": wins / max(1, n), "mean_score": mean, "ahead": ahead})
    print(f"{'seat':<14} {'wins':>6} {'win %':>7} {'mean score':>10}", file=out)
    for seat in range(players):
        wins = sum(1 for r in records if seat in r.winners)
        mean = sum(r.scores[seat] for r in records) / max(1, n)
        print(f"seat {seat:<9} {wins:>6} {100 * wins / max(1, n):>6.1f}% {mean:>10.2f}", file=out)
        summary["seats"].append({"wins": wins, "mean_score": mean})
    mean_length = sum(r.length for r in records) / max(1, n)
    print(f"mean length: {mean_length:.1f} actions; {n / elapsed if elapsed else 0:.2f} games/s "
          f"({elapsed:.1f} s)", file=out)
    summary["mean_length"] = mean_length
    summary["decisions"] = {}
    for level in dict.fromkeys(levels):
        times = [t for r in records for t in r.decision_times.get(level, [])]
        if times:
            mean_ms, max_ms = 1000 * sum(times) / len(times), 1000 * max(times)
            print(f"decision time {level:<8} mean {mean_ms:8.2f} ms   max {max_ms:8.1f} ms   "
                  f"({len(times)} decisions)", file=out)
            summary["decisions"][level] = {"mean_ms": mean_ms, "max_ms": max_ms, "count": len(times)}
    return summary


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        name, _, value = item.partition("=")
        low = value.lower()
        options[name] = True if low == "true" else False if low == "false" else int(value) \
            if value.lstrip("-").isdigit() else value
    return options


def main(argv: Sequence[str] | None = None) -> int:
    from games import ALL_GAMES

    parser = argparse.ArgumentParser(prog="tabula simulate", description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(ALL_GAMES))
    parser.add_argument("--players", type=int, help="default: the number of bots listed, else the minimum")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bots", default="novice",
                        help=f"comma-separated levels, one per seat, or one for all ({', '.join(LEVELS)})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", default="",
                        help="Strong budget ITERATIONS[:SECONDS[:HORIZON]]; default: the game's iterations, "
                             "no time cap (deterministic)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--no-rotate", action="store_true", help="keep entrant i at seat i")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)

    game = ALL_GAMES[args.game]
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    players = args.players or (len(levels) if len(levels) > 1 else game.min_players)
    if len(levels) == 1:
        levels = levels * players
    if len(levels) != players:
        parser.error(f"{len(levels)} bots for {players} players")
    if not game.min_players <= players <= game.max_players:
        parser.error(f"{game.title_en} is played by {game.min_players} to {game.max_players} players")
    for level in levels:
        if level not in LEVELS:
            parser.error(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    budget = Budget.parse(args.budget) if args.budget else Budget(seconds=None)
    options = game.resolve_options(parse_options(args.option))

    started = time.perf_counter()
    rotate = not args.no_rotate
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        chunks, first = [], 0
        size = -(-args.games // args.jobs)
        while first < args.games:
            count = min(size, args.games - first)
            chunks.append((args.game, levels, count, args.seed, budget, rotate, options, first))
            first += count
        with ProcessPoolExecutor(args.jobs) as pool:
            records = [r for chunk in pool.map(_run_chunk, chunks) for r in chunk]
    else:
        records = run(game, levels, args.games, args.seed, budget, rotate, options)
    elapsed = time.perf_counter() - started
    iterations = budget.iterations or hooks_for(game).iterations
    cap = "no time cap" if budget.seconds is None else f"at most {budget.seconds} s"
    print(f"{game.title_en} ({args.game}), seed {args.seed}, Strong budget {iterations} iterations per decision "
          f"({cap}), options {options}")
    report(levels, records, elapsed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
