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


# ---- a finished match's review, on its page -------------------------------------------

#: a move's label in a note ("Mistake"), with the sign chess writers give it
NOTE_LABELS = {"inaccuracy": "Inaccuracy (?!)", "mistake": "Mistake (?)",
               "blunder": "Blunder (??)"}


def review_note(label: str, before: float, after: float, loss: str, better: str) -> str:
    """A judged move's note beside it: ``before`` and ``after`` its player's win chance
    (0..1), ``loss`` as ``texts.practice.loss_in_unit`` says it."""
    return (f"{NOTE_LABELS.get(label, label)}: win chance {100 * before:.0f}% → "
            f"{100 * after:.0f}%{loss}; better: {better}.")


def shown_note(ply: int, move: str, note: str) -> str:
    """The note of the move the replay shows, under the board."""
    return f"Move {ply} ({move}): {note}"


def plot_alt(players: list[str], shown: int, marks: int) -> str:
    """The evaluation plot's text: who is where, the marks, and the move shown."""
    if len(players) == 2:
        where = (f"The computer's estimate of each side's chance to win after every move: "
                 f"{players[0]} below the line, {players[1]} above it.")
    else:
        where = ("The computer's estimate of each player's chance to win after every move, "
                 f"one line each: {', '.join(players)}.")
    dots = (f" {marks} judged move{'s are' if marks != 1 else ' is'} marked with a dot."
            if marks else "")
    at = "the start" if shown == 0 else f"move {shown}"
    return f"{where}{dots} The upright line is at {at}, the position shown."


def accuracy_line(who: str, accuracy: float, tally: dict[str, int]) -> str:
    """A player's accuracy and their judged moves, in the plot's legend."""
    parts = [f"{n} {label}{'s' if n != 1 else ''}".replace("ys", "ies")
             for label in ("inaccuracy", "mistake", "blunder") if (n := tally.get(label, 0))]
    return f"{who}: accuracy {accuracy:.0f}%" + (f" · {', '.join(parts)}" if parts else "")


def plot_key() -> str:
    return ("Dots: yellow an inaccuracy, orange a mistake, red a blunder. The upright "
            "line is the move shown.")


def win_table() -> str:
    """The summary of the plot's text equivalent (a table, folded)."""
    return "The win chance, move by move"


def win_chance(value: float) -> str:
    return f"{100 * value:.0f}%"


def not_reviewed(number: int) -> str:
    """A finished match without a stored review (the page never starts one)."""
    return (f"This match has not been reviewed. Once someone asks for the computer's "
            f"review (/review match:{number}), it shows here beside the moves.")
