"""The `tabula` command (also `python -m app`): serve, migrate, replay-check, simulate."""

from __future__ import annotations

import argparse
import asyncio
import sys

from .config import Settings


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["simulate"]:
        # Bots play each other (games/core/simulate.py owns the options: `tabula simulate --help`).
        from games.core.simulate import main as simulate

        return simulate(argv[1:])
    parser = argparse.ArgumentParser(prog="tabula", description="Tabula: Roman board games online.")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the web server (migrates the database first)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--log-level", default="info")

    commands.add_parser("migrate", help="bring the database schema up to date")

    replay = commands.add_parser("replay-check", help="replay every table's log and compare with its snapshot")
    replay.add_argument("table", nargs="*", help="only these table ids")

    commands.add_parser("simulate", add_help=False,
                        help="bots play each other: win rates per seat, game length, games per second "
                             "(e.g. tabula simulate --game ave_cesar --players 4 --games 500 "
                             "--bots strong,novice,novice,novice)")

    args = parser.parse_args(argv)
    settings = Settings.from_env()

    if args.command == "serve":
        import uvicorn

        from .main import create_app

        uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level,
                    proxy_headers=True, forwarded_allow_ips="127.0.0.1")
        return 0
    if args.command == "migrate":
        from .db import migrate

        migrate(settings)
        print("database is up to date")
        return 0
    if args.command == "replay-check":
        return asyncio.run(replay_check(settings, args.table))
    return 2


async def replay_check(settings: Settings, only: list[str] | None = None, out=None) -> int:
    """Replays every table (or `only` these) from its seed and log; returns 1 if any snapshot differs."""
    import games

    from .db import make_async_engine
    from .services.tables import TablesService

    out = out or sys.stdout
    engine = make_async_engine(settings)
    try:
        service = TablesService(engine, games.ALL_GAMES, is_postgres=settings.is_postgres)
        ids = only or await service.table_ids()
        bad = 0
        for table_id in ids:
            try:
                problem = await service.replay(table_id)
            except Exception as e:  # noqa: BLE001 - report and go on
                problem = f"cannot be checked: {e}"
            if problem:
                bad += 1
                print(f"MISMATCH {table_id}: {problem}", file=out)
        print(f"checked {len(ids)} table(s): {len(ids) - bad} ok, {bad} differ", file=out)
        return 1 if bad else 0
    finally:
        await engine.dispose()
