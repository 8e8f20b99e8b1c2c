"""Leaderboards: order, shared ranks for ties, pages with buttons, the asker's own rank."""

from __future__ import annotations

import pytest

from bot.core.messages import Actor, Response
from bot.services.leaderboard import Standing, ranked
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GUILD, HOSTY, Harness
from tests.bot.economy_helpers import eco, make_event, private, refused, win_dm

ERIN = Actor("erin", "Erin")


def lines(response: Response) -> list[str]:
    return private(response).splitlines()


def buttons(response: Response) -> list[tuple[str, str]]:
    assert response.reply is not None
    return [(b.label, b.custom_id) for b in response.reply.buttons]


def test_ties_share_the_rank_of_the_first_of_them() -> None:
    board = ranked([Standing(u, u.title(), (float(k),), str(k)) for u, k in
                    [("d", 3), ("a", 9), ("c", 9), ("e", 0), ("b", 5), ("f", 3), ("g", 3)]])
    assert [(rank, st.user_id) for rank, st in board.rows] == [
        (1, "a"), (1, "c"), (3, "b"), (4, "d"), (4, "f"), (4, "g"), (7, "e")]
    assert board.of("f") == (4, board.rows[4][1])
    assert board.of("zed") is None


async def test_garnets_board_order_ties_and_own_rank(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL, DAVE, ERIN])
    for who, n in [(ALICE, 5), (BOB, 9), (CAROL, 9), (DAVE, 3)]:
        await eco(h).grant(GUILD, HOSTY, who, n, "start")
    r = await eco(h).leaderboard(GUILD, CAROL)
    assert lines(r) == [
        "🏆 **Garnets** — **Season 1** (page 1/1, 5 players)",
        "1. Bob — 9 garnets",
        "**1. Carol — 9 garnets**",
        "3. Alice — 5 garnets",
        "4. Dave — 3 garnets",
        "5. Erin — 0 garnets",
        "You: #1 of 5 — 9 garnets",
    ]
    assert buttons(r) == []
    assert lines(await eco(h).leaderboard(GUILD, HOSTY))[-1] == "You are not on this board."


async def test_pages_with_buttons_and_the_askers_rank_off_the_page(h: Harness) -> None:
    people = [Actor(f"p{n:02d}", f"Player {n:02d}") for n in range(1, 26)]
    await make_event(h, "Big", people)
    for n, person in enumerate(people, start=1):
        await eco(h).grant(GUILD, HOSTY, person, 100 - n, "start")  # p01 leads
    me = people[-1]
    first = await eco(h).leaderboard(GUILD, me, "garnets")
    text = lines(first)
    assert text[0] == "🏆 **Garnets** — **Big** (page 1/3, 25 players)"
    assert text[1] == "1. Player 01 — 99 garnets" and text[10] == "10. Player 10 — 90 garnets"
    assert text[-1] == "You: #25 of 25 — 75 garnets"
    assert buttons(first) == [("Next ▶", "garnet:lb:garnets:-:1:2")]
    middle = await eco(h).leaderboard(GUILD, me, "garnets", None, "1", page=2)
    assert lines(middle)[1] == "11. Player 11 — 89 garnets"
    assert buttons(middle) == [("◀ Prev", "garnet:lb:garnets:-:1:1"),
                               ("Next ▶", "garnet:lb:garnets:-:1:3")]
    last = await eco(h).leaderboard(GUILD, me, "garnets", None, "1", page=3)
    assert lines(last)[1:6] == [f"{n}. Player {n} — {100 - n} garnets" for n in range(21, 25)] \
        + ["**25. Player 25 — 75 garnets**"]
    assert buttons(last) == [("◀ Prev", "garnet:lb:garnets:-:1:2")]
    beyond = await eco(h).leaderboard(GUILD, me, "garnets", None, "1", page=40)
    assert lines(beyond)[0].endswith("(page 3/3, 25 players)")


async def test_a_tie_across_a_page_boundary_keeps_its_rank(h: Harness) -> None:
    people = [Actor(f"p{n:02d}", f"Player {n:02d}") for n in range(1, 13)]
    await make_event(h, "Ties", people)
    for person in people[:11]:
        await eco(h).grant(GUILD, HOSTY, person, 4, "start")
    page2 = lines(await eco(h).leaderboard(GUILD, people[10], page=2))
    assert page2[1:3] == ["**1. Player 11 — 4 garnets**", "12. Player 12 — 0 garnets"]


async def test_wins_board_per_event_outside_and_overall(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL])
    await win_dm(h, ALICE, BOB)
    await win_dm(h, ALICE, CAROL)
    await win_dm(h, BOB, CAROL)
    await win_dm(h, DAVE, ALICE, event="none")  # Dave plays in no event: outside events
    event = lines(await eco(h).leaderboard(GUILD, BOB, "wins"))
    assert event[1:4] == ["1. Alice — 2 wins · 0 lost", "**2. Bob — 1 win · 1 lost**",
                          "3. Carol — 0 wins · 2 lost"]
    outside = lines(await eco(h).leaderboard(GUILD, BOB, "wins", None, "none"))
    assert outside[0] == "🏆 **Wins** — outside events (page 1/1, 2 players)"
    assert outside[1:3] == ["1. Dave — 1 win · 0 lost", "2. Alice — 0 wins · 1 lost"]
    assert outside[-1] == "You are not on this board."
    overall = lines(await eco(h).leaderboard(GUILD, BOB, "wins", "cairo", "all"))
    assert overall[0] == "🏆 **Wins** — overall · Cairo Corridor (page 1/1, 4 players)"
    assert overall[1:5] == ["1. Alice — 2 wins · 1 lost", "**2. Bob — 1 win · 1 lost**",
                            "2. Dave — 1 win · 0 lost", "4. Carol — 0 wins · 2 lost"]
    assert "Nobody is on this board yet." in private(
        await eco(h).leaderboard(GUILD, BOB, "wins", "quoridor", "all"))


async def test_rating_board_ranks_by_the_lower_end(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL])
    await win_dm(h, ALICE, BOB)
    text = lines(await eco(h).leaderboard(GUILD, CAROL, "rating"))
    assert text[0] == "🏆 **Rating** — **Season 1** · Cairo Corridor (page 1/1, 3 players)"
    # Alice won (25+), Carol never played (the newcomer's 25.0 ± 25.0), Bob lost.
    assert [t.split(" — ")[0] for t in text[1:4]] == ["1. Alice", "**2. Carol", "3. Bob"]
    assert text[2] == "**2. Carol — 25.0 ± 25.0 (0 games)**"
    assert text[-1] == "Rating ± uncertainty; ranked by the lower end."
    overall = lines(await eco(h).leaderboard(GUILD, CAROL, "rating", "cairo", "all"))
    assert overall[0].endswith("(page 1/1, 2 players)")  # only the rated
    assert overall[-2] == "You are not on this board."


async def test_without_an_open_event_the_board_is_overall(h: Harness) -> None:
    await eco(h).grant(GUILD, HOSTY, ALICE, 2, "outside")
    await make_event(h, "Old", [ALICE])
    await eco(h).grant(GUILD, HOSTY, ALICE, 5, "in event", "Old")
    await eco(h).event_close(GUILD, HOSTY, "Old")
    text = lines(await eco(h).leaderboard(GUILD, ALICE))
    assert text[0] == "🏆 **Garnets** — overall (page 1/1, 1 player)"
    assert text[1] == "**1. Alice — 7 garnets**"


@pytest.mark.parametrize(("by", "game", "why"), [
    ("gold", None, "`by` is garnets, wins, rating, not 'gold'"),
    ("garnets", "cairo", "Garnets are not counted per game"),
    ("wins", "chess", "Unknown game 'chess'"),
])
async def test_bad_options_are_refused(h: Harness, by: str, game: str | None,
                                       why: str) -> None:
    assert why in refused(await eco(h).leaderboard(GUILD, ALICE, by, game))
