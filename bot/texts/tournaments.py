"""What garnet says about tournaments: every sentence, as a function of named values.

Players are named by mention where they should be pinged or can act, and by their
escaped name in tables; results are written from the first-named player's side as
arbiters write them (1-0, 0-1, ½-½, +/- and -/+ for forfeits, -/- for a double one).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.language import _, n_, text
from bot.texts.tournament_flow import FIRSTS as FIRSTS
from bot.texts.tournament_flow import FORMATS as FORMATS
from bot.texts.tournament_flow import NO_SHOW as NO_SHOW
from bot.texts.tournament_flow import STATUS as STATUS
from bot.texts.tournament_flow import TIEBREAKS as TIEBREAKS
from bot.texts.tournament_flow import Rules as Rules
from bot.texts.tournament_flow import adjudicated as adjudicated
from bot.texts.tournament_flow import at as at
from bot.texts.tournament_flow import best_of_bounds as best_of_bounds
from bot.texts.tournament_flow import byes as byes
from bot.texts.tournament_flow import byes_line as byes_line
from bot.texts.tournament_flow import cancelled as cancelled
from bot.texts.tournament_flow import deadline_line as deadline_line
from bot.texts.tournament_flow import deadline_passed as deadline_passed
from bot.texts.tournament_flow import event_closed as event_closed
from bot.texts.tournament_flow import export_ready as export_ready
from bot.texts.tournament_flow import finished as finished
from bot.texts.tournament_flow import finished_shared as finished_shared
from bot.texts.tournament_flow import game_note as game_note
from bot.texts.tournament_flow import info as info
from bot.texts.tournament_flow import label as label
from bot.texts.tournament_flow import left as left
from bot.texts.tournament_flow import more_boards as more_boards
from bot.texts.tournament_flow import next_by_host as next_by_host
from bot.texts.tournament_flow import no_rounds_yet as no_rounds_yet
from bot.texts.tournament_flow import no_show_line as no_show_line
from bot.texts.tournament_flow import now_playing as now_playing
from bot.texts.tournament_flow import pairing_line as pairing_line
from bot.texts.tournament_flow import pairing_row as pairing_row
from bot.texts.tournament_flow import pairings as pairings
from bot.texts.tournament_flow import place_name as place_name
from bot.texts.tournament_flow import points as points
from bot.texts.tournament_flow import prize_note as prize_note
from bot.texts.tournament_flow import prizes_line as prizes_line
from bot.texts.tournament_flow import reminder as reminder
from bot.texts.tournament_flow import result_cell as result_cell
from bot.texts.tournament_flow import result_line as result_line
from bot.texts.tournament_flow import round_not_counted as round_not_counted
from bot.texts.tournament_flow import round_over as round_over
from bot.texts.tournament_flow import round_title as round_title
from bot.texts.tournament_flow import rules as rules
from bot.texts.tournament_flow import standings_head as standings_head
from bot.texts.tournament_flow import standings_lines as standings_lines
from bot.texts.tournament_flow import started as started
from bot.texts.tournament_flow import still_to_play as still_to_play
from bot.texts.tournament_flow import thread_name as thread_name
from bot.texts.tournament_flow import tiebreak_text as tiebreak_text
from bot.texts.tournament_flow import waiting_for_start as waiting_for_start
from bot.texts.tournament_flow import withdrawn_note as withdrawn_note
from bot.texts.withdrawals import dropped as dropped
from bot.texts.withdrawals import forfeit_stands_opponent_out as forfeit_stands_opponent_out
from bot.texts.withdrawals import forfeit_stands_round_over as forfeit_stands_round_over
from bot.texts.withdrawals import no_show as no_show
from bot.texts.withdrawals import reinstated as reinstated
from bot.texts.withdrawals import removed as removed
from bot.texts.withdrawals import show_up_note as show_up_note
from bot.texts.withdrawals import void_reason_cancelled as void_reason_cancelled
from bot.texts.withdrawals import void_reason_deadline as void_reason_deadline
from bot.texts.withdrawals import void_reason_decided as void_reason_decided
from bot.texts.withdrawals import void_reason_no_show as void_reason_no_show
from bot.texts.withdrawals import void_reason_over as void_reason_over
from bot.texts.withdrawals import void_reason_withdrawn as void_reason_withdrawn
from bot.texts.words import listed


@text
def points_word(x: float) -> str:
    # English says "½ pt" and "1 pt" (the rule's number: 1 for both, 2 for the rest).
    return n_("{points} pt", "{points} pts", 1 if x in (0.5, 1) else 2).format(points=points(x))






# ---- settings and entries ------------------------------------------------------------------








@text
def created(*, name: str, number: int, host_id: str, rules: str, checkin: bool) -> str:
    how = _(" and `/tournament checkin` before it starts") if checkin else ""
    return _(
        "🏆 {host_id} opened {label}.\n{rules}\nJoin with the button or `/tournament join`{how}."
    ).format(host_id=mention(host_id), label=label(name=name, number=number), rules=rules, how=how)


@text
def join_button() -> str:
    return _("Join")


@text
def checkin_button() -> str:
    return _("Check in")


@text
def joined(*, user_ids: Sequence[str], name: str, count: int, already: Sequence[str] = ()) -> str:
    who = ", ".join(mention(u) for u in user_ids)
    was = (
        _(" {listed} had entered already.").format(listed=listed([mention(u) for u in already]))
        if already
        else "")
    # TRANSLATORS: {was}: " @a had entered already." or nothing
    return _("✅ {who} joined **{name}** ({count} entered).{was}").format(
        who=who, name=plain(name), count=count, was=was)




@text
def checked_in(*, user_id: str, name: str, ready: int, count: int) -> str:
    return _("☑ {user_id} checked in for **{name}** ({ready} of {count}).").format(
        user_id=mention(user_id), name=plain(name), ready=ready, count=count)


@text
def already_in(*, user_ids: Sequence[str], name: str) -> str:
    return n_(
        "{listed} has already entered {name}.",
        "{listed} have already entered {name}.",
        len(user_ids)).format(listed=listed([mention(u) for u in user_ids]), name=plain(name))


@text
def not_entered(*, user_id: str, name: str) -> str:
    return _("{user_id} has not entered {name}.").format(user_id=mention(user_id), name=plain(name))


@text
def entries_closed(*, name: str) -> str:
    return _("{name} has started: entries are closed.").format(name=plain(name))


@text
def full(*, name: str, most: int) -> str:
    return _("{name} is full ({most} players).").format(name=plain(name), most=most)


@text
def role_needs_members() -> str:
    return _(
        "The bot cannot see who has a role here (on Discord it needs the Server "
        "Members intent: `MEMBERS_INTENT=yes`); name the players one by one with "
        "`player:`.")


@text
def role_empty(*, role: str) -> str:
    return _("Nobody has the role {role} (or the bot cannot see its members).").format(
        role=plain(role))


@text
def name_player_or_role() -> str:
    return _("Name a `player:`, several `players:` or a `role:` whose members join.")


@text
def no_checkin() -> str:
    return _("This tournament has no check-in: entering is enough.")


# ---- finding a tournament -------------------------------------------------------------------


@text
def no_such_tournament(*, number: str) -> str:
    return _("There is no tournament #{number} on this server.").format(number=plain(number))


@text
def no_tournament_called(*, name: str, known: Sequence[str]) -> str:
    listed = (
        _(" Tournaments here: {listed}.").format(listed=", ".join(plain(k) for k in known))
        if known
        else _(" There are none yet: `/host tournament create`."))
    return _("There is no tournament called '{name}' on this server.{listed}").format(
        name=plain(name), listed=listed)


@text
def no_tournament() -> str:
    return _(
        "There is no tournament on this server yet: a host creates one with `/host "
        "tournament create`.")


@text
def several_tournaments(*, names: Sequence[str]) -> str:
    return (
        _("Several tournaments are open or running (")
        + ", ".join(plain(n) for n in names)
        + _("); add `tournament:` with one of them."))


@text
def name_exists(*, name: str, number: int) -> str:
    return _(
        "There is a tournament called {name} already (#{number}); choose another name."
    ).format(name=plain(name), number=number)


@text
def bad_name() -> str:
    return _("A tournament's name is 1 to 50 characters and not a number.")


@text
def choice(*, name: str, number: int, status: str) -> str:
    """An autocomplete entry: plain text."""
    return f"{name} (#{number}, {_(STATUS.get(status, status))})"


# ---- refusals of the lifecycle ----------------------------------------------------------------


@text
def bad_prizes(*, text: str, most_places: int) -> str:
    return _(
        "`prizes` lists garnets by place, e.g. `10,5,3` (at most {most_places} "
        "places), not '{text}'.").format(most_places=most_places, text=plain(text))


@text
def rounds_only_swiss() -> str:
    return _("Only a Swiss tournament takes `rounds:`; the others play as many as they need.")


@text
def double_only_round_robin() -> str:
    return _("`double:` is for a round robin (everyone meets everyone twice).")


@text
def third_only_single() -> str:
    return _("`thirdplace:` is for a single elimination.")


@text
def not_open(*, name: str, status: str) -> str:
    return _("{name} is {status}.").format(name=plain(name), status=_(STATUS.get(status, status)))


@text
def not_running(*, name: str, status: str) -> str:
    return _("{name} is not running (it is {status}).").format(
        name=plain(name), status=_(STATUS.get(status, status)))


@text
def too_few(*, name: str, count: int, checkin: bool) -> str:
    who = _("checked in") if checkin else _("entered")
    return n_(
        "{name} needs at least two players to start; {count} has {who}.",
        "{name} needs at least two players to start; {count} have {who}.",
        count).format(name=plain(name), count=count, who=who)


@text
def cannot_run(*, reason: str) -> str:
    return _("That is not possible: {reason}.").format(reason=reason)


@text
def round_unfinished(*, number: int, boards: Sequence[int]) -> str:
    listed = ", ".join(str(b) for b in boards)
    return n_(
        "Round {number} is still being played (board {listed}); a host can settle a "
        "pairing with `/host tournament adjudicate`.",
        "Round {number} is still being played (boards {listed}); a host can settle a "
        "pairing with `/host tournament adjudicate`.",
        len(boards)).format(number=number, listed=listed)


@text
def no_such_board(*, number: int, board: int) -> str:
    return _("Round {number} has no board {board}.").format(number=number, board=board)


@text
def no_such_round(*, number: int, played: int) -> str:
    return n_(
        "There is no round {number}: {played} has been paired.",
        "There is no round {number}: {played} have been paired.",
        played).format(number=number, played=played)


@text
def not_withdrawn(*, user_id: str, name: str) -> str:
    return _("{user_id} plays on in {name}: there is nobody to reinstate.").format(
        user_id=mention(user_id), name=plain(name))


@text
def already_withdrawn(*, user_id: str, name: str) -> str:
    return _("{user_id} has already withdrawn from {name}.").format(
        user_id=mention(user_id), name=plain(name))


@text
def bad_result() -> str:
    return _("`result` is 1-0, 0-1, draw, +/-, -/+ or -/- (from the first-named player's side).")


# ---- the flow of a tournament -----------------------------------------------------------------
























































# ---- reading a tournament -------------------------------------------------------------------




















