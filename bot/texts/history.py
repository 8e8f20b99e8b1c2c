"""What garnet says about match history: ``/history``, ``/match`` and ``/replay``."""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.core.enums import EndReason
from bot.core.escape import plain
from engine.game import DESCRIPTION_LIMIT, EngineError
from engine.registry import get_game

# How a match ended, as said after "won"/"lost"/"draw".
HOW: dict[str, str] = {
    EndReason.RULES: "",
    EndReason.TIMEOUT: "on time",
    EndReason.RESIGN: "by resignation",
    EndReason.ADJUDICATED: "by the host's decision",
    EndReason.CORRECTED: "after the host's correction",
    EndReason.AGREED: "by agreement",
    "out": "(left the game)",
}
# Matches ended without a result by their players or by time, said in place of "void".
UNPLAYED: dict[str, str] = {EndReason.ABORTED: "aborted", EndReason.LAPSED: "lapsed"}
# What became of a challenge that was never played, by its status.
NEVER_PLAYED = {
    "declined": "was declined",
    "cancelled": "was withdrawn",
    "expired": "lapsed: the challenge was not accepted in time",
}


def date(at: float | None) -> str:
    if at is None:
        return "?"
    return time.strftime("%d %b %Y", time.gmtime(at)).lstrip("0")


def took(seconds: float) -> str:
    """Time a move took, or time used: m:ss (h:mm:ss from an hour), rounded down."""
    whole = max(0, int(seconds + 1e-6))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n:,} {noun}{'es' if noun.endswith('ch') else 's'}"


TIE_RULE = "by the tie rule"


def by_tie_rule(result: str, how: str | None, scores: Sequence[int] | None) -> bool:
    """Equal scores with a winner: the game's tie rule decided it."""
    return (result in ("won", "lost", "wins") and how in (None, "", EndReason.RULES)
            and bool(scores) and len(set(scores or ())) == 1)


def result_words(*, result: str, how: str | None, scores: Sequence[int] | None) -> str:
    if result == "void" and how in UNPLAYED:
        return f"**{UNPLAYED[how]}**"
    words = f"**{result}**"
    if scores:
        words += " " + "–".join(str(s) for s in scores)
    manner = HOW.get(how or "", "")
    if by_tie_rule(result, how, scores):
        manner = TIE_RULE
    return f"{words} {manner}" if manner and result != "void" else words


def title(game: str) -> str:
    """A game's title, or its key if this version no longer has it."""
    try:
        return get_game(game).title
    except EngineError:
        return game


def match_choice(*, match_id: int, game: str, players: str, status: str) -> str:
    """An autocomplete entry: plain text, never rendered as markdown."""
    return f"#{match_id} {game}: {players} ({status})"


# ---- refusals ------------------------------------------------------------------------------


def pages_from_one() -> str:
    return "Pages are numbered from 1."


def no_such_page(*, page: int, name: str, pages: int, total: int) -> str:
    return (f"There is no page {page}: {plain(name)}'s history has {pages} "
            f"page{'' if pages == 1 else 's'} ({count(total, 'match')}).")


def still_playing(*, label: str, match_id: int) -> str:
    return (f"{label} is still being played; `/replay` works once it "
            f"is over (`/match id:{match_id}` shows the moves so far).")


def never_played(*, label: str) -> str:
    return f"{label} was never played, so there is nothing to replay."


def no_moves_to_replay(*, label: str, caption: str) -> str:
    """A match that ended before its first move (voided, forfeited): its result only."""
    return (f"{label} ended before its first move, so there is nothing to replay. "
            f"{plain(caption)}.")


def _named(name: str, colour: str | None) -> str:
    """A player with their colour, or alone when they never had a seat."""
    return f"{plain(name)} ({colour})" if colour else plain(name)


def too_long_to_animate(*, label: str) -> str:
    return (f"{label} is too long to animate within Discord's upload "
            "limit; `/match` shows it move by move.")


# ---- pages and replays -------------------------------------------------------------------


def page_button(*, page: int, newer: bool) -> str:
    return f"◀ Page {page}" if newer else f"Page {page} ▶"


def no_matches(*, name: str, game: str | None) -> str:
    what = f" of {game}" if game else ""
    return f"{plain(name)} has no finished matches{what} on this server yet."


def history_head(*, name: str, game: str | None, total: int, page: int, pages: int) -> str:
    what = f" of {game}" if game else ""
    return (f"**{plain(name)}'s matches{what}** — {total:,} · page {page:,} of {pages:,}, "
            "newest first")


def history_line(*, match_id: int, finished_at: float | None, game: str, dm: bool,
                 result: str, opponents: Sequence[str], moves: int) -> str:
    against = f" vs {', '.join(plain(o) for o in opponents)}" if opponents else ""
    return (f"`#{match_id}` {date(finished_at)} · {game}{' DM' if dm else ''} — "
            f"{result}{against} · {count(moves, 'move')}")


def history_foot(*, match_id: int) -> str:
    return (f"`/match id:{match_id}` shows a match move by move; `/replay id:{match_id}` "
            "animates it.")


def replay_text(*, label: str, game: str, players: Sequence[tuple[str, str | None]],
                caption: str, moves: int) -> str:
    """``players``: (name, colour) in seat order."""
    return (f"**Replay of {label}: {game}** — "
            + " vs ".join(_named(name, colour) for name, colour in players)
            + f"\n{plain(caption)} · {count(moves, 'move')}")


def caption(*, voided: bool, winner: str | None, colour: str | None, end_reason: str | None,
            scores: Sequence[int] | None) -> str:
    """The result in a few words, for a replay's last frame and its post: ``winner``
    None is a draw; ``scores`` the winner's first."""
    if voided:
        return UNPLAYED.get(end_reason or "", "voided by the host").capitalize()
    manner = HOW.get(end_reason or "", "") if end_reason != "out" else ""
    if winner is not None and by_tie_rule("wins", end_reason, scores):
        manner = TIE_RULE
    how = f" {manner}" if manner else ""
    score = "–".join(str(s) for s in scores) if scores else ""
    if winner is None:
        return " ".join(x for x in ("Draw" + how, score) if x)
    who = f"{winner} ({colour})" if colour else winner  # drawn on an image: not escaped
    return " ".join(x for x in (f"{who} wins{how}", score) if x)


def host_action(*, after: int, actor: str, action: str, detail: str) -> str:
    """A host's action in ``/match``: ``after`` the moves played when it was taken."""
    when = "before the first move" if after == 0 else f"after move {after}"
    said = f": {plain(detail[:200])}" if detail else ""
    return f"Host, {when}: {plain(actor)} — {action}{said}"


def _limited(text: str) -> str:
    """An attachment's description: at most Discord's 1,024 characters."""
    return text if len(text) <= DESCRIPTION_LIMIT else text[:DESCRIPTION_LIMIT - 1] + "…"


def replay_description(*, label: str, caption: str, moves: int, final: str) -> str:
    """A replay GIF in words: what it animates, then its last position."""
    return _limited(f"Animated replay of {label}, {count(moves, 'move')}, one frame a "
                    f"move: {plain(caption)}. The final position: {final}")


def review_description(*, label: str, game: str, players: Sequence[tuple[str, str | None]],
                       final: str) -> str:
    """A review's plot in words (the review's text says its findings)."""
    who = " vs ".join(f"{plain(name)} ({colour})" for name, colour in players)
    return _limited(f"Review of {label}, {game}, {who}: a plot of each side's chance to "
                    f"win after every move; the post's text gives the findings. The final "
                    f"position: {final}")
