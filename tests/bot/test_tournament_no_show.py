"""The no-show rule of a clocked tournament, as directors run it: a pairing's first
game waits ``showup:`` minutes for its First Player's first move (their clock runs only
after that); whoever has not moved by then loses the pairing by forfeit, is withdrawn,
and it is announced; the match is voided, never rated. Kept across a restart."""

from __future__ import annotations

from sqlalchemy import select

from bot.core.messages import Actor
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.tournaments import Reported
from bot.services.tournaments.host import Setup, TournamentSettings
from bot.store.models import Match, RatingChange
from tests.tournament_world import TournamentWorld, tournament_world_on

HOST = Actor("host", "host", roles=frozenset({"host-role"}))
GUILD, CHAN = "g1", "c1"
PEOPLE = [Actor(n, n.capitalize()) for n in ("ann", "ben", "cat", "dan")]
CLOCKED = TimeControl.build(turn=60, banks=2, bank=60)  # 3 minutes at most a turn


async def swiss(w: TournamentWorld, setup: Setup) -> str:
    await w.ask("create", Asker(GUILD, CHAN, HOST),
                TournamentSettings("Weekly", "cairo", "swiss", rounds=2, setup=setup))
    await w.ask("add", Asker(GUILD, CHAN, HOST), PEOPLE)
    texts = await w.ask("start", Asker(GUILD, CHAN, HOST))
    assert "begins with 4 players" in texts[0], texts
    return "\n".join(texts)


def running(w: TournamentWorld) -> dict[int, object]:
    return {live.number: live for live in w.services.matches.live.values()}


async def move(w: TournamentWorld, number: int) -> None:
    live = running(w)[number]
    first = live.users[0]  # type: ignore[attr-defined]
    response = await w.services.matches.typed(Asker(GUILD, live.channel_id,  # type: ignore
                                                    Actor(first, first)), "D left")
    w.posts += response.posts


async def test_an_absent_first_player_forfeits_and_is_withdrawn(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    started = await swiss(w, Setup(time_control=CLOCKED, show_up=600.0))
    assert sorted(running(w)) == [1, 2]
    assert started.count("The First Player has 10 minutes to make the first move") == 2
    absent = running(w)[2].users[0]  # type: ignore[attr-defined]
    # Board 1's First Player moves after 5 minutes: no bank is spent, nobody flags.
    await w.clock.advance(300)
    await move(w, 1)
    live = running(w)[1]
    assert live.banks_left == [2, 2] and live.ply == 1  # type: ignore[attr-defined]
    # Board 2's First Player never comes: their clock did not run meanwhile.
    await w.clock.advance(299)
    assert 2 in running(w) and "did not make the first move" not in w.said()
    await w.clock.advance(2)
    said = w.said()
    assert f"<@{absent}> did not make the first move within 10 minutes" in said, said
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


async def test_the_window_holds_across_a_restart(database_url: str) -> None:
    from bot.core.clock import VirtualClock
    clock = VirtualClock()
    w = await tournament_world_on(database_url, clock)
    await swiss(w, Setup(time_control=CLOCKED, show_up=600.0))
    await clock.advance(200)
    await w.services.matches.stop()
    clock = VirtualClock(start=clock.now())
    w2 = await tournament_world_on(database_url, clock)
    await clock.advance(399)
    assert "did not make the first move" not in w2.said()
    await clock.advance(2)
    assert w2.said().count("did not make the first move within 10 minutes") == 2
    loaded = await w2.services.tournaments.flow.load(1)
    assert len(loaded.core.state(loaded.events).withdrawn) == 2
    await w2.close()
    await w.db.close()


async def test_no_window_without_a_clock_or_when_turned_off(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    started = await swiss(w, Setup(time_control=CLOCKED, show_up=0.0))
    assert "to make the first move" not in started
    await w.clock.advance(179)
    assert sorted(running(w)) == [1, 2]  # the clock runs at once: 3 minutes a turn
