"""What a tournament shows: its rounds as announced, results, standings (text and
image), reminders, what the deadline settles, and its books as CSV files. Pure
functions of a loaded tournament (``records.Loaded``), besides one small query."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import MatchStatus
from bot.core.messages import Image
from bot.services.exports import csv_bytes, slug
from bot.services.tournaments import (
    Dropped,
    Event,
    FirstRule,
    Format,
    Options,
    Outcome,
    Pairing,
    Rejoined,
    Reopened,
    Reported,
    Round,
    Standing,
    State,
    Tiebreak,
    Tournament,
)
from bot.services.tournaments.bracket import depth
from bot.services.tournaments.host.records import DOUBLE, Loaded, Played, Setup, series_of
from bot.services.tournaments.image import tournament_png
from bot.store.models import Event as EventRow
from bot.store.models import Tournament as TournamentRow
from bot.texts import brackets as bracket_say
from bot.texts import tournaments as say
from bot.texts.match import match_label, options_line
from bot.texts.web import web_line
from engine.registry import get_game

SHOWN = 16  # standings rows in a message; the image and /tournament standings have all
LISTED = 30  # boards listed by /tournament pairings (the asker's always)


# ---- names ---------------------------------------------------------------------------------


def display(loaded: Loaded) -> tuple[Tournament, list[Event]]:
    """The tournament with people's names in place of their ids (made unique: two
    players called Alex are "Alex" and "Alex (2)"), for images."""
    shown: dict[str, str] = {}
    used: set[str] = set()
    for uid in loaded.players:
        base = (loaded.name(uid) or uid)[:40]
        name, n = base, 2
        while name in used:
            name, n = f"{base} ({n})", n + 1
        used.add(name)
        shown[uid] = name
    core = loaded.core

    def pairing(p: Pairing) -> Pairing:
        return Pairing(p.board, shown[p.first], shown[p.second], p.match,
                       shown[p.chooser] if p.chooser else None, p.decided)

    events: list[Event] = []
    for e in loaded.events:
        if isinstance(e, Round):
            events.append(Round(e.number, tuple(pairing(p) for p in e.pairings),
                                tuple(shown[b] for b in e.byes)))
        elif isinstance(e, Reported):
            events.append(Reported(e.round, e.board, e.outcome,
                                   shown[e.first] if e.first else None))
        elif isinstance(e, Dropped):
            events.append(Dropped(shown[e.player]))
        elif isinstance(e, Reopened):
            events.append(e)
        else:
            events.append(Rejoined(shown[e.player]))
    return Tournament(core.format, tuple(shown[p] for p in core.players), core.options), events


def counted(core: Tournament, events: Sequence[Event], cancelled: bool = False) -> list[Event]:
    """The events standings count: every complete round, with its corrections and the
    withdrawals; a round still being played (its pairings, results and byes) is left
    out until it is over, so "after round N" means the same mid-round as at its end.
    Standings "when it was cancelled" count every result."""
    state = core.state(events)
    if state.round_complete or cancelled:
        return list(events)
    running = state.rounds[-1].number
    return [e for e in events if not ((isinstance(e, Round) and e.number == running)
                                      or (isinstance(e, Reported | Reopened)
                                          and e.round == running))]


def image(loaded: Loaded) -> bytes:
    """The standings or the bracket as a PNG (CPU work: call it off the event loop),
    counting complete rounds only (``counted``)."""
    core, events = display(loaded)
    return tournament_png(core, counted(core, events, loaded.row.status == "cancelled"),
                          loaded.row.name)


def image_name(loaded: Loaded) -> str:
    done = len([e for e in counted(loaded.core, loaded.events,
                                   loaded.row.status == "cancelled") if isinstance(e, Round)])
    return f"tournament-{loaded.row.number}-round-{done}.png"


# ---- settings ------------------------------------------------------------------------------


def rules_text(row: TournamentRow, setup: Setup, event: str | None) -> str:
    options = Options.from_json(row.options)
    game = get_game(row.game)
    return say.rules(say.Rules(
        fmt=row.format, game=game.title, first=options.first.value,
        clock=options_line(game, setup.game_options, setup.time_control)
        + (" · hints on" if setup.hints else ""),
        rounds=options.rounds, best_of=options.best_of, double=options.double,
        third_place=options.third_place, deadline=setup.deadline, no_show=setup.no_show,
        prizes=setup.prizes, event=event, checkin=setup.checkin, auto=setup.auto,
        thread=setup.thread, show_up=setup.show_up if setup.time_control.enabled
        and options.first is not FirstRule.CHOOSES else 0.0))


async def event_name(s: AsyncSession, event_id: int | None) -> str | None:
    if event_id is None:
        return None
    row = await s.get(EventRow, event_id)
    return row.name if row is not None else None


# ---- rounds --------------------------------------------------------------------------------


def spot_named(core: Tournament, spot: str | None) -> str | None:
    """A bracket match's label with its meaning ("W2-1 (a semi-final)")."""
    if spot is None:
        return None
    return bracket_say.named(label=spot, depth=depth(len(core.players)),
                             double=core.format is Format.DOUBLE)


def legend(core: Tournament, rnd: Round) -> list[str]:
    """The line that explains a bracket round's labels (none outside brackets)."""
    spots = [p.match for p in rnd.pairings if p.match]
    if not spots:
        return []
    return [bracket_say.legend(labels=spots, depth=depth(len(core.players)),
                               double=core.format is Format.DOUBLE)]



def _current(games: list[Played]) -> Played | None:
    active = [g for g in games if g.active]
    return active[-1] if active else None


def round_announcement(loaded: Loaded, rnd: Round, deadline: float | None) -> str:
    core = loaded.core
    lines = [say.round_title(name=loaded.row.name, number=rnd.number, of=core.rounds,
                             at_most=core.format.value == "double")]
    for p in rnd.pairings:
        game = _current(loaded.games_of(rnd.number, p.board))
        where = (game.channel_id if game is not None
                 and game.channel_id != loaded.row.channel_id else None)
        lines.append(say.pairing_line(
            board=p.board, first=p.first, second=p.second,
            match=match_label(game.number, "casual") if game else None, where=where,
            decided=_decided(p.decided) if p.decided else None,
            chooser=p.chooser if game is not None and not game.begun else None,
            spot=p.match))
    lines += legend(core, rnd)
    if rnd.byes:
        bye = core.options.bye_points if core.format.value == "swiss" else None
        lines.append(say.byes(user_ids=rnd.byes,
                              bye_points=say.points(bye) if bye else None))
    if deadline is not None:
        lines.append(say.deadline_line(instant=deadline))
    return "\n".join(lines)


def _decided(outcome: Outcome) -> str:
    if outcome is Outcome.DOUBLE_FORFEIT:
        return "both have withdrawn: a double forfeit"
    return f"decided by forfeit ({outcome.value}): a player has withdrawn"


def score_of(loaded: Loaded, number: int, p: Pairing,
             outcome: Outcome | None = None) -> str | None:
    """A series' games score ("2–1") when it is longer than one game; none where a
    host's decision replaced what the games said (``outcome``: the pairing's result)."""
    if loaded.core.options.best_of <= 1:
        return None
    series, _ = series_of(loaded.core, p, loaded.games_of(number, p.board))
    if not series.winners:
        return None
    if outcome is not None and series.finished and series.outcome(p) is not outcome:
        return None
    a, b = series.score
    mine = (a, b) if series.first == p.first else (b, a)
    return f"{say.points(mine[0])}–{say.points(mine[1])}"


def with_page(text: str, address: str | None, room: int = 2000) -> str:
    """``text`` with the tournament's web page under it, when its pages are up and the
    post has ``room`` for it (a round's pairings are split between lines: any room)."""
    line = web_line(address) if address is not None else ""
    return f"{text}\n{line}" if line and len(text) + 1 + len(line) <= room else text


def round_results(loaded: Loaded, state: State) -> str:
    rnd = state.rounds[-1]
    results = []
    for p in rnd.pairings:
        outcome = state.outcome(rnd.number, p)
        results.append(say.result_line(
            board=p.board, spot=p.match, first=loaded.name(p.first),
            second=loaded.name(p.second), outcome=outcome.value if outcome else "…",
            score=score_of(loaded, rnd.number, p, outcome)))
    if rnd.byes:
        results.append(say.byes_line([loaded.name(b) for b in rnd.byes]))
    return say.round_over(name=loaded.row.name, number=rnd.number, results=results)


def standing_rows(loaded: Loaded, table: Sequence[Standing], limit: int | None = SHOWN,
                  final: bool = False) -> list[tuple[str, str, str, str]]:
    """Each row shown; "(out)" marks a withdrawn player, and in a bracket still played
    one eliminated (a bracket's final places say it all: the runner-up is not "out")."""
    core = loaded.core
    shown = [t for t in core.tiebreaks if t is not Tiebreak.HEAD_TO_HEAD
             or any(r.tiebreaks.get(t.value) for r in table)][:3]
    rows = []
    for st in table[:limit]:
        out = not st.active and not (final and core.format.elimination)
        name = loaded.name(st.player) + (" (out)" if out else "")
        rows.append((st.place or str(st.rank), name, say.points_word(st.points),
                     say.tiebreak_text([(t.value, st.tiebreaks.get(t.value, 0.0))
                                        for t in shown])))
    return rows


def standings_text(loaded: Loaded, final: bool = False, limit: int | None = SHOWN) -> str:
    core = loaded.core
    state = core.state(loaded.events)
    cancelled = loaded.row.status == "cancelled"
    final = final or loaded.row.status == "finished"
    events = counted(core, loaded.events, cancelled)
    done = len([e for e in events if isinstance(e, Round)])
    table = core.standings(events)
    head = say.standings_head(name=loaded.row.name, done=done, of=core.rounds,
                              final=final, cancelled=cancelled,
                              at_most=core.format.value == "double")
    if not state.round_complete and not cancelled:
        rnd = state.rounds[-1]
        head += "\n" + say.round_not_counted(
            number=rnd.number, finished=len(rnd.pairings) - len(state.pending()),
            boards=len(rnd.pairings))
    return head + "\n" + say.standings_lines(rows=standing_rows(loaded, table, limit, final),
                                             total=len(table),
                                             elimination=core.format.elimination)


def prize_shares(table: Sequence[Standing], prizes: Sequence[int]) -> list[tuple[str, int, str]]:
    """(player, garnets, place) for every paid place: players sharing a place share the
    prizes of the places they fill equally (rounded down), as arbiters split them."""
    if not prizes:
        return []
    out = []
    i = 0
    while i < len(table):
        group = [r for r in table[i:] if r.rank == table[i].rank]
        pot = sum(prizes[i:i + len(group)])
        share = pot // len(group)
        if share > 0:
            place = table[i].place or (str(table[i].rank) if len(group) == 1
                                       else f"{table[i].rank}–{table[i].rank + len(group) - 1}")
            out += [(r.player, share, place) for r in group]
        i += len(group)
    return out


def reminder(loaded: Loaded, state: State, left: float, instant: float) -> str:
    rnd = state.rounds[-1]
    waiting = []
    for p in rnd.pairings:
        if state.outcome(rnd.number, p) is not None:
            continue
        game = _current(loaded.games_of(rnd.number, p.board))
        waiting.append(say.still_to_play(
            first=p.first, second=p.second,
            match=match_label(game.number, "casual") if game else None,
            chooser=p.chooser if game is not None and not game.begun else None,
            begun=game is not None and game.begun and game.plies > 0))
    return say.reminder(name=loaded.row.name, number=rnd.number, left=left, instant=instant,
                        waiting=waiting)


def no_shows(loaded: Loaded, state: State,
             rnd: Round) -> tuple[list[Event], list[str], list[int], int]:
    """At a round's deadline: the results that settle its unplayed pairings, a line for
    each, the matches that never began (to void), and how many games go on."""
    reports: list[Event] = []
    lines: list[str] = []
    unplayed: list[int] = []
    playing = 0
    for p in rnd.pairings:
        if state.outcome(rnd.number, p) is not None:
            continue
        game = _current(loaded.games_of(rnd.number, p.board))
        if game is not None and game.begun and (game.plies > 0
                                                or game.status == MatchStatus.PAUSED):
            playing += 1
            continue
        if game is not None:
            unplayed.append(game.match_id)
        if loaded.setup.no_show == DOUBLE or game is None:
            reports.append(Reported(rnd.number, p.board, Outcome.DOUBLE_FORFEIT))
            lines.append(say.no_show_line(absent=list(p.players), winner=None))
            continue
        # Who had to act: the chooser of the First Player, else the First Player.
        absent = p.chooser if not game.begun and p.chooser else game.users[0]
        winner = p.opponent(absent)
        reports.append(Reported(rnd.number, p.board, p.outcome(winner, forfeit=True)))
        lines.append(say.no_show_line(absent=[absent], winner=winner))
    return reports, lines, unplayed, playing


# ---- reading it ----------------------------------------------------------------------------


def pairings_text(loaded: Loaded, number: int, asker: str | None = None) -> str:
    """A round's pairings and how each stands: the first ``LISTED``, and the asker's."""
    core = loaded.core
    state = core.state(loaded.events)
    rnd = state.rounds[number - 1]
    lines = []
    shown = [p for i, p in enumerate(rnd.pairings) if i < LISTED or asker in p.players]
    for p in shown:
        outcome = state.outcome(rnd.number, p)
        game = _current(loaded.games_of(rnd.number, p.board))
        if outcome is not None:
            score = score_of(loaded, rnd.number, p, outcome)
            where = outcome.value + (f" (games {score})" if score else "")
        elif game is None:
            where = "waiting to begin"
        elif not game.begun:
            where = f"{match_label(game.number, 'casual')}, {loaded.name(p.chooser or '')} " \
                    "chooses who moves first"
        else:
            where = f"playing {match_label(game.number, 'casual')}"
        lines.append(say.pairing_row(board=p.board, spot=p.match, first=loaded.name(p.first),
                                     second=loaded.name(p.second), state=where))
    if len(shown) < len(rnd.pairings):
        lines.append(say.more_boards(count=len(rnd.pairings) - len(shown)))
    lines += legend(core, rnd)
    return say.pairings(name=loaded.row.name, number=number, lines=lines,
                        byes=[loaded.name(b) for b in rnd.byes[:LISTED]])


# ---- the books -----------------------------------------------------------------------------


def export(loaded: Loaded) -> list[Image]:
    """The standings and every pairing and game, as CSV files (names beside ids)."""
    core = loaded.core
    base = f"tournament-{loaded.row.number}-{slug(loaded.row.name)}"
    files = []
    if loaded.events:
        table = core.standings(loaded.events)
        names = [t.value for t in core.tiebreaks]
        rows = [[st.rank, st.place, st.player, loaded.name(st.player), st.points,
                 *[st.tiebreaks.get(n, 0.0) for n in names], "yes" if st.active else "no"]
                for st in table]
        files.append(Image(csv_bytes(["rank", "place", "user_id", "name", "points", *names,
                                 "active"], rows), f"{base}-standings.csv"))
    state = core.state(loaded.events)
    rows = []
    for rnd in state.rounds:
        for p in rnd.pairings:
            outcome = state.outcome(rnd.number, p)
            games: list[Played | None] = [*loaded.games_of(rnd.number, p.board)] or [None]
            for g in games:
                rows.append([rnd.number, p.board, p.match or "", p.first, loaded.name(p.first),
                             p.second, loaded.name(p.second),
                             say.result_cell(outcome=outcome.value) if outcome else "",
                             g.game_no if g else "", g.number if g else "",
                             g.status if g else "", g.users[0] if g and g.begun else "",
                             (g.winner or ("draw" if g.draw else "")) if g else ""])
        for b in rnd.byes:
            rows.append([rnd.number, "", "", b, loaded.name(b), "", "", "bye", "", "", "", "",
                         ""])
    files.append(Image(csv_bytes(["round", "board", "bracket_match", "first_id", "first_name",
                             "second_id", "second_name", "pairing_result", "game",
                             "match_number", "match_status", "moved_first_id", "winner_id"],
                            rows), f"{base}-games.csv"))
    return files
