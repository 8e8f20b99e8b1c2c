"""The benchmarks, run from a checkout of garnet's repository, in its folder (they are
not installed with the package). The launcher (bot/__main__.py) hands every argument
after bench to main.

    python -m bot bench [--dms N] [--seconds S] [--pace realistic|stress] [--quick]
                        [--json] [--compare] [--metrics-compare [--rounds R]]
                        [--games cairo,quoridor,...] [--flood N] [--near-end 0.25]
                        [--plies-left 2] [--chatter 0.3] [--profile FILE]
                        [--reminders default|stress] [--viewers N]
    python -m bot bench --queries [--json]
    python -m bot bench --practice [--games cairo,quoridor] [--level 5] [--seconds S]
                        [--json]
    python -m bot bench --web [--viewers 200] [--dms 20] [--seconds S] [--database URL]
                        [--json]
"""

from __future__ import annotations

import argparse

from bench.load import add_arguments


def parser(prog: str = "python -m bot bench") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="JSON output")
    p.add_argument("--database", help="database URL (default: a new SQLite file)")
    p.add_argument("--dms", type=int, action="append",
                   help="concurrent DMs (repeatable; default 200 and 1000)")
    p.add_argument("--seconds", type=float, default=20.0, help="seconds per run")
    p.add_argument("--queries", action="store_true",
                   help="time leaderboards and history pages instead")
    p.add_argument("--practice", action="store_true",
                   help="event-loop lag during practice matches against the computer "
                   "(--seconds per game)")
    p.add_argument("--web", action="store_true",
                   help="the public web pages' time with --viewers viewers on loopback")
    p.add_argument("--viewers", type=int, default=None,
                   help="--web: concurrent viewers (default 200); the load bench: live "
                   "viewers of the running DMs' pages (the bot's web server on), each "
                   "size run without them, then with them, the bot's share side by side")
    p.add_argument("--games", default="cairo,quoridor,pathwayz,sigma",
                   help="the games, comma-separated (the load bench deals them round "
                   "the DMs; --practice plays each)")
    p.add_argument("--level", type=int, default=5, choices=range(1, 6),
                   help="--practice: the computer's level")
    add_arguments(p)
    return p


def main(argv: list[str], prog: str = "python -m bot bench") -> int:
    args = parser(prog).parse_args(argv)
    if args.practice:
        from bench.practice import main as practice_main

        return practice_main([g.strip() for g in args.games.split(",")][:8], args.level,
                             args.seconds, args.json)
    if args.web:
        from bench.web import main as web_main

        return web_main(max(1, args.viewers or 200), (args.dms or [20])[0], args.seconds,
                        args.json,
                        args.database)
    if args.queries:
        from bench.queries import main as queries_main

        return queries_main(args.json)
    from bench.load import main as load_main

    return load_main(args)
