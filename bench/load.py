"""``python -m bot bench``: concurrent Cairo Corridor Death Matches, through the real
Discord adapter on the real clock (docs/benchmarks.md, "The load benchmark").

The bot (``GarnetBot``, built by the composition root) logs in to the transport-level
Discord fake (``tests.fake.discord_fake``, installed on real time): every board is a
multipart upload with its PNG, discord.py's rate limiter runs, and the fake answers as
Discord would, 429 included, with the global limit of 50 requests per second. Its
render workers are all started and warmed before anything is measured.

For each size, servers (50 DMs each, spread over every shard) get their DMs through
``/dm`` (the slash command, default time control: 60 s turns, 36 banks of 5 s;
reminders at 59, 50 and 45 s left so that they fall due at the realistic pace too).
Then for ``--seconds`` the player to move in each DM types a random legal move after a
think time (``--pace realistic``: 10–20 s at random; ``stress``: 2 s). A finished DM
(result, reward, rating, the final board) is followed by a new one in its channel.

Reported: the bot's own share of message→board latency (from the message reaching the
bot to the board's POST entering discord.py's HTTP client) and, separately, the time
the POST then waited in discord.py's route buckets and garnet's global pacer; moves
and posts per second (against the global limit) and the 429s seen; reminder lateness;
event-loop lag; resident memory of every process (the bot and each render worker,
from /proc); games finished and the results, rewards and ratings the database holds
for them. The latency, wait, lateness and lag figures are the operators' own: the
bot serves its metrics on loopback (``METRICS_ADDRESS``), and the bench scrapes its
/metrics before and after the run (``bench.scrape``): they come from the histograms'
buckets, as Prometheus's ``histogram_quantile`` would give them. ``--processes N
--shards K`` runs N bot processes (``--child``), each on its share of the K shards
against one database, and adds their figures (and buckets) up.

The bot's pacer sends the boards of running matches first (``Pace``); ``--fifo`` turns
that off (first come, first served, as before), ``--compare`` runs each size both
ways, one after the other, and prints them side by side. Also reported: the pacer's
waits by pace (boards, answers, reminders and set-up posts), the boards still on
their way at the end (left out of the percentiles above), and how often new DMs were
refused for ``BOARD_WAIT_LIMIT``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bench.scrape import FIGURES, delta, figures, merged, scrape, total
from bot.adapters.discord.pacing import GlobalPacer
from bot.app import build_discord_bot as build_bot
from bot.app import observed, watch_bot
from bot.config import Settings
from bot.core import metrics
from bot.core.clock import RealClock
from bot.core.messages import Pace
from bot.store.db import open_database
from engine.registry import get_game
from tests.fake.discord_fake import FakeDiscord, RealTime
from tests.fake.discord_world import GLOBAL_LIMIT, MESSAGES, Call, Person
from tests.fake.fake_transport import Window

PACES = {"realistic": (10.0, 20.0), "stress": (2.0, 2.0)}
REMINDERS = "59,50,45"
PER_SERVER = 50
GUILD_BASE = 1_000  # guild ids are (GUILD_BASE + k) << 22: shard k % shards
BOARD_WAIT = 120.0  # seconds a player waits for the board before moving on


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def rss_mb(pids: list[int]) -> dict[str, float]:
    """Resident memory (MB) of each process, from /proc/PID/statm."""
    page = os.sysconf("SC_PAGE_SIZE")
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError, IndexError):
            out[str(pid)] = round(int(Path(f"/proc/{pid}/statm").read_text().split()[1])
                                  * page / 2**20, 1)
    return out


@dataclasses.dataclass
class Plan:
    dms: int
    pace: str
    seconds: float
    database: str | None
    shards: int
    shard_ids: tuple[int, ...]
    render_processes: int
    global_limit: int
    seed: int
    run_id: int
    fifo: bool = False  # the pacer first come, first served (no priorities)
    metrics: bool = True  # False: METRICS=off in the bot (nothing scraped)


class Bench:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.rng = random.Random(plan.seed)
        self.game = get_game("cairo")
        self.fake = FakeDiscord(RealTime(), keep_calls=False)
        self.fake.global_window = Window(plan.global_limit, GLOBAL_LIMIT[1])
        self.arrived: dict[int, asyncio.Event] = {}
        self.posts = 0
        self.too_many = 0
        self.too_many_global = 0  # of them, the global limit's (the rest: a route's)
        self.moves = 0
        self.finished = 0
        self.measuring = False
        self.stop_at = 0.0
        self.peak: dict[str, float] = {}
        self.channels: list[tuple[int, int, Person, Person, Person]] = []

    # ---- the fake's side ------------------------------------------------------------

    def observe(self, call: Call, arrived: float) -> None:
        if not self.measuring:
            return
        self.posts += 1
        if call.status == 429:
            self.too_many += 1
            body = call.response if isinstance(call.response, dict) else {}
            self.too_many_global += bool(body.get("global"))
            return
        if (call.method, call.path) != ("POST", MESSAGES) or not call.files:
            return
        channel = int(call.url.rstrip("/").split("/")[-2])
        if channel in self.arrived:
            self.arrived[channel].set()

    # ---- set-up ----------------------------------------------------------------------

    def servers(self) -> None:
        """The servers on this process's shards, 50 DMs' channels and players each."""
        plan = self.plan
        per_shard = max(1, -(-plan.dms // (PER_SERVER * plan.shards)))
        base = GUILD_BASE + plan.run_id * 10_000
        made = 0
        for k in range(per_shard * plan.shards):
            shard = k % plan.shards
            gid = ((base + k) << 22) | 1
            count = min(PER_SERVER, -(-plan.dms // plan.shards) - (k // plan.shards)
                        * PER_SERVER)
            if shard not in plan.shard_ids or count <= 0:
                continue
            host = Person(gid + 2, f"Host{k}", ())
            role = gid + 3
            members: dict[Person, tuple[int, ...]] = {host: (role,)}
            channels = [gid + 10 + 3 * i for i in range(count)]
            for i, channel in enumerate(channels):
                a = Person(gid + 11 + 3 * i, f"A{k}x{i}")
                b = Person(gid + 12 + 3 * i, f"B{k}x{i}")
                members.update({a: (), b: ()})
                self.channels.append((gid, channel, host, a, b))
            self.fake.add_server(gid, f"Bench {k}", channels, role, members)
            made += count

    async def warm(self, bot: Any) -> None:
        """Start every render worker and let it draw each game once (its initializer)
        before anything is measured."""
        renderer = bot.services.matches.kit.renderer
        if renderer.processes > 0:
            await renderer.boards.slots.warm()

    def live_in(self, bot: Any, channel: int) -> Any:
        for live in bot.services.matches.live.values():
            if live.channel_id == str(channel):
                return live
        return None

    async def start_dm(self, bot: Any, entry: tuple[int, int, Person, Person, Person]
                       ) -> bool:
        _gid, channel, host, a, b = entry
        payload = self.fake.slash(bot.tree, host, "dm", channel_id=channel, game="cairo",
                                  player1=a, player2=b, chooser="lots", reminders=REMINDERS)
        bot._connection.parse_interaction_create(payload)
        for _ in range(600):
            await asyncio.sleep(0.05)
            live = self.live_in(bot, channel)
            if live is not None and live.to_move is not None:
                return True
        return False

    # ---- the run ---------------------------------------------------------------------

    async def player(self, bot: Any, entry: tuple[int, int, Person, Person, Person]
                     ) -> None:
        _gid, channel, _host, a, b = entry
        people = {str(a.id): a, str(b.id): b}
        low, high = PACES[self.plan.pace]
        event = self.arrived.setdefault(channel, asyncio.Event())
        await asyncio.sleep(self.rng.uniform(0, high))
        while time.perf_counter() < self.stop_at:
            live = self.live_in(bot, channel)
            if live is None:
                self.finished += 1
                if not await self.start_dm(bot, entry):
                    return
                continue
            seat = live.to_move
            if seat is None:
                await asyncio.sleep(0.2)
                continue
            move = self.game.notation(self.rng.choice(self.game.legal_moves(live.state)))
            event.clear()
            payload = self.fake.message_create(people[live.users[seat]], move,
                                               channel_id=channel)
            bot._connection.parse_message_create(payload)
            self.moves += 1
            with contextlib.suppress(TimeoutError):
                # Not past the end of the run by more than a few seconds: a backlog
                # behind the global limit would otherwise hold the run open.
                await asyncio.wait_for(event.wait(), max(1.0, min(
                    BOARD_WAIT, self.stop_at + 5.0 - time.perf_counter())))
            await asyncio.sleep(self.rng.uniform(low, high))

    async def memory_monitor(self) -> None:
        pids = [os.getpid()]
        while time.perf_counter() < self.stop_at:
            for pid, mb in rss_mb(pids + _descendants(os.getpid())).items():
                self.peak[pid] = max(self.peak.get(pid, 0.0), mb)
            await asyncio.sleep(2.0)

    async def run(self) -> dict[str, Any]:
        plan = self.plan
        if not plan.metrics:
            metrics.switch_off()  # before the database and the bot are built
        try:
            return await self._run()
        finally:
            metrics.switch_on()

    async def _run(self) -> dict[str, Any]:
        plan = self.plan
        workdir = Path(tempfile.mkdtemp(prefix="garnet-bench-"))
        url = plan.database or f"sqlite+aiosqlite:///{workdir / 'bench.db'}"
        db = await open_database(url)
        settings = dataclasses.replace(
            Settings.from_env(env_file=None), discord_token="bench", database_url=url,
            host_role="Host", image_dir=workdir, command_guild=None,
            instance=f"bench-{os.getpid()}", render_processes=plan.render_processes,
            shard_count=plan.shards, shard_ids=plan.shard_ids,
            # This process's share of the global limit, as a deployment would set it.
            global_requests_per_second=plan.global_limit,
            # The operators' metrics, on a free port of loopback: the bench reads them
            # (unless they are off: METRICS=off, and nothing to read).
            metrics=plan.metrics,
            metrics_address=("127.0.0.1", 0) if plan.metrics else None)
        self.servers()
        self.fake.observe = self.observe
        self.fake.install(real_time=True)
        bot = build_bot(settings, db, clock=RealClock())
        if plan.fifo:
            bot.pace(GlobalPacer(plan.global_limit, fifo=True))
        async with observed(settings) as observatory:
            if observatory is not None:
                watch_bot(observatory, bot, db)
            result = await self.measure(bot, observatory.port if observatory else None)
        booked = await self.booked(db, {str(e[0]) for e in self.channels})
        await db.close()
        return {**result, **booked, "database": "postgresql" if url.startswith(
            "postgresql") else "sqlite"}

    async def measure(self, bot: Any, port: int | None) -> dict[str, Any]:
        """The run; with ``port`` None (metrics off) the figures read from the metrics
        are None: not measured."""
        plan = self.plan
        try:
            await bot.login("bench")
            for gid in {entry[0] for entry in self.channels}:
                self.fake._dispatch("GUILD_CREATE", self.fake.guild_payload(gid))
            await asyncio.sleep(0.5)
            await self.warm(bot)
            started = time.perf_counter()
            ok = 0
            for i in range(0, len(self.channels), 20):
                batch = self.channels[i:i + 20]
                ok += sum(await asyncio.gather(*(self.start_dm(bot, e) for e in batch)))
            setup = time.perf_counter() - started
            before = await scrape(port) if port is not None else {}
            self.measuring = True
            begin = time.perf_counter()
            self.stop_at = begin + plan.seconds
            await asyncio.gather(self.memory_monitor(),
                                 *(self.player(bot, e) for e in self.channels))
            elapsed = time.perf_counter() - begin
            self.measuring = False
            buckets: dict[str, Any] | None = None
            seen: dict[str, float] | None = None
            if port is not None:
                after = await scrape(port)
                buckets = delta(before, after)
                # What operators would see moving: moves accepted, leases held.
                seen = {"moves": total(after, "garnet_moves_total")
                        - total(before, "garnet_moves_total"),
                        "leases_held": total(after, "garnet_leases_held"),
                        "matches_running": total(after, "garnet_matches_running")}
            still = bot.pacer.waiting(Pace.BOARD)
            pacer = bot.pacer
            health = bot.services.matches.kit.health.counters()
            pids = [os.getpid(), *_descendants(os.getpid())]
            memory = rss_mb(pids)
            await asyncio.sleep(1.0)  # the last results being written
        finally:
            await bot.close()
            self.fake.uninstall()
        return {
            "dms": plan.dms, "started": ok, "pace": plan.pace,
            "shards": list(plan.shard_ids), "seconds": round(elapsed, 1),
            "setup_seconds": round(setup, 1), "moves": self.moves,
            "moves_per_second": round(self.moves / elapsed, 1),
            "posts": self.posts, "posts_per_second": round(self.posts / elapsed, 1),
            "global_limit": plan.global_limit, "429s": self.too_many,
            "429s_global": self.too_many_global,
            **{figure: figures(buckets[figure]) if buckets is not None else None
               for figure in FIGURES},
            "memory_mb": {"processes": len(memory), "total": round(sum(memory.values()), 1),
                          "main": memory.get(str(os.getpid())), "each": memory,
                          "peak_total": round(sum(self.peak.values()), 1)},
            "games_finished": self.finished, "buckets": buckets, "metrics": seen,
            "order": "fifo" if plan.fifo else "priorities",
            "metrics_on": plan.metrics,
            "boards_on_their_way": {"n": len(still), "longest_ms": round(
                max(still, default=0.0) * 1000, 1)},
            "pacer": {pace.name.lower(): {
                "sent": f.sent, "paced": f.paced, "longest_ms": round(f.longest * 1000, 1),
                "mean_ms": round(f.waited / f.sent * 1000, 1) if f.sent else None}
                for pace, f in pacer.figures.items()},
            "limit_spells": health["discord_limit_spells"],
            "limit_refusals": health["discord_limit_refusals"],
        }

    async def booked(self, db: Any, guilds: set[str]) -> dict[str, int]:
        """What the database holds for this run's servers: finished DMs, results,
        rewards and rating changes."""
        marks = ",".join(f"'{g}'" for g in sorted(guilds)) or "''"
        queries = {
            "finished_in_db": f"SELECT count(*) FROM matches WHERE guild_id IN ({marks}) "
                              "AND finished_at IS NOT NULL AND kind = 'dm'",
            "results": f"SELECT count(*) FROM match_results WHERE guild_id IN ({marks})",
            "rewards": f"SELECT count(*) FROM ledger_entries WHERE guild_id IN ({marks}) "
                       "AND match_id IS NOT NULL",
            "rating_changes": "SELECT count(*) FROM rating_changes r JOIN matches m ON "
                              f"m.id = r.match_id WHERE m.guild_id IN ({marks})",
        }
        out = {}
        async with db.engine.connect() as conn:
            for key, sql in queries.items():
                out[key] = int((await conn.execute(text(sql))).scalar_one())
        return out


# ---- several processes ----------------------------------------------------------------


def _merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    first = parts[0]
    measured = first["buckets"] is not None  # not with metrics off
    buckets = merged([p["buckets"] for p in parts]) if measured else None
    summed = ("started", "moves", "moves_per_second", "posts", "posts_per_second",
              "global_limit", "429s", "429s_global", "games_finished", "finished_in_db",
              "results", "rewards", "rating_changes")
    out = {**first, **{k: round(sum(p[k] for p in parts), 1) for k in summed}}
    out["processes"] = len(parts)
    for key in ("pacer", "boards_on_their_way"):  # each process's own
        out.pop(key, None)
    out["shards"] = sorted(s for p in parts for s in p["shards"])
    for figure in FIGURES:
        out[figure] = figures(buckets[figure]) if buckets is not None else None
    out["memory_mb"] = {"processes": sum(p["memory_mb"]["processes"] for p in parts),
                        "total": round(sum(p["memory_mb"]["total"] for p in parts), 1),
                        "peak_total": round(sum(p["memory_mb"]["peak_total"] for p in parts),
                                            1)}
    out["buckets"] = buckets
    out["metrics"] = ({k: sum(p["metrics"][k] for p in parts) for k in first["metrics"]}
                      if measured else None)
    return out


def run_processes(plan: Plan, processes: int) -> dict[str, Any]:
    """``processes`` children (``--child``), the shards dealt round-robin; the global
    limit is one bot's, so each child's fake allows its share of it."""
    children = []
    for n in range(processes):
        ids = [s for s in range(plan.shards) if s % processes == n]
        cmd = [sys.executable, "-m", "bot", "bench", "--child", "--dms", str(plan.dms),
               "--pace", plan.pace, "--seconds", str(plan.seconds), "--shards",
               str(plan.shards), "--shard-ids", ",".join(map(str, ids)),
               "--render-processes", str(plan.render_processes), "--global-limit",
               str(max(1, plan.global_limit // processes)), "--seed", str(plan.seed + n),
               "--run-id", str(plan.run_id)]
        if plan.database:
            cmd += ["--database", plan.database]
        if plan.fifo:
            cmd.append("--fifo")
        if not plan.metrics:
            cmd.append("--metrics-off")
        children.append(subprocess.Popen(cmd, stdout=subprocess.PIPE))
    parts = []
    for child in children:
        out, _ = child.communicate()
        if child.returncode != 0:
            raise SystemExit(f"a bench process failed ({child.returncode})")
        parts.append(json.loads(out.decode().strip().splitlines()[-1]))
    return _merge(parts)


NOT_MEASURED = "not measured (metrics off)"


def describe(r: dict[str, Any]) -> str:
    lat, lim, rem, lag, mem = (r["bot_latency_ms"], r["rate_limit_wait_ms"],
                               r["reminder_late_ms"], r["loop_lag_ms"], r["memory_mb"])
    off = lat is None  # METRICS=off: the figures read from /metrics are not there
    return (f"{r['dms']} DMs, {r['pace']} pace, {r['database']}, "
            f"{r.get('processes', 1)} process(es), shards {r['shards']}, {r['seconds']} s "
            f"(set-up {r['setup_seconds']} s, {r['started']} DMs started)"
            f"{', metrics off' if off else ''}\n"
            f"  moves: {r['moves']} ({r['moves_per_second']}/s)\n"
            + (f"  bot's share, message -> board POST, rate-limit waits, reminders' "
               f"lateness, event-loop lag: {NOT_MEASURED}\n" if off else
               f"  bot's share, message -> board POST: p50 {lat['p50']} ms, p99 "
               f"{lat['p99']} ms (n={lat['n']})\n"
               f"  waiting on rate limits after that: p50 {lim['p50']} ms, p99 "
               f"{lim['p99']} ms, max {lim['max']} ms\n")
            + f"  posts: {r['posts']} ({r['posts_per_second']}/s against the global "
            f"{r['global_limit']}/s), 429s: {r['429s']} ({r['429s_global']} of the "
            f"global limit)\n"
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
            f"{_pacing(r)}"
            f"  load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


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
            + f"; BOARD_WAIT_LIMIT spells: {r['limit_spells']}, new DMs refused: "
            f"{r['limit_refusals']}\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pace", choices=sorted(PACES), default="realistic",
                        help="bench: think time per move, 10-20 s or 2 s")
    parser.add_argument("--processes", type=int, default=1, help="bench: bot processes")
    parser.add_argument("--shards", type=int, default=1, help="bench: shard count")
    parser.add_argument("--shard-ids", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--render-processes", type=int, default=2,
                        help="bench: render workers per bot process")
    parser.add_argument("--global-limit", type=int, default=GLOBAL_LIMIT[0],
                        help="bench: the global limit (requests/s) of the fake and the "
                        "bot's pacer; below 50, a scaled model of a bigger bot")
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--run-id", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true",
                        help="bench: 6 DMs, stress pace, 4 s (the test suite)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--fifo", action="store_true",
                        help="bench: the pacer first come, first served (no priorities)")
    parser.add_argument("--compare", action="store_true",
                        help="bench: each size with priorities, then first come, first served")
    parser.add_argument("--metrics-compare", action="store_true",
                        help="bench: each size with the bot's metrics on and off "
                        "(METRICS=off), alternating, and the moves/s of each")
    parser.add_argument("--rounds", type=int, default=2,
                        help="bench: --metrics-compare rounds (each one run on, one off; "
                        "on/off, then off/on, ...)")
    parser.add_argument("--metrics-off", action="store_true", help=argparse.SUPPRESS)


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


def main(args: argparse.Namespace) -> int:
    sizes: list[int] = args.dms or [200, 1000]
    seconds, pace = args.seconds, args.pace
    if args.quick:
        sizes, seconds, pace = args.dms or [6], min(seconds, 4.0), "stress"
    run_id = args.run_id if args.run_id is not None else int(time.time()) % 100_000
    results = []
    orders = (False, True) if args.compare else (args.fifo,)
    states = metric_states(args.metrics_compare, args.rounds, args.metrics_off)
    runs = [(n, fifo, on) for n in sizes for fifo in orders for on in states]
    for i, (n, fifo, on) in enumerate(runs):
        ids = (tuple(int(s) for s in args.shard_ids.split(",")) if args.shard_ids
               else tuple(range(args.shards)))
        plan = Plan(n, pace, seconds, args.database, args.shards, ids,
                    args.render_processes, args.global_limit, args.seed, run_id + i, fifo,
                    on)
        if args.processes > 1:
            result = run_processes(plan, args.processes)
        else:
            result = asyncio.run(Bench(plan).run())
        if args.child:
            print(json.dumps(result))
            return 0
        result.pop("buckets")
        results.append(result)
        if not args.json:
            print(describe(result), flush=True)
    costs = cost(results) if args.metrics_compare else []
    if not args.json:
        for c in costs:
            print(describe_cost(c), flush=True)
    elif args.metrics_compare:
        print(json.dumps({"runs": results, "cost": costs}, indent=2))
    else:
        print(json.dumps(results, indent=2))
    return 0
