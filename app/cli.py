"""The `tabula` command (also `python -m app`): serve, migrate, replay-check, cleanup, export, import,
simulate."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from contextlib import asynccontextmanager, nullcontext
from typing import TYPE_CHECKING, AsyncIterator, Iterable, TextIO

from .config import Settings

if TYPE_CHECKING:
    from .services.tables import TablesService


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
    replay.add_argument("--record", metavar="FILE", help="check a downloaded game record (or a file of `tabula "
                                                         "export`) instead of the database")

    cleanup = commands.add_parser("cleanup", help="delete tables that never filled and end games nobody plays "
                                                  "(TABULA_LOBBY_EXPIRY_HOURS, TABULA_ABANDON_DAYS)")
    cleanup.add_argument("--dry-run", action="store_true", help="only list what would be cleaned")

    export = commands.add_parser("export", help="write every finished table (or those named) as game records, "
                                                "one JSON object per line (app/services/records.py)")
    export.add_argument("table", nargs="*", help="only these ended tables")
    export.add_argument("-o", "--output", default="-", help="the file to write (default: standard output)")

    load = commands.add_parser("import", help="load game records written by `tabula export` (tables already "
                                              "here are left as they are)")
    load.add_argument("file", help="the records file (- for standard input)")

    i18n = commands.add_parser("i18n", help="extract the site's words, update the catalogs app/locale/*/"
                                            "LC_MESSAGES/messages.po and compile them (app/catalogs.py)")
    i18n.add_argument("--check", action="store_true", help="write nothing; exit 1 when a catalog lacks a word")

    commands.add_parser("simulate", add_help=False,
                        help="bots play each other: win rates per seat, game length, games per second "
                             "(e.g. tabula simulate --game ave_cesar --players 4 --games 500 "
                             "--bots strong,novice,novice,novice)")

    args = parser.parse_args(argv)
    if args.command == "i18n":
        from .catalogs import run

        return run(check=args.check)
    settings = Settings.from_env()

    if args.command == "serve":
        import uvicorn

        from .main import create_app
        from .observability import log_config
        from .web.protocol import HttpProtocol, WebSocketProtocol

        extra = {"log_config": config} if (config := log_config(settings.log_format, args.log_level)) else {}
        # On SIGTERM uvicorn stops taking connections, closes each websocket with 1012 ("service restart":
        # the clients reconnect, to another process behind the proxy, and resync by version), lets the
        # requests in flight finish (a move under way is committed and published), then shuts down.
        uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level,
                    proxy_headers=True, forwarded_allow_ips=settings.trusted_proxies, timeout_graceful_shutdown=10,
                    http=HttpProtocol, ws=WebSocketProtocol, **extra)
        return 0
    if args.command == "migrate":
        from .db import migrate

        migrate(settings)
        print("database is up to date")
        return 0
    if args.command == "replay-check":
        if args.record:
            with _open(args.record, "r") as text:
                return replay_check_records(text.read())
        return asyncio.run(replay_check(settings, args.table))
    if args.command == "cleanup":
        return asyncio.run(cleanup_now(settings, dry_run=args.dry_run))
    if args.command == "export":
        with _open(args.output, "w") as out:
            return asyncio.run(export_records(settings, args.table, out))
    if args.command == "import":
        with _open(args.file, "r") as lines:
            return asyncio.run(import_records(settings, lines))
    return 2


@asynccontextmanager
async def tables_service(settings: Settings) -> AsyncIterator["TablesService"]:
    """A tables service on the configured database, for one command."""
    import games

    from .db import make_async_engine
    from .services.tables import TablesService

    engine = make_async_engine(settings)
    try:
        yield TablesService(engine, games.ALL_GAMES, is_postgres=settings.is_postgres)
    finally:
        await engine.dispose()


async def replay_check(settings: Settings, only: list[str] | None = None, out=None) -> int:
    """Replays every table (or `only` these) from its seed and log; returns 1 if any snapshot differs."""
    out = out or sys.stdout
    async with tables_service(settings) as service:
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


async def cleanup_now(settings: Settings, dry_run: bool = False, out=None) -> int:
    """One clean-up of stale tables (app/services/cleanup.py), or with `dry_run` the list of what it would do."""
    from .services.cleanup import Cleanup

    out = out or sys.stdout
    async with tables_service(settings) as service:
        cleanup = Cleanup.from_settings(service, settings)
        if dry_run:
            stale = await cleanup.preview()
            for what, tables in stale.items():
                for table in tables:
                    print(f"would {what} {table['id']} ({table['game']}, {table['status']},"
                          f" last change {table['updated_at']})", file=out)
            print(f"{len(stale['expire'])} waiting table(s) to delete, {len(stale['abandon'])} game(s) to abandon",
                  file=out)
        else:
            done = await cleanup.run()
            print(f"{done['expired']} waiting table(s) deleted, {done['abandoned']} game(s) abandoned", file=out)
    return 0


def _open(path: str, mode: str):
    """A file, or standard input / output for "-" (left open)."""
    if path == "-":
        return nullcontext(sys.stdout if mode == "w" else sys.stdin)
    return open(path, mode, encoding="utf-8")


async def export_records(settings: Settings, only: list[str] | None, out: TextIO, report: TextIO | None = None) -> int:
    """Writes the game records of every finished table (or of `only` these ended tables), one per line."""
    from .services.errors import ServiceError

    report = report or sys.stderr
    async with tables_service(settings) as service:
        try:
            records = await service.records(only or None)
        except ServiceError as e:
            print(e.message, file=report)
            return 1
    for record in records:
        out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"exported {len(records)} table(s)", file=report)
    return 0


async def import_records(settings: Settings, lines: Iterable[str], report: TextIO | None = None) -> int:
    """Loads game records (one JSON object per line); returns 1 if any line could not be loaded."""
    from .services.records import BadRecord

    report = report or sys.stdout
    loaded = present = bad = 0
    async with tables_service(settings) as service:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                if await service.load_record(json.loads(line)):
                    loaded += 1
                else:
                    present += 1
            except (BadRecord, json.JSONDecodeError) as e:
                bad += 1
                print(f"line {number}: {e}", file=report)
    print(f"imported {loaded} table(s), {present} already here, {bad} refused", file=report)
    return 1 if bad else 0


def replay_check_records(text: str, out: TextIO | None = None) -> int:
    """Replays game records (one downloaded record, or `tabula export`'s one per line) and checks that each holds
    together, as `tabula import` does before loading one; returns 1 if any does not."""
    import games

    from .services.records import BadRecord, replay_record
    from .services.tables import replay_problem

    out = out or sys.stdout
    try:
        records = [json.loads(text)]
    except json.JSONDecodeError:
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
    bad = 0
    for number, record in enumerate(records, 1):
        try:
            replayed = replay_record(games.ALL_GAMES, record)
            problem = replay_problem(games.ALL_GAMES, replayed, replayed.actions, replayed.seat_changes)
        except BadRecord as e:
            problem = str(e)
        if problem:
            bad += 1
            print(f"MISMATCH record {number}: {problem}", file=out)
    print(f"checked {len(records)} record(s): {len(records) - bad} ok, {bad} differ", file=out)
    return 1 if bad else 0
