"""Tournaments hosted end to end on the test database and virtual time: the console
golden transcript (a Swiss of eight whose standings are checked against a hand
calculation, a best-of-3 cup with alternating first players, threads, check-in, a
round deadline's forfeit and prizes, a host's decisions, and the season's Death
Match flow), a restart in the middle of a round, and the deadline's rules."""

from __future__ import annotations

import io
import random
from pathlib import Path

from sqlalchemy import select

from bot.adapters.console import Console
from bot.app import build_services
from bot.commands.spec import Services
from bot.core.clock import VirtualClock
from bot.core.messages import Actor
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.tournaments import Outcome, Reported, Round
from bot.services.tournaments.host import Setup, TournamentSettings
from bot.store.db import Database, open_database
from bot.store.models import (
    Elimination,
    LedgerEntry,
    Match,
    TournamentGame,
    TournamentLog,
)
from bot.texts.words import listed
from tests import snapshots
from tests.tournament_world import (
    CHAN,
    CONFIG,
    GUILD,
    HOST,
    PEOPLE,
    TournamentWorld,
    log_of,
    resign,
    running,
    swiss_of_four,
    tournament_world_on,
)
from tests.transcripts import GOLDEN, SEED, START

# ---- the console transcript ------------------------------------------------------------


async def test_tournament_transcript(tmp_path: Path, database_url: str) -> None:
    out = io.StringIO()
    db = await open_database(database_url)
    clock = VirtualClock(start=START)
    console = Console(None, tmp_path / "images", out=out, hosts=("host",))
    services = build_services(db, clock, CONFIG, deliver=console.show, rng=random.Random(SEED),
                              threads=console.thread_in)
    console.attach(services)
    await services.matches.start()
    try:
        for line in (GOLDEN / "tournament.txt").read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                out.write(line + "\n")
            await console.handle_line(line)
        actual = out.getvalue().replace(str(tmp_path), "<tmp>")
        assert "something went wrong" not in actual
        # The runner-up of a bracket is second, not "out" (eliminated) once it is over.
        assert "**Cup — final standings**\n     1. alice\n     2. bob\n" in actual
        snapshots.compare(GOLDEN / "tournament.out", actual, "the console transcript",
                          "console now")
        await _swiss_equals_the_hand_calculation(db, services)
        await _cup_alternates_and_forfeits_and_pays(db)
        await _the_season(db)
    finally:
        await services.matches.stop()
        await db.close()


async def _swiss_equals_the_hand_calculation(db: Database, services: Services) -> None:
    """Spring Cup, by hand. Games (first-named first; 1 the first-named wins):
    R1 alice-erin 1-0, frank-bob 0-1, carol-gina 1-0, hugo-dave 0-1;
    R2 dave-alice ½, bob-carol 1-0, erin-hugo 0-1, gina-frank 1-0;
    R3 alice-bob 1-0, carol-dave 0-1, hugo-gina ½, frank-erin 1-0.
    Points: alice 2½, dave 2½, bob 2, hugo 1½, gina 1½, carol 1, frank 1, erin 0.
    Buchholz (opponents' points): dave 1½+2½+1 = 5, alice 0+2½+2 = 4½, bob 1+1+2½ = 4½,
    hugo 2½+0+1½ = 4, gina 1+1+1½ = 3½, carol 1½+2+2½ = 6, frank 2+1½+0 = 3½,
    erin 2½+1½+1 = 5. Median Buchholz drops the best and the worst opponent.
    Sonneborn-Berger (beaten opponents' points, half of drawn ones'): dave 1½+1¼+1 =
    3¾, alice 0+1¼+2 = 3¼, bob 1+1 = 2, hugo 0+¾ = ¾, gina 1+¾ = 1¾, carol 1½,
    frank 0, erin 0. Ties: dave before alice and hugo before gina by Buchholz, carol
    before frank by Buchholz."""
    loaded = await services.tournaments.flow.load(1)
    table = loaded.core.standings(loaded.events)
    got = [(s.rank, s.player, s.points, s.tiebreaks["buchholz"],
            s.tiebreaks["median_buchholz"], s.tiebreaks["sonneborn_berger"],
            s.tiebreaks["wins"]) for s in table]
    assert got == [
        (1, "dave", 2.5, 5.0, 1.5, 3.75, 2.0),
        (2, "alice", 2.5, 4.5, 2.0, 3.25, 2.0),
        (3, "bob", 2.0, 4.5, 1.0, 2.0, 2.0),
        (4, "hugo", 1.5, 4.0, 1.5, 0.75, 1.0),
        (5, "gina", 1.5, 3.5, 1.0, 1.75, 1.0),
        (6, "carol", 1.0, 6.0, 2.0, 1.5, 1.0),
        (7, "frank", 1.0, 3.5, 1.5, 0.0, 1.0),
        (8, "erin", 0.0, 5.0, 1.5, 0.0, 0.0),
    ]
    rounds = [e for e in loaded.events if isinstance(e, Round)]
    assert [[(p.first, p.second) for p in r.pairings] for r in rounds] == [
        [("alice", "erin"), ("frank", "bob"), ("carol", "gina"), ("hugo", "dave")],
        [("dave", "alice"), ("bob", "carol"), ("erin", "hugo"), ("gina", "frank")],
        [("alice", "bob"), ("carol", "dave"), ("hugo", "gina"), ("frank", "erin")],
    ]
    assert loaded.row.status == "finished"


async def _cup_alternates_and_forfeits_and_pays(db: Database) -> None:
    async with db.session() as s:
        games = (await s.execute(
            select(TournamentGame, Match).join(Match, Match.id == TournamentGame.match_id)
            .where(TournamentGame.tournament_id == 2)
            .order_by(TournamentGame.id))).all()
        firsts = [(g.round, g.board, g.game_no, m.number, m.status,
                   next((p.user_id for p in m.players if p.seat == 0), None))
                  for g, m in games]
        log = [row.data for row in (await s.scalars(
            select(TournamentLog).where(TournamentLog.tournament_id == 2)
            .order_by(TournamentLog.seq))).all()]
        prizes = {(e.user_id, e.amount, e.key) for e in (await s.scalars(
            select(LedgerEntry).where(LedgerEntry.kind == "prize"))).all()}
    # Best of 3: the First Player alternates (alice chose herself for game 1).
    assert firsts[:4] == [(1, 1, 1, 13, "finished", "alice"), (1, 2, 1, 14, "voided", None),
                          (1, 1, 2, 15, "finished", "carol"),
                          (1, 1, 3, 16, "finished", "alice")]
    # The final: alice chose bob to move first; game 2 alternates.
    assert firsts[4:] == [(2, 1, 1, 17, "finished", "bob"), (2, 1, 2, 18, "finished", "alice")]
    # dave never chose the First Player of board 2: a forfeit at the deadline.
    assert {"type": "result", "round": 1, "board": 2, "outcome": "-/+", "first": None} in log
    # Prizes once, into Season 1: 3rd and 4th share the third prize.
    assert prizes == {("alice", 10, "tournament:2:prize:alice"),
                      ("bob", 5, "tournament:2:prize:bob"),
                      ("dave", 1, "tournament:2:prize:dave"),
                      ("carol", 1, "tournament:2:prize:carol")}


async def _the_season(db: Database) -> None:
    async with db.session() as s:
        out = (await s.scalars(select(Elimination))).all()
    assert [(e.user_id, e.undone_by, e.note) for e in out] == [
        ("alice", "host", "appeal upheld")]


# ---- a restart in the middle of a round ------------------------------------------------------


async def test_a_restart_in_the_middle_of_a_round_loses_nothing(database_url: str) -> None:
    url = database_url
    clock = VirtualClock()
    w = await tournament_world_on(url, clock)
    await swiss_of_four(w, Setup(time_control=TimeControl.off(), deadline=3600.0))
    # Round 1: ann–cat and dan–ben (seeds 1-3, 4-2), the first-named moves first.
    assert sorted(running(w)) == [1, 2]
    await resign(w, 1, "cat")
    # Match #2 ends while the tournament does not hear of it (the process dies between
    # the match's result and the tournament's turn), then the bot is killed.
    w.services.matches.kit.watchers.clear()
    await resign(w, 2, "dan")
    before = await log_of(w)
    assert sum(isinstance(e, Reported) for e in before) == 1
    # No stop(): a crash. The old process's timers die with it (a clock of its own).
    clock = VirtualClock(start=clock.now())
    w2 = await tournament_world_on(url, clock)
    after = await log_of(w2)
    # Both results of round 1 are in; round 2 is paired and its matches started.
    reports = [e for e in after if isinstance(e, Reported)]
    assert [(e.round, e.board, e.outcome) for e in reports] == [
        (1, 1, Outcome.FIRST), (1, 2, Outcome.SECOND)]
    rounds = [e for e in after if isinstance(e, Round)]
    assert len(rounds) == 2 and before[0] == after[0]
    assert sorted(running(w2)) == [3, 4]
    assert "round 1 is over" in w2.said() and "round 2 of 2" in w2.said()
    async with w2.db.session() as s:
        games = (await s.scalars(select(TournamentGame))).all()
    assert [(g.round, g.board, g.game_no) for g in games] == [
        (1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1)]
    # Restarted again in round 2: nothing is paired or started twice, the deadline holds.
    await w2.services.matches.stop()
    w3 = await tournament_world_on(url, clock)
    assert sorted(running(w3)) == [3, 4] and len(await log_of(w3)) == len(await log_of(w2))
    assert w3.posts == []
    await clock.advance(3600)
    assert "the deadline has passed" in w3.said()
    assert (await w3.services.tournaments.flow.load(1)).row.status == "finished"
    await w3.services.matches.stop()
    await w3.db.close()
    await w2.db.close()
    await w.db.close()


# ---- the round deadline ------------------------------------------------------------------------


async def test_the_deadline_settles_the_unplayed_and_lets_a_game_in_play_finish(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    await swiss_of_four(w, Setup(time_control=TimeControl.off(), deadline=1800.0, no_show="double"))
    live = running(w)
    # Match #1 is being played (a move is in); no one moves in match #2.
    first = live[1]
    await w.services.matches.play.typed(Asker(GUILD, CHAN, Actor(first.users[0], "x")), "D left")
    await w.clock.advance(1800 - 7 * 60 - 1)
    assert "ends in" not in w.said()
    await w.clock.advance(2)
    reminder = w.posts[-1]
    assert "ends in 7 minutes" in reminder.text and set(reminder.pinged()) >= set(live[2].users)
    await w.clock.advance(7 * 60)
    said = w.said()
    assert "neither played, both lose by forfeit" in said
    assert "1 match being played goes on to the end" in said
    events = await log_of(w)
    assert Reported(1, 2, Outcome.DOUBLE_FORFEIT) in events
    assert sorted(running(w)) == [1]  # the unplayed match is void, the other plays on
    async with w.db.session() as s:
        voided = await s.scalar(select(Match.status).where(Match.number == 2))
    assert voided == "voided"
    # The game in play ends: round 1 is over. Both absentees are withdrawn, and the two
    # who played have met: no round 2 without a rematch, so the Swiss ends there.
    await resign(w, 1, first.users[1])
    loaded = await w.services.tournaments.flow.load(1)
    assert loaded.core.state(loaded.events).withdrawn == {"ben", "dan"} - set(first.users) \
        | (set(live[2].users))
    assert loaded.row.status == "finished" and "is over" in w.said()
    assert len([e for e in loaded.events if isinstance(e, Round)]) == 1


# ---- standings asked for while a round is played ------------------------------------------


async def test_standings_mid_round_count_what_their_title_says(
        tournament_world: TournamentWorld) -> None:
    """Asked for while a round is played, the standings count the complete rounds only:
    "after round 1 of 3" is the table posted at the end of round 1, whatever of round 2
    (results, its bye) is known already; the round being played is named below."""
    w = tournament_world
    host = Asker(GUILD, CHAN, HOST)
    await w.ask("create", host, TournamentSettings(
        "Weekly", "cairo", "swiss", rounds=3, setup=Setup(time_control=TimeControl.off())))
    await w.ask("add", host, [*PEOPLE, Actor("eve", "Eve")])
    await w.ask("start", host)
    # Round 1: two boards and a bye. One board ends: nothing counts yet.
    first, second = (live for _, live in sorted(running(w).items()))
    await resign(w, first.number, first.users[1])
    mid = (await w.ask("standings", host))[0]
    assert "standings before round 1" in mid
    assert "Round 1 is being played (1 of 2 boards finished)" in mid
    assert all("— 0 pts" in line for line in mid.splitlines()[2:])
    await resign(w, second.number, second.users[1])
    posted = next(p.text for p in w.posts if "standings after round 1 of 3" in p.text)
    loaded = await w.services.tournaments.flow.load(1)
    rnd2 = [e for e in loaded.events if isinstance(e, Round)][1]
    bye = rnd2.byes[0]
    assert bye in (first.users[1], second.users[1])  # a loser of round 1 has the bye
    assert f"{bye.capitalize()} — 0 pts" in posted
    # Round 2 is being played: its bye and a finished board do not count yet.
    board = next(live for n, live in sorted(running(w).items()) if n > second.number)
    await resign(w, board.number, board.users[1])
    mid = (await w.ask("standings", host))[0]
    head, note, *table = mid.splitlines()
    assert head == "**Weekly — standings after round 1 of 3**"
    assert note.startswith("Round 2 is being played (1 of 2 boards finished)")
    assert "\n".join(table) == "\n".join(posted.splitlines()[1:len(table) + 1])
    assert f"{bye.capitalize()} — 0 pts" in mid


async def test_matches_calls_a_tournament_game_by_its_tournament_round_and_board(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    host = Asker(GUILD, CHAN, HOST)
    await w.ask("create", host, TournamentSettings(
        "Weekly", "cairo", "swiss", rounds=2, first="chooses",
        setup=Setup(time_control=TimeControl.off())))
    await w.ask("add", host, PEOPLE)
    await w.ask("start", host)
    r = await w.services.matches.viewing.overview(GUILD)
    assert r.reply is not None
    lines = r.reply.text.splitlines()[1:]
    assert len(lines) == 2 and all("DM #" not in line for line in lines), lines
    assert lines[0].startswith("`Match #1` (🏆 Weekly, round 1, board 1) Cairo Corridor"), lines
    assert lines[1].startswith("`Match #2` (🏆 Weekly, round 1, board 2) Cairo Corridor"), lines
    assert "to choose the First Player" in lines[0]


async def test_adding_players_already_entered_says_who_was_in(
        tournament_world: TournamentWorld) -> None:
    """``/host tournament add players:@a @b`` names those already entered, not in silence."""
    w = tournament_world
    host = Asker(GUILD, CHAN, HOST)
    await w.ask("create", host, TournamentSettings("Weekly", "cairo", "swiss", rounds=2))
    (first,) = await w.ask("add", host, PEOPLE[:2])
    assert first == "✅ <@ann>, <@ben> joined **Weekly** (2 entered).", first
    (mixed,) = await w.ask("add", host, [PEOPLE[1], *PEOPLE[2:], PEOPLE[0]])
    assert mixed == ("✅ <@cat>, <@dan> joined **Weekly** (4 entered). <@ben>, <@ann> had "
                     "entered already."), mixed
    (nobody,) = await w.ask("add", host, PEOPLE[2:])
    assert nobody == "<@cat>, <@dan> have already entered Weekly.", nobody
    (one,) = await w.ask("add", host, PEOPLE[:1])
    assert one == "<@ann> has already entered Weekly.", one
    loaded = await w.services.tournaments.flow.load(1)
    assert len(loaded.players) == 4
    # A role of many: the first twenty are named, then a count.
    assert listed([f"p{i}" for i in range(23)]).endswith(", p19 and 3 more")
