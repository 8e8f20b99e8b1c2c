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


# ---- a finished match's review, on its page -------------------------------------------

#: a move's label in a note ("Mistake"), with the sign chess writers give it
NOTE_LABELS = {"inaccuracy": N_("Inaccuracy (?!)"), "mistake": N_("Mistake (?)"),
               "blunder": N_("Blunder (??)")}


@text
def review_note(label: str, before: float, after: float, loss: str, better: str) -> str:
    """A judged move's note beside it: ``before`` and ``after`` its player's win chance
    (0..1), ``loss`` as ``texts.practice.loss_in_unit`` says it."""
    # TRANSLATORS: label is "Mistake (?)" and the like; loss is a clause or empty
    return _("{label}: win chance {before}% → {after}%{loss}; better: {better}.").format(
        label=_(NOTE_LABELS[label]) if label in NOTE_LABELS else label,
        before=f"{100 * before:.0f}", after=f"{100 * after:.0f}", loss=loss, better=better)


@text
def shown_note(ply: int, move: str, note: str) -> str:
    """The note of the move the replay shows, under the board."""
    return _("Move {ply} ({move}): {note}").format(ply=ply, move=move, note=note)


@text
def plot_alt(players: list[str], shown: int, marks: int) -> str:
    """The evaluation plot's text: who is where, the marks, and the move shown."""
    if len(players) == 2:
        where = _("The computer's estimate of each side's chance to win after every move: "
                  "{first} below the line, {second} above it.").format(
                      first=players[0], second=players[1])
    else:
        where = _("The computer's estimate of each player's chance to win after every "
                  "move, one line each: {players}.").format(
                      # TRANSLATORS: between the players of a list, "ann, ben, cat"
                      players=_(", ").join(players))
    dots = n_("{n} judged move is marked with a dot.", "{n} judged moves are marked with a dot.",
              marks).format(n=numeral(marks)) if marks else ""
    at = (_("The upright line is at the start, the position shown.") if shown == 0 else
          _("The upright line is at move {ply}, the position shown.").format(ply=shown))
    return " ".join(part for part in (where, dots, at) if part)


@text
def tally(label: str, n: int) -> str:
    if label == "inaccuracy":
        return n_("{n} inaccuracy", "{n} inaccuracies", n).format(n=numeral(n))
    if label == "mistake":
        return n_("{n} mistake", "{n} mistakes", n).format(n=numeral(n))
    return n_("{n} blunder", "{n} blunders", n).format(n=numeral(n))


@text
def accuracy_line(who: str, accuracy: float, tally_of: dict[str, int]) -> str:
    """A player's accuracy and their judged moves, in the plot's legend."""
    parts = [tally(label, n) for label in NOTE_LABELS if (n := tally_of.get(label, 0))]
    line = _("{who}: accuracy {accuracy}%").format(who=who, accuracy=f"{accuracy:.0f}")
    return line + (" · " + _(", ").join(parts) if parts else "")


@text
def plot_key() -> str:
    return _("Dots: yellow an inaccuracy, orange a mistake, red a blunder. The upright "
             "line is the move shown.")


@text
def win_table() -> str:
    """The summary of the plot's text equivalent (a table, folded)."""
    return _("The win chance, move by move")


@text
def win_chance(value: float) -> str:
    return _("{percent}%").format(percent=f"{100 * value:.0f}")


@text
def not_reviewed(number: int) -> str:
    """A finished match without a stored review (the page never starts one)."""
    return _("This match has not been reviewed. Once someone asks for the computer's "
             "review (/review match:{number}), it shows here beside the moves.").format(
                 number=number)
