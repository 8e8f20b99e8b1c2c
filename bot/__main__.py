"""garnet's launcher: garnet COMMAND (or python -m bot COMMAND), one job each.

    garnet run                  Discord when DISCORD_TOKEN is set, else the local console
    garnet console              the local console (--script FILE, --virtual-clock, --host)
    garnet migrate              bring the database's schema up to date, then exit
    garnet web                  the public pages alone on WEB_ADDRESS (the bot starts it
                                itself with WEB_PROCESS=on)
    garnet health               exit 0 when this instance runs (its leases are fresh)
    garnet export [--json]      every match, for hosts' records
    garnet migrate-db --to URL  copy everything to another database (PostgreSQL)
    python -m bot bench ...     the benchmarks (in the folder of a checkout of garnet)
    garnet tournament simulate  a tournament of random results (no Discord, no database)
    garnet conformance KEY      check an installed game against garnet's game interface

Settings come from the environment and a .env file in the working directory; the
database is DATABASE_URL (default: garnet.db in the working directory). garnet with
no command is garnet run. The older forms still work: python -m bot --console,
python -m bot --script FILE --virtual-clock (the console).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.config import ConfigError, Settings

PROG = "garnet"
COMMANDS = ("run", "console", "migrate", "web", "health", "export", "migrate-db", "bench",
            "tournament", "conformance")
# The console's options: with one of them, the older flat form means `console`.
CONSOLE_OPTIONS = ("--console", "--script", "--virtual-clock", "--host")
NO_BENCHES = ("the benchmarks run from a checkout of garnet's repository: in its "
              "folder, python -m bot bench --help lists their options; they are not "
              "installed with the package")


def main(argv: list[str] | None = None) -> int:
    argv = _subcommand(sys.argv[1:] if argv is None else list(argv))
    # Jobs with options of their own: everything after their name is theirs.
    delegated: dict[str, Callable[[list[str]], int]] = {"tournament": _tournament,
                                                         "bench": _bench,
                                                         "conformance": _conformance}
    if argv[0] in delegated:
        return delegated[argv[0]](argv[1:])
    args = parser().parse_args(argv)
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        if args.command == "health":
            print(f"unhealthy: {exc}")
            return 1
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.database:
        settings = Settings(**{**settings.__dict__, "database_url": args.database})
    job: Callable[[argparse.Namespace, Settings], int] = args.job
    return job(args, settings)


def _subcommand(argv: list[str]) -> list[str]:
    """The older flat forms as subcommands: none is `run`; an option of the console's
    (`--console`, `--script`, `--virtual-clock`, `--host`) is `console`."""
    if not argv:
        return ["run"]
    if not argv[0].startswith("-") or argv[0] in ("-h", "--help"):
        return argv
    for i, arg in enumerate(argv):  # `--database URL migrate-db --to URL`: options first
        if arg in COMMANDS and argv[i - 1] not in ("--host", "--script"):
            return [arg, *argv[:i], *argv[i + 1:]]
    if any(arg.split("=", 1)[0] in CONSOLE_OPTIONS for arg in argv):
        return ["console", *[arg for arg in argv if arg != "--console"]]
    return ["run", *argv]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def job(name: str, run: Callable[[argparse.Namespace, Settings], int], text: str,
            database: bool = True) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=text, description=text)
        p.set_defaults(job=run)
        if database:
            p.add_argument("--database", metavar="URL",
                           help="the database (overrides DATABASE_URL)")
        return p

    job("run", _run, "serve on Discord when DISCORD_TOKEN is set, else the local "
        "console (the database is created and migrated first)")
    console = job("console", _console, "the local console, even when a token is set")
    console.add_argument("--script", type=Path, metavar="FILE",
                         help="run a file of console lines, then exit")
    console.add_argument("--virtual-clock", action="store_true",
                         help="time moves only with ~ wait (scripts, demos)")
    console.add_argument("--host", action="append", default=None, metavar="NAME",
                         help="a console name with the host role (repeatable; "
                         "default: host)")
    job("migrate", _migrate, "create the database or bring its schema up to date, then "
        "exit (run it before starting the bot processes)")
    pages = job("web", _web, "serve the public pages alone on WEB_ADDRESS (the bot's "
                "process starts this itself with WEB_PROCESS=on); live notices by "
                "PostgreSQL, or as lines on standard input")
    pages.add_argument("--nice", type=int, default=0, choices=range(20), metavar="N",
                       help="run N lower than the bot (0-19)")
    pages.add_argument("--child", action="store_true",
                       help="as the bot's process starts it: notices on standard input, "
                       "whose end ends it; signals are left to the bot")
    job("health", _health, "exit 0 when this instance (INSTANCE_NAME, on this host) "
        "holds fresh leases on the database, else 1 with the reason")
    export = job("export", _export, "every match, one line each (or JSON), for hosts' "
                 "records")
    export.add_argument("--json", action="store_true", help="JSON output")
    copy = job("migrate-db", _migrate_db, "copy everything from the database to another "
               "one (SQLite to PostgreSQL)")
    copy.add_argument("--to", metavar="URL", required=True,
                      help="the database to copy into (empty, or --force)")
    copy.add_argument("--force", action="store_true",
                      help="replace the rows the target already holds")
    copy.add_argument("--batch", type=int, default=1000, metavar="ROWS",
                      help="rows per insert (default 1000)")
    # Listed for --help; their arguments are parsed by their own modules.
    sub.add_parser("bench", add_help=False,
                   help="the benchmarks, from a checkout of the repository "
                   "(python -m bot bench --help, in its folder)")
    sub.add_parser("conformance", add_help=False,
                   help="check an installed game (garnet conformance KEY --help)")
    sub.add_parser("tournament", add_help=False,
                   help="simulate a tournament of random results "
                   "(garnet tournament simulate --help)")
    return top


def _conformance(argv: list[str]) -> int:
    # Pure: the game is checked through engine/ alone.
    from engine.conformance import main as conformance_main

    return conformance_main(argv)


def _tournament(argv: list[str]) -> int:
    # Pure: neither Discord nor the database is imported for it.
    from bot.services.tournaments.simulate import main as tournament_main

    return tournament_main(argv)


def _bench(argv: list[str]) -> int:
    try:  # the benchmarks are the repository's, not the installed package's
        from bench.cli import main as bench_main
    except ModuleNotFoundError as exc:
        if exc.name not in ("bench", "bench.cli", "tests"):
            raise
        if "-h" in argv or "--help" in argv:  # asked what it is: that is the answer
            print(f"usage: python -m bot bench [options]\n\n{NO_BENCHES}.")
            return 0
        print(f"error: {NO_BENCHES}", file=sys.stderr)
        return 2
    return bench_main(argv, prog="python -m bot bench")


def _run(args: argparse.Namespace, settings: Settings) -> int:
    if settings.discord_token:
        from bot.app import run_discord, setup_logging

        setup_logging(settings.log_level, settings)
        return _serving(lambda: run_discord(settings))
    return _console(argparse.Namespace(script=None, virtual_clock=False, host=None), settings)


def _console(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import run_console, setup_logging

    setup_logging("WARNING", settings)
    if args.script is not None and not args.script.is_file():
        print(f"error: no script file {args.script}", file=sys.stderr)
        return 2
    hosts = tuple(args.host or ["host"])
    return _serving(lambda: run_console(settings, args.script, args.virtual_clock, hosts))


def _web(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import run_pages, setup_logging

    if settings.web_address is None:
        print("error: garnet web serves the public pages on WEB_ADDRESS, which is not "
              "set (e.g. WEB_ADDRESS=8080, or 0.0.0.0:8080 behind a reverse proxy)",
              file=sys.stderr)
        return 2
    setup_logging(settings.log_level, settings)
    if args.child:  # the bot's process ends it (closing its standard input), not Ctrl-C
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        return _serving(lambda: run_pages(settings, args.nice, args.child))
    except KeyboardInterrupt:  # alone, stopped with Ctrl-C: the pages were closed
        return 0


def _serving(serve: Callable[[], Coroutine[Any, Any, int]]) -> int:
    from bot.services.leases import LeaseHeld

    try:
        return asyncio.run(serve())
    except LeaseHeld as exc:  # SQLite: a second process on the same file
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _migrate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.store.db import migrate_and_report

    before, after = asyncio.run(migrate_and_report(settings.database_url))
    where = _shown(settings.database_url)
    if before == after:
        print(f"{where}: the schema is up to date (revision {after})")
    else:
        print(f"{where}: migrated from {before or 'an empty database'} to revision {after}")
    return 0


def _health(args: argparse.Namespace, settings: Settings) -> int:
    reason = asyncio.run(_health_reason(settings))
    if reason is not None:
        print(f"unhealthy: {reason}")
        return 1
    print(f"healthy: instance '{settings.instance}' holds its leases on "
          f"{_shown(settings.database_url)}")
    return 0


async def _health_reason(settings: Settings) -> str | None:
    import socket
    import time

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from bot.services.health import unhealthy
    from bot.services.leases import lease_keys
    from bot.store.db import Database

    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:" \
            and not Path(url.database).is_file():
        return f"no database file {url.database} (the bot has not started here)"
    db = Database(settings.database_url)  # read only: no migration, no new file
    try:
        return await asyncio.wait_for(unhealthy(
            db, lease_keys(settings.shards, settings.database_url), settings.instance,
            socket.gethostname()[:100], time.time()), timeout=10)
    except (SQLAlchemyError, OSError, TimeoutError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"cannot read the leases on {_shown(settings.database_url)}: {first[:200]}"
    finally:
        await db.close()


def _migrate_db(args: argparse.Namespace, settings: Settings) -> int:
    from bot.migrate_db import main as migrate_main

    return migrate_main(settings.database_url, args.to, args.force, args.batch)


def _export(args: argparse.Namespace, settings: Settings) -> int:
    return asyncio.run(_export_matches(settings, args.json))


async def _export_matches(settings: Settings, as_json: bool) -> int:
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


def _shown(url: str) -> str:
    """A database URL for people: its password hidden."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


if __name__ == "__main__":
    sys.exit(main())
