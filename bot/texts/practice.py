"""What the host says about practice matches and reviews."""

from __future__ import annotations

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


def review(label: str, title: str, players: list[tuple[str, str, float]],
           counts: list[dict[str, int]], worst: list[tuple[int, str, str, str, str,
                                                           float, str]],
           verdict: str | None) -> str:
    """The text of ``/review``. ``players``: (mention, colour, accuracy); ``counts``:
    each player's inaccuracies, mistakes and blunders; ``worst``: (move number,
    mention, played, label, better move, drop in points, loss text)."""
    lines = [f"**Review of {label}: {plain(title)}**"]
    for (who, colour, accuracy), tally in zip(players, counts, strict=True):
        parts = ", ".join(f"{tally.get(k, 0)} {k}{'s' if tally.get(k, 0) != 1 else ''}"
                          for k in ("inaccuracy", "mistake", "blunder")).replace("ys", "ies")
        lines.append(f"{who} ({colour}): accuracy {accuracy:.0f}% — {parts}")
    if worst:
        lines.append("Biggest mistakes:")
        for number, who, played, label, better, drop, loss in worst:
            lines.append(f"· move {number} {plain(played)}{LABELS.get(label, '')} by {who} "
                         f"({label}, −{drop:.0f} points of win chance{loss}); "
                         f"better: {plain(better)}")
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


def decisive(ply: int, move: str, before: int, after: int) -> str:
    words = {1: "a win", 0: "a tie", -1: "a loss"}
    return f"Move {ply} ({plain(move)}) turned {words[before]} into {words[after]}."


def decided(ply: int, move: str) -> str:
    return f"Move {ply} ({plain(move)}) decided the game: the winner stayed ahead from there."
