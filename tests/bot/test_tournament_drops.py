"""Withdrawals in a running tournament: the forfeit a drop gives is the pairing's end
(no match starts for it, nothing is rated, the winner's next board is free), and a
drop made by mistake is undone within the round."""

from __future__ import annotations

from sqlalchemy import select

from bot.core.messages import Actor
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.tournaments import Reported
from bot.services.tournaments.host import Setup
from bot.store.models import Match, RatingChange
from tests.tournament_world import (
    CHAN,
    GUILD,
    HOST,
    TournamentWorld,
    resign,
    running,
    swiss_of_four,
)

CLOCKED = TimeControl.build(turn=60, banks=2, bank=60)


async def test_a_drop_forfeits_the_pairing_and_starts_no_ghost_match(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    await swiss_of_four(w, Setup(time_control=CLOCKED))
    live = running(w)
    assert sorted(live) == [1, 2]
    ann_cat = next(m for m in live.values() if "cat" in m.users)
    texts = await w.ask("drop", Asker(GUILD, CHAN, HOST), Actor("cat", "Cat"))
    said = "\n".join(texts)
    assert "wins their pairing by forfeit" in said, said
    assert "begins" not in said, said  # no match for the pairing the forfeit ended
    # Only the other board plays on: no clock runs for the forfeited pairing.
    assert sorted(running(w)) == [m for m in (1, 2) if m != ann_cat.number]
    async with w.db.session() as s:
        numbers = (await s.scalars(select(Match.number))).all()
        rated = (await s.scalars(select(RatingChange))).all()
    assert sorted(numbers) == [1, 2] and rated == []
    loaded = await w.services.tournaments.flow.load(1)
    forfeits = [e for e in loaded.events if isinstance(e, Reported)]
    assert len(forfeits) == 1 and forfeits[0].outcome.forfeit
    # The other board ends: round 2 starts at once and the forfeit's winner plays in it.
    other = next(n for n in running(w))
    await resign(w, other, running(w)[other].users[0])  # type: ignore[attr-defined]
    assert "Round 2" in w.said() or "round 2" in w.said()
    assert any(ann_cat.users[0] in m.users for m in running(w).values())
    assert not any("waits" in p.text for p in w.posts)
    # Nothing of the first round runs on after the tournament ends.
    for number, match in list(running(w).items()):
        await resign(w, number, match.users[0])  # type: ignore[attr-defined]
    loaded = await w.services.tournaments.flow.load(1)
    assert loaded.row.status == "finished" and running(w) == {}


async def test_a_drop_made_by_mistake_is_undone_within_the_round(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    await swiss_of_four(w, Setup(time_control=CLOCKED))
    ann_cat = next(m for m in running(w).values() if "cat" in m.users)
    await w.ask("drop", Asker(GUILD, CHAN, HOST), Actor("cat", "Cat"))
    assert ann_cat.number not in running(w)
    texts = await w.ask("reinstate", Asker(GUILD, CHAN, HOST), Actor("cat", "Cat"))
    said = "\n".join(texts)
    assert "the withdrawal is undone, the forfeit on board" in said, said
    assert "begins" in said, said  # the pairing's game is played after all
    loaded = await w.services.tournaments.flow.load(1)
    state = loaded.core.state(loaded.events)
    assert "cat" not in state.withdrawn and len(state.pending()) == 2
    replay = next(m for m in running(w).values() if "cat" in m.users)
    assert replay.number not in (1, 2)
    # The game decides the pairing: cat wins it, and the round goes on as usual.
    await resign(w, replay.number, "ann")  # type: ignore[attr-defined]
    loaded = await w.services.tournaments.flow.load(1)
    results = [e for e in loaded.events if isinstance(e, Reported)]
    assert not results[-1].outcome.forfeit
    # Again reinstating someone who plays on is refused.
    texts = await w.ask("reinstate", Asker(GUILD, CHAN, HOST), Actor("cat", "Cat"))
    assert "there is nobody to reinstate" in texts[0]


async def test_a_forfeit_stands_once_its_round_is_over(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    await swiss_of_four(w, Setup(time_control=CLOCKED, auto=False))
    await w.ask("drop", Asker(GUILD, CHAN, HOST), Actor("cat", "Cat"))
    (other,) = running(w)
    await resign(w, other, running(w)[other].users[0])  # type: ignore[attr-defined]
    texts = await w.ask("reinstate", Asker(GUILD, CHAN, HOST), Actor("cat", "Cat"))
    assert texts[0].endswith("from the next round. The forfeit this round stands: round 1 "
                             "is over."), texts
    assert running(w) == {}
