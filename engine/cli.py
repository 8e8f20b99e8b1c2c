"""``python -m engine``: the engine for hosts, analysts and checks.

Exit status 0 on success, 2 with one line on stderr for any bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.commandline import emit, options_of, split_moves, state_of
from engine.game import EngineError, Game
from engine.registry import game_keys, get_game


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one clear line, status 2, as for bad moves
        self.exit(2, f"error: {message}\n")


def _summary(game: Game[Any, Any], state: Any, moves: int) -> dict[str, Any]:
    outcome = game.outcome(state)
    legal = sorted(game.notation(m) for m in game.legal_moves(state))
    return {
        "moves": moves,
        "over": outcome is not None,
        "winner": outcome.winner if outcome else None,
        "draw": outcome.draw if outcome else False,
        "score": list(outcome.scores)
        if outcome and outcome.scores is not None
        else _running_score(game, state),
        "to_move": game.to_move(state),
        "legal": legal,
    } | game.summary(state)


def _running_score(game: Game[Any, Any], state: Any) -> list[int] | None:
    try:
        score = game.analyze(state).get("score")
    except EngineError:
        return None
    return list(score) if score is not None else None


def _cmd_analyze(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    state = state_of(game, args)
    emit(game.analyze(state), args.json)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    state = state_of(game, args)
    emit(_summary(game, state, len(split_moves(args.moves))), args.json)
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    state = state_of(game, args)
    png = game.render(state, hints=args.hints)
    with open(args.out, "wb") as fh:
        fh.write(png)
    print(args.out)
    return 0


def _cmd_animate(args: argparse.Namespace) -> int:
    from engine.animation import animate

    game = get_game(args.game)
    seats = args.players or game.seat_counts[0]
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    gif = animate(game, split_moves(args.moves), seats, options_of(game, args), names)
    with open(args.out, "wb") as fh:
        fh.write(gif)
    print(args.out)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from engine.bench import run_bench

    if args.boards:
        from engine.boardbench import first_boards, side_by_side, table

        # Warm boards side by side, then (unless --first 0) fresh workers' first boards.
        found = [] if args.rounds <= 0 else [side_by_side(args.against, args.rounds)]
        if args.first:
            found.append(first_boards(args.against, args.first))
        if args.json:
            print(json.dumps(found[0] if len(found) == 1 else found))
        else:
            print("\n\n".join(table(data) for data in found))
        return 0
    if args.reference:
        from engine.cairo.analysisbench import reference_bench

        if args.game and get_game(args.game).key != "cairo":
            raise EngineError("--reference is for Cairo Corridor's analysis")
        emit(reference_bench(rounds=args.rounds, seed=args.seed), args.json)
        return 0
    if args.solver:
        from engine.cairo.solverbench import solver_bench

        if args.game and get_game(args.game).key != "cairo":
            raise EngineError("--solver is for Cairo Corridor, the game with an exact solver")
        emit(solver_bench(args.positions, args.playable, args.seed), args.json)
        return 0
    if args.game:
        game = get_game(args.game)
        emit(run_bench(game, seats=args.players, seconds=args.seconds, seed=args.seed),
             args.json)
        return 0
    # Every game, one after the other: the computer players' nodes or playouts per second.
    results = [run_bench(get_game(key), seconds=args.seconds, seed=args.seed)
               for key in game_keys()]
    if args.json:
        print(json.dumps({"games": results}))
    else:
        for data in results:
            emit(data, False)
            print()
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    import time

    from engine.bench import perft

    game = get_game(args.game)
    if args.depth < 0:
        raise EngineError(f"depth must be 0 or more, not {args.depth}")
    state = game.new_state(args.players or game.seat_counts[0], options_of(game, args))
    start = time.perf_counter()
    nodes = perft(game, state, args.depth)
    elapsed = time.perf_counter() - start
    if args.json:
        print(json.dumps({"depth": args.depth, "nodes": nodes, "seconds": round(elapsed, 3)}))
    else:
        print(nodes)
        print(f"depth {args.depth}: {nodes} sequences in {elapsed:.3f} s", file=sys.stderr)
    return 0


def _cmd_deck(args: argparse.Namespace) -> int:
    if args.action == "balance":
        return _deck_balance(args)
    from engine.sigma.commands import deck_command

    return deck_command(args.action, args.file, args.out, args.json)


def _deck_balance(args: argparse.Namespace) -> int:
    from engine.balance import measure, parse_levels
    from engine.sigma.deck import find_deck

    if args.file is None:
        raise EngineError("deck balance needs a deck file or the name of a shipped deck")
    deck = find_deck(args.file)

    def progress(line: str) -> None:
        if args.verbose:
            print(line, file=sys.stderr, flush=True)

    result = measure(deck, parse_levels(args.levels), games=args.games, plies=args.openings,
                     seed=args.seed, solve_nodes=args.solve_nodes, progress=progress,
                     below=not args.equal, agency=args.choice_nodes if args.agency else None)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print("\n".join(result.lines()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    games = ", ".join(game_keys())

    def common(p: argparse.ArgumentParser, position: bool) -> None:
        p.add_argument("game", help=f"the game ({games})")
        if position:
            group = p.add_mutually_exclusive_group(required=True)
            group.add_argument("--position", help='a position, e.g. "first: AU BL; second: XD"')
            group.add_argument("--moves", help='moves from the start, e.g. "D left, JU, w-up"')
        else:
            p.add_argument("--moves", required=True, help="moves from the start, comma separated")
        p.add_argument("--tie", help="tie rule (Cairo Corridor): first-player-loses, "
                       "last-mover-loses or draw")
        p.add_argument("--players", type=int, help="number of players (Quoridor: 2 or 4)")
        p.add_argument("--deck", metavar="FILE", help="deck file or shipped deck (Sigma Escape)")
        p.add_argument("--option", action="append", metavar="NAME=VALUE",
                       help="any other game option")

    p = sub.add_parser("analyze", help="corridor, critical cells, legal moves and score")
    common(p, position=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_analyze)

    p = sub.add_parser("replay", help="play moves from the start and report the result")
    common(p, position=False)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("render", help="draw a position as a PNG")
    common(p, position=True)
    p.add_argument("--out", required=True, help="PNG file to write")
    p.add_argument("--hints", action="store_true", help="overlay the analysis")
    p.set_defaults(func=_cmd_render)

    p = sub.add_parser("animate", help="a whole game as an animated GIF: a frame per move "
                       "and the result")
    common(p, position=False)
    p.add_argument("--out", required=True, help="GIF file to write")
    p.add_argument("--names", help='players\' names in seat order, e.g. "Alice,Bob"')
    p.set_defaults(func=_cmd_animate)

    p = sub.add_parser("bench", help="measure analysis, random games, rendering and the "
                       "computer player's speed (every game when none is named)")
    p.add_argument("game", nargs="?", help=f"the game ({games}); all when left out")
    p.add_argument("--players", type=int, help="number of players")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--solver", action="store_true", help="Cairo Corridor: cold exact "
                   "solves of random positions with --playable corridor cells")
    p.add_argument("--positions", type=int, default=100, help="positions for --solver")
    p.add_argument("--playable", type=int, default=16, help="playable cells for --solver")
    p.add_argument("--reference", action="store_true", help="Cairo Corridor: the analysis, "
                   "cold, against the naive reference (engine.cairo.reference)")
    p.add_argument("--boards", action="store_true", help="warm boards of every game and "
                   "variant, side by side with the renderer of commit --against")
    p.add_argument("--against", default="main", help="the commit --boards compares with")
    p.add_argument("--rounds", type=int, default=5, help="passes of each side for --boards; "
                   "runs of each position for --reference")
    p.add_argument("--first", type=int, default=5, metavar="N", help="--boards: then the "
                   "first board of each kind in N fresh workers of each side, after their "
                   "warm-up (default 5; 0: none; with --rounds 0, only these)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("deck", help="Sigma Escape decks: list the shipped ones, check a "
                       "deck file, draw its cards (show FILE --out PNG), or measure how "
                       "fair it is (balance FILE)")
    p.add_argument("action", choices=("list", "check", "show", "balance"))
    p.add_argument("file", nargs="?", help="a deck file (TOML or JSON) or a shipped deck")
    p.add_argument("--out", help="PNG file to write (show)")
    p.add_argument("--levels", default="4,5", help="balance: the levels, each against "
                   "itself and the level below (1 to 5, greedy, random; default 4,5)")
    p.add_argument("--games", type=int, default=40, help="balance: games a pairing (even: "
                   "each opening twice, seats swapped; default 40)")
    p.add_argument("--openings", type=int, default=2, metavar="PLIES",
                   help="balance: random plies before each pair of games (default 2)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--solve-nodes", type=int, default=500_000, metavar="NODES",
                   help="balance: node budget of the exact solve of each opening (0: none)")
    p.add_argument("--equal", action="store_true", help="balance: each level against "
                   "itself only (not against the level below)")
    p.add_argument("--agency", action="store_true", help="balance: how much each seat's "
                   "play counts: the strongest level against itself and against random "
                   "in each seat, and its decisions solved (does the choice matter?)")
    p.add_argument("--choice-nodes", type=int, default=100_000, metavar="NODES",
                   help="balance --agency: node budget of the solve of one decision's "
                   "placements (0: no solve)")
    p.add_argument("--verbose", action="store_true", help="balance: each pairing on stderr")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_deck)

    p = sub.add_parser("perft", help="count move sequences of a given length from the start")
    p.add_argument("game", help=f"the game ({games})")
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--players", type=int)
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_perft)

    from engine.ai.commands import add_commands

    add_commands(sub, common, games)  # solve, think, duel
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
        return result
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
