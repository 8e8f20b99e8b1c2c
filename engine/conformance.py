"""The conformance check: what every garnet game must keep, for its authors to run.

``garnet conformance KEY`` (or ``python -m engine.conformance KEY``) runs it on an
installed game, through the public interface only (``engine.registry`` and
``engine.game.Game``); garnet's own test suite runs the same checks on its games
(``tests/engine/test_contract.py``). It plays seeded random games of every seat count
and checks each ply (every legal move's notation read back, the JSON round trip, chat
read as no move, the menus), the end (an outcome exactly when no move is left), the
words of each position within Discord's limit, the options' declarations, and two
budgets a game must fit in garnet's workers:

- the render budget: a game's first board (fonts and tables loaded) within
  ``FIRST_BOARD`` seconds, and a board after that within ``WARM_BOARD`` seconds (the
  median of several); a worker is stopped past ``bot.services.render.BOARD_SECONDS``;
- the move-time caps: the computer player (when the game has one) decides within its
  level's ``Budget.seconds`` plus ``MOVE_GRACE`` seconds, past which garnet stops it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.game import (
    DESCRIPTION_LIMIT,
    Game,
    GameOverError,
    MoveError,
    NotAMove,
    OptionError,
    after_move,
    lacks,
)
from engine.registry import get_ai, get_game

SEEDS = (1, 2, 3)
CHECKED_PLIES = 400  # plies checked in full at the start of each game
MAX_PLIES = 2000  # a game still running after this many plies is left unfinished
CHAT = ("hello there", "gg", "ok", "lol", "good luck!")
PNG = b"\x89PNG\r\n\x1a\n"
FIRST_BOARD = 5.0  # seconds: a game's first board, its fonts and tables loaded
WARM_BOARD = 0.5  # seconds: the median board after that
MOVE_GRACE = 5.0  # seconds past a level's move time before garnet stops the search
MOVE_LEVELS = (1, 2)  # the levels whose move time is checked (the others scale alike)


class Failure(AssertionError):
    """A promise of the interface the game breaks; the message says which and where."""


def expect(condition: object, message: str) -> None:
    if not condition:
        raise Failure(message)


@dataclass(frozen=True)
class Result:
    check: str
    ok: bool
    detail: str
    seconds: float


# ---- the checks, each on one game ---------------------------------------------------


def round_trip(game: Game[Any, Any], state: Any) -> None:
    data = game.to_json(state)
    again = game.from_json(json.loads(json.dumps(data)))
    expect(again == state, "from_json(to_json(state)) is not the same state")
    expect(game.to_json(again) == data, "to_json of the rebuilt state differs")


def check_ends(game: Game[Any, Any], state: Any, moves: list[Any]) -> None:
    """``outcome`` is set exactly when no legal move remains, and ``to_move`` is None
    exactly then."""
    result = game.outcome(state)
    expect((result is None) == bool(moves),
           "outcome is set while legal moves remain, or unset when none do")
    if result is not None:
        expect(game.well_formed_moves(state) == [], "well_formed_moves after the end")
    expect((game.to_move(state) is None) == (result is not None),
           "to_move is None exactly when the game is over")
    expect(game.is_over(state) == (result is not None), "is_over disagrees with outcome")
    if result is not None:
        expect(result.winner is None or 0 <= result.winner < game.seats(state),
               f"the winner {result.winner} is not a seat")
        expect(result.draw == (result.winner is None), "draw is set exactly without a winner")
        expect(result.reason, "an outcome without a reason")


def check_chat(game: Game[Any, Any], state: Any) -> None:
    for text in CHAT:
        try:
            game.parse_move(state, text)
        except NotAMove:
            continue
        except MoveError as exc:
            raise Failure(f"chat {text!r} raised {type(exc).__name__}, not NotAMove") from None
        raise Failure(f"chat {text!r} was read as a move")


def check_well_formed(game: Game[Any, Any], state: Any, legal: set[str],
                      rng: random.Random) -> None:
    """Every legal move is well-formed; each well-formed one reads as a move."""
    formed = [game.notation(m) for m in game.well_formed_moves(state)]
    expect(legal <= set(formed), "a legal move is missing from well_formed_moves")
    for text in rng.sample(formed, min(len(formed), 20)):
        try:
            game.parse_move(state, text)
        except NotAMove:
            raise Failure(f"{text!r} is well-formed but does not read as a move") from None
        except GameOverError:
            raise Failure("a move offered after the end") from None
        except MoveError:  # written well, not legal here
            pass


def render_board(game: Game[Any, Any], state: Any, seats: int) -> None:
    names = [f"Player {n}" for n in range(seats)]
    for hints in (False, True):
        png = game.render(state, hints=hints, names=names)
        expect(isinstance(png, bytes) and png.startswith(PNG), "render gives no PNG")


def play(game: Game[Any, Any], seats: int, seed: int, render: bool) -> bool:
    """One random game under the checks; whether it reached its end."""
    rng = random.Random(seed)
    state = game.new_state(seats)
    expect(game.seats(state) == seats, "seats() differs from the seats asked")
    expect(game.to_move(state) == 0, "seat 0 does not move first")
    round_trip(game, state)
    if render:
        render_board(game, state, seats)
    moves = game.legal_moves(state)
    states = [state]
    previous: Any = None
    ended = False
    for ply in range(MAX_PLIES):
        check_ends(game, state, moves)
        if not moves:
            ended = True
            break
        if ply < CHECKED_PLIES:
            round_trip(game, state)
            check_chat(game, state)
            texts = set()
            for move in moves:
                text = game.notation(move)
                texts.add(text)
                expect(game.parse_move(state, text) == move,
                       f"ply {ply}: {text!r} does not read back as its move")
            expect(len(texts) == len(moves), f"ply {ply}: two legal moves share a notation")
            check_well_formed(game, state, texts, rng)
        previous = rng.choice(moves)
        after = game.apply(state, previous)
        moves = game.legal_moves(after)
        expect((game.to_move(after) is None) == (game.outcome(after) is not None),
               "apply gave a state whose to_move and outcome disagree")
        if ply < CHECKED_PLIES:
            expect(game.last_move(after) in (None, game.notation(previous)),
                   "last_move is not the move played")
        state = after
        states.append(state)
    if render:
        render_board(game, states[len(states) // 2], seats)
    if not ended:
        return False
    round_trip(game, state)
    check_chat(game, state)
    attempts: list[Callable[[], object]] = [
        lambda: game.parse_move(state, game.notation(previous)),
        lambda: game.apply(state, previous)]
    for attempt in attempts:
        try:
            attempt()
        except GameOverError:
            continue
        raise Failure("a move after the end is not refused with GameOverError")
    if render:
        render_board(game, state, seats)
    return True


def check_games(game: Game[Any, Any], seats: int) -> None:
    """Seeded random games of ``seats``: every ply, and the end at least once."""
    expect(seats in game.seat_counts, f"{seats} is not among seat_counts")
    ended = [play(game, seats, seed, render=seed == SEEDS[0]) for seed in SEEDS]
    expect(any(ended), f"no random game for {seats} ended in {MAX_PLIES} plies")


def check_declarations(game: Game[Any, Any]) -> None:
    """The class fits the interface; options and move help are declared in full."""
    missing = lacks(type(game))
    expect(not missing, f"it lacks {', '.join(missing)}")
    expect(game.key == game.key.strip().lower() and " " not in game.key,
           "the key is lower case without spaces")
    expect(len(game.title) <= 60 and len(game.move_help) <= 300,
           "title within 60 characters, move_help within 300")
    expect(game.check_options(None) is not None, "the defaults pass check_options")
    for spec in game.option_specs:
        expect(spec.name == spec.name.lower() and " " not in spec.name and ":" not in spec.name,
               f"option '{spec.name}': a lower-case name without spaces or colons")
        expect(spec.help, f"option '{spec.name}' says what it does (help)")
        for value in spec.values():
            game.new_state(game.seat_counts[0], {spec.name: spec.read(value)})
            expect(spec.describe(spec.read(value)), f"option '{spec.name}' has no words")
        if spec.choices is None:
            expect(spec.minimum is not None and spec.maximum is not None,
                   f"option '{spec.name}': a number has a minimum and a maximum")
            try:
                spec.read((spec.maximum or 0) + 1)
            except OptionError:
                continue
            raise Failure(f"option '{spec.name}' takes a value past its maximum")
    if game.move_example:
        state = game.new_state(game.seat_counts[0])
        try:
            game.parse_move(state, game.move_example)
        except NotAMove:
            raise Failure(f"move_example {game.move_example!r} does not read as a move") \
                from None
        except MoveError:  # a move, though not a legal first one
            pass


def check_words(game: Game[Any, Any], seats: int) -> None:
    """``describe``: the game, the move number, who moves or the result, the last move
    and the position, within Discord's 1,024 characters, with long names."""
    names = [("Ṁaximilian-Alexander von Long-Name " * 2).strip()] * seats
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_state(seats)
        for _ in range(MAX_PLIES):
            text = game.describe(state, names)
            expect(len(text) <= DESCRIPTION_LIMIT, "describe exceeds 1,024 characters")
            expect(text.startswith(f"{game.title}, {after_move(game.moves_played(state))}."),
                   "describe starts with the title and the move number")
            expect(game.describe_position(state) in text, "describe holds describe_position")
            seat = game.to_move(state)
            if seat is None:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))


def check_choices(game: Game[Any, Any], seats: int) -> None:
    """``choices``: every legal move one choice whose notation reads as it."""
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_state(seats)
        for _ in range(MAX_PLIES):
            groups = game.choices(state)
            if groups is None:
                expect(game.choice_words is None, "choice_words without choices")
                return
            expect(game.choice_words is not None, "choices without choice_words")
            legal = game.legal_moves(state)
            offered = []
            for group in groups:
                expect(group.label and group.choices, "an empty group of choices")
                for choice in group.choices:
                    move = game.parse_move(state, choice.notation)
                    expect(move in legal, f"choice {choice.notation!r} is not legal")
                    offered.append(game.notation(move))
            expect(sorted(offered) == sorted(game.notation(m) for m in legal),
                   "the choices are not exactly the legal moves")
            if not legal:
                break
            state = game.apply(state, rng.choice(legal))


def check_render_budget(game: Game[Any, Any], seats: int) -> str:
    """The first board within ``FIRST_BOARD`` s, later ones within ``WARM_BOARD`` s."""
    rng = random.Random(1)
    state = game.new_state(seats)
    names = [f"Player {n}" for n in range(seats)]
    start = time.perf_counter()
    game.render(state, names=names)
    first = time.perf_counter() - start
    for _ in range(20):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.apply(state, rng.choice(moves))
    times = []
    for hints in (False, True, False, True, False):
        start = time.perf_counter()
        game.render(state, hints=hints, names=names)
        times.append(time.perf_counter() - start)
    warm = statistics.median(times)
    expect(first <= FIRST_BOARD, f"the first board took {first:.2f} s (budget {FIRST_BOARD} s)")
    expect(warm <= WARM_BOARD, f"a board took {warm:.3f} s (budget {WARM_BOARD} s)")
    return f"first board {first:.2f} s, then {warm * 1000:.0f} ms"


def check_player(game: Game[Any, Any], seats: int) -> str:
    """The computer player's legal moves within each checked level's move-time cap."""
    if game.ai is None:
        return "no computer player"
    from engine.ai.player import LEVELS, GameAI

    ai = get_ai(game.key)
    expect(isinstance(ai, GameAI), "ai names no engine.ai.player.GameAI")
    rng = random.Random(2)
    state = game.new_state(seats)
    for _ in range(6):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.apply(state, rng.choice(moves))
    if game.is_over(state):
        state = game.new_state(seats)
    slowest = 0.0
    for level in MOVE_LEVELS:
        cap = LEVELS[level].seconds + MOVE_GRACE
        start = time.perf_counter()
        decision = ai.make_player(LEVELS[level]).decide(state, level)
        took = time.perf_counter() - start
        expect(game.parse_move(state, decision.move) in game.legal_moves(state),
               f"level {level} chose {decision.move!r}, not a legal move")
        expect(took <= cap, f"level {level} took {took:.1f} s (cap {cap:.0f} s)")
        slowest = max(slowest, took)
    expect(isinstance(ai.evaluate(state, 0), float), "evaluate gives no float")
    return f"slowest move {slowest:.2f} s"


# ---- running them -------------------------------------------------------------------


Check = tuple[str, Callable[[], object]]


def checks(key: str) -> Iterator[Check]:
    """Every check of a game, named, in the order they run."""
    game = get_game(key)
    yield "declarations", lambda: check_declarations(game)
    for seats in game.seat_counts:
        yield f"render budget ({seats} seats)", lambda s=seats: check_render_budget(game, s)  # type: ignore[misc]
        yield f"random games ({seats} seats)", lambda s=seats: check_games(game, s)  # type: ignore[misc]
        yield f"words ({seats} seats)", lambda s=seats: check_words(game, s)  # type: ignore[misc]
        yield f"menus ({seats} seats)", lambda s=seats: check_choices(game, s)  # type: ignore[misc]
    yield "computer player", lambda: check_player(game, game.seat_counts[0])


def run(key: str) -> list[Result]:
    results = []
    for name, check in checks(key):
        start = time.perf_counter()
        try:
            said = check()
        except Exception as exc:  # every failure is reported, the others still run
            detail = str(exc) if isinstance(exc, Failure) else f"{type(exc).__name__}: {exc}"
            results.append(Result(name, False, detail, time.perf_counter() - start))
        else:
            results.append(Result(name, True, said if isinstance(said, str) else "",
                                  time.perf_counter() - start))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="garnet conformance",
        description="Check an installed game against garnet's game interface (every "
                    "check of garnet's own games, the render budget and move-time caps).")
    parser.add_argument("game", help="the game's key (its garnet.games entry point)")
    args = parser.parse_args(argv)
    try:
        results = run(args.game)
    except Exception as exc:  # the game does not load: the message names what it lacks
        print(f"FAIL {args.game}: {exc}")
        return 1
    for result in results:
        mark = "ok  " if result.ok else "FAIL"
        detail = f": {result.detail}" if result.detail else ""
        print(f"{mark} {result.check} ({result.seconds:.1f} s){detail}")
    failed = sum(not r.ok for r in results)
    print(f"{args.game}: {len(results) - failed} of {len(results)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
