"""What garnet says about match history: ``/history``, ``/match`` and ``/replay``."""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.core.enums import EndReason
from bot.core.escape import plain
from bot.texts.game_errors import colour as colour_word
from bot.texts.language import N_, SOURCE, _, language, moment, n_, numeral, text
from bot.texts.match_views import banks
from bot.texts.web import RESULT_WORDS
from bot.texts.words import versus
from engine.game import DESCRIPTION_LIMIT, EngineError
from engine.registry import get_game

# How a match ended, as said after "won"/"lost"/"draw".
HOW: dict[str, str] = {
    EndReason.RULES: "",
    EndReason.TIMEOUT: N_("on time"),
    EndReason.RESIGN: N_("by resignation"),
    EndReason.ADJUDICATED: N_("by the host's decision"),
    EndReason.CORRECTED: N_("after the host's correction"),
    EndReason.AGREED: N_("by agreement"),
    "out": N_("(left the game)")}
# Matches ended without a result by their players or by time, said in place of "void".
UNPLAYED: dict[str, str] = {EndReason.ABORTED: N_("aborted"), EndReason.LAPSED: N_("lapsed")}
# What became of a challenge that was never played, by its status.
NEVER_PLAYED = {
    "declined": N_("was declined"),
    "cancelled": N_("was withdrawn"),
    "expired": N_("lapsed: the challenge was not accepted in time")}


@text
def date(at: float | None) -> str:
    if at is None:
        return "?"
    if language() == SOURCE:
        return time.strftime("%d %b %Y", time.gmtime(at)).lstrip("0")
    return moment(at, "", "yMMMd")


@text
def took(seconds: float) -> str:
    """Time a move took, or time used: m:ss (h:mm:ss from an hour), rounded down."""
    whole = max(0, int(seconds + 1e-6))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@text
def count(n: int, noun: str) -> str:
    """``n`` matches or moves (``noun``: "match" or "move"): "1 move", "1,204 matches"."""
    if noun == "match":
        return n_("{n} match", "{n} matches", n).format(n=numeral(n))
    return n_("{n} move", "{n} moves", n).format(n=numeral(n))


TIE_RULE = N_("by the tie rule")


def by_tie_rule(result: str, how: str | None, scores: Sequence[int] | None) -> bool:
    """Equal scores with a winner: the game's tie rule decided it."""
    return (result in ("won", "lost", "wins") and how in (None, "", EndReason.RULES)
            and bool(scores) and len(set(scores or ())) == 1)


@text
def result_words(*, result: str, how: str | None, scores: Sequence[int] | None) -> str:
    if result == "void" and how in UNPLAYED:
        return f"**{_(UNPLAYED[how])}**"
    words = f"**{_(RESULT_WORDS.get(result, result))}**"
    if scores:
        words += " " + "–".join(str(s) for s in scores)
    manner = _(HOW.get(how or "", ""))
    if by_tie_rule(result, how, scores):
        manner = _(TIE_RULE)
    return f"{words} {manner}" if manner and result != "void" else words


@text
def title(game: str) -> str:
    """A game's title, or its key if this version no longer has it."""
    try:
        return get_game(game).title
    except EngineError:
        return game


@text
def match_choice(*, match_id: int, game: str, players: str, status: str) -> str:
    """An autocomplete entry: plain text, never rendered as markdown."""
    return f"#{match_id} {game}: {players} ({status})"


# ---- refusals ------------------------------------------------------------------------------


@text
def pages_from_one() -> str:
    return _("Pages are numbered from 1.")


@text
def no_such_page(*, page: int, name: str, pages: int, total: int) -> str:
    return n_(
        "There is no page {page}: {name}'s history has {pages} page ({count}).",
        "There is no page {page}: {name}'s history has {pages} pages ({count}).",
        pages).format(page=page, name=plain(name), pages=pages, count=count(total, "match"))


@text
def still_playing(*, label: str, match_id: int) -> str:
    return _(
        "{label} is still being played; `/replay` works once it is over (`/match "
        "id:{match_id}` shows the moves so far).").format(label=label, match_id=match_id)


@text
def never_played(*, label: str) -> str:
    return _("{label} was never played, so there is nothing to replay.").format(label=label)


@text
def no_moves_to_replay(*, label: str, caption: str) -> str:
    """A match that ended before its first move (voided, forfeited): its result only."""
    return _(
        "{label} ended before its first move, so there is nothing to replay. {caption}."
    ).format(label=label, caption=plain(caption))


@text
def _named(name: str, colour: str | None) -> str:
    """A player with their colour, or alone when they never had a seat."""
    return f"{plain(name)} ({colour})" if colour else plain(name)


@text
def too_long_to_animate(*, label: str) -> str:
    return _(
        "{label} is too long to animate within Discord's upload limit; `/match` shows "
        "it move by move.").format(label=label)


# ---- pages and replays -------------------------------------------------------------------


@text
def page_button(*, page: int, newer: bool) -> str:
    return _("◀ Page {page}").format(page=page) if newer else _("Page {page} ▶").format(page=page)


@text
def no_matches(*, name: str, game: str | None) -> str:
    what = _(" of {game}").format(game=game) if game else ""
    return _("{name} has no finished matches{what} on this server yet.").format(
        name=plain(name), what=what)


@text
def history_head(*, name: str, game: str | None, total: int, page: int, pages: int) -> str:
    what = _(" of {game}").format(game=game) if game else ""
    return _("**{name}'s matches{what}** — {total} · page {page} of {pages}, newest first").format(
        name=plain(name), what=what, total=numeral(total), page=numeral(page), pages=numeral(pages))


@text
def history_line(
    *,
    match_id: int,
    finished_at: float | None,
    game: str,
    dm: bool,
    result: str,
    opponents: Sequence[str],
    moves: int) -> str:
    against = (
        _(" vs {listed}").format(listed=", ".join(plain(o) for o in opponents)) if opponents else ""
    )
    kind = _(" DM") if dm else ""
    return (
        f"`#{match_id}` {date(finished_at)} · {game}{kind} — "
        f"{result}{against} · {count(moves, 'move')}")


@text
def history_foot(*, match_id: int) -> str:
    return _(
        "`/match id:{match_id}` shows a match move by move; `/replay id:{match_id}` animates it."
    ).format(match_id=match_id)


@text
def replay_text(
    *, label: str, game: str, players: Sequence[tuple[str, str | None]], caption: str, moves: int
) -> str:
    """``players``: (name, colour) in seat order."""
    return (
        _("**Replay of {label}: {game}** — ").format(label=label, game=game)
        + versus(_named(name, colour) for name, colour in players)
        + f"\n{plain(caption)} · {count(moves, 'move')}")


@text
def caption(
    *,
    voided: bool,
    winner: str | None,
    colour: str | None,
    end_reason: str | None,
    scores: Sequence[int] | None) -> str:
    """The result in a few words, for a replay's last frame and its post: ``winner``
    None is a draw; ``scores`` the winner's first."""
    if voided:
        return _(UNPLAYED.get(end_reason or "", "voided by the host")).capitalize()
    manner = _(HOW.get(end_reason or "", "")) if end_reason != "out" else ""
    if winner is not None and by_tie_rule(_("wins"), end_reason, scores):
        manner = _(TIE_RULE)
    how = f" {manner}" if manner else ""
    score = "–".join(str(s) for s in scores) if scores else ""
    if winner is None:
        return " ".join(x for x in (_("Draw") + how, score) if x)
    who = f"{winner} ({colour})" if colour else winner  # drawn on an image: not escaped
    # TRANSLATORS: {how}: " on time", " by resignation"... or nothing
    return " ".join(x for x in (_("{who} wins{how}").format(who=who, how=how), score) if x)


@text
def host_action(*, after: int, actor: str, action: str, detail: str) -> str:
    """A host's action in ``/match``: ``after`` the moves played when it was taken."""
    when = _("before the first move") if after == 0 else _("after move {after}").format(after=after)
    said = f": {plain(detail[:200])}" if detail else ""
    # TRANSLATORS: {when}: a date; {action}: what the host did; {said}: " (their reason)" or
    # nothing
    return _("Host, {when}: {actor} — {action}{said}").format(
        when=when, actor=plain(actor), action=action, said=said)


@text
def _limited(text: str) -> str:
    """An attachment's description: at most Discord's 1,024 characters."""
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"


@text
def replay_description(*, label: str, caption: str, moves: int, final: str) -> str:
    """A replay GIF in words: what it animates, then its last position."""
    return _limited(
        _(
            "Animated replay of {label}, {count}, one frame a move: {caption}. The "
            "final position: {final}"
        ).format(label=label, count=count(moves, "move"), caption=plain(caption), final=final))


@text
def review_description(
    *, label: str, game: str, players: Sequence[tuple[str, str | None]], final: str) -> str:
    """A review's plot in words (the review's text says its findings)."""
    who = versus(f"{plain(name)} ({colour})" for name, colour in players)
    return _limited(
        _(
            "Review of {label}, {game}, {who}: a plot of each side's chance to win "
            "after every move; the post's text gives the findings. The final "
            "position: {final}").format(label=label, game=game, who=who, final=final))


# ---- one match in full (/match) ---------------------------------------------------------

#: a match being played, as its state says it ("in progress (paused)")
PLAYING_WORDS = {"running": N_("running"), "paused": N_("paused")}


@text
def never_started(*, label: str, game: str, names: Sequence[str], status: str) -> str:
    """A challenge that was never played, by its status (``NEVER_PLAYED``)."""
    return _("**{label}: {game}** between {names} never started: it {what}.").format(
        label=label, game=game, names=_(" and ").join(plain(n) for n in names),
        what=_(NEVER_PLAYED.get(status, status)))


@text
def match_state(*, status: str, finished_at: float | None, moves: int) -> str:
    """Where a match stands, after its title in ``/match``."""
    if status == "finished":
        return _("finished {date}").format(date=date(finished_at))
    if status == "voided":
        return _("voided {date}").format(date=date(finished_at))
    if status in PLAYING_WORDS:
        return _("in progress ({status}), {moves} so far").format(
            status=_(PLAYING_WORDS[status]), moves=count(moves, "move"))
    if status == "pending":
        return _("not started yet (waiting for the challenged players)")
    return _("not started yet (the First Player is being chosen)")


@text
def seat_of(*, colour: str | None, name: str) -> str:
    """A player of ``/match`` with their seat's colour ("White: ann")."""
    # TRANSLATORS: a seat's colour and its player, "White: ann"
    return _("{colour}: {name}").format(colour=colour_word(colour), name=plain(name)) \
        if colour else plain(name)


@text
def out_of_the_game() -> str:
    return _("out of the game")


@text
def time_used(*, used: float, banks_left: int) -> str:
    """A player's clock in ``/match``: the time used and the reserve banks left."""
    return _("{used} used, {banks} left").format(used=took(used), banks=banks(banks_left))


def match_extras(*, reward: int, rated: bool | None, hints: bool) -> list[str]:
    """What else a match was played with, after its options: a DM's reward, a casual
    match's rating (``rated`` None: not a casual match), hints."""
    said = []
    if reward:
        said.append(n_("{n} garnet to the winner", "{n} garnets to the winner", reward).format(
            n=numeral(reward)))
    if rated is not None:
        said.append(_("rated") if rated else _("unrated"))
    if hints:
        said.append(_("hints on"))
    return said


@text
def more_host_actions(*, n: int) -> str:
    return n_("… and {n} more host action.", "… and {n} more host actions.", n).format(
        n=numeral(n))


@text
def no_moves_played() -> str:
    return _("No moves were played.")


@text
def moves_heading() -> str:
    """Above the moves of ``/match``, each with its time and the reserve banks it spent."""
    return _("Moves, with the time each took (+banks of reserve spent):")


@text
def left_here() -> str:
    """A seat leaving the game, in the list of moves (``17. ann out``)."""
    return _("out")
