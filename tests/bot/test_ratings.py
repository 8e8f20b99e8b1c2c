"""Ratings after rated matches equal what OpenSkill's own ``rate()`` gives for the
same players and finishing order."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import select

from bot.core.requests import Asker
from bot.services.ratings import finishing_ranks, rate_match
from bot.store.models import Match, Rating, RatingChange
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOSTY, Harness
from tests.bot.economy_helpers import dm, eco, private, win_dm

LIBRARY = PlackettLuce()  # the library's defaults, as the bot uses them


async def stored(h: Harness, game: str = "cairo",
                 guild: str = GUILD) -> dict[str, tuple[float, float, int]]:
    async with h.db.session() as s:
        rows = await s.scalars(select(Rating).where(Rating.game == game,
                                                    Rating.guild_id == guild))
        return {r.user_id: (r.mu, r.sigma, r.games) for r in rows}


def expect(before: dict[str, PlackettLuceRating], order: list[str],
           ranks: list[int]) -> dict[str, PlackettLuceRating]:
    """The library's update for players ``order`` with ``ranks``."""
    teams = [[before.get(u) or LIBRARY.rating()] for u in order]
    after = LIBRARY.rate(teams, ranks=[float(r) for r in ranks])
    return {**before, **{u: team[0] for u, team in zip(order, after, strict=True)}}


def same(found: dict[str, tuple[float, float, int]],
         wanted: dict[str, PlackettLuceRating]) -> None:
    assert set(found) == set(wanted)
    for user, rating in wanted.items():
        mu, sigma, _ = found[user]
        assert mu == pytest.approx(rating.mu, rel=1e-12, abs=1e-12), user
        assert sigma == pytest.approx(rating.sigma, rel=1e-12, abs=1e-12), user


async def test_a_dm_rates_both_players_as_the_library_does(h: Harness) -> None:
    match_id = await win_dm(h, ALICE, BOB)
    wanted = expect({}, ["alice", "bob"], [1, 2])
    found = await stored(h)
    same(found, wanted)
    assert {u: games for u, (_, _, games) in found.items()} == {"alice": 1, "bob": 1}
    assert wanted["alice"].mu > 25 > wanted["bob"].mu
    async with h.db.session() as s:
        changes = {c.user_id: (c.rank, c.mu_before, c.mu_after) for c in (await s.scalars(
            select(RatingChange).where(RatingChange.match_id == match_id))).all()}
    assert changes == {"alice": (1, 25.0, found["alice"][0]),
                       "bob": (2, 25.0, found["bob"][0])}


async def test_a_result_rated_again_changes_no_rating(h: Harness) -> None:
    """A retried booking, or a twin process's, of a result already rated: nothing
    changes, and nothing is said of ratings."""
    match_id = await win_dm(h, ALICE, BOB)
    before = await stored(h)
    async with h.db.session() as s, s.begin():
        match = await s.get(Match, match_id)
        assert match is not None
        assert await rate_match(s, match, ["alice", "bob"], 0, 0.0) == []
    assert await stored(h) == before
    async with h.db.session() as s:
        assert len((await s.scalars(select(RatingChange).where(
            RatingChange.match_id == match_id))).all()) == 2


async def test_a_series_of_matches_follows_the_library_step_by_step(h: Harness) -> None:
    wanted: dict[str, PlackettLuceRating] = {}
    for winner, loser in [(ALICE, BOB), (BOB, CAROL), (CAROL, ALICE), (ALICE, BOB)]:
        await win_dm(h, winner, loser)
        wanted = expect(wanted, [winner.id, loser.id], [1, 2])
        same(await stored(h), wanted)


async def test_a_draw_ranks_both_alike(h: Harness) -> None:
    await win_dm(h, ALICE, BOB)
    before = await stored(h)
    match_id = await dm(h, ALICE, BOB)
    by_seat = list(h.host.live[match_id].users)
    r = await h.host.controls.adjudicate(Asker(GUILD, CHAN, HOSTY), match_id, None, "agreed draw")
    assert "ends in a draw" in r.posts[0].text
    wanted = expect({u: LIBRARY.rating(mu=m, sigma=s) for u, (m, s, _) in before.items()},
                    by_seat, [1, 1])
    same(await stored(h), wanted)


async def test_four_player_quoridor_rates_all_four_by_finishing_order(h: Harness) -> None:
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "quoridor", [BOB, CAROL, DAVE],
                               first="me", tc=None)
    for player in (BOB, CAROL, DAVE):
        started = await h.host.lobby.answer(Asker(GUILD, CHAN, player), 1, accept=True)
    assert started.posts, r
    # Dave leaves first, then Bob; with two left, Carol resigns and Alice wins.
    await h.host.play.resign(Asker(GUILD, CHAN, DAVE), 1)
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), 1)
    final = await h.host.play.resign(Asker(GUILD, CHAN, CAROL), 1)
    assert "<@alice> wins Match #1" in final.posts[0].text
    assert "Ratings (Quoridor):" in final.posts[0].text
    wanted = expect({}, ["alice", "bob", "carol", "dave"], [1, 3, 2, 4])
    same(await stored(h, "quoridor"), wanted)
    assert await stored(h, "cairo") == {}  # per game


async def test_unrated_casual_games_change_no_rating(h: Harness) -> None:
    match_id = await h.casual(rated=False)
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), match_id)
    assert await stored(h) == {}
    rated = await h.casual(rated=True)
    r = await h.host.play.resign(Asker(GUILD, CHAN, BOB), rated)
    same(await stored(h), expect({}, ["alice", "bob"], [1, 2]))
    assert "Ratings (Cairo Corridor): Alice 27.6 ± " in r.posts[0].text
    # A casual match pays no garnets.
    assert "garnets" not in r.posts[0].text


async def test_ratings_are_per_server(h: Harness) -> None:
    await win_dm(h, ALICE, BOB)
    assert await stored(h, guild="g2") == {}
    text = private(await eco(h).rating("g2", ALICE))
    assert text == "Alice has played no rated games yet; a newcomer starts at 25.0 ± 25.0."


async def test_rating_shows_mu_with_three_sigma_and_the_rank(h: Harness) -> None:
    await win_dm(h, ALICE, BOB)
    mu, sigma, _ = (await stored(h))["alice"]
    text = private(await eco(h).rating(GUILD, BOB, ALICE))
    assert text == (f"**Ratings of Alice** (rating ± uncertainty):\n"
                    f"Cairo Corridor: {mu:.1f} ± {3 * sigma:.1f} (1 rated game, #1 of 2)")
    assert "no rated games of Quoridor" in private(
        await eco(h).rating(GUILD, BOB, ALICE, "quoridor"))
    assert "Unknown game 'chess'" in private(await eco(h).rating(GUILD, BOB, ALICE, "chess"))


@pytest.mark.parametrize(("seats", "winner", "out", "ranks"), [
    (2, 0, [], [1, 2]),
    (2, 1, [], [2, 1]),
    (2, None, [], [1, 1]),
    (4, 2, [], [2, 2, 1, 2]),  # a pawn reached its goal: the other three share 2nd
    (4, 0, [3, 1], [1, 3, 2, 4]),  # the last out beats the first out
    (4, 1, [0, 2, 3], [4, 1, 3, 2]),
    (4, None, [3], [1, 1, 1, 2]),
])
def test_finishing_ranks(seats: int, winner: int | None, out: list[int],
                         ranks: list[int]) -> None:
    assert finishing_ranks(seats, winner, out) == ranks
