"""What the bot says about its public web pages (``/host web``, ``/web``), and the
sentences the pages themselves show (``bot.web``'s templates hold only headings)."""

from __future__ import annotations

from bot.texts.language import N_, _, n_, numeral, text


@text
def turned_on(address: str | None) -> str:
    if address is None:
        return (_("This server's web pages are on: running matches, tournaments, the "
                  "leaderboard and players' pages, public to anyone with the address. This "
                  "bot has no public address set (PUBLIC_URL), so ask its operator for it. "
                  "Players may hide their name with `/web hide`; `/host web off` takes every "
                  "page down."))
    return (_("This server's web pages are on: <{address}> — running matches, tournaments, "
              "the leaderboard and players' pages, public to anyone with the address. "
              "Players may hide their name with `/web hide`; `/host web off` takes every "
              "page down.").format(address=address))


@text
def turned_off() -> str:
    return (_("This server's web pages are off: every page is gone. `/host web on` brings "
              "them back at the same address."))


@text
def hidden() -> str:
    return (_("Your name is hidden on the web pages of every server: a neutral label stands "
              "for you, and your own page is gone. `/web show` shows it again."))


@text
def shown() -> str:
    return (_("Your name shows on the web pages of the servers that have them on. `/web "
              "hide` hides it."))


@text
def web_line(address: str) -> str:
    """The link under a post (a match's start, ``/match``, a tournament, the leaderboard)."""
    return _("On the web: <{address}>").format(address=address)


# ---- on the pages ---------------------------------------------------------------------


@text
def hidden_player() -> str:
    """The neutral label of a player who hides their name (``/web hide``)."""
    return _("Hidden player")


@text
def someone() -> str:
    """A person the server has no name for (never an id)."""
    return _("Unknown player")


@text
def board_alt(ply: int, description: str) -> str:
    return (
        _("The board after move {ply}. {description}").format(ply=ply, description=description)
        if ply
        else _("The board at the start. {description}").format(description=description))


@text
def not_found() -> str:
    return _("There is no such page, or this server's pages are off.")


@text
def too_busy() -> str:
    return _("Too many requests at once; try again in a moment.")


@text
def no_matches() -> str:
    return _("No match is being played right now.")


@text
def no_tournaments() -> str:
    return _("No tournament is open or running.")


@text
def no_moves() -> str:
    return _("No move yet.")


@text
def no_garnets() -> str:
    return _("Nobody has won garnets here yet.")


@text
def no_matches_played() -> str:
    return _("No match played here yet.")


@text
def live_note() -> str:
    return _("This page follows the match as it is played.")


@text
def without_script() -> str:
    return _("Without JavaScript, this page reloads itself every 10 seconds.")


@text
def no_clock() -> str:
    return _("no clock")


@text
def to_be_decided() -> str:
    """A place of the bracket whose player is not known yet."""
    return _("to be decided")


@text
def result_pending() -> str:
    return _("in progress")


@text
def moves_so_far(n: int) -> str:
    return n_("{n} move", "{n} moves", n).format(n=numeral(n))


@text
def garnets_here(n: int) -> str:
    return _("Garnets here: {garnets}").format(garnets=numeral(n))


@text
def season_garnets(event: str) -> str:
    """The heading of an event's table of garnets."""
    return _("{event}: garnets").format(event=event)


@text
def ratings_of(game: str) -> str:
    return _("Ratings: {game}").format(game=game)


@text
def round_heading(number: int) -> str:
    return _("Round {number}").format(number=number)


#: a tournament's status and a player's result as the pages show them
STATUS_WORDS = {"open": N_("open"), "running": N_("running"), "finished": N_("finished"),
                "cancelled": N_("cancelled")}
RESULT_WORDS = {"void": N_("void"), "draw": N_("draw"), "won": N_("won"), "lost": N_("lost")}


@text
def status_word(status: str) -> str:
    return _(STATUS_WORDS.get(status, status))


@text
def player_result(result: str) -> str:
    return _(RESULT_WORDS.get(result, result))


@text
def left_the_game() -> str:
    """A move's place in a page's list when its player left the game."""
    return _("out")


@text
def bracket_heading(section: str, column: int) -> str:
    """A column of a bracket on its page: "Round 2", "Losers' round 3", "Final"."""
    if section == "L":
        return _("Losers' round {column}").format(column=column)
    if section == "F":
        return _("Final")
    if section == "3":
        return _("Third place")
    return _("Round {column}").format(column=column)
