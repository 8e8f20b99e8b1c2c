"""What garnet says about standings: leaderboards and ratings."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain

TITLES = {"garnets": "Garnets", "wins": "Wins", "rating": "Rating"}


def bad_board(*, by: str, choices: Sequence[str]) -> str:
    return f"`by` is {', '.join(choices)}, not '{plain(by)}'."


def garnets_per_game() -> str:
    return "Garnets are not counted per game; leave out `game`."


def rating_board_needs_game() -> str:
    return "Name the game of the rating board with `game:`."


def wins_standing(*, won: int, lost: int, drawn: int) -> str:
    text = f"{won} win{'' if won == 1 else 's'} · {lost} lost"
    return text + (f" · {drawn} drawn" if drawn else "")


def rating_standing(*, rating: str, games: int) -> str:
    return f"{rating} ({games} game{'' if games == 1 else 's'})"


def board_head(*, by: str, where: str, game: str | None) -> str:
    head = f"🏆 **{TITLES[by]}** — {where}"
    return head + (f" · {game}" if game is not None else "")


def board_empty(*, head: str) -> str:
    return f"{head}\nNobody is on this board yet."


def board_page(*, head: str, page: int, pages: int, count: int,
               rows: Sequence[tuple[int, str, str, bool]], mine: tuple[int, str] | None,
               rating: bool) -> str:
    """``rows``: (rank, name, standing, is the asker); ``mine``: the asker's (rank,
    standing) if on the board."""
    lines = [f"{head} (page {page}/{pages}, {count} player{'' if count == 1 else 's'})"]
    for rank, name, standing, me in rows:
        line = f"{rank}. {plain(name)} — {standing}"
        lines.append(f"**{line}**" if me else line)
    if mine is None:
        lines.append("You are not on this board.")
    else:
        lines.append(f"You: #{mine[0]} of {count} — {mine[1]}")
    if rating:
        lines.append("Rating ± uncertainty; ranked by the lower end.")
    return "\n".join(lines)


def ratings_of(*, name: str, rows: Sequence[tuple[str, str, int, tuple[int, int] | None]]
               ) -> str:
    """``rows``: (game, rating, rated games, (rank, of how many) overall) per game."""
    lines = [f"**Ratings of {plain(name)}** (rating ± uncertainty):"]
    for game, rating, games, place in rows:
        rank = f", #{place[0]} of {place[1]}" if place else ""
        lines.append(f"{game}: {rating} ({games} rated game{'' if games == 1 else 's'}{rank})")
    return "\n".join(lines)


def no_ratings(*, name: str, game: str | None, start: str) -> str:
    title = f" of {game}" if game else ""
    return f"{plain(name)} has played no rated games{title} yet; a newcomer starts at {start}."
