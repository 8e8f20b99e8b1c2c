"""What the host says about practice matches and reviews."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.escape import plain

LABELS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def intro(level: int) -> str:
    return (f"Practice against the computer at level {level}: a casual game, not rated — "
            "no ratings, leaderboards, standings or garnets change.")


def levels(low: int, high: int) -> str:
    return f"`level` is {low} to {high}."


def first_choices() -> str:
    return "`first` is `me`, `bot` or `random`."


def no_player(title: str) -> str:
    return f"There is no computer player for {plain(title)} yet."


def too_many_practice(most: int) -> str:
    return (f"You already have {most} practice games going; finish or `/resign` one "
            "before starting another.")


def server_practice_full(most: int) -> str:
    return (f"This server already has {most} practice games going; try again when one "
            "has ended.")


def review_too_long() -> str:
    return "That review took too long, so it was stopped; try again later."


def failed() -> str:
    return ("The computer player could not find a move; the match waits. A host can "
            "`/void` it, or you can `/resign`.")


def not_finished(number: int) -> str:
    return f"Match #{number} is not finished yet: reviews are of finished matches."


def no_review(title: str) -> str:
    return f"There is no computer review for {plain(title)} yet."


#: how a loss in a game's unit reads ("1.5 tempi"), by the review's unit, and the
#: largest that is a count on the board: beyond it the search's value stands for a
#: walled-off path or a lost race, not for so many cells
UNITS = {"points": ("point", "points", 30.0), "tempi": ("tempo", "tempi", 20.0),
         "cells": ("cell of path", "cells of path", 12.0)}


def loss_in_unit(loss: float | None, unit: str) -> str:
    """", a loss of 1.5 points" (no sign: "loss" says it), or "" when it rounds to
    nothing, the game has no unit, or it is past what the board can count."""
    one, many, most = UNITS.get(unit, (unit, unit, 0.0))
    if loss is None or not unit or loss < 0.5 or (most and loss > most):
        return ""
    shown = f"{loss:.1f}".removesuffix(".0")
    return f", a loss of {shown} {one if shown == '1' else many}"


@dataclass(frozen=True)
class Mistake:
    """One of the biggest mistakes: its move number, who played it, the move, its
    label, the better move, the mover's win chance before and after (0..1), and the
    loss in the game's unit (as ``loss_in_unit`` says it)."""

    number: int
    who: str
    played: str
    label: str
    better: str
    before: float
    after: float
    loss: str = ""


def review(label: str, title: str, players: list[tuple[str, str, float]],
           counts: list[dict[str, int]], worst: list[Mistake], verdict: str | None) -> str:
    """The text of ``/review``. ``players``: (mention, colour, accuracy); ``counts``:
    each player's inaccuracies, mistakes and blunders; ``worst``: the biggest mistakes."""
    lines = [f"**Review of {label}: {plain(title)}**"]
    for (who, colour, accuracy), tally in zip(players, counts, strict=True):
        parts = ", ".join(f"{tally.get(k, 0)} {k}{'s' if tally.get(k, 0) != 1 else ''}"
                          for k in ("inaccuracy", "mistake", "blunder")).replace("ys", "ies")
        lines.append(f"{who} ({colour}): accuracy {accuracy:.0f}% — {parts}")
    if worst:
        lines.append("Biggest mistakes:")
        for m in worst:
            lines.append(f"· move {m.number} {plain(m.played)}{LABELS.get(m.label, '')} by "
                         f"{m.who} ({m.label}: win chance {100 * m.before:.0f}% → "
                         f"{100 * m.after:.0f}%{m.loss}); better: {plain(m.better)}")
    else:
        lines.append("No inaccuracies, mistakes or blunders found.")
    if verdict:
        lines.append(verdict)
    return "\n".join(lines)


def exact_verdict(ply: int, winner: str | None, margin: int, unit: str) -> str:
    if winner is None:
        return f"From move {ply + 1} the result was decided: a tie on {unit} with best play."
    by = f"by {abs(margin)}" if margin else "on the tie rule"
    return f"From move {ply + 1} the result was decided: {winner} wins {by} with best play."


RESULTS = {1: "a win", 0: "a tie", -1: "a loss"}


def decisive(ply: int, move: str, before: int, after: int) -> str:
    return f"Move {ply} ({plain(move)}) turned {RESULTS[before]} into {RESULTS[after]}."


def changed_hands(first: tuple[int, str, int, int], last: tuple[int, str], more: int) -> str:
    """Several moves each threw the exact result away: the first said once, then how
    often it changed hands after it and the move that settled it. ``first``: (move
    number, move, its player's result before, after); ``last``: (move number, move)."""
    number, move, before, after = first
    times = "once more" if more == 1 else f"{more} more times"
    return (f"Move {number} ({plain(move)}) turned {RESULTS[before]} into "
            f"{RESULTS[after]}; the result then changed hands {times}, for the last time "
            f"with move {last[0]} ({plain(last[1])}).")


def decided(ply: int, move: str) -> str:
    return f"Move {ply} ({plain(move)}) decided the game: the winner stayed ahead from there."
