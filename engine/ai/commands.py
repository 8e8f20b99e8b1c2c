"""The computer player's subcommands of ``python -m engine``: solve, think, duel."""

from __future__ import annotations

import argparse
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
    first = player_from_spec(game, args.first)
    second = player_from_spec(game, args.second)

    def progress(number: int, who: int | None) -> None:
        if args.verbose:
            label = "draw" if who is None else (args.first, args.second)[who]
            print(f"game {number + 1}: {label}", file=sys.stderr, flush=True)

    result = duel(game, first, second, args.games, seed=args.seed, swap=args.swap,
                  options=_options(game, args), progress=progress, openings=args.openings)
    _print(result.to_json(), args.json)
    return 0


def add_commands(
    sub: Any, common: Callable[[argparse.ArgumentParser, bool], None], games: str
) -> None:
    """Add solve, think and duel to the subparsers of ``engine.cli``."""
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
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_duel)
