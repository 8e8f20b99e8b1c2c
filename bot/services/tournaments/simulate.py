"""garnet tournament simulate: a tournament of random results, without Discord or a
database, so an organiser can try a format and a number of rounds.

    garnet tournament simulate --format swiss --players 64 --rounds 7 --seed 1
    garnet tournament simulate --format double --players 6 --json
    garnet tournament simulate --format roundrobin --players 5 --image rr.png

Players are P1…PN in seed order (P1 the top seed); a better seed wins more often
(an Elo-like model over a 600-point spread). Pairings come from the same code the
bot uses. Results are written from the first-named player's side: 1-0, 0-1, ½-½,
and +/-, -/+, -/- for forfeits. --json prints
{"rounds": [{"round", "pairings": [[first, second], …], "byes", "results"}, …],
"standings": [{"rank", "player", "points", "tiebreaks", "place", "active"}, …]}.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from bot.services.tournaments.model import (
    Dropped,
    Event,
    FirstRule,
    Format,
    Options,
    Outcome,
    Pairing,
    Reported,
    TournamentError,
)
from bot.services.tournaments.tournament import Tournament


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="garnet tournament", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play a tournament of random results",
                         description=__doc__,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    sim.add_argument("--format", required=True, choices=[f.value for f in Format])
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--rounds", type=int, help="Swiss: rounds (default ceil(log2 N))")
    sim.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    sim.add_argument("--json", action="store_true", help="print JSON")
    sim.add_argument("--bestof", type=int, default=1, help="games per pairing")
    sim.add_argument("--first", choices=[r.value for r in FirstRule],
                     default=FirstRule.ALTERNATE.value, help="who moves first")
    sim.add_argument("--double", action="store_true", help="round robin: play it twice")
    sim.add_argument("--third-place", action="store_true",
                     help="single elimination: a match for third place")
    sim.add_argument("--draws", type=float, default=0.1, help="chance a game is drawn")
    sim.add_argument("--forfeits", type=float, default=0.0,
                     help="chance a pairing is forfeited (the absentee withdraws)")
    sim.add_argument("--drops", type=float, default=0.0,
                     help="chance a player withdraws after a round")
    sim.add_argument("--image", type=Path, help="write the bracket or standings as PNG")
    args = parser.parse_args(argv)
    try:
        fmt = Format(args.format)
        options = Options(rounds=args.rounds, double=args.double, best_of=args.bestof,
                          first=FirstRule(args.first), third_place=args.third_place,
                          seed=args.seed)
        tournament = Tournament(fmt, tuple(f"P{i}" for i in range(1, args.players + 1)),
                                options)
        started = time.perf_counter()
        events = simulate(tournament, random.Random(args.seed), draws=args.draws,
                          forfeits=args.forfeits, drops=args.drops)
        elapsed = time.perf_counter() - started
    except TournamentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = summary(tournament, events)
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        print(text(tournament, report, elapsed))
    if args.image:
        from bot.services.tournaments.image import tournament_png

        args.image.write_bytes(tournament_png(tournament, events, f"{fmt.value} simulation"))
        if not args.json:
            print(f"image: {args.image}")
    return 0


def simulate(tournament: Tournament, rng: random.Random, *, draws: float = 0.1,
             forfeits: float = 0.0, drops: float = 0.0) -> list[Event]:
    """Every round paired and played with random results; the events."""
    events: list[Event] = []
    n = len(tournament.players)
    rating = {p: 2000 - 600 * i / max(1, n - 1) for i, p in enumerate(tournament.players)}
    while not tournament.finished(events):
        rnd = tournament.pair_next(events)
        events.append(rnd)
        for pairing in rnd.pairings:
            if pairing.decided is None:
                events.append(_play(tournament, rnd.number, pairing, rng, rating, draws,
                                    forfeits))
        gone = tournament.state(events).withdrawn
        for p in tournament.players:
            if p not in gone and drops and rng.random() < drops:
                events.append(Dropped(p))
    return events


def _play(tournament: Tournament, number: int, pairing: Pairing, rng: random.Random,
          rating: dict[str, float], draws: float, forfeits: float) -> Reported:
    if forfeits and rng.random() < forfeits:
        roll = rng.random()
        absent = None if roll < 0.1 else pairing.first if roll < 0.55 else pairing.second
        winner = None if absent is None else pairing.opponent(absent)
        return Reported(number, pairing.board, pairing.outcome(winner, forfeit=True))
    first = pairing.first
    if pairing.chooser is not None and rng.random() < 0.5:
        first = pairing.second
    series = tournament.series(pairing, first)
    while not series.finished:
        a, b = series.first, series.second
        if rng.random() < draws:
            series = series.record(None)
            continue
        expected = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
        series = series.record(a if rng.random() < expected else b)
    return Reported(number, pairing.board, series.outcome(pairing),
                    first if pairing.chooser is not None else None)


def summary(tournament: Tournament, events: list[Event]) -> dict[str, Any]:
    state = tournament.state(events)
    rounds = []
    for rnd in state.rounds:
        ordered = [_as_played(p, state.firsts.get((rnd.number, p.board))) for p in rnd.pairings]
        entry: dict[str, Any] = {
            "round": rnd.number,
            "pairings": [[a, b] for a, b in ordered],
            "byes": list(rnd.byes),
            "results": [_result(state.outcomes[(rnd.number, p.board)], p, a)
                        for p, (a, _) in zip(rnd.pairings, ordered, strict=True)],
        }
        if tournament.format.elimination:
            entry["matches"] = [p.match for p in rnd.pairings]
        rounds.append(entry)
    return {"format": tournament.format.value, "players": len(tournament.players),
            "rounds": rounds,
            "standings": [s.to_json() for s in tournament.standings(events)]}


def _as_played(p: Pairing, first: str | None) -> tuple[str, str]:
    return (p.first, p.second) if first in (None, p.first) else (p.second, p.first)


def _result(outcome: Outcome, p: Pairing, first: str) -> str:
    """The outcome from the side of whoever moved first."""
    if first == p.first or outcome in (Outcome.DRAW, Outcome.DOUBLE_FORFEIT):
        return outcome.value
    swap = {Outcome.FIRST: Outcome.SECOND, Outcome.SECOND: Outcome.FIRST,
            Outcome.FIRST_BY_FORFEIT: Outcome.SECOND_BY_FORFEIT,
            Outcome.SECOND_BY_FORFEIT: Outcome.FIRST_BY_FORFEIT}
    return swap[outcome].value


_SHORT = {"buchholz": "BH", "median_buchholz": "mBH", "sonneborn_berger": "SB",
          "head_to_head": "H2H", "wins": "W"}


def text(tournament: Tournament, report: dict[str, Any], elapsed: float) -> str:
    fmt = tournament.format
    lines = [f"{fmt.value}: {len(tournament.players)} players, "
             f"{len(report['rounds'])} rounds"]
    for rnd in report["rounds"]:
        lines.append(f"\nRound {rnd['round']}")
        for i, ((a, b), result) in enumerate(zip(rnd["pairings"], rnd["results"],
                                                 strict=True)):
            match = f"{rnd['matches'][i]:>4}  " if "matches" in rnd else f"{i + 1:>3}. "
            lines.append(f"  {match}{a:>5} – {b:<5} {result}")
        if rnd["byes"]:
            lines.append("  bye: " + ", ".join(rnd["byes"]))
    lines.append("\nStandings")
    names = [t.value for t in tournament.tiebreaks]
    lines.append("  place  player  points  " + "  ".join(f"{_SHORT[n]:>5}" for n in names))
    for row in report["standings"]:
        values = "  ".join(f"{row['tiebreaks'][n]:>5g}" for n in names)
        lines.append(f"  {row['place']:>5}  {row['player']:<6}  {row['points']:>6g}  {values}")
    lines.append(f"\npaired and played in {elapsed:.3f} s")
    return "\n".join(lines)
