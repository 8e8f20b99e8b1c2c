"""What garnet says about standings: leaderboards and ratings."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.texts.language import N_, _, n_, numeral, text

TITLES = {"garnets": N_("Garnets"), "wins": N_("Wins"), "rating": N_("Rating")}


@text
def bad_board(*, by: str, choices: Sequence[str]) -> str:
    return _("`by` is {listed}, not '{by}'.").format(listed=', '.join(choices), by=plain(by))


@text
def garnets_per_game() -> str:
    return _("Garnets are not counted per game; leave out `game`.")


@text
def rating_board_needs_game() -> str:
    return _("Name the game of the rating board with `game:`.")


@text
def wins_standing(*, won: int, lost: int, drawn: int) -> str:
    text = n_("{won} win · {lost} lost",
              "{won} wins · {lost} lost", won).format(
               won=numeral(won), lost=numeral(lost))
    return text + (_(" · {drawn} drawn").format(drawn=numeral(drawn)) if drawn else "")


@text
def rating_standing(*, rating: str, games: int) -> str:
    return n_("{rating} ({games} game)",
              "{rating} ({games} games)", games).format(
               rating=rating, games=numeral(games))


@text
def board_head(*, by: str, where: str, game: str | None) -> str:
    head = f"🏆 **{_(TITLES[by])}** — {where}"
    return head + (f" · {game}" if game is not None else "")


@text
def board_empty(*, head: str) -> str:
    return _("{head}\nNobody is on this board yet.").format(head=head)


@text
def board_page(*, head: str, page: int, pages: int, count: int,
               rows: Sequence[tuple[int, str, str, bool]], mine: tuple[int, str] | None,
               rating: bool) -> str:
    """``rows``: (rank, name, standing, is the asker); ``mine``: the asker's (rank,
    standing) if on the board."""
    lines = [n_("{head} (page {page}/{pages}, {count} player)",
                "{head} (page {page}/{pages}, {count} players)", count).format(
                 head=head, page=numeral(page), pages=numeral(pages), count=numeral(count))]
    for rank, name, standing, me in rows:
        line = f"{numeral(rank)}. {plain(name)} — {standing}"
        lines.append(f"**{line}**" if me else line)
    if mine is None:
        lines.append(_("You are not on this board."))
    else:
        lines.append(_("You: #{place} of {count} — {standing}").format(
                         place=numeral(mine[0]), count=numeral(count), standing=mine[1]))
    if rating:
        lines.append(_("Rating ± uncertainty; ranked by the lower end."))
    return "\n".join(lines)


@text
def ratings_of(*, name: str, rows: Sequence[tuple[str, str, int, tuple[int, int] | None]]) -> str:
    """``rows``: (game, rating, rated games, (rank, of how many) overall) per game."""
    lines = [_("**Ratings of {name}** (rating ± uncertainty):").format(name=plain(name))]
    for game, rating, games, place in rows:
        rank = _(", #{place} of {count}").format(
                   place=numeral(place[0]), count=numeral(place[1])) if place else ""
        # TRANSLATORS: {rank}: ", #3 of 12" or nothing
        lines.append(n_("{game}: {rating} ({games} rated game{rank})",
                        "{game}: {rating} ({games} rated games{rank})", games).format(
                         game=game, rating=rating, games=numeral(games), rank=rank))
    return "\n".join(lines)


@text
def no_ratings(*, name: str, game: str | None, start: str) -> str:
    title = _(" of {game}").format(game=game) if game else ""
    return _("{name} has played no rated games{title} yet; a newcomer starts at {start}.").format(
               name=plain(name), title=title, start=start)
