"""Every sentence the bot says, in one place, shared by the Discord and console adapters."""

from __future__ import annotations

import math
from typing import Any

from bot.core.escape import plain, plains
from bot.core.messages import mention
from bot.core.timecontrol import Reminder, TimeControl, clock_text
from bot.texts.game_errors import colour
from bot.texts.games import option_value
from bot.texts.language import N_, _, n_, text
from bot.texts.match_views import MAX_OVERVIEW as MAX_OVERVIEW
from bot.texts.match_views import adjudicated as adjudicated
from bot.texts.match_views import adjudication_log as adjudication_log
from bot.texts.match_views import already_done as already_done
from bot.texts.match_views import banks as banks
from bot.texts.match_views import board as board
from bot.texts.match_views import board_again as board_again
from bot.texts.match_views import board_posted as board_posted
from bot.texts.match_views import clock_on_turn as clock_on_turn
from bot.texts.match_views import clock_paused as clock_paused
from bot.texts.match_views import clock_waiting as clock_waiting
from bot.texts.match_views import corrected as corrected
from bot.texts.match_views import dm_thread as dm_thread
from bot.texts.match_views import extend_cap as extend_cap
from bot.texts.match_views import extended as extended
from bot.texts.match_views import final_board as final_board
from bot.texts.match_views import host_role_set as host_role_set
from bot.texts.match_views import job_too_long as job_too_long
from bot.texts.match_views import lease_lost as lease_lost
from bot.texts.match_views import match_choice as match_choice
from bot.texts.match_views import match_label as match_label
from bot.texts.match_views import missing_permissions as missing_permissions
from bot.texts.match_views import no_clock as no_clock
from bot.texts.match_views import not_host as not_host
from bot.texts.match_views import not_our_shard as not_our_shard
from bot.texts.match_views import not_started as not_started
from bot.texts.match_views import nothing_to_decide as nothing_to_decide
from bot.texts.match_views import only_managers as only_managers
from bot.texts.match_views import only_managers_set_host_role as only_managers_set_host_role
from bot.texts.match_views import overview as overview
from bot.texts.match_views import overview_challenge as overview_challenge
from bot.texts.match_views import overview_choosing as overview_choosing
from bot.texts.match_views import overview_label as overview_label
from bot.texts.match_views import overview_playing as overview_playing
from bot.texts.match_views import paused as paused
from bot.texts.match_views import played as played
from bot.texts.match_views import result as result
from bot.texts.match_views import resumes as resumes
from bot.texts.match_views import server_busy as server_busy
from bot.texts.match_views import slow_down as slow_down
from bot.texts.match_views import too_many_challenges as too_many_challenges
from bot.texts.match_views import user_busy as user_busy
from bot.texts.match_views import void_by_rule as void_by_rule
from bot.texts.match_views import void_record as void_record
from bot.texts.match_views import voided as voided
from bot.texts.match_views import which_match as which_match
from bot.texts.words import either, span, versus
from engine.game import Game


@text
def seat_line(game: Game[Any, Any], state: Any, users: list[str]) -> str:
    return versus(
        f"{mention(user)} ({colour(game.seat_name(state, seat))})"
        for seat, user in enumerate(users))


@text
def live_time(epoch: float) -> str:
    """An instant as Discord shows it live in each reader's own terms ("in 45 seconds",
    "2 minutes ago"); the console renders it against its clock."""
    # Up to the whole second, as clocks are shown (``clock_text``): a turn showing
    # 0:10 runs out "in 10 s", not "in 9 s".
    return f"<t:{math.ceil(epoch - 1e-9)}:R>"


@text
def clock_left(tc: TimeControl, elapsed: float, banks_left: int, extra: float) -> str:
    """What is left of a turn, e.g. '0:42 + 36 banks' or 'reserve 1:15 (15 banks)'."""
    if not tc.enabled:
        return _("no clock")
    budget = tc.turn + extra
    if elapsed < budget:
        if banks_left <= 0:
            return _("{clock_text}, no reserve left").format(
                clock_text=clock_text(budget - elapsed))
        return f"{clock_text(budget - elapsed)} + {banks(banks_left)}"
    left = tc.flag_at(banks_left, extra) - elapsed
    return _("on reserve, {clock_text} left").format(clock_text=clock_text(left))




@text
def reminder(user: str, r: Reminder, tc: TimeControl) -> str:
    who = mention(user)
    if r.kind == "turn":
        return _("⏰ {who}: {seconds:g} s left of your turn time.").format(
            who=who, seconds=r.seconds)
    if r.kind == "reserve":
        return _(
            "⏰ {who}: turn time is up, you are on your reserve now: {banks} ({clock_text})."
        ).format(who=who, banks=banks(r.banks_left), clock_text=clock_text(r.banks_left * tc.bank))
    used = _("⏰ {who}: {clock_text} of reserve used").format(
        who=who, clock_text=clock_text(r.seconds))
    in_bank = r.left - r.banks_left * tc.bank  # the rest of a bank under way
    if in_bank <= 1e-6:
        return _("{used}, {banks} ({clock_text}) left.").format(
            used=used, banks=banks(r.banks_left), clock_text=clock_text(r.left))
    if r.banks_left == 0:
        return _("{used}, {clock_text} left: the rest of the last bank.").format(
            used=used, clock_text=clock_text(r.left))
    return _("{used}, {left} left: {in_bank} of the bank in use, then {banks}.").format(
        used=used, left=clock_text(r.left), in_bank=clock_text(in_bank),
        banks=banks(r.banks_left))


@text
def deck_label(value: Any) -> str:
    """A match's deck as its options hold it: a shipped deck's key, or a server's deck
    as data (its name was checked when it was added: letters, digits and - _)."""
    if isinstance(value, dict):
        return _("deck {deck} (this server's)").format(deck=value.get("key", "?"))
    return _("deck {deck}").format(deck=value)


@text
def options_line(game: Game[Any, Any], options: dict[str, Any], tc: TimeControl) -> str:
    """The rules of a match under its title: the clock, then each option as the game
    declares it says it (a server's own deck, held as data, by its name)."""
    plain = {k: v for k, v in options.items() if not isinstance(v, dict)}
    parts = [time_control(tc), *(option_value(spec, plain[spec.name])
                                 for spec in game.option_specs if spec.name in plain)]
    parts += [deck_label(v) for v in options.values() if isinstance(v, dict)]
    return capitalised(" · ".join(parts))  # it starts a line wherever it is shown


@text
def time_control(tc: TimeControl) -> str:
    """A match's clock as its rules say it (``TimeControl.describe`` in the catalogs):
    "60 s a turn + 3 min reserve (36 banks of 5 s)"."""
    if not tc.enabled:
        return _("no clock")
    if tc.banks == 0:
        return _("{turn:g} s a turn, no reserve").format(turn=tc.turn)
    return n_("{turn:g} s a turn + {reserve} reserve ({banks} bank of {bank:g} s)",
              "{turn:g} s a turn + {reserve} reserve ({banks} banks of {bank:g} s)",
              tc.banks).format(turn=tc.turn, reserve=minutes_seconds(tc.banks * tc.bank),
                               banks=tc.banks, bank=tc.bank)


@text
def minutes_seconds(seconds: float) -> str:
    """A stretch of a clock: "3 min", "1 min 30 s", "45 s"."""
    minutes, secs = divmod(round(seconds), 60)
    if minutes and secs:
        return _("{minutes} min {seconds} s").format(minutes=minutes, seconds=secs)
    if minutes:
        return _("{minutes} min").format(minutes=minutes)
    return _("{seconds} s").format(seconds=secs)


@text
def capitalised(line: str) -> str:
    """A line as it starts: its first letter upper case ("no clock", "walls left: …")."""
    return line[:1].upper() + line[1:]


# ==== setting a match up ================================================================


@text
def dm_intro(label: str, title: str, players: list[str], options: str, event_note: str) -> str:
    # TRANSLATORS: {label}: "DM #6"; {title}: the game ("Quoridor"); {options}: the rules line;
    # {event_note}: " It counts for **Season 1**." or nothing
    return _("**{label}: {title}** — {first} vs {second}\n{options}.{event_note}").format(
        label=label, title=title, first=mention(players[0]), second=mention(players[1]),
        options=options, event_note=event_note)


@text
def no_hints_in_dm() -> str:
    return _(
        "A Death Match is played without hints: its rules do not let the board show "
        "the Corridor or suggest moves (casual matches may use `hints:yes`).")


@text
def set_up(label: str) -> str:
    return _("{label} is set up.").format(label=label)


@text
def accept_button() -> str:
    """The button under a challenge that accepts it (at most 80 characters)."""
    return _("Accept")


@text
def decline_button() -> str:
    return _("Decline")


@text
def goes_first_button(name: str) -> str:
    return _("{name} goes first").format(name=name)


MISSED = {"lots": N_("lots are drawn"), "void": N_("the DM is void")}


@text
def choose_first(
    intro: str,
    chooser: str,
    within: float | None = None,
    missed: str = "lots",
    by: float | None = None) -> str:
    """Who chooses the First Player, and (a DM) until when, then what."""
    how = _("with a button below or `/first player:@name`")
    ask = (
        # TRANSLATORS: {how}: "with a button below or `/first player:@name`"
        _("Hosts, choose the First Player {how}.").format(how=how)
        if chooser == "host"
        else _("{chooser}, choose the First Player {how}.").format(
            chooser=mention(chooser), how=how))
    if within is None:
        return f"{intro}\n{ask}"
    closes = live_time(by) if by is not None else _("in {span}").format(span=span(within))
    return _(
        "{intro}\n{ask} The choice closes {closes}; if no one has chosen by then, {missed}."
    ).format(intro=intro, ask=ask, closes=closes, missed=_(MISSED.get(missed, missed)))


@text
def choose_reminder(user: str, label: str, left: float, missed: str) -> str:
    return _(
        "⏳ {user}: choose the First Player of {label} — {span} left (a button above, "
        "or `/first player:@name`); then {missed}."
    ).format(user=mention(user), label=label, span=span(left), missed=_(MISSED.get(missed, missed)))


@text
def unchosen_lots(user: str, label: str, within: float, first: str) -> str:
    return _(
        "⌛ {user} did not choose the First Player of {label} within {span}: lots were "
        "drawn, and {first} is the First Player."
    ).format(user=mention(user), label=label, span=span(within), first=mention(first))


@text
def unchosen_voided(user: str, label: str, within: float) -> str:
    return _(
        "⌛ {user} did not choose the First Player of {label} within {span}: {label} is "
        "void, as the host set. No result is recorded."
    ).format(user=mention(user), label=label, span=span(within))


@text
def unchosen_record(within: float) -> str:
    return _("void: the First Player was not chosen within {span}").format(span=span(within))


@text
def bad_choose_within(most_minutes: float) -> str:
    return _("`deadline` is 1 to {most_minutes:g} minutes.").format(most_minutes=most_minutes)


@text
def bad_missed(choices: tuple[str, ...]) -> str:
    return _("`missed` is {listed}.").format(listed=either(choices))


@text
def challenge(
    label: str,
    title: str,
    challenger: str,
    opponents: list[str],
    options: str,
    hints: bool,
    rated: bool,
    minutes: int,
    lapses: float | None = None) -> str:
    others = ", ".join(mention(o) for o in opponents)
    open_for = (
        _("lapses {lapses}").format(lapses=live_time(lapses))
        if lapses is not None
        else n_("open for {minutes} minute", "open for {minutes} minutes", minutes).format(
            minutes=minutes))
    return _(
        "**{label}: {title}** — {challenger} challenges {others}.\n"
        "{options}{hints}{unrated}.\nAccept or decline with the buttons, or `/accept` / "
        "`/decline` ({open_for}).").format(
        label=label,
        title=title,
        challenger=mention(challenger),
        others=others,
        options=options,
        hints=_(" · hints on") if hints else "",
        unrated="" if rated else _(" · unrated"),
        open_for=open_for)


@text
def busy(user: str, match_id: int, waiting: bool) -> str:
    """A player is in another match in this channel: a new match is refused, one that
    is set up already (``waiting``) starts once it ends."""
    if waiting:
        return _(
            "{user} is playing match #{match_id} in this channel; this one can start once it ends."
        ).format(user=mention(user), match_id=match_id)
    return _(
        "{user} is already in match #{match_id} in this channel; finish it first or "
        "play in another channel or thread.").format(user=mention(user), match_id=match_id)


@text
def no_such_match(number: int | None) -> str:
    """No match of that number on this server (None: none in this channel fits)."""
    if number is None:
        return _("There is no such match in this channel.")
    return _("There is no match #{number} on this server.").format(number=number)


@text
def declined(user: str, label: str) -> str:
    return _("{user} declined {label}.").format(user=mention(user), label=label)


@text
def declined_record(user: str) -> str:
    return _("declined by {user}").format(user=mention(user))


@text
def withdrawn_record(user: str) -> str:
    return _("withdrawn by {user}").format(user=mention(user))


@text
def no_longer_open(match_id: int, status: str, by: str | None) -> str:
    """A challenge answered after it ended: what became of it, and by whom."""
    who = _(" by {by}").format(by=plain(by)) if by else ""
    if status == "declined":
        return _("Match #{match_id} was declined{who}; challenge again with `/challenge`.").format(
            match_id=match_id, who=who)
    if status == "cancelled":
        return _("Match #{match_id} was withdrawn{who}.").format(match_id=match_id, who=who)
    return _("Match #{match_id} lapsed: the challenge was not accepted in time.").format(
        match_id=match_id)


@text
def accepted(user: str, label: str, waiting: list[str] | None = None) -> str:
    if waiting:
        return _("{user} accepted {label}. Waiting for {listed}.").format(
            user=mention(user), label=label, listed=", ".join(mention(w) for w in waiting))
    return _("{user} accepted {label}.").format(user=mention(user), label=label)


@text
def withdrawn(user: str, match_id: int) -> str:
    return _("{user} withdrew match #{match_id}.").format(user=mention(user), match_id=match_id)


@text
def lapsed(match_id: int) -> str:
    return _("Match #{match_id} lapsed: the challenge was not accepted in time.").format(
        match_id=match_id)


@text
def not_the_chooser(chooser: str) -> str:
    who = _("The host") if chooser == "host" else mention(chooser)
    return _("{who} chooses the First Player of this match, not you.").format(who=who)


@text
def none_running_here(player: bool) -> str:
    if player:
        return _("There is no match of yours running in this channel.")
    return _("No match is running in this channel; name one with `match:`.")


@text
def first_by_lots(user: str) -> str:
    return _("Lots were drawn: {user} is the First Player.").format(user=mention(user))


@text
def first_chosen(chooser: str, user: str) -> str:
    if chooser == user:
        return _("{chooser} chose to be the First Player.").format(chooser=mention(chooser))
    return _("{chooser} chose {user} as the First Player.").format(
        chooser=mention(chooser), user=mention(user))


@text
def begins(label: str, title: str, seats: str) -> str:
    return _("**{label} begins: {title}** — {seats}").format(label=label, title=title, seats=seats)


@text
def turn_order(names: list[str]) -> str:
    names = plains(names)
    return _("Turn order: ") + " → ".join(names)


# ==== play ==============================================================================


@text
def turn_line(
    user: str, colour: str, clock: str | None, status: str, runs_out: float | None = None) -> str:
    """Who is to move, with their clock (and when their time runs out, live), and the
    game's status line below."""
    extra = f"\n{capitalised(status)}" if status else ""
    timing = f" — {clock}" if clock is not None else ""
    if runs_out is not None:
        timing += _("; time runs out {runs_out}").format(runs_out=live_time(runs_out))
    # TRANSLATORS: {colour}: the player's seat ("White"); {timing}: " — 0:42 + 36 banks; time runs
    # out in 40 s" or nothing; {extra}: a new line with the game's status, or nothing
    return _("{user} ({colour}) to move{timing}.{extra}").format(
        user=mention(user), colour=colour, timing=timing, extra=extra)


@text
def not_a_move(error: str) -> str:
    """``/move`` with text that is no move: the game's sentence, which says how moves
    are written."""
    return error[:1].upper() + error[1:]


@text
def not_your_turn(name: str) -> str:
    name = plain(name)
    return _("It is {name}'s turn, not yours.").format(name=name)




@text
def ran_out(user: str) -> str:
    return _("{user} ran out of time.").format(user=mention(user))


@text
def ran_out_reason(name: str) -> str:
    return _("{name} ran out of time").format(name=name)


@text
def resigned(user: str) -> str:
    return _("{user} resigned.").format(user=mention(user))


@text
def resigned_reason(name: str) -> str:
    return _("{name} resigned").format(name=name)


@text
def out_of_game(why: str, turn: str) -> str:
    return _("{why} They are out of the game.\n{turn}").format(why=why, turn=turn)


@text
def tie_decided(scores: tuple[int, ...], loser: str, rule: str, first: bool) -> str:
    """A result by the tie rule (raw: ``result`` escapes it): who it made lose."""
    score = "–".join(str(s) for s in scores)
    if rule == "last-mover-loses":
        who = _("who placed the last piece") + (_(", the First Player,") if first else ",")
    else:
        who = _("the First Player,")
    return _("{score}: a tie, and {loser}, {who} loses").format(score=score, loser=loser, who=who)


@text
def banner(winner: str | None, reason: str) -> str:
    """The line under a final image of a match ended by time, resignation or a host."""
    if winner is None:
        return _("Draw: {reason}").format(reason=reason)
    return _("{winner} wins: {reason}").format(winner=winner, reason=reason)




# ==== looking at a match ================================================================






























# ==== host controls =====================================================================


































# ==== limits ============================================================================


















