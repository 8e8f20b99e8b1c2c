"""Standings and tie-breaks against calculations by hand (FIDE C.07, article 16 for
rounds without a game)."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from bot.services.tournaments import (
    Dropped,
    Event,
    Format,
    Options,
    Outcome,
    Pairing,
    Reported,
    Round,
    Tournament,
)
from bot.services.tournaments.image import standings_png, tournament_png

F, S, D = Outcome.FIRST, Outcome.SECOND, Outcome.DRAW
PLAYERS = tuple(f"P{i}" for i in range(1, 9))


def play_swiss_of_eight() -> tuple[Tournament, list[Event]]:
    t = Tournament(Format.SWISS, PLAYERS, Options(rounds=3))
    events: list[Event] = []
    results = [
        {1: F, 2: F, 3: D, 4: F},
        {1: F, 2: D, 3: S, 4: F},
        {1: D, 2: Outcome.SECOND_BY_FORFEIT, 3: F, 4: S},
    ]
    for res in results:
        rnd = t.pair_next(events)
        events.append(rnd)
        events += [Reported(rnd.number, board, outcome) for board, outcome in res.items()]
    return t, events


def test_eight_player_swiss_of_three_rounds_pairs_as_worked_out() -> None:
    _, events = play_swiss_of_eight()
    rounds = [[(p.first, p.second) for p in e.pairings] for e in events if isinstance(e, Round)]
    # Round 1: top half against bottom half, the first player alternating by board.
    assert rounds[0] == [("P1", "P5"), ("P6", "P2"), ("P3", "P7"), ("P8", "P4")]
    # After it: 1 point P1 P6 P8; ½ P3 P7; 0 P2 P4 P5. P1–P6 in the top group; P8
    # floats down to P7 rather than P3 (P3 and P8 both moved first in round 1, both
    # want to move second now); P3 floats down to P2; P4–P5.
    assert rounds[1] == [("P6", "P1"), ("P7", "P8"), ("P2", "P3"), ("P4", "P5")]
    # After it: 2 P6; 1½ P3 P8; 1 P1 P4 P7; 0 P2 P5. P6 floats down to P8, not
    # to P3: P8 would then have to float to P1 (it has met P4 and P7), and P1 and
    # P8 both moved first then second, both want to move first. P3 floats to P4;
    # P1–P7; P2–P5.
    assert rounds[2] == [("P8", "P6"), ("P3", "P4"), ("P1", "P7"), ("P5", "P2")]


def test_eight_player_swiss_standings_equal_the_hand_calculation() -> None:
    t, events = play_swiss_of_eight()
    # Results (round: opponent result):
    #   P1: P5 W, P6 L, P7 W        = 2       P5: P1 L, P4 L, P2 L      = 0
    #   P2: P6 L, P3 L, P5 W        = 1       P6: P2 W, P1 W, P8 D      = 2½
    #   P3: P7 D, P2 W, P4 forfeit L = 1½     P7: P3 D, P8 D, P1 L      = 1
    #   P4: P8 L, P5 W, P3 forfeit W = 2      P8: P4 W, P7 D, P6 D      = 2
    # No round was missed, so every opponent counts at their score (art. 16.3).
    # The forfeits are games against a dummy scoring the player's own score, at
    # most the scheduled opponent's (16.4.1): P3 gets min(1½, 2) = 1½, P4 gets
    # min(2, 1½) = 1½.
    # Buchholz (BH), Median Buchholz (cut highest and lowest; for P3 the forfeit
    # loss is cut instead of the lowest, 16.5), Sonneborn-Berger (points × value):
    #   P1: 0 + 2½ + 1 = 3½; median 1;   SB 1·0 + 0·2½ + 1·1 = 1
    #   P2: 2½ + 1½ + 0 = 4; median 1½; SB 0 + 0 + 1·0 = 0
    #   P3: 1 + 1 + 1½ = 3½; cut 1½ (forfeit) and 1 → 1; SB ½·1 + 1·1 + 0 = 1½
    #   P4: 2 + 0 + 1½ = 3½; median 1½; SB 0·2 + 1·0 + 1·1½ = 1½
    #   P5: 2 + 2 + 1 = 5;   median 2;   SB 0
    #   P6: 1 + 2 + 2 = 5;   median 2;   SB 1·1 + 1·2 + ½·2 = 4
    #   P7: 1½ + 2 + 2 = 5½; median 2;   SB ½·1½ + ½·2 + 0 = 1¾
    #   P8: 2 + 1 + 2½ = 5½; median 2;   SB 1·2 + ½·1 + ½·2½ = 3¾
    # Wins (forfeit wins count): P1 2, P2 1, P3 1, P4 2, P5 0, P6 2, P7 0, P8 1.
    # Order: P6 2½; on 2: P8 (BH 5½), then P4 and P1 (BH 3½ each) apart on the
    # median (1½ against 1); P3 1½; on 1: P7 (BH 5½), P2 (4); P5.
    expected = [
        ("P6", 2.5, 5.0, 2.0, 4.0, 2),
        ("P8", 2.0, 5.5, 2.0, 3.75, 1),
        ("P4", 2.0, 3.5, 1.5, 1.5, 2),
        ("P1", 2.0, 3.5, 1.0, 1.0, 2),
        ("P3", 1.5, 3.5, 1.0, 1.5, 1),
        ("P7", 1.0, 5.5, 2.0, 1.75, 0),
        ("P2", 1.0, 4.0, 1.5, 0.0, 1),
        ("P5", 0.0, 5.0, 2.0, 0.0, 0),
    ]
    table = t.standings(events)
    got = [(s.player, s.points, s.tiebreaks["buchholz"], s.tiebreaks["median_buchholz"],
            s.tiebreaks["sonneborn_berger"], s.tiebreaks["wins"]) for s in table]
    assert got == expected
    assert [s.rank for s in table] == list(range(1, 9))
    # P3 forfeited the last round: withdrawn, as a no-show is.
    assert [s.player for s in table if not s.active] == ["P3"]


def test_a_withdrawn_players_missed_rounds_count_as_draws_for_their_opponents() -> None:
    t = Tournament(Format.SWISS, ("A", "B", "C", "D"), Options(rounds=3))
    events = [
        Round(1, (Pairing(1, "A", "B"), Pairing(2, "C", "D"))),
        Reported(1, 1, F), Reported(1, 2, F),
        Dropped("D"),
        Round(2, (Pairing(1, "A", "C"),), ("B",)),
        Reported(2, 1, D),
        Round(3, (Pairing(1, "B", "C"),), ("A",)),
        Reported(3, 1, S),
    ]
    table = {s.player: s for s in t.standings(events)}
    assert {p: s.points for p, s in table.items()} == {"A": 2.5, "B": 1.0, "C": 2.5, "D": 0.0}
    # D's two missed rounds come only before more missed rounds or the end (16.2.5):
    # for D's opponents they count as draws, so D counts 0 + ½ + ½ = 1.
    assert table["C"].tiebreaks["buchholz"] == 1 + 2.5 + 1  # D, A, B
    # A's bye: a dummy at A's own score, at most half the rounds, 1½ (16.4.2).
    assert table["A"].tiebreaks["buchholz"] == 1 + 2.5 + 1.5
    assert table["A"].tiebreaks["sonneborn_berger"] == 1 * 1 + 0.5 * 2.5 + 1 * 1.5
    # D's own: C (2½), then two missed rounds against a dummy of D's score, 0; the
    # median cuts a missed round rather than the lowest and then C.
    assert table["D"].tiebreaks["buchholz"] == 2.5
    assert table["D"].tiebreaks["median_buchholz"] == 0
    assert not table["D"].active
    # Wins count the bye of a full point.
    assert table["A"].tiebreaks["wins"] == 2
    # A and C: equal on points; Buchholz puts A first (5 against 4½).
    assert [s.player for s in t.standings(events)][:2] == ["A", "C"]


def test_round_robin_ranks_by_head_to_head_first() -> None:
    t = Tournament(Format.ROUND_ROBIN, ("A", "B", "C", "D"))
    events: list[Event] = []
    winners = {frozenset("AB"): "B", frozenset("AC"): "A", frozenset("AD"): "A",
                frozenset("BC"): "C", frozenset("BD"): "B", frozenset("CD"): "D"}
    while not t.finished(events):
        rnd = t.pair_next(events)
        events.append(rnd)
        events += [Reported(rnd.number, p.board, p.outcome(winners[frozenset(p.players)]))
                   for p in rnd.pairings]
    table = t.standings(events)
    # A, B: 2 each; C, D: 1 each. B beat A; D beat C.
    assert [(s.player, s.points, s.tiebreaks["head_to_head"]) for s in table] == [
        ("B", 2.0, 1.0), ("A", 2.0, 0.0), ("D", 1.0, 1.0), ("C", 1.0, 0.0)]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_three_way_tie_that_head_to_head_cannot_break_goes_to_sonneborn_berger() -> None:
    t = Tournament(Format.ROUND_ROBIN, ("A", "B", "C"))
    events: list[Event] = []
    winners = {frozenset("AB"): "A", frozenset("BC"): "B", frozenset("AC"): "C"}
    while not t.finished(events):
        rnd = t.pair_next(events)
        events.append(rnd)
        events += [Reported(rnd.number, p.board, p.outcome(winners[frozenset(p.players)]))
                   for p in rnd.pairings]
    table = t.standings(events)
    assert {s.rank for s in table} == {1}  # a perfect circle: all share first place
    assert all(s.tiebreaks["head_to_head"] == 1 for s in table)


def test_standings_image_is_a_phone_sized_png() -> None:
    t, events = play_swiss_of_eight()
    png = tournament_png(t, events, "Spring Swiss")
    image = Image.open(BytesIO(png))
    assert image.format == "PNG" and image.width == 900 and image.height < 1000
    assert standings_png("Empty", (), t.tiebreaks).startswith(b"\x89PNG")
