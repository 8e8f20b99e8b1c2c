"""The computer player's subcommands of ``python -m engine``: solve, think, duel,
ladder and review."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from engine.game import EngineError


def _cmd_solve(args: argparse.Namespace) -> int:
    from engine.ai import solver
    from engine.commandline import emit as _print
    from engine.commandline import state_of as _state
    from engine.registry import get_game

    game = get_game(args.game)
    state = _state(game, args)
    start = time.perf_counter()
    data = solver(game.key)(state)
    if not args.json:
        print(f"solved in {time.perf_counter() - start:.3f} s", file=sys.stderr)
    _print(data, args.json)
    return 0


def _cmd_think(args: argparse.Namespace) -> int:
    from engine.ai import player_for
    from engine.commandline import emit as _print
    from engine.commandline import state_of as _state
    from engine.registry import get_game

    game = get_game(args.game)
    state = _state(game, args)
    if game.outcome(state) is not None:
        raise EngineError("the game is over")
    decision = player_for(game.key, args.level).decide(state, args.seed)
    _print(decision.to_json(), args.json)
    return 0


def _cmd_duel(args: argparse.Namespace) -> int:
    from engine.ai import player_from_spec
    from engine.ai.duel import duel
    from engine.commandline import emit as _print
    from engine.commandline import options_of as _options
    from engine.registry import get_game

    game = get_game(args.game)
    if args.games < 1:
        raise EngineError(f"games must be 1 or more, not {args.games}")
    first = player_from_spec(game, args.first, args.fixed)
    second = player_from_spec(game, args.second, args.fixed)

    def progress(number: int, who: int | None) -> None:
        if args.verbose:
            label = "draw" if who is None else (args.first, args.second)[who]
            print(f"game {number + 1}: {label}", file=sys.stderr, flush=True)

    result = duel(game, first, second, args.games, seed=args.seed, swap=args.swap,
                  options=_options(game, args), progress=progress, openings=args.openings)
    _print(result.to_json(), args.json)
    return 0


def _cmd_ladder(args: argparse.Namespace) -> int:
    from engine.ai.ladder import DEFAULT_PLAYERS, ladder
    from engine.commandline import options_of as _options
    from engine.registry import get_game

    game = get_game(args.game)
    specs = [s.strip() for s in args.players.split(",")] if args.players else DEFAULT_PLAYERS

    def progress(first: str, second: str, result: Any) -> None:
        if args.verbose:
            print(f"{first} v {second}: {result.wins[0]}-{result.wins[1]}"
                  f" ({result.draws} drawn)", file=sys.stderr, flush=True)

    data = ladder(game, specs, games=args.games, how=args.pairings, openings=args.openings,
                  seed=args.seed, options=_options(game, args), progress=progress,
                  fixed=args.fixed)
    if args.json:
        print(json.dumps(data))
        return 0
    for row in data["pairings"]:
        print(f"{row['first']:>8} v {row['second']:<8} {row['wins'][0]:>3}-{row['wins'][1]:<3}"
              f" draws {row['draws']}")
    for spec, rating in sorted(data["ratings"].items(), key=lambda kv: -kv[1]):
        print(f"{spec:>8} {rating:>6}")
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from engine.ai import level_budget
    from engine.ai.review import REVIEW_BUDGET, review
    from engine.commandline import options_of as _options
    from engine.commandline import split_moves
    from engine.registry import get_game

    game = get_game(args.game)
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    seats = args.players or game.seat_counts[0]
    # The bot's review budget by default; a level's search (its best move only) on demand.
    budget = (REVIEW_BUDGET if args.level is None
              else replace(level_budget(args.level), spread=0.0, traps=False))
    data = review(game, split_moves(args.moves or ""), seats, _options(game, args),
                  seed=args.seed, budget=budget)
    if args.plot:
        from engine.ai.plot import plot

        with open(args.plot, "wb") as fh:
            fh.write(plot(data, names))
    if args.json:
        print(json.dumps(data.to_json(names)))
    else:
        print("\n".join(data.summary(names)))
    return 0


def add_commands(
    sub: Any, common: Callable[[argparse.ArgumentParser, bool], None], games: str
) -> None:
    """Add solve, think, duel, ladder and review to the subparsers of ``engine.cli``."""
    p = sub.add_parser("solve", help="the exact value of a position: margin and best moves")
    common(p, True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("think", help="the computer player's move and evaluation")
    common(p, True)
    p.add_argument("--level", type=int, default=5, help="1 (weakest) to 5")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_think)

    p = sub.add_parser("duel", help="games between two players: random, greedy, ai:LEVEL "
                       "or uct:ITERATIONS")
    p.add_argument("game", help=f"the game ({games})")
    p.add_argument("--first", required=True, help="player in seat 0 (without --swap)")
    p.add_argument("--second", required=True, help="the other player")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--swap", action="store_true", help="alternate the seats, in pairs")
    p.add_argument("--openings", type=int, default=0, metavar="PLIES",
                   help="start each game (each pair, with --swap) after this many random plies")
    p.add_argument("--tie", help="tie rule (Cairo Corridor)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    p.add_argument("--verbose", action="store_true", help="one line per game on stderr")
    p.add_argument("--fixed", action="store_true", help="levels search their node or "
                   "iteration budget without the move-time cap (reproducible under load)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_duel)

    p = sub.add_parser("ladder", help="the levels and the baselines in paired games, rated "
                       "by Bradley-Terry with random at 0")
    p.add_argument("game", help=f"the game ({games})")
    p.add_argument("--players", help="comma-separated specs (default: random, greedy, "
                   "ai:1 to ai:5), weakest first")
    p.add_argument("--games", type=int, default=20, help="games per pairing (even)")
    p.add_argument("--pairings", default="skip", choices=("adjacent", "skip", "all"),
                   help="who meets whom: the next player, also the one after (default), "
                   "or everyone")
    p.add_argument("--openings", type=int, default=2, metavar="PLIES",
                   help="random plies before each pair of games")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tie", help="tie rule (Cairo Corridor)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    p.add_argument("--verbose", action="store_true", help="one line per pairing on stderr")
    p.add_argument("--fixed", action="store_true", help="levels search their node or "
                   "iteration budget without the move-time cap (reproducible under load)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_ladder)

    p = sub.add_parser("review", help="win chance after every move, inaccuracies, mistakes "
                       "and blunders, accuracy, the biggest mistakes (and an exact verdict "
                       "where the solver reaches)")
    common(p, False)
    p.add_argument("--level", type=int, help="the judge's level, 1 to 5 (default: the "
                   "bot's review budget)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--names", help="players' names in seat order")
    p.add_argument("--plot", metavar="PNG", help="write the evaluation plot")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_review)
