"""``python -m bot``: Discord when DISCORD_TOKEN is set, the local console otherwise.

    python -m bot                       run (Discord, or the console)
    python -m bot --console             the console even when a token is set
    python -m bot --script FILE         run a file of console lines
    python -m bot --virtual-clock ...   time moves only with `~ wait` (scripts, demos)
    python -m bot export --json         every match, for hosts' records
    python -m bot bench                 the load benchmark
    python -m bot bench --queries       leaderboards and history on a season-sized database
    python -m bot bench --practice      event-loop lag while the computer player thinks
    python -m bot migrate-db --to URL   copy everything to another database (PostgreSQL)
    python -m bot tournament simulate   a tournament of random results (no Discord, no database)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.config import ConfigError, Settings


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["tournament"]:
        # Pure: neither Discord nor the database is imported for it.
        from bot.services.tournaments.simulate import main as tournament_main

        return tournament_main(argv[1:])
    from bot.app import run_console, run_discord, setup_logging
    from bot.services.leases import LeaseHeld

    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?",
                        choices=["run", "export", "bench", "migrate-db", "tournament"],
                        default="run")
    parser.add_argument("--console", action="store_true", help="use the local console")
    parser.add_argument("--script", type=Path, help="console lines to run, then exit")
    parser.add_argument("--virtual-clock", action="store_true",
                        help="console time moves only with `~ wait`")
    parser.add_argument("--host", action="append", default=None, metavar="NAME",
                        help="console names with the host role (default: host)")
    parser.add_argument("--json", action="store_true", help="export: JSON output")
    parser.add_argument("--database", help="database URL (overrides DATABASE_URL)")
    parser.add_argument("--dms", type=int, action="append",
                        help="bench: concurrent DMs (repeatable; default 200 and 1000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="bench: seconds per run")
    parser.add_argument("--queries", action="store_true",
                        help="bench: time leaderboards and history pages instead")
    parser.add_argument("--practice", action="store_true",
                        help="bench: event-loop lag during practice matches against the "
                        "computer (--seconds per game)")
    parser.add_argument("--games", default="cairo,quoridor,pathwayz,sigma",
                        help="bench --practice: the games, comma-separated")
    parser.add_argument("--level", type=int, default=5, choices=range(1, 6),
                        help="bench --practice: the computer's level")
    try:  # the benchmarks are the repository's, not the installed package's
        from bench.load import add_arguments as bench_arguments
    except ImportError:
        benches = False
    else:
        benches = True
        bench_arguments(parser)
    parser.add_argument("--to", metavar="URL",
                        help="migrate-db: the database to copy into (empty, or --force)")
    parser.add_argument("--force", action="store_true",
                        help="migrate-db: replace the rows the target already holds")
    parser.add_argument("--batch", type=int, default=1000, metavar="ROWS",
                        help="migrate-db: rows per insert (default 1000)")
    args = parser.parse_args(argv)
    if args.command == "bench" and not benches:
        print("error: the benchmarks run from a checkout of garnet's repository "
              "(python -m bot bench, in its folder); they are not installed with the "
              "package", file=sys.stderr)
        return 2
    if args.command == "bench" and args.practice:
        from bench.practice import main as practice_main

        return practice_main([g.strip() for g in args.games.split(",")][:8], args.level,
                             args.seconds, args.json)
    if args.command == "bench" and not args.queries:
        from bench.load import main as bench_main

        return bench_main(args)
    if args.command == "migrate-db" and not args.to:
        parser.error("migrate-db needs --to URL, the database to copy into")
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.database:
        settings = Settings(**{**settings.__dict__, "database_url": args.database})
    if args.command == "migrate-db":
        from bot.migrate_db import main as migrate_main

        return migrate_main(settings.database_url, args.to, args.force, args.batch)
    if args.command == "export":
        return asyncio.run(_export(settings, args.json))
    if args.command == "bench" and args.queries:
        from bench.queries import main as queries_main

        return queries_main(args.json)
    setup_logging(settings.log_level if settings.discord_token and not args.console
                  else "WARNING")
    try:
        if settings.discord_token and not args.console and args.script is None:
            return asyncio.run(run_discord(settings))
        if args.script is not None and not args.script.is_file():
            print(f"error: no script file {args.script}", file=sys.stderr)
            return 2
        return asyncio.run(run_console(settings, args.script, args.virtual_clock,
                                       tuple(args.host or ["host"])))
    except LeaseHeld as exc:  # SQLite: a second process on the same file
        print(f"error: {exc}", file=sys.stderr)
        return 2


async def _export(settings: Settings, as_json: bool) -> int:
    from bot.services.exports import export_matches, export_text
    from bot.store.db import open_database

    db = await open_database(settings.database_url)
    try:
        records = await export_matches(db)
    finally:
        await db.close()
    if as_json:
        print(json.dumps(records, indent=2, ensure_ascii=False))
    else:
        for line in export_text(records):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
