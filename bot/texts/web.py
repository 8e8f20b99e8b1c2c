"""What the bot says about its public web pages (``/host web``, ``/web``), and the
sentences the pages themselves show (``bot.web``'s templates hold only headings)."""

from __future__ import annotations


def turned_on(address: str | None) -> str:
    if address is None:
        return ("This server's web pages are on: running matches, tournaments, the "
                "leaderboard and players' pages, public to anyone with the address. This "
                "bot has no public address set (PUBLIC_URL), so ask its operator for it. "
                "Players may hide their name with `/web hide`; `/host web off` takes every "
                "page down.")
    return (f"This server's web pages are on: <{address}> — running matches, tournaments, "
            "the leaderboard and players' pages, public to anyone with the address. "
            "Players may hide their name with `/web hide`; `/host web off` takes every "
            "page down.")


def turned_off() -> str:
    return ("This server's web pages are off: every page is gone. `/host web on` brings "
            "them back at the same address.")


def hidden() -> str:
    return ("Your name is hidden on the web pages of every server: a neutral label stands "
            "for you, and your own page is gone. `/web show` shows it again.")


def shown() -> str:
    return ("Your name shows on the web pages of the servers that have them on. "
            "`/web hide` hides it.")


def web_line(address: str) -> str:
    """The link under a post (a match's start, ``/match``, a tournament, the leaderboard)."""
    return f"On the web: <{address}>"


# ---- on the pages ---------------------------------------------------------------------


def hidden_player() -> str:
    """The neutral label of a player who hides their name (``/web hide``)."""
    return "Hidden player"


def someone() -> str:
    """A person the server has no name for (never an id)."""
    return "Unknown player"


def board_alt(ply: int, description: str) -> str:
    return f"The board after move {ply}. {description}" if ply else \
        f"The board at the start. {description}"


def not_found() -> str:
    return "There is no such page, or this server's pages are off."


def too_busy() -> str:
    return "Too many requests at once; try again in a moment."


def no_matches() -> str:
    return "No match is being played right now."


def no_tournaments() -> str:
    return "No tournament is open or running."


def no_moves() -> str:
    return "No move yet."


def no_garnets() -> str:
    return "Nobody has won garnets here yet."


def no_matches_played() -> str:
    return "No match played here yet."


def live_note() -> str:
    return "This page follows the match as it is played."


def without_script() -> str:
    return "Without JavaScript, this page reloads itself every 10 seconds."


def no_clock() -> str:
    return "no clock"


def to_be_decided() -> str:
    """A place of the bracket whose player is not known yet."""
    return "to be decided"


def result_pending() -> str:
    return "in progress"
