"""What the load benchmark (``bench.load``) prints: a run's report in words, and for
``--metrics-compare`` the runs with metrics on and off side by side, and their cost."""

from __future__ import annotations

import os
from typing import Any

NOT_MEASURED = "not measured (metrics off)"


def _settled(r: dict[str, Any]) -> str:
    settled = r.get("bot_latency_settled_ms")
    if not settled:
        return ""
    return (f"    of it, after the run's first {r['settle_seconds']:g} s (the players' first "
            f"moves through): p50 {settled['p50']} ms, p99 {settled['p99']} ms "
            f"(n={settled['n']})\n")


def describe(r: dict[str, Any]) -> str:
    lat, lim, rem, lag, mem = (r["bot_latency_ms"], r["rate_limit_wait_ms"],
                               r["reminder_late_ms"], r["loop_lag_ms"], r["memory_mb"])
    off = lat is None  # METRICS=off: the figures read from /metrics are not there
    durable = r.get("durability")
    database = r["database"] + (" (" + ", ".join(f"{k} {v}" for k, v in durable.items())
                                + ")" if durable else "")
    run = r.get("running")
    ran = (f"{run['min']}/{run['median']}/{run['max']} DMs running (min/median/max of "
           f"{run['windows']} windows of {run['window_seconds']:g} s) of "
           if run else "")
    return (f"{ran}{r['dms']} DMs offered, {r['pace']} pace, "
            f"{r.get('reminders', 'stress')} reminders, {database}, "
            f"{r.get('processes', 1)} process(es), shards {r['shards']}, {r['seconds']} s "
            f"(set-up {r['setup_seconds']} s, {r['started']} DMs started"
            + (f"; {r['ended_in_setup']} of them over before the run began: a set-up "
               f"longer than their clocks, lower --near-end" if r.get("ended_in_setup")
               else "") + ")"
            f"{', metrics off' if off else ''}\n"
            f"  moves: {r['moves']} ({r['moves_per_second']}/s); "
            + ", ".join(f"{g} {f['dms']} DMs {f['moves']} moves {f['finished']} finished"
                        for g, f in r["games"].items())
            + "\n  chatter (not moves): "
            + ", ".join(f"{k} {n}" for k, n in r["chatter"].items())
            + f" (answered: {r['answered']['interactions']} commands, "
            f"{r['answered']['autocomplete']} autocompletes)"
            + f"; started near their end: {r['near_end']['dms']} DMs "
            f"({r['near_end']['plies_stored']} plies stored at set-up)\n"
            f"  message -> board answered (the bench's own, the unfinished as the run's "
            f"time left): p50 {r['board_wait_ms']['p50']} ms, p99 "
            f"{r['board_wait_ms']['p99']} ms, max {r['board_wait_ms']['max']} ms "
            f"(n={r['board_wait_ms']['n']}, {r['unfinished']} unfinished)\n"
            + (f"  bot's share, message -> board POST, rate-limit waits, reminders' "
               f"lateness, event-loop lag: {NOT_MEASURED}\n" if off else
               f"  bot's share, message -> board POST: p50 {lat['p50']} ms, p99 "
               f"{lat['p99']} ms (n={lat['n']})\n"
               + _settled(r)
               + f"  waiting on rate limits after that: p50 {lim['p50']} ms, p99 "
               f"{lim['p99']} ms, max {lim['max']} ms\n"
               + "  in the bot's share: " + "; ".join(
                   f"{label} p50 {r[key]['p50']} ms, p99 {r[key]['p99']} ms (n={r[key]['n']})"
                   for key, label in (("render_wait_ms", "waiting for a render worker"),
                                      ("render_job_ms", "in a render worker"),
                                      ("transaction_ms", "database transactions"))
                   if r.get(key)) + "\n")
            + f"  posts: {r['posts']} ({r['posts_per_second']}/s: paced "
            f"{r.get('paced_per_second')}/s against the global {r['global_limit']}/s, "
            f"exempt interaction answers {r.get('exempt_per_second')}/s), 429s: "
            f"{r['429s']} ({r['429s_global']} of the global limit); new DMs refused "
            f"(offered again after {r.get('retry_seconds', 0):g} s): {r.get('refused', 0)}\n"
            + (f"  the fake could not answer as Discord would: {r['fake_unexpected']}\n"
               if r.get("fake_unexpected") else "")
            + _viewers(r)
            + ("" if off else
               f"  reminders: {rem['n']}, late by p50 {rem['p50']} ms, p99 {rem['p99']} "
               f"ms, max {rem['max']} ms\n"
               f"  event-loop lag: p50 {lag['p50']} ms, p99 {lag['p99']} ms, max "
               f"{lag['max']} ms\n")
            + f"  memory: {mem['total']} MB in {mem['processes']} processes "
            f"(peak {mem['peak_total']} MB)\n"
            f"  games finished: {r['games_finished']}; in the database: "
            f"{r['finished_in_db']} finished, {r['results']} results, {r['rewards']} "
            f"rewards, {r['rating_changes']} rating changes\n"
            f"{_pacing(r)}{_proxied(r)}{_timeline(r)}"
            f"  load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def _timeline(r: dict[str, Any]) -> str:
    """The run window by window: where its slow boards came from."""
    rows = r.get("timeline")
    if not rows:
        return ""
    return ("  timeline (s: DMs running, let in, refused, paced posts/s, boards' wait p99 / "
            "max ms):\n" + "".join(
                f"    {row['at_s']:>4g}: {row['running']:>4} {row['started']:>4} "
                f"{row['refused']:>5} {row['paced_per_second']:>5} "
                f"{row['board_wait_p99_ms']:>6} / {row['board_wait_max_ms']}\n"
                for row in rows))


def _viewers(r: dict[str, Any]) -> str:
    v = r.get("viewers")
    if not v:
        return ""
    return (f"  live viewers: {v['viewers']} following running matches' pages (server-sent "
            f"events, in processes of their own): {v['pages']} pages read, p50 "
            f"{v['p50_ms']} ms, p99 {v['p99_ms']} ms, {v.get('failed', 0)} failed\n"
            + _updates(v))


def _updates(v: dict[str, Any]) -> str:
    """From a move typed to its position in a viewer's page (the issue's bar: 1 s)."""
    u = v.get("updates")
    if not u or not u["n"]:
        return ""
    return (f"  a move to its viewers' pages: p50 {u['p50_ms']} ms, p99 {u['p99_ms']} ms, "
            f"max {u['max_ms']} ms, {u['within_1s'] * 100:.1f} % within 1 s "
            f"(n={u['n']})\n")


def describe_viewers(pair: dict[str, Any]) -> str:
    """The bot's share without and with live viewers, side by side."""
    a, b = pair["without"], pair["with"]
    return (f"bot's share at {pair['dms']} DMs, without viewers / with {pair['viewers']}: "
            f"p50 {a['p50']} / {b['p50']} ms, p99 {a['p99']} / {b['p99']} ms"
            + (f" (the viewers' pages: p50 {v['p50_ms']} ms, p99 {v['p99_ms']} ms, "
               f"{v['pages']} read, {v.get('failed', 0)} failed"
               + (f"; a move to its viewers p99 {u['p99_ms']} ms, "
                  f"{u['within_1s'] * 100:.1f} % within 1 s"
                  if (u := v.get("updates")) and u["n"] else "") + ")"
               if (v := pair.get("viewed")) else ""))


def _proxied(r: dict[str, Any]) -> str:
    """--proxy: what came through the shared REST proxy, as the meter behind it saw."""
    if not r.get("proxy"):
        return ""
    meter, proxy = r["proxy"]["meter"], r["proxy"]["proxy"]
    return (f"  through one REST proxy: {meter.get('requests')} requests reached Discord's "
            f"limits ({meter.get('per_second')}/s over {meter.get('seconds')} s), 429s: "
            f"{meter.get('limited')} ({meter.get('limited_global')} global); the proxy held "
            f"back {proxy.get('waited')} for a limit; its answers to the bots: "
            f"{r.get('relayed')}\n")


def _pacing(r: dict[str, Any]) -> str:
    """The pacer's side: the order, its waits by pace, the boards still on their way."""
    if "pacer" not in r:  # several processes: each child's figures are its own
        return ""
    way = r["boards_on_their_way"]
    waits = "; ".join(f"{pace} {f['sent']} sent, mean {f['mean_ms']} ms, max {f['longest_ms']} ms"
                      for pace, f in r["pacer"].items())
    return (f"  pacer ({r['order']}): {waits}\n"
            f"  boards still on their way at the end: {way['n']}"
            + (f" (the longest waiting {way['longest_ms']} ms)" if way["n"] else "")
            + " (counted in the percentiles as their time so far)"
            + f"; BOARD_WAIT_LIMIT spells: {r['limit_spells']}, new DMs refused: "
            f"{r['limit_refusals']}\n")


def metric_states(compare: bool, rounds: int, off: bool) -> list[bool]:
    """Whether each run has metrics on: alternating for ``--metrics-compare``, on/off
    then off/on (so that a drift of the machine's load weighs on both alike)."""
    if not compare:
        return [not off]
    return [state for r in range(max(1, rounds))
            for state in ((True, False) if r % 2 == 0 else (False, True))]


def cost(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per size (and pacer order): the moves/s of the runs with metrics on and off,
    their means, and what the metrics cost in % of the moves/s without them."""
    out = []
    for key in dict.fromkeys((r["dms"], r["order"]) for r in results):
        runs = [r for r in results if (r["dms"], r["order"]) == key]
        on = [r["moves_per_second"] for r in runs if r["metrics_on"]]
        off = [r["moves_per_second"] for r in runs if not r["metrics_on"]]
        if not on or not off:
            continue
        mean_on, mean_off = sum(on) / len(on), sum(off) / len(off)
        out.append({"dms": key[0], "order": key[1], "on": on, "off": off,
                    "mean_on": round(mean_on, 1), "mean_off": round(mean_off, 1),
                    "cost_percent": round((mean_off - mean_on) / mean_off * 100, 1)
                    if mean_off else None})
    return out


def describe_cost(c: dict[str, Any]) -> str:
    return (f"metrics' cost at {c['dms']} DMs ({c['order']}): moves/s with metrics on "
            f"{c['on']} (mean {c['mean_on']}), off {c['off']} (mean {c['mean_off']}): "
            f"{c['cost_percent']} % fewer with them on")


