"""``python -m bot bench --quick``: the honest benchmark runs end to end (the real
adapter through the transport-level fake, render workers, a database) in seconds, a
real bot process whose /metrics it scrapes over HTTP for its figures.

The three quick benches (``--compare``, ``--metrics-compare``, ``--viewers``) run side
by side in one test: each mostly waits (its real seconds, its set-up's pauses; ~8 s of
CPU in 15-30 s), so together they take the longest one's time (~30 s), not the sum
(~65 s, a test worker idle most of it). Each report is checked as before, alone."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest


def test_the_figures_are_read_from_the_metrics_buckets() -> None:
    """The bench reports what Prometheus's histogram_quantile would: the buckets of the
    bot's /metrics, counted between two scrapes (``bench.scrape``)."""
    from bench.scrape import delta, figures, merged

    key = ("garnet_reminder_lateness_seconds", ())
    before = {key: {0.01: 1.0, 0.02: 1.0, 0.05: 1.0, float("inf"): 1.0}}
    after = {key: {0.01: 2.0, 0.02: 4.0, 0.05: 5.0, float("inf"): 5.0}}
    counted = delta(before, after)["reminder_late_ms"]
    assert counted == {0.01: 1.0, 0.02: 3.0, 0.05: 4.0, float("inf"): 4.0}
    assert figures(counted) == {"p50": 15.0, "p99": 48.8, "max": 50.0, "n": 4}
    both = merged([{"reminder_late_ms": counted}, {"reminder_late_ms": {
        str(le): n for le, n in counted.items()}}])  # as a child's JSON gives them
    assert figures(both["reminder_late_ms"])["n"] == 8
    assert figures({}) == {"p50": None, "p99": None, "max": None, "n": 0}


def test_near_end_games_are_stored_as_the_bot_rebuilds_them() -> None:
    """The rows the bench stores for a game started near its end (``bench.nearend``)
    rebuild, as a restart does (``final_position``), the position the engine reached,
    a few plies before the game's end; the movers' clocks are left as they stood."""
    import random
    from types import SimpleNamespace

    from bench.nearend import played_out, records
    from engine.animation import Ply, final_position
    from engine.registry import get_game

    for key in ("cairo", "quoridor", "pathwayz", "sigma"):
        game = get_game(key)
        start = final_position(game, [])
        plies = played_out(game, start, random.Random(3))
        assert plies is not None and len(plies) > 2, key
        live = SimpleNamespace(id=7, game=game, state=start, ply=0, banks_left=[36, 35],
                               time_used=[0.0, 4.0])
        rows = records(live, plies[:-2], at=100.0)
        assert [r.ply for r in rows] == list(range(1, len(plies) - 1))
        rebuilt = final_position(game, [Ply("move", r.seat, r.notation) for r in rows])
        assert not game.is_over(rebuilt), key
        assert game.is_over(final_position(game, [r.notation for r in rows] + plies[-2:]))
        assert {(r.seat, r.banks_left, r.time_used) for r in rows} <= {
            (0, 36, 0.0), (1, 35, 4.0)}
        assert all(r.turn_starts_at == r.at == 100.0 and r.elapsed == 0.0 for r in rows)


# The quick benches' command lines, by what each compares.
QUICK = {
    # Chatter in every think time; a third of the DMs a ply before their end.
    # One render worker a bot (each warms up every kind of board; two only cost time).
    "compare": ["--compare", "--json", "--seconds", "3", "--chatter", "1", "--near-end",
                "0.34", "--plies-left", "1", "--render-processes", "1"],
    # Boards drawn in the bot's process (no render workers to start and warm, twice),
    # no game replayed near its end at set-up: the metrics' switch is what this compares.
    "metrics": ["--metrics-compare", "--rounds", "1", "--json", "--seconds", "2",
                "--render-processes", "0", "--near-end", "0"],
    "viewers": ["--viewers", "4", "--dms", "2", "--json", "--seconds", "2",
                "--render-processes", "0", "--near-end", "0"],
}


def test_the_quick_benches_side_by_side(tmp_path: Path) -> None:
    """Each quick bench a process of its own, all started at once; each report then
    checked as that bench's own test (below)."""
    outs = {name: (tmp_path / f"{name}.out", tmp_path / f"{name}.err") for name in QUICK}
    procs = {}
    for name, args in QUICK.items():
        out, err = outs[name]
        with out.open("w") as stdout, err.open("w") as stderr:  # files: no pipe fills
            procs[name] = subprocess.Popen([sys.executable, "-m", "bot", "bench",
                                            "--quick", *args], stdout=stdout, stderr=stderr)
    reports: dict[str, Any] = {}
    try:
        deadline = time.monotonic() + 240
        for name, proc in procs.items():
            code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
            out, err = outs[name]
            assert code == 0, f"bench {name} failed ({code}):\n{err.read_text()[-4000:]}"
            reports[name] = json.loads(out.read_text())
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    quick_bench_reports_every_figure_with_priorities_and_first_come_first_served(
        reports["compare"])
    quick_bench_compares_metrics_on_and_off(reports["metrics"])
    quick_bench_with_live_viewers_puts_the_bots_share_side_by_side(reports["viewers"])


def quick_bench_reports_every_figure_with_priorities_and_first_come_first_served(
        out: list[dict[str, Any]]) -> None:
    """``--compare``: each size with the pacer's priorities, then without (``--fifo``),
    with the pacer's waits by pace and the boards still on their way; the first run
    (the bench as it runs by default) reports every figure."""
    first, second = out
    assert (first["order"], second["order"]) == ("priorities", "fifo")
    for report in (first, second):
        assert report["started"] == 6 and report["moves"] >= 6, report
        assert report["pacer"]["board"]["sent"] >= report["rate_limit_wait_ms"]["n"] > 0
        assert report["pacer"]["low"]["sent"] > 0  # the DMs' set-up posts, reminders
        assert report["boards_on_their_way"]["n"] >= 0
        assert report["limit_spells"] == report["limit_refusals"] == 0
        # Labelled by the DMs that ran; posts split into paced and exempt answers.
        running = report["running"]
        assert 0 < running["min"] <= running["median"] <= running["max"] <= 6
        assert report["paced_per_second"] + report["exempt_per_second"] == pytest.approx(
            report["posts_per_second"], abs=0.15)
        assert report["reminders"] == "stress" and report["refused"] == 0
        # The run window by window (a 3-s run: one window of 10 s): its boards, the
        # posts under the global limit, the DMs let in and refused.
        (row,) = report["timeline"]
        assert row["at_s"] == 0 and 0 < row["running"] <= 6
        assert row["boards"] == report["moves"] - report["unfinished"] > 0
        assert 0 < row["board_wait_p99_ms"] <= row["board_wait_max_ms"]
        assert row["paced_per_second"] == pytest.approx(
            report["paced_per_second"] * report["seconds"] / 10, abs=0.2)
        # A DM that finished is followed by a new one, let in: none refused.
        assert row["started"] <= report["games_finished"] and row["refused"] == 0
        # The four games dealt round the DMs; the moves of more than one played.
        games = report["games"]
        assert list(games) == ["cairo", "quoridor", "pathwayz", "sigma"]
        assert sum(g["dms"] for g in games.values()) == 6
        assert sum(g["moves"] for g in games.values()) == report["moves"]
        assert sum(g["moves"] > 0 for g in games.values()) >= 2
        # Every move in the bench's own board wait, those unfinished at the end too.
        waits = report["board_wait_ms"]
        assert waits["n"] == report["moves"] >= report["unfinished"] >= 0
        assert 0 < waits["p50"] <= waits["p99"] <= waits["max"]
        # Chatter (talk, illegal moves, /board, /time, autocomplete): not moves.
        assert sum(report["chatter"].values()) > 0
        assert report["answered"]["interactions"] >= 0
        # Games started near their end finish in the run, and are booked.
        assert report["near_end"]["dms"] == 2 and report["near_end"]["plies_stored"] > 0
        assert report["ended_in_setup"] == 0  # stored, not typed: no clock lapsed
        assert report["games_finished"] >= 1
        assert sum(g["finished"] for g in games.values()) == report["games_finished"]
    report = first
    assert report["dms"] == 6 and report["started"] == 6 and report["pace"] == "stress"
    assert report["moves"] >= 6 and report["moves_per_second"] > 0
    latency = report["bot_latency_ms"]
    assert latency["n"] >= 6 and 0 < latency["p50"] <= latency["p99"] <= latency["max"]
    assert report["rate_limit_wait_ms"]["n"] == latency["n"]
    assert report["posts"] >= report["moves"] and report["global_limit"] == 50
    assert 0 < report["posts_per_second"] <= 50 and report["429s"] == 0
    assert report["reminder_late_ms"]["n"] > 0  # reminders at 59 s left fall due
    assert report["loop_lag_ms"]["n"] > 0
    # Scraped from the bot's /metrics as the DMs went: moves, leases, matches.
    seen = report["metrics"]
    assert 6 <= seen["moves"] <= report["moves"]
    assert seen["leases_held"] >= 1 and seen["matches_running"] >= 1
    memory = report["memory_mb"]
    assert memory["processes"] >= 3  # the bot and its two render workers, at least
    assert memory["total"] > memory["main"] > 0
    # Games finished are booked once: a result and a rating change per player.
    assert report["finished_in_db"] == report["games_finished"] >= 1
    assert report["results"] == report["rating_changes"] == 2 * report["games_finished"]
    assert report["rewards"] >= report["games_finished"]  # the winners' (none for a draw)


def quick_bench_compares_metrics_on_and_off(report: dict[str, Any]) -> None:
    """``--metrics-compare``: each size with the bot's metrics on, then off
    (``METRICS=off``), moves/s for each and the difference; with them off nothing is
    read from /metrics, and the report says so rather than inventing figures."""
    on, off = report["runs"]
    assert (on["metrics_on"], off["metrics_on"]) == (True, False)
    for run in (on, off):
        assert run["started"] == 6 and run["moves"] >= 6 and run["moves_per_second"] > 0
    assert on["bot_latency_ms"]["n"] > 0 and on["loop_lag_ms"]["n"] > 0
    assert on["metrics"]["moves"] >= 6
    for figure in ("bot_latency_ms", "rate_limit_wait_ms", "reminder_late_ms",
                   "loop_lag_ms", "metrics"):
        assert off[figure] is None
    (cost,) = report["cost"]
    assert cost["dms"] == 6 and cost["on"] == [on["moves_per_second"]]
    assert cost["off"] == [off["moves_per_second"]]
    assert cost["cost_percent"] == round(
        (off["moves_per_second"] - on["moves_per_second"]) / off["moves_per_second"] * 100, 1)


def test_metrics_compare_alternates_on_and_off() -> None:
    from bench.report import metric_states

    assert metric_states(True, 2, False) == [True, False, False, True]
    assert metric_states(True, 3, False) == [True, False, False, True, True, False]
    assert metric_states(False, 2, False) == [True]
    assert metric_states(False, 2, True) == [False]


def quick_bench_with_live_viewers_puts_the_bots_share_side_by_side(
        report: dict[str, Any]) -> None:
    """``--viewers N``: each size without viewers, then with N live viewers of the
    running DMs' pages (the bot's web server on, the viewers in a process of their own,
    following each page's event stream), and the bot's share of both side by side, with
    the time from a move to its viewers."""
    without, seen = report["runs"]
    assert without["viewers"] is None
    viewed = seen["viewers"]
    assert viewed["viewers"] == 4 and viewed["matches"] >= 1 and viewed["pages"] > 0
    assert 0 < viewed["p50_ms"] <= viewed["p99_ms"]
    # How long a move took to reach its viewers' pages (the issue's bar: 1 s).
    assert viewed["updates"]["n"] == 0 or 0 < viewed["updates"]["within_1s"] <= 1
    (pair,) = report["viewers"]
    assert pair["dms"] == 2 and pair["viewers"] == 4
    assert pair["without"] == without["bot_latency_ms"] and pair["with"] == seen["bot_latency_ms"]
