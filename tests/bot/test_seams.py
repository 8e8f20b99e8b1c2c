"""Where features meet (issue 28): ONE table of every way a match ends, in every
context a match has, through the console adapter on the test database (SQLite, and
PostgreSQL when the suite runs on it). Each row asserts the one result (or the
refusal), the one booking of garnets, the one rating change, the history, and the
next step of the tournament or season.

Ends that do not exist in a context are rows too, with why, asserting the refusal:
- abort (a courtesy before the second move) is for casual games and practice: a Death
  Match (of an event or not) or a tournament's game is ended by a host (``/void``,
  ``/adjudicate``);
- a draw by agreement is for casual games: the computer takes no offers, a Death
  Match and a tournament's game are drawn only by the rules or a host.
A host's ``/void`` of a tournament's game is not an end of its pairing: the game is
played again. Practice is never rated and books nothing, whatever ends it.
A tie under each tie rule (Cairo Corridor played to 11–11, wherever both sides are
people) and a correction (``/correct``; refused for a tournament's game and for
practice) are rows, in their own block below the table; a drop and a no-show are rows
of the tournaments. A deleted channel is a table of its own at the end of this file,
over the Discord fake (the console cannot delete a channel), in every context. A deck
that cannot go on (over before its first move) is a row where a context takes a deck,
refused where the match is set up; practice and tournaments take no deck (the
option's refusal is their row); a match of such a deck started all the same (one of
old) ends through the one ending (``tests/bot/test_hollow_decks.py``).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.store.models import (
    Elimination,
    LedgerEntry,
    Match,
    MatchResult,
    RatingChange,
    TournamentLog,
)
from tests.bot.conftest import Harness, console_for
from tests.decks import DOT, hollow_deck
from tests.discord_bot import World, bot_may_do_all, challenge_accepted, sends, sub
from tests.engine.positions import tie_game
from tests.fake.discord_world import ALICE, BOB, HANA

pytestmark = pytest.mark.database

EVENT = "S1"


@dataclass(frozen=True)
class Row:
    context: str
    end: str
    result: str  # "won", "drawn", "void" or "refused: <words>"
    garnets: int = 0  # ledger entries the end books
    rated: int = 2  # rating changes (one per player)
    eliminated: int = 0
    next_step: str = ""  # what the tournament or season says next


TINY = {"name": "Tiny", "source": "test",
        "presets": [{"name": "Nothing", "colour": "white", "cells": ["#"], "at": [0, 0],
                     "arrows": ["0,0,N", "0,0,E", "0,0,S", "0,0,W"]},
                    {"name": "Special", "colour": "black", "cells": ["#"], "at": [3, 3],
                     "arrows": ["0,0,N"]}],
        "white": [{"name": "Dot", "cells": ["#"], "arrows": ["0,0,S"]}], "black": []}


def setup(context: str, tmp_path: Path, game: str) -> list[str]:
    """The context's match, running: the lines to type (before the end). ``game``
    "sigma" plays the tiny deck: White's one card ends the game by the rules."""
    deck = tmp_path / "tiny.json"
    deck.write_text(json.dumps(TINY), encoding="utf-8")
    lines = {
        "casual": ["alice: /challenge @bob game:cairo first:me turn:30 banks:1 bank:10",
                   "bob: /accept"],
        "practice": ["alice: /practice game:cairo level:1 first:me clock:true turn:30 "
                     "banks:1 bank:10"],
        "dm": ["host: /dm game:cairo player1:@alice player2:@bob chooser:player1 event:none "
               "turn:30 banks:1 bank:10", "alice: /first @alice"],
        "event dm": [f"host: /host event create name:{EVENT} reward:5 confiscate:winner "
                     f"eliminate:yes", "host: /host event add @alice", "host: /host event add @bob",
                     "host: /grant @alice amount:10 reason:start",
                     "host: /grant @bob amount:10 reason:start",
                     f"host: /dm game:cairo player1:@alice player2:@bob chooser:player1 "
                     f"event:{EVENT} turn:30 banks:1 bank:10", "alice: /first @alice"],
    }
    lines["nomination dm"] = [*lines["event dm"][:5],
                              f"host: /host nomination open nominator:@alice game:cairo "
                              f"event:{EVENT} turn:30 banks:1 bank:10",
                              "alice: /nomination pick opponent:@bob",
                              "bob: /first @alice", "alice: /first @alice",
                              "host: /first @alice"]
    for fmt in ("swiss", "roundrobin", "single", "double"):
        lines[fmt] = [f"host: /host tournament create name:T game:cairo format:{fmt} turn:30 "
                      f"banks:1 bank:10 settings:showup={5 if game.startswith('noshow') else 0}",
                      "host: /host tournament add player:@alice",
                      "host: /host tournament add player:@bob", "host: /host tournament start"]
    if game == "sigma":
        return [f"host: /host deck add file:{deck}", *(line.replace(
            "game:cairo", "game:sigma deck:tiny") for line in lines[context])]
    return lines[context]


TOURNAMENTS = ("swiss", "roundrobin", "single", "double")


def ends(context: str) -> dict[str, list[str]]:
    """Each end as typed; the player who resigns is the one who can (in practice, the
    person: the computer never resigns). A tournament's own ends (a drop, a no-show)
    only in tournaments; the rules' end on the tiny deck where a deck can be chosen
    (not in practice, not in tournaments: ``tests/bot/test_tournament_host.py`` plays
    them to the end)."""
    quitter = "alice" if context == "practice" else "bob"
    own: dict[str, list[str]] = extra_ends(context) | (
        {"drop": ["host: /host tournament drop player:@bob"], "noshow": ["~ wait 301"],
         # the second player never answers the First Player's move: the window counts
         # from the pairing's start for both (not a rated loss on time)
         "noshow second": ["alice: D left", "~ wait 301"]}
        if context in TOURNAMENTS else {})
    if context in ("casual", "dm", "event dm", "nomination dm"):
        own["rules"] = ["alice: Dot 1.1"]
    return own | {
        "resign": [f"{quitter}: /resign"],
        "timeout": ["~ wait 60"],  # alice, to move first, never does
        "draw": ["alice: /draw", "bob: /draw"],
        "abort": ["alice: /abort"],
        "adjudicate": ["host: /adjudicate match:1 winner:@alice reason:seams"],
        "void": ["host: /void match:1 reason:seams"],
    }


WON = ["lost", "won"]
DM_PAY = ["match-reward"]
EVENT_PAY = ["confiscation", "confiscation", "match-reward"]  # reward, and 10 moved
OVER = "is over: @"  # a two-player tournament: its one decisive pairing ends it
REPLAYED = "Match #2 begins"  # a voided tournament game is played again
DRAW_HOSTED = "not drawn by agreement: a host decides"
ABORT_HOSTED = "not aborted by its players: a host decides"
FORFEIT = "@alice wins their pairing by forfeit"
NO_SHOW = "@alice did not make their first move within 5 minutes"
NO_SHOW_SECOND = "@bob did not make their first move within 5 minutes"
# (context, end): match status, results, ledger kinds, rating changes, eliminations,
# the tournament log's events, and a phrase of what comes next (or of the refusal).
TABLE: dict[tuple[str, str], tuple[str, list[str], list[str], int, int, list[str], str]] = {
    ("casual", "resign"): ("finished", WON, [], 2, 0, [], "alice wins Match #1"),
    ("casual", "timeout"): ("finished", WON, [], 2, 0, [], "alice ran out of time"),
    ("casual", "draw"): ("finished", ["drawn", "drawn"], [], 2, 0, [], "ends in a draw"),
    ("casual", "abort"): ("voided", [], [], 0, 0, [], "no result, no rating"),
    ("casual", "adjudicate"): ("finished", WON, [], 2, 0, [], "adjudicated by the host"),
    ("casual", "void"): ("voided", [], [], 0, 0, [], "No result is recorded"),
    ("casual", "rules"): ("finished", WON, [], 2, 0, [], "all cards are played"),
    # Practice: against the computer, never rated, no garnets, no standings.
    ("practice", "resign"): ("finished", [], [], 0, 0, [], "alice resigned"),
    ("practice", "timeout"): ("finished", [], [], 0, 0, [], "alice ran out of time"),
    ("practice", "draw"): ("running", [], [], 0, 0, [],
                           "The computer does not take draw offers"),
    ("practice", "abort"): ("voided", [], [], 0, 0, [], "no result, no rating"),
    ("practice", "adjudicate"): ("finished", [], [], 0, 0, [], "adjudicated by the host"),
    ("practice", "void"): ("voided", [], [], 0, 0, [], "No result is recorded"),
    # A Death Match outside any event: its reward, rated; no draw, no abort.
    ("dm", "resign"): ("finished", WON, DM_PAY, 2, 0, [], "@alice receives 3 garnets"),
    ("dm", "timeout"): ("finished", WON, DM_PAY, 2, 0, [], "@bob receives 3 garnets"),
    ("dm", "draw"): ("running", [], [], 0, 0, [], "A Death Match is not drawn"),
    ("dm", "abort"): ("running", [], [], 0, 0, [], "A Death Match is not aborted"),
    ("dm", "adjudicate"): ("finished", WON, DM_PAY, 2, 0, [], "@alice receives 3 garnets"),
    ("dm", "void"): ("voided", [], [], 0, 0, [], "No result is recorded"),
    ("dm", "rules"): ("finished", WON, DM_PAY, 2, 0, [], "@alice receives 3 garnets"),
    # An event's DM: the event's reward, the loser's garnets confiscated, eliminated.
    ("event dm", "resign"): ("finished", WON, EVENT_PAY, 2, 1, [],
                             "@bob is eliminated from **S1**"),
    ("event dm", "timeout"): ("finished", WON, EVENT_PAY, 2, 1, [],
                              "@alice is eliminated from **S1**"),
    ("event dm", "draw"): ("running", [], [], 0, 0, [], "A Death Match is not drawn"),
    ("event dm", "abort"): ("running", [], [], 0, 0, [], "A Death Match is not aborted"),
    ("event dm", "adjudicate"): ("finished", WON, EVENT_PAY, 2, 1, [],
                                 "@bob's 10 garnets are confiscated"),
    ("event dm", "void"): ("voided", [], [], 0, 0, [], "No result is recorded"),
    ("event dm", "rules"): ("finished", WON, EVENT_PAY, 2, 1, [],
                            "@bob is eliminated from **S1**"),
}
# A nomination's DM (the main match's loser nominates): an event's DM like any other.
TABLE |= {("nomination dm", end): row for (context, end), row in list(TABLE.items())
          if context == "event dm"}
for fmt in ("swiss", "roundrobin", "single", "double"):
    # Double elimination: the loser drops to the losers' bracket, the next round follows.
    after = ["round", "result", "round"] if fmt == "double" else ["round", "result"]
    step = "standings after round 1" if fmt == "double" else OVER
    gone = ["round", "result", "drop", *(["round"] if fmt == "double" else [])]
    TABLE |= {
        (fmt, "resign"): ("finished", WON, [], 2, 0, after, step),
        (fmt, "timeout"): ("finished", WON, [], 2, 0, after, step),
        (fmt, "draw"): ("running", [], [], 0, 0, ["round"], DRAW_HOSTED),
        (fmt, "abort"): ("running", [], [], 0, 0, ["round"], ABORT_HOSTED),
        (fmt, "adjudicate"): ("finished", WON, [], 2, 0, after, step),
        (fmt, "void"): ("voided", [], [], 0, 0, ["round"], REPLAYED),
        # A drop or a no-show: the pairing is lost by forfeit and withdrawn; the match
        # is voided, never rated, never replayed (no ghost match).
        (fmt, "drop"): ("voided", [], [], 0, 0, gone, FORFEIT),
        (fmt, "noshow"): ("voided", [], [], 0, 0, gone, NO_SHOW),
        (fmt, "noshow second"): ("voided", [], [], 0, 0, gone, NO_SHOW_SECOND),
    }


async def observe(h: Harness, tmp_path: Path, context: str, end: str) -> dict[str, object]:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    game = "sigma" if end == "rules" else end
    for line in with_deck(with_rule(setup(context, tmp_path, game), end), end, tmp_path):
        await console.handle_line(line)
    before = "" if end == STUCK else out.getvalue()  # refused at the setup
    for line in ends(context)[end]:
        await console.handle_line(line)
    said = out.getvalue()[len(before):]
    async with h.db.session() as s:
        match = (await s.scalars(select(Match).order_by(Match.id))).first()
        results = (await s.scalars(select(MatchResult.outcome))).all()
        ledger = (await s.scalars(select(LedgerEntry.kind).where(
            LedgerEntry.kind != "grant"))).all()
        rated = await s.scalar(select(func.count()).select_from(RatingChange))
        out_ = await s.scalar(select(func.count()).select_from(Elimination))
        log = (await s.scalars(select(TournamentLog.data).order_by(TournamentLog.seq))).all()
        by = dict((await s.execute(select(MatchResult.user_id, MatchResult.outcome))).all())
        net = dict((await s.execute(select(LedgerEntry.user_id, func.sum(LedgerEntry.amount))
                                    .where(LedgerEntry.kind != "grant")
                                    .group_by(LedgerEntry.user_id))).all())
        gone = (await s.scalars(select(Elimination.user_id))).all()
    return {"by": by, "net": {user: int(n) for user, n in net.items() if n}, "out": gone,
            "status": match.status if match else "none", "results": sorted(results),
            "ledger": sorted(ledger), "rated": rated, "eliminated": out_,
            "log": [d.get("type") for d in log], "said": said}


# --- Ties under each tie rule, and corrections (rows of their own, beside the table) ---
# A tie: Cairo Corridor played to a level end (11–11, ``tie_game`` of
# tests/engine/positions.py), the First Player Alice (Black) moving first; 54 moves, so
# Bob places the last piece: the first rule makes Alice lose, the second Bob. Not in
# practice: the computer chooses its own moves, so no scripted game reaches a tie
# (``tests/bot/test_answers.py`` plays one).
# A correction: Bob resigns, then a host gives Bob the win; the result, the garnets
# (reversed, then booked again), the ratings and the elimination are replaced, not
# added. A tournament's game is refused (``/host tournament adjudicate`` corrects a
# pairing), a practice game too (it has no result).
TIE_RULES = ("first-player-loses", "last-mover-loses", "draw")
CONTEXTS_OF_PEOPLE = ("casual", "dm", "event dm", "nomination dm", *TOURNAMENTS)
TIE_SEED = 85  # of ``tie_game``: 54 moves
TIE = {"first-player-loses": "11–11: a tie, and alice, the First Player, loses",
       "last-mover-loses": "11–11: a tie, and bob, who placed the last piece, loses",
       "draw": "a tie: the game is drawn"}
CORRECTED = "corrected the result of {}: @bob wins (before: alice won) — seams"
BY_TOURNAMENT = "is a game of a tournament: its result is the tournament's, corrected"
NO_RESULT = "a practice match against the computer: it has no result to correct"
# (context, end): who won ("alice", "bob", None for a draw, "" for no result), the garnets
# each player has from the match net of reversals, and who is eliminated.
WHO: dict[tuple[str, str], tuple[str | None, dict[str, int], list[str]]] = {}
for context in CONTEXTS_OF_PEOPLE:
    label = "Match #1" if context == "casual" else "DM #1"
    dm, event = context != "casual" and context not in TOURNAMENTS, "event" in context or (
        context == "nomination dm")
    steps = {"tie first-player-loses": "bob", "tie last-mover-loses": "alice",
             "tie draw": None, "correct": "alice" if context in TOURNAMENTS else "bob"}
    for end, winner in steps.items():
        loser = {"alice": "bob", "bob": "alice"}.get(winner or "")
        pay = ({winner: 15, loser: -10} if event else {winner: 3}) if dm and winner and \
            loser else {}
        WHO[(context, end)] = (winner, {k: v for k, v in pay.items() if k},
                               [loser] if event and loser else [])
        won = WON if winner else ["drawn", "drawn"]
        if context in TOURNAMENTS:
            knockout = context in ("single", "double")
            after = ["round", "result", "round"] if context == "double" else [
                "round", "result"]
            step = "standings after round 1" if context == "double" else OVER
            if end == "tie draw" and knockout:  # a drawn knockout game: another decides
                after, step = ["round"], "deciding game 2"
            elif end == "tie draw":  # equal on points and every tie-break: no one winner
                step = "T is over: @alice and @bob share first place!"
            TABLE[(context, end)] = ("finished", won, [], 2, 0, after,
                                     BY_TOURNAMENT if end == "correct" else step)
            continue
        booked = (EVENT_PAY if event else DM_PAY) if winner and dm else []
        phrase = TIE.get(end[4:], "")
        if end == "correct":
            booked = [*booked, *["correction"] * (2 if event else 1 if dm else 0), *booked]
            phrase = CORRECTED.format(label)
        TABLE[(context, end)] = ("finished", won, booked, 2, len(WHO[(context, end)][2]),
                                 [], phrase)
# A tournament's pairing corrected by ``/host tournament adjudicate`` after its game
# ended: taken after the end (a two-player Swiss, round robin, single elimination: the
# final standings counted again; the match keeps its own result), and refused in a
# double elimination whose grand final is paired (W1-1 decided its sides: a bracket is
# not played back).
for fmt in TOURNAMENTS:
    TABLE[(fmt, "adjudicate after")] = (
        "finished", WON, [], 2, 0, ["round", "result", "round"] if fmt == "double"
        else ["round", "result", "result"],
        "Round 1's W1-1 cannot get another winner: GF (round 2) was paired with its result"
        if fmt == "double" else "corrected **T** after its end: round 1, board 1 is now")
    WHO[(fmt, "adjudicate after")] = ("alice", {}, [])
TABLE[("practice", "correct")] = ("finished", [], [], 0, 0, [], NO_RESULT)
WHO[("practice", "correct")] = ("", {}, [])


def with_rule(lines: list[str], end: str) -> list[str]:
    """The setup's lines with the tie rule of a tie's row."""
    if not end.startswith("tie "):
        return lines
    return [line.replace("game:cairo", f"game:cairo tie:{end[4:]}") for line in lines]


def extra_ends(context: str) -> dict[str, list[str]]:
    """Ties (where both sides are people) and a correction after a resignation: Bob
    resigns, then a host gives Bob the win."""
    moves = tie_game(TIE_SEED)
    own = {} if context == "practice" else {
        f"tie {rule}": [f"{'alice' if ply % 2 == 0 else 'bob'}: {move}"
                        for ply, move in enumerate(moves)] for rule in TIE_RULES}
    quitter = "alice" if context == "practice" else "bob"
    if context in TOURNAMENTS:  # a tournament's correction: the host decides the pairing
        own["adjudicate after"] = ["bob: /resign", "host: /host tournament adjudicate board:1 "
                                   "result:0-1 round:1 reason:seams"]
    return own | {"correct": [f"{quitter}: /resign",
                              f"host: /correct match:1 winner:@{quitter} reason:seams"]} | (
        stuck_ends(context))


# --- A deck that cannot go on (rows of their own, beside the table) ---
# Sigma Escape on a deck whose game is over before its first move (Nothing's one side
# points into the black Special card: no white card fits; ``hollow_deck`` of
# tests/decks.py). Where a context takes a deck (casual, DM, event DM, nomination
# DM) the match is refused where it is set up: no match, no result, nothing booked,
# nobody out. Practice takes no deck (``deck:`` is not its): refused. A tournament takes
# the game's own options (``options:``, where ``deck:`` typed alone is read), so a
# shipped deck only, never a server's: refused.
STUCK = "stuck deck"


def stuck_ends(context: str) -> dict[str, list[str]]:
    return {STUCK: []}  # the setup itself is the end: refused


def with_deck(lines: list[str], end: str, folder: Path) -> list[str]:
    """The setup's lines on the stuck deck, for its rows."""
    if end != STUCK:
        return lines
    deck = hollow_deck(folder, "stuck", [DOT], [])
    return [f"host: /host deck add file:{deck}", *(line.replace(
        "game:cairo", "game:sigma deck:stuck") for line in lines)]


OVER_AT_START = "would be over before its first move (both players passed"
for context in ("casual", "dm", "event dm", "nomination dm"):
    TABLE[(context, STUCK)] = ("none", [], [], 0, 0, [], OVER_AT_START)
# No practice, no tournament: nothing logged.
TABLE[("practice", STUCK)] = ("none", [], [], 0, 0, [], "There is no option `deck:` here")
for context in TOURNAMENTS:
    TABLE[(context, STUCK)] = ("none", [], [], 0, 0, [],
                               "Option 'deck' is one of reconstructed, reconstructed-v1, "
                               "reconstructed-v2, reconstructed-v3, reconstructed-v4, not 'stuck'")


CONTEXTS = ("casual", "practice", "dm", "event dm", "nomination dm", "swiss", "roundrobin",
            "single", "double")


def test_the_table_covers_every_end_in_every_context() -> None:
    assert set(TABLE) == {(c, e) for c in CONTEXTS for e in ends(c)}


# A tie is 54 moves, a second each row on PostgreSQL: the tie rules' rows run there in
# one context of people (casual) and one of tournaments (Swiss); every context on
# SQLite. What a tie books (a result, garnets, ratings, a tournament's log) is booked
# as every other end is, which the other rows hold on PostgreSQL.
TIES_ON_POSTGRESQL = ("casual", "swiss")


def _row(context: str, end: str) -> object:
    if end.startswith("tie ") and context not in TIES_ON_POSTGRESQL:
        return pytest.param(context, end, marks=pytest.mark.sqlite_only(
            "a tie's rule is the engine's; its booking is held on PostgreSQL by the "
            "casual and Swiss tie rows and by every other end"))
    return (context, end)


@pytest.mark.parametrize(("context", "end"), [_row(*key) for key in TABLE])
async def test_seam(h: Harness, tmp_path: Path, context: str, end: str) -> None:
    seen = await observe(h, tmp_path, context, end)
    status, results, ledger, rated, eliminated, log, phrase = TABLE[(context, end)]
    said = re.sub(r"\s+", " ", str(seen["said"]))
    assert (seen["status"], seen["results"], seen["ledger"], seen["rated"],
            seen["eliminated"], seen["log"]) == (
        status, results, sorted(ledger), rated, eliminated, log), said[:600]
    assert phrase in said, said[:600]
    if (context, end) in WHO:  # who won, the garnets net of reversals, who is out
        winner, net, out = WHO[(context, end)]
        wins = [user for user, outcome in dict(seen["by"]).items() if outcome == "won"]
        drawn = bool(seen["by"]) and not wins
        assert ((wins or [None if drawn else ""])[0], seen["net"], seen["out"]) == (
            winner, net, out), said[:600]
    # the forfeit ends it: a two-player tournament is over
    if end in ("drop", "noshow", "noshow second"):
        assert OVER in said and "begins" not in said, said[:600]
    # One result, announced once; nothing of the match runs on after its end.
    assert said.count("wins Match #1") + said.count("wins DM #1") <= 1
    if status != "running":
        assert all(live.number != 1 for live in h.services.matches.live.values())




# --- A deleted channel (a table of its own, over the Discord fake) ---
# The console cannot delete a channel: these rows run the Discord adapter on the fake
# (``world``), on the same test database. The match's channel (a DM's or a tournament's
# thread; a casual game's channel) is deleted while it runs, then a host ends it
# (``/adjudicate``): the match ends once, with one
# result, one booking, one rating change, the elimination and the tournament's next
# step, and the host hears what could not be posted (never a false "Posted in").
# (context): the garnets booked, eliminations, the tournament's log (practice: no result,
# no rating).
DELETED: dict[str, tuple[list[str], int, list[str]]] = {
    "casual": ([], 0, []),
    "practice": ([], 0, []),
    "dm": (DM_PAY, 0, []),
    "event dm": (EVENT_PAY, 1, []),
    "nomination dm": (EVENT_PAY, 1, []),
    **{fmt: ([], 0, ["round", "result", "round"] if fmt == "double" else ["round", "result"])
       for fmt in TOURNAMENTS},
}


async def discord_setup(world: World, context: str) -> None:
    """The context's match, running, through slash commands on the fake."""
    bot_may_do_all(world)
    times = {"turn": 30, "banks": 1, "bank": 10}
    if context == "casual":
        await challenge_accepted(world)
        return
    if context == "practice":
        await world.slash(ALICE, "practice", game="cairo", level=1, first="me", clock=True,
                          **times)
        return
    if context in ("event dm", "nomination dm"):
        await sub(world, HANA, "host event", "create", name=EVENT, reward=5,
                  confiscate="winner", eliminate=True)
        for person in (ALICE, BOB):
            await sub(world, HANA, "host event", "add", player=person)
            await world.slash(HANA, "grant", player=person, amount=10, reason="start")
    if context == "nomination dm":
        await sub(world, HANA, "host nomination", "open", nominator=ALICE, game="cairo",
                  event=EVENT, thread=True, **times)
        await sub(world, ALICE, "nomination", "pick", opponent=BOB)
        # Alice, of the higher priority, chooses the First Player in the DM's thread.
        thread = max(i for i, c in world.fake.channels.items() if "thread_metadata" in c)
        await world.slash(ALICE, "first", player=ALICE, channel_id=thread)
        return
    if context in ("dm", "event dm"):
        await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB,
                          chooser="lots", thread=True,
                          event=EVENT if context == "event dm" else "none", **times)
        return
    await sub(world, HANA, "host tournament", "create", name="T", game="cairo",
              format=context, settings="showup=0", thread=True, **times)
    for person in (ALICE, BOB):
        await sub(world, HANA, "host tournament", "add", player=person)
    await sub(world, HANA, "host tournament", "start")


@pytest.mark.parametrize("context", list(DELETED))
async def test_a_deleted_channel(world: World, context: str) -> None:
    await discord_setup(world, context)
    live = world.live()
    channel = int(live.channel_id)
    await world._feed(lambda: world.fake.delete_channel(channel))
    calls = await world.slash(HANA, "adjudicate", match=live.number, winner=ALICE,
                              reason="deleted")
    assert live.finished and world.bot.services.matches.live.get(live.id) is None
    told = [c.content for c in sends(calls) if c.ok and c.content
            and not c.url.endswith(f"/channels/{channel}/messages")]
    # A thread's match: the host hears that the thread is gone; a casual or practice
    # game in the (deleted) channel itself: the host's answer is the result.
    heard = ("adjudicated by the host" if context in ("casual", "practice")
             else f"garnet could not post in <#{channel}>")
    assert any(heard in t for t in told), told
    assert not any("Posted in" in t for t in told), told
    ledger, eliminated, log = DELETED[context]
    async with world.db.session() as s:
        match = await s.get(Match, live.id)
        by = dict((await s.execute(select(MatchResult.user_id, MatchResult.outcome))).all())
        kinds = (await s.scalars(select(LedgerEntry.kind).where(
            LedgerEntry.kind != "grant"))).all()
        rated = await s.scalar(select(func.count()).select_from(RatingChange))
        out = (await s.scalars(select(Elimination.user_id))).all()
        events = (await s.scalars(select(TournamentLog.data).order_by(TournamentLog.seq))).all()
    assert match is not None and match.status == "finished"
    people = context != "practice"
    assert by == ({str(ALICE.id): "won", str(BOB.id): "lost"} if people else {})
    assert (sorted(kinds), rated, len(out), [d.get("type") for d in events]) == (
        sorted(ledger), 2 if people else 0, eliminated, log)
    if eliminated:
        assert out == [str(BOB.id)]
