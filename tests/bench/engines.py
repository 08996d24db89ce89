"""Engine speed: random full games per second for each game and player count, and the per-action
cost of legal_actions + apply + view. Prints figures; it asserts nothing.

    .venv/bin/python tests/bench/engines.py [--games N] [--game SLUG]
"""

from __future__ import annotations

import argparse
import time

from games import ALL_GAMES
from games.core.conformance import random_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per game and player count")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    args = parser.parse_args()
    print(f"{'game':18} {'players':>7} {'games/s':>9} {'ms/game':>8} {'actions/game':>12} "
          f"{'µs legal':>9} {'µs apply':>9} {'µs view':>9}")
    for slug, game in ALL_GAMES.items():
        if args.game and slug not in args.game:
            continue
        for players in range(game.min_players, game.max_players + 1):
            started = time.perf_counter()
            total_actions = 0
            for seed in range(args.games):
                _, history = random_game(game, players, seed, {}, policy_seed=seed)
                total_actions += len(history)
            elapsed = time.perf_counter() - started
            # Per-action costs, measured on one more game step by step.
            legal_t = apply_t = view_t = 0.0
            state, history = None, []
            final, history = random_game(game, players, 12345, {}, policy_seed=12345)
            state = game.setup(players, 12345, {})
            for seat, action in history:
                t0 = time.perf_counter()
                for s in game.to_act(state):
                    game.legal_actions(state, s)
                t1 = time.perf_counter()
                nxt = game.apply(state, seat, action)
                t2 = time.perf_counter()
                for s in [*range(players), None]:
                    game.view(nxt, s)
                t3 = time.perf_counter()
                legal_t += t1 - t0
                apply_t += t2 - t1
                view_t += t3 - t2
                state = nxt
            n = max(1, len(history))
            print(f"{slug:18} {players:>7} {args.games / elapsed:>9.1f} {1000 * elapsed / args.games:>8.2f} "
                  f"{total_actions / args.games:>12.1f} {1e6 * legal_t / n:>9.1f} {1e6 * apply_t / n:>9.1f} "
                  f"{1e6 * view_t / n:>9.1f}")


if __name__ == "__main__":
    main()
