"""The no-show rule of a clocked tournament, as directors run it: a pairing's first
game gives both players ``showup:`` minutes from its start to make their first move
(each one's clock runs only after that, or from their move); whoever has not moved by
then (the First Player, or the second player after the First Player moved) loses the
pairing by forfeit, is withdrawn, and it is announced; the match is voided, never
rated. Kept across a restart."""

from __future__ import annotations

from sqlalchemy import select

from bot.core.messages import Actor
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches import DMSetup
from bot.services.matches.kit import START_RETRIES
from bot.services.matches.timing import BOARD_WAIT, MAX_LAG
from bot.services.tournaments import Reported
from bot.services.tournaments.host import Setup
from bot.services.tournaments.host.flow import NOT_BEGUN_AGAIN
from bot.store.models import Match, RatingChange
from tests.render_faults import overloaded
from tests.tournament_world import (
    GUILD,
    HOST,
    PEOPLE,
    TournamentWorld,
    resign,
    running,
    swiss_of_four,
    tournament_world_on,
)

CLOCKED = TimeControl.build(turn=60, banks=2, bank=60)  # 3 minutes at most a turn


async def move(w: TournamentWorld, number: int, seat: int = 0) -> None:
    """Board ``number``'s player of ``seat`` makes a legal move."""
    live = running(w)[number]
    player = live.users[seat]
    game, state = live.game, live.state
    text = "D left" if seat == 0 else game.notation(game.legal_moves(state)[0])
    response = await w.services.matches.play.typed(Asker(GUILD, live.channel_id,
                                                    Actor(player, player)), text)
    w.posts += response.posts


async def forfeited(w: TournamentWorld, board: int, absent: str) -> None:
    """Board ``board`` lost by ``absent`` by forfeit, withdrawn; its match voided, unrated."""
    loaded = await w.services.tournaments.flow.load(1)
    state = loaded.core.state(loaded.events)
    (report,) = [e for e in loaded.events if isinstance(e, Reported) and e.board == board]
    assert report.outcome.forfeit and state.withdrawn == {absent}
    match_id = next(g.match_id for g in loaded.games if g.board == board)
    async with w.db.session() as s:
        status = await s.scalar(select(Match.status).where(Match.id == match_id))
        rated = (await s.scalars(select(RatingChange.match_id))).all()
    assert status == "voided" and match_id not in rated


async def test_an_absent_first_player_forfeits_and_is_withdrawn(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    started = await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    assert sorted(running(w)) == [1, 2]
    assert started.count("Each player has 10 minutes from now to make their first move") == 2
    absent = running(w)[2].users[0]
    # Board 1's First Player moves after 5 minutes: no bank is spent, nobody flags.
    await w.clock.advance(300)
    await move(w, 1)
    live = running(w)[1]
    assert live.banks_left == [2, 2] and live.ply == 1
    # Board 2's First Player never comes: their clock did not run meanwhile.
    await w.clock.advance(299)
    assert 2 in running(w) and "did not make their first move" not in w.said()
    await w.clock.advance(2)
    said = w.said()
    assert f"<@{absent}> did not make their first move within 10 minutes" in said, said
    assert "wins by forfeit" in said and "is withdrawn" in said
    assert 2 not in running(w)
    loaded = await w.services.tournaments.flow.load(1)
    state = loaded.core.state(loaded.events)
    (report,) = [e for e in loaded.events if isinstance(e, Reported) and e.board == 2]
    assert report.outcome.forfeit and absent in state.withdrawn
    async with w.db.session() as s:
        voided = await s.scalar(select(Match.status).where(Match.number == 2))
        rated = (await s.scalars(select(RatingChange.match_id))).all()
        second = await s.scalar(select(Match.id).where(Match.number == 2))
    assert voided == "voided" and second not in rated


async def test_an_absent_second_player_forfeits_and_is_withdrawn(
        tournament_world: TournamentWorld) -> None:
    """The window counts from the pairing's start for both: a second player who never
    answers the First Player's move loses by forfeit when it ends (not on time, rated)."""
    w = tournament_world
    await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    # Both First Players move after 5 minutes; board 2's second player answers late.
    await w.clock.advance(300)
    await move(w, 1)
    await move(w, 2)
    present, absent = running(w)[1].users
    # The second players' clocks (3 minutes a turn at most) do not run in the window.
    await w.clock.advance(290)
    await move(w, 2, seat=1)
    await w.clock.advance(9)
    assert sorted(running(w)) == [1, 2], w.said()
    assert "did not make their first move" not in w.said()
    await w.clock.advance(2)
    said = w.said()
    assert f"<@{absent}> did not make their first move within 10 minutes" in said, said
    assert f"<@{present}> wins by forfeit; <@{absent}> is withdrawn" in said
    assert "ran out of time" not in said
    assert sorted(running(w)) == [2]  # board 2 plays on: both moved
    await forfeited(w, 1, absent)


async def test_a_first_move_late_in_the_window_leaves_the_second_player_a_turn(
        tournament_world: TournamentWorld) -> None:
    """A First Player who moves in the window's last seconds cannot make the second
    player forfeit at once: the second has one turn's time (60 s) to answer, and only
    then, still absent, forfeits."""
    w = tournament_world
    await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    await w.clock.advance(595)  # both First Players move 5 s before the window ends
    await move(w, 1)
    await move(w, 2)
    await move(w, 2, seat=1)  # board 2's second player answers at once
    present, absent = running(w)[1].users
    await w.clock.advance(10)  # the window is over: board 1's second player is not out
    assert sorted(running(w)) == [1, 2], w.said()
    assert "did not make their first move" not in w.said()
    await w.clock.advance(45)  # 55 s after the first move: still within their turn
    assert sorted(running(w)) == [1, 2], w.said()
    await w.clock.advance(10)  # a turn's time after the first move, still absent
    said = w.said()
    assert f"<@{absent}> did not make their first move" in said, said
    assert f"<@{present}> wins by forfeit; <@{absent}> is withdrawn" in said
    assert "ran out of time" not in said
    await forfeited(w, 1, absent)


async def test_a_second_player_who_moves_in_the_window_plays_on(
        tournament_world: TournamentWorld) -> None:
    """Their first turn's clock starts when the window ends (or they move); after their
    move the game runs on its normal clock."""
    w = tournament_world
    await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    await w.clock.advance(120)
    await move(w, 1)
    await move(w, 2)
    live = running(w)[1]
    assert live.extra >= 479  # what is left of the window
    # 7 minutes later (more than a whole turn with both banks), no bank is spent.
    await w.clock.advance(420)
    await move(w, 1, seat=1)
    assert live.banks_left == [2, 2] and live.ply == 2
    assert live.extra == 0.0
    # The window's end passes: board 1 plays on; board 2's second player forfeits.
    await w.clock.advance(60)
    said = w.said()
    assert sorted(running(w)) == [1], said
    (second,) = [u for u in PEOPLE if f"<@{u.id}> did not make their first move" in said]
    await forfeited(w, 2, second.id)
    # Then the First Player's turn runs the normal clock: 3 minutes at most, from
    # their board (reported by no adapter here: the latest start, ``BOARD_WAIT``).
    await w.clock.advance(BOARD_WAIT + 180 - 60 - 1)
    assert 1 in running(w)
    await w.clock.advance(2 + MAX_LAG)  # the flag falls once the lag allowed is over
    assert 1 not in running(w) and "ran out of time" in w.said()


async def test_the_window_holds_across_a_restart(database_url: str) -> None:
    from bot.core.clock import VirtualClock
    clock = VirtualClock()
    w = await tournament_world_on(database_url, clock)
    await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    await clock.advance(200)
    await w.services.matches.stop()
    clock = VirtualClock(start=clock.now())
    w2 = await tournament_world_on(database_url, clock)
    await clock.advance(399)
    assert "did not make their first move" not in w2.said()
    await clock.advance(2)
    assert w2.said().count("did not make their first move within 10 minutes") == 2
    loaded = await w2.services.tournaments.flow.load(1)
    assert len(loaded.core.state(loaded.events).withdrawn) == 2
    await w2.close()
    await w.db.close()


async def test_the_second_players_window_holds_across_a_restart(database_url: str) -> None:
    from bot.core.clock import VirtualClock
    clock = VirtualClock()
    w = await tournament_world_on(database_url, clock)
    await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    await clock.advance(100)
    await move(w, 1)
    await move(w, 2)
    absent = running(w)[1].users[1]
    await clock.advance(100)
    await w.services.matches.stop()
    clock = VirtualClock(start=clock.now())
    w2 = await tournament_world_on(database_url, clock)
    # Board 2's second player answers 6 minutes after the move: the window, restored
    # from the database, kept their clock from running.
    await clock.advance(300)
    await move(w2, 2, seat=1)
    assert running(w2)[2].banks_left == [2, 2]
    await clock.advance(99)
    assert "did not make their first move" not in w2.said()
    await clock.advance(2)
    said = w2.said()
    assert said.count("did not make their first move within 10 minutes") == 1, said
    assert f"<@{absent}> did not make their first move" in said
    assert sorted(running(w2)) == [2]
    await forfeited(w2, 1, absent)
    await w2.close()
    await w.db.close()


async def test_no_window_without_a_clock_or_when_turned_off(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    started = await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=0.0))
    assert "to make their first move" not in started
    await w.clock.advance(179)
    assert sorted(running(w)) == [1, 2]  # the clock runs at once: 3 minutes a turn


async def test_a_move_that_beats_the_window_by_a_hair_is_not_voided(
        tournament_world: TournamentWorld) -> None:
    """The window's void is made only if nobody moved since it was decided: a move that
    lands between the two (under the match's lock) stands."""
    w = tournament_world
    await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    live = running(w)[1]
    await move(w, 1)
    closed = await w.services.matches.close(live.id, "late", at_ply=0)
    assert closed.posts == [] and 1 in running(w)
    await move(w, 1, seat=1)
    assert live.ply == 2


async def test_a_board_waits_while_its_player_plays_a_dm_elsewhere(
        tournament_world: TournamentWorld) -> None:
    """Issue 36, item 4: a player still in a DM in another channel when the round
    begins: their board waits, says whom for and where, and starts (its no-show window
    with it) once the DM is over; moving then is in time."""
    w = tournament_world
    ann, erin = PEOPLE[0], Actor("erin", "Erin")
    dm = await w.services.matches.choosing.start_dm(Asker(GUILD, "dm", HOST),
                                           DMSetup("cairo", [ann, erin], chooser="lots",
                                                   tc=TimeControl.build(turn=3600)))
    w.posts += dm.posts
    started = await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    boards = {live.channel_id: live for live in running(w).values()}
    assert set(boards) == {"dm", "c1"} and "ann" not in boards["c1"].users
    (waits,) = [line for line in started.splitlines() if "waits" in line]
    assert waits.startswith("Board ") and "<@ann> is still playing match #1 in <#dm>" in waits
    await w.clock.advance(900)  # longer than the window: nobody forfeits for it
    await resign(w, 1, "ann")
    theirs = next(live for live in running(w).values() if "ann" in live.users)
    assert theirs.channel_id == "c1"
    assert theirs.show_up_by is not None and abs(theirs.show_up_by - w.clock.now() - 600) < 1
    await w.clock.advance(500)
    await move(w, theirs.number, 0)
    await w.clock.advance(BOARD_WAIT)
    await move(w, theirs.number, 1)
    assert theirs.ply == 2 and not theirs.finished
    loaded = await w.services.tournaments.flow.load(1)
    # The other board's players never came: only they are withdrawn.
    assert not set(theirs.users) & loaded.core.state(loaded.events).withdrawn


async def test_the_window_runs_from_a_start_tried_again(
        tournament_world: TournamentWorld) -> None:
    """Boards whose first board could not be drawn until the fourth try (12.5 minutes,
    past a 10-minute window): the window runs from when they begin."""
    w = tournament_world
    overloaded(w.services.matches, 6)  # both boards, three tries each
    started = await swiss_of_four(w, Setup(time_control=CLOCKED, show_up=600.0))
    assert started.count("could not begin") == 2 and not running(w)
    # Its window is announced when it begins, not while its start is tried again.
    assert "Each player has 10 minutes from now" not in started
    await w.clock.advance(sum(START_RETRIES))
    assert sorted(running(w)) == [1, 2]
    await w.clock.advance(590)
    assert "did not make their first move" not in w.said()
    await w.clock.advance(NOT_BEGUN_AGAIN + 10)
    assert w.said().count("did not make their first move within 10 minutes") == 2
