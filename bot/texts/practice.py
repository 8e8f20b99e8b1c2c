"""What the host says about practice matches and reviews."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.escape import plain
from bot.texts.language import N_, _, n_, text

LABELS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@text
def intro(level: int) -> str:
    # TRANSLATORS: {level}: the computer's level, 1 to 5
    return (_("Practice against the computer at level {level}: a casual game, not rated — no "
              "ratings, leaderboards, standings or garnets change.").format(
                level=level))


@text
def levels(low: int, high: int) -> str:
    return _("`level` is {low} to {high}.").format(low=low, high=high)


@text
def first_choices() -> str:
    return _("`first` is `me`, `bot` or `random`.")


@text
def no_player(title: str) -> str:
    return _("There is no computer player for {title} yet.").format(title=plain(title))


@text
def too_many_practice(most: int) -> str:
    return (_("You already have {most} practice games going; finish or `/resign` one before "
              "starting another.").format(most=most))


@text
def server_practice_full(most: int) -> str:
    return (_("This server already has {most} practice games going; try again when one has "
              "ended.").format(most=most))


@text
def review_too_long() -> str:
    return _("That review took too long, so it was stopped; try again later.")


@text
def failed() -> str:
    return (_("The computer player could not find a move; the match waits. A host can "
              "`/void` it, or you can `/resign`."))


@text
def not_finished(number: int) -> str:
    return _("Match #{number} is not finished yet: reviews are of finished matches.").format(
               number=number)


@text
def no_review(title: str) -> str:
    return _("There is no computer review for {title} yet.").format(title=plain(title))


#: how a loss in a game's unit reads ("1.5 tempi"), by the review's unit, and the
#: largest that is a count on the board: beyond it the search's value stands for a
#: walled-off path or a lost race, not for so many cells
UNITS = {"points": (N_("point"), N_("points"), 30.0), "tempi": (N_("tempo"), N_("tempi"), 20.0),
         "cells": (N_("cell of path"), N_("cells of path"), 12.0)}
#: the kinds of mistakes, said through the catalog where a review names one
KINDS = (N_("inaccuracy"), N_("mistake"), N_("blunder"))


@text
def loss_in_unit(loss: float | None, unit: str) -> str:
    """", a loss of 1.5 points" (no sign: "loss" says it), or "" when it rounds to
    nothing, the game has no unit, or it is past what the board can count."""
    one, many, most = UNITS.get(unit, (unit, unit, 0.0))
    if loss is None or not unit or loss < 0.5 or (most and loss > most):
        return ""
    shown = f"{loss:.1f}".removesuffix(".0")
    # TRANSLATORS: {amount} is a number such as 1.5, {unit} "points", "tempi" or "cells
    # of path" (or one of them)
    return _(", a loss of {amount} {unit}").format(
               amount=shown, unit=_(one) if shown == "1" else _(many))


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


@text
def review(label: str, title: str, players: list[tuple[str, str, float]],
           counts: list[dict[str, int]], worst: list[Mistake], verdict: str | None) -> str:
    """The text of ``/review``. ``players``: (mention, colour, accuracy); ``counts``:
    each player's inaccuracies, mistakes and blunders; ``worst``: the biggest mistakes."""
    lines = [_("**Review of {label}: {title}**").format(label=label, title=plain(title))]
    for (who, colour, accuracy), tally in zip(players, counts, strict=True):
        inaccuracies, mistakes, blunders = (tally.get(k, 0) for k in KINDS)
        parts = ", ".join([
            n_("{n} inaccuracy", "{n} inaccuracies", inaccuracies).format(n=inaccuracies),
            n_("{n} mistake", "{n} mistakes", mistakes).format(n=mistakes),
            n_("{n} blunder", "{n} blunders", blunders).format(n=blunders)])
        lines.append(_("{who} ({colour}): accuracy {accuracy:.0f}% — {parts}").format(
                         who=who, colour=colour, accuracy=accuracy, parts=parts))
    if worst:
        lines.append(_("Biggest mistakes:"))
        for m in worst:
            # TRANSLATORS: {mark} is ?!, ? or ??; {kind} inaccuracy, mistake or blunder
            lines.append(_("· move {number} {played}{mark} by {who} ({kind}: win chance "
                           "{before:.0f}% → {after:.0f}%{loss}); better: {better}").format(
                             number=m.number, played=plain(m.played),
                             mark=LABELS.get(m.label, ""), who=m.who, kind=_(m.label),
                             before=100 * m.before, after=100 * m.after, loss=m.loss,
                             better=plain(m.better)))
    else:
        lines.append(_("No inaccuracies, mistakes or blunders found."))
    if verdict:
        lines.append(verdict)
    return "\n".join(lines)


@text
def exact_verdict(ply: int, winner: str | None, margin: int, unit: str) -> str:
    if winner is None:
        return _("From move {ply} the result was decided: a tie on {unit} with best play.").format(
                   ply=ply + 1, unit=unit)
    by = _("by {margin}").format(margin=abs(margin)) if margin else _("on the tie rule")
    return _("From move {ply} the result was decided: {winner} wins {by} with best play.").format(
               ply=ply + 1, winner=winner, by=by)


RESULTS = {1: N_("a win"), 0: N_("a tie"), -1: N_("a loss")}


@text
def decisive(ply: int, move: str, before: int, after: int) -> str:
    return _("Move {ply} ({move}) turned {before} into {after}.").format(
               ply=ply, move=plain(move), before=_(RESULTS[before]), after=_(RESULTS[after]))


@text
def changed_hands(first: tuple[int, str, int, int], last: tuple[int, str], more: int) -> str:
    """Several moves each threw the exact result away: the first said once, then how
    often it changed hands after it and the move that settled it. ``first``: (move
    number, move, its player's result before, after); ``last``: (move number, move)."""
    number, move, before, after = first
    times = n_("once more", "{more} more times", more).format(more=more)
    return (_("Move {number} ({move}) turned {before} into {after}; the result then changed "
              "hands {times}, for the last time with move {last_number} ({last_move}).").format(
                number=number, move=plain(move), before=_(RESULTS[before]),
                after=_(RESULTS[after]), times=times, last_number=last[0],
                last_move=plain(last[1])))


@text
def decided(ply: int, move: str) -> str:
    return _("Move {ply} ({move}) decided the game: the winner stayed ahead from there.").format(
               ply=ply, move=plain(move))
