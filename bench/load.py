"""``python -m bot bench``: concurrent Death Matches of the four games (``--games``),
through the real Discord adapter on the real clock (docs/benchmarks.md, "The load
benchmark"): a share of them started near their end (``--near-end``) so that games
finish in the run, players' chatter besides their moves (``--chatter``: talk, illegal
moves, ``/board``, ``/time``, autocomplete), every move's board wait counted, those
not arrived at the end as the run's time left, and the multipart forms encoded.

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
their way at the end (counted in the percentiles above as their time so far), and how
often new DMs were refused for ``BOARD_WAIT_LIMIT``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import dataclasses
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bench.flood import Windows
from bench.flood import describe as describe_flood
from bench.nearend import played_out, records, store
from bench.report import cost, describe, describe_cost, describe_viewers, metric_states
from bench.scrape import (
    FIGURES,
    Buckets,
    Scrape,
    delta,
    figures,
    merged,
    observed_in,
    scrape,
    total,
)
from bench.web import view
from bot.adapters.discord.pacing import GlobalPacer
from bot.app import build_discord_bot as build_bot
from bot.app import observed, served_web, tune_interpreter, watch_bot
from bot.config import Settings
from bot.core import heap, metrics
from bot.core.clock import RealClock
from bot.core.messages import Actor, Pace
from bot.core.metrics import LATENCY
from bot.core.requests import Asker
from bot.store.db import open_database
from bot.store.movelog import MoveRecord
from bot.texts import refused as refused_texts
from engine.registry import entries, get_game
from tests.fake.discord_fake import FakeDiscord, RealTime
from tests.fake.discord_world import CALLBACK, GLOBAL_LIMIT, MESSAGES, Call, Person
from tests.fake.fake_transport import Window

PACES = {"realistic": (10.0, 20.0), "stress": (2.0, 2.0)}
# The DMs' reminders: as a DM has them (None: /dm's default), or the bench's stress
# reminders, at 59, 50 and 45 s left, so that they fall due at the realistic pace too.
REMINDERS = {"default": None, "stress": "59,50,45"}
RETRY = 10.0  # seconds before a DM refused is offered again
# The fake forgets messages and interactions older than this (``FakeDiscord.forget``)
# every few seconds of the run: Discord keeps them, not the bot, and kept in the bot's
# process they were a third of the heap its garbage collector walks after a minute
# (its full collections' pauses the bot's share's longest; after 30 s, still a sixth at
# stress pace). Every answer and edit the bot sends comes well within a second of what
# it answers (board wait p99 under 1 s); a request naming anything forgotten is
# reported (``fake_unexpected``: none in any run).
FORGET = 5.0
SAMPLE_EVERY = 1.0  # seconds between two counts of the DMs running
SETTLE = 0.5  # seconds for the bot to finish the sends under way, before a scrape
SETTLE_MOST = 5.0  # and at most, after the run, for its boards' sends to return (settle)
WINDOW = 10.0  # seconds: the DMs running are reported per window of this length
PER_SERVER = 50
GUILD_BASE = 1_000  # guild ids are (GUILD_BASE + k) << 22: shard k % shards
BOARD_WAIT = 120.0  # seconds a player waits for the board before moving on
# The built-in games (on in every server), from their entry points.
GAMES = tuple(entry.key for entry in entries() if entry.built_in)
# What players type or ask besides their moves (``--chatter``): the kinds, by weight.
CHATTER = {"text": 3, "illegal": 2, "board": 2, "time": 2, "autocomplete": 1}
TALK = ("gg", "hmm, nice one", "wait what", "brb", "lol that wall", "good luck!",
        "my clock!", "ok ok", "oops", "well played")


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
    games: tuple[str, ...] = GAMES  # dealt round the DMs
    near_end: float = 0.25  # the share of DMs started a few plies before their end
    chatter: float = 0.3  # the chance a think time holds chatter (CHATTER)
    plies_left: int = 2  # of a game started near its end
    profile: str | None = None  # cProfile the measured run of the bot's process to it
    flood: int = 0  # clients a path flooding the metrics server in windows (bench.flood)
    reminders: str = "default"  # the DMs' reminders (REMINDERS)
    viewers: int = 0  # live viewers of the running matches' pages (bench.web)


class Bench:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.rng = random.Random(plan.seed)
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
        self.game_of: dict[int, str] = {}  # channel -> game key
        self.current: dict[int, Any] = {}  # channel -> its DM (LiveMatch) being played
        self.seat_of: dict[int, tuple[int, int]] = {}  # channel -> (guild, a player)
        # Moves whose board has not arrived: channel -> when the move was sent.
        self.pending: dict[int, float] = {}
        self.board_waits: list[float] = []  # message -> board answered, the finished
        self.moved: list[tuple[float, float]] = []  # and when each of them was sent
        self.unfinished: list[float] = []  # and the rest's time to the end of the run
        # Games started near their end: the plies left of a game played out in the
        # engine from the DM's position, the rest stored at set-up (the players type
        # these).
        self.script: dict[int, list[str]] = {}
        self.near_end_dms = 0
        self.near_end_plies = 0  # stored at set-up
        self.chatter = dict.fromkeys(CHATTER, 0)
        self.answered = {"interactions": 0, "autocomplete": 0}
        self.finished_by_game: dict[str, int] = {}
        self.moves_by_game: dict[str, int] = {}
        self.exempt = 0  # of the posts, interaction answers (Discord's limit exempts them)
        self.running: list[tuple[float, int]] = []  # (when, DMs running then)
        self.refused = 0  # new DMs refused (at Discord's limit or by budget)
        self.web: Any = None  # the bot's web server (``--viewers``)
        self.viewed: dict[str, Any] | None = None  # the viewers' figures
        self.homes: dict[str, str] = {}  # a server's pages' address (``--viewers``)
        # When each move was typed (the wall clock), by its match's page and the ply it
        # made: how long it took to reach the viewers (``--viewers``).
        self.typed: dict[tuple[str, int], float] = {}
        self.began = 0.0  # the set-up's start (the DMs asked for)
        self.ok = 0  # DMs started at set-up
        self.started_in: set[int] = set()  # the channels whose DM started (not refused)
        # When things happened in the run, for its timeline (``timeline``): DMs let in,
        # DMs refused, posts under the global limit.
        self.events: dict[str, list[float]] = {"started": [], "refused": [], "paced": []}
        # The DMs asked for and not answered yet, by their interaction's token: set when
        # the answer is the limit's refusal, so that a refused DM's player stops
        # waiting for it at once (not after polling for 2 s in the bot's event loop:
        # at 1,000 DMs offered, 80 refusals a second kept 160 pollers waking it).
        self.asking: dict[str, asyncio.Event] = {}
        self.refusals = (refused_texts.at_discord_limit(), refused_texts.starting_many())
        self.forgot = 0  # what the fake forgot in the run (``FORGET``)

    # ---- the fake's side ------------------------------------------------------------

    def observe(self, call: Call, arrived: float) -> None:
        if self.asking and call.path.startswith(("/interactions/", "/webhooks/")):
            self.refused_answer(call)
        if not self.measuring:
            if (call.method, call.path) == ("POST", MESSAGES) and call.files:
                channel = int(call.url.rstrip("/").split("/")[-2])
                if channel in self.arrived:
                    self.arrived[channel].set()
            return
        self.posts += 1
        if call.path.startswith(("/interactions/", "/webhooks/")):
            self.exempt += 1  # an interaction's answer: exempt from the global limit
        else:
            self.events["paced"].append(arrived)
        if call.path == CALLBACK and call.status == 200 and isinstance(call.body, dict):
            # The interactions answered: autocomplete's choices (type 8) or the rest.
            kind = "autocomplete" if call.body.get("type") == 8 else "interactions"
            self.answered[kind] += 1
        if call.status == 429:
            self.too_many += 1
            body = call.response if isinstance(call.response, dict) else {}
            self.too_many_global += bool(body.get("global"))
            return
        if (call.method, call.path) != ("POST", MESSAGES) or not call.files:
            return
        channel = int(call.url.rstrip("/").split("/")[-2])
        sent = self.pending.pop(channel, None)
        if sent is not None:
            self.board_waits.append(arrived - sent)
            self.moved.append((sent, arrived - sent))
        if channel in self.arrived:
            self.arrived[channel].set()

    def refused_answer(self, call: Call) -> None:
        """An interaction's answer (its response, or the edit of a deferred one) that
        says the DM asked for is refused at the limit: its asker hears now."""
        parts = call.url.split("?")[0].rstrip("/").split("/")
        where = "interactions" if "interactions" in parts else "webhooks"
        token = parts[parts.index(where) + 2]
        body = call.body if isinstance(call.body, dict) else {}
        said = (body.get("data") or {}).get("content") if where == "interactions" \
            else body.get("content")
        if said in self.refusals and token in self.asking:
            self.asking.pop(token).set()

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
                # Dealt by the DM's place among all the servers' (each process's share
                # of the shards holds every game too).
                self.game_of[channel] = plan.games[(k * PER_SERVER + i) % len(plan.games)]
                self.seat_of[channel] = (gid, a.id)
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
        """The DM being played in ``channel`` (the registry's index by seat: a scan
        of every live match here cost the event loop 4 % at 300 DMs)."""
        gid, player = self.seat_of[channel]
        return bot.services.matches.kit.live.for_seat(str(gid), str(channel), str(player))

    async def start_dm(self, bot: Any, entry: tuple[int, int, Person, Person, Person]
                       ) -> bool:
        _gid, channel, host, a, b = entry
        reminders = REMINDERS[self.plan.reminders]
        options: dict[str, Any] = {"reminders": reminders} if reminders else {}
        payload = self.fake.slash(bot.tree, host, "dm", channel_id=channel,
                                  game=self.game_of[channel],
                                  player1=a, player2=b, chooser="lots", **options)
        health = bot.services.matches.kit.health
        refusals = health.limit_refusals
        token = payload["token"]
        refused = self.asking[token] = asyncio.Event()
        bot._connection.parse_interaction_create(payload)
        # Not held while the DM starts: a thousand players' payloads, each a dozen
        # objects, were walked by every full collection in the bot's process.
        del payload
        # 30 s at set-up; in the run, not past its end by more than a few seconds (a DM
        # refused at Discord's limit would otherwise hold the run open 30 s).
        deadline = time.perf_counter() + 30.0
        if self.measuring:
            deadline = min(deadline, self.stop_at + 5.0)
        asked = time.perf_counter()
        try:
            while time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
                if refused.is_set():
                    break
                live = self.live_in(bot, channel)
                if live is not None and live.to_move is not None:
                    if self.measuring:
                        self.events["started"].append(time.perf_counter())
                    return True
                if health.limit_refusals > refusals and time.perf_counter() - asked > 2.0:
                    break  # refused (this DM or one asked beside it: a DM takes < 2 s)
        finally:
            self.asking.pop(token, None)
        self.refused += 1
        if self.measuring:
            self.events["refused"].append(time.perf_counter())
        return False

    def near_end(self, bot: Any, channel: int, at: float) -> list[MoveRecord]:
        """The rows of a DM started a few plies before its end (``bench.nearend``):
        all but the last ``--plies-left`` plies of a game played out at random in the
        engine from the DM's position; the rest are its players' moves in the run, so
        that it ends in it (result, reward, ratings, the final board)."""
        live = self.live_in(bot, channel)
        if live is None or live.to_move is None:
            return []
        best = played_out(live.game, live.state, self.rng)
        left = self.plan.plies_left
        if best is None or len(best) <= left:
            return []
        self.script[channel] = best[-left:]
        self.near_end_dms += 1
        self.near_end_plies += len(best) - left
        return records(live, best[:-left], at)

    def chosen_move(self, channel: int, live: Any) -> str:
        """The next ply of a game started near its end, else a random legal move."""
        game = live.game
        legal = game.legal_moves(live.state)
        script = self.script.get(channel)
        if script:
            move = script.pop(0)
            if move in {game.notation(m) for m in legal}:
                return move
            self.script.pop(channel, None)
        return str(game.notation(self.rng.choice(legal)))

    def chat(self, bot: Any, channel: int, live: Any, people: dict[str, Person]) -> None:
        """One piece of chatter (not a move): talk or an illegal move in the channel
        from the player to move, ``/board`` or ``/time``, or the match option's
        autocomplete, from either player."""
        kind = self.rng.choices(list(CHATTER), weights=list(CHATTER.values()))[0]
        person = people[live.users[live.to_move]] if live.to_move is not None else next(
            iter(people.values()))
        if kind in ("text", "illegal"):
            if kind == "text":
                content = self.rng.choice(TALK)
            else:  # a move of the game's notation, not legal here (or not at all)
                game = live.game
                legal = {game.notation(m) for m in game.legal_moves(live.state)}
                first = [game.notation(m) for m in game.legal_moves(game.new_state())]
                content = next((m for m in self.rng.sample(first, len(first))
                                if m not in legal), "z0")
            bot._connection.parse_message_create(self.fake.message_create(
                person, content, channel_id=channel))
        else:
            person = self.rng.choice(list(people.values()))
            name = "time" if kind == "time" else "board"
            values: dict[str, Any] = ({"focused": "match", "match": ""}
                                      if kind == "autocomplete" else {})
            bot._connection.parse_interaction_create(self.fake.slash(
                bot.tree, person, name, channel_id=channel, **values))
        self.chatter[kind] += 1

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
                self.count_finished(channel)
                if not await self.start_dm(bot, entry):
                    # Refused (or not started): offered again a little later, as
                    # players would ask again.
                    await self.rest(RETRY)
                continue
            self.current[channel] = live
            seat = live.to_move
            if seat is None:
                await asyncio.sleep(0.2)
                continue
            move = self.chosen_move(channel, live)
            event.clear()
            payload = self.fake.message_create(people[live.users[seat]], move,
                                               channel_id=channel)
            self.pending[channel] = time.perf_counter()
            if (home := self.homes.get(live.guild_id)) is not None:
                self.typed[(f"{home}/m/{live.number}", live.ply + 1)] = time.time()
            bot._connection.parse_message_create(payload)
            del payload  # not held while its board is awaited (as above)
            self.moves += 1
            key = self.game_of[channel]
            self.moves_by_game[key] = self.moves_by_game.get(key, 0) + 1
            with contextlib.suppress(TimeoutError):
                # Not past the end of the run by more than a few seconds: a backlog
                # behind the global limit would otherwise hold the run open.
                await asyncio.wait_for(event.wait(), max(1.0, min(
                    BOARD_WAIT, self.stop_at + 5.0 - time.perf_counter())))
            if live.game.is_over(live.state):  # the final board: its result booked
                for _ in range(100):
                    if live.finished:
                        self.count_finished(channel)
                        break
                    await asyncio.sleep(0.02)
            think = self.rng.uniform(low, high)
            if self.rng.random() < self.plan.chatter:  # somewhere in the think time
                before = self.rng.uniform(0, think)
                await self.rest(before)
                think -= before
                live = self.live_in(bot, channel)
                if live is not None and time.perf_counter() < self.stop_at:
                    self.chat(bot, channel, live, people)
            await self.rest(think)

    async def rest(self, seconds: float) -> None:
        """Sleep ``seconds``, but not past the run's end: nothing is done after it, and
        the run (its ``seconds``, the rates per second) ends with it, not a think time
        later (a quick run of 3 s took 5)."""
        await asyncio.sleep(max(0.0, min(seconds, self.stop_at - time.perf_counter())))

    def count_finished(self, channel: int) -> None:
        """The DM last seen in ``channel`` has finished (counted once)."""
        live = self.current.pop(channel, None)
        if live is not None:
            self.finished += 1
            key = self.game_of[channel]
            self.finished_by_game[key] = self.finished_by_game.get(key, 0) + 1

    async def scrape_after(self, port: int, seconds: float) -> Scrape:
        await asyncio.sleep(seconds)
        return await scrape(port)

    async def memory_monitor(self) -> None:
        pids = [os.getpid()]
        while time.perf_counter() < self.stop_at:
            for pid, mb in rss_mb(pids + _descendants(os.getpid())).items():
                self.peak[pid] = max(self.peak.get(pid, 0.0), mb)
            self.forgot += self.fake.forget(FORGET)
            await self.rest(2.0)

    async def count_running(self, bot: Any) -> None:
        """The DMs running, every ``SAMPLE_EVERY`` seconds of the run: what the run is
        labelled by (``running_figures``)."""
        while time.perf_counter() < self.stop_at:
            running = sum(1 for entry in self.channels
                          if (live := self.live_in(bot, entry[1])) is not None
                          and not live.finished)
            self.running.append((time.perf_counter(), running))
            await self.rest(SAMPLE_EVERY)

    async def viewers(self, bot: Any) -> asyncio.Future[dict[str, Any]]:
        """``--viewers`` live viewers of the running DMs' pages for the run, in a process
        of their own (``bench.web.view``): every bench server's pages turned on (as its
        host's ``/host web on``), each viewer following one DM's event stream."""
        matches = bot.services.matches.kit.live
        pages: list[str] = []
        for gid in sorted({entry[0] for entry in self.channels}):
            host = next(e[2] for e in self.channels if e[0] == gid)
            # The host role of a bench server is its id + 3 (``servers``).
            actor = Actor(str(host.id), host.name, frozenset({str(gid + 3)}),
                          manage_guild=True)
            said = await bot.services.web.turn_on(Asker(str(gid), "0", actor))
            home = re.search(r"<(http://[^>\s]+)>", said.reply.text if said.reply else "")
            if home is None:
                raise SystemExit("the bench's web pages did not turn on")
            self.homes[str(gid)] = home.group(1)
            pages += [f"{home.group(1)}/m/{live.number}" for live in matches
                      if live.guild_id == str(gid) and not live.finished]
        return asyncio.ensure_future(view(self.plan.viewers, pages or ["/"],
                                          self.stop_at - time.perf_counter(), self.typed))

    def running_figures(self, begin: float) -> dict[str, Any]:
        """The DMs running in each ``WINDOW`` of the run (the mean of its counts): the
        least, the median and the most of the windows."""
        windows: dict[int, list[int]] = {}
        for at, n in self.running:
            windows.setdefault(int((at - begin) // WINDOW), []).append(n)
        means = sorted(sum(v) / len(v) for v in windows.values()) or [0.0]
        return {"min": round(means[0]), "median": round(means[len(means) // 2]),
                "max": round(means[-1]), "windows": len(windows), "window_seconds": WINDOW}

    def timeline(self, begin: float) -> list[dict[str, Any]]:
        """The run ``WINDOW`` by ``WINDOW``: the DMs running (mean), let in and refused,
        the posts under the global limit a second, and the boards' wait (message to
        board answered: the longest and the 99th percentile of the window's): where a
        run's slow boards came from."""
        def window(at: float) -> int:
            return int((at - begin) // WINDOW)

        rows: dict[int, dict[str, Any]] = {}
        for k in range(int(-(-self.plan.seconds // WINDOW))):
            rows[k] = {"at_s": k * WINDOW, "running": 0, "started": 0, "refused": 0,
                       "paced_per_second": 0.0, "boards": 0, "board_wait_p99_ms": 0.0,
                       "board_wait_max_ms": 0.0}
        for at, n in self.running:
            if (row := rows.get(window(at))) is not None:
                row.setdefault("_n", []).append(n)
        for kind in ("started", "refused"):
            for at in self.events[kind]:
                if (row := rows.get(window(at))) is not None:
                    row[kind] += 1
        for at in self.events["paced"]:
            if (row := rows.get(window(at))) is not None:
                row["paced_per_second"] += 1 / WINDOW
        waits: dict[int, list[float]] = {}
        for sent, wait in self.moved:
            waits.setdefault(window(sent), []).append(wait)
        for k, row in rows.items():
            counts = row.pop("_n", [])
            row["running"] = round(sum(counts) / len(counts)) if counts else 0
            row["paced_per_second"] = round(row["paced_per_second"], 1)
            mine = sorted(waits.get(k, []))
            if mine:
                row["boards"] = len(mine)
                row["board_wait_p99_ms"] = round(mine[int(0.99 * (len(mine) - 1))] * 1000)
                row["board_wait_max_ms"] = round(mine[-1] * 1000)
        return [rows[k] for k in sorted(rows)]

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
            metrics_address=("127.0.0.1", 0) if plan.metrics else None,
            # The public pages on loopback for the live viewers (``--viewers``).
            web_address=("127.0.0.1", 0) if plan.viewers else None, public_url=None)
        self.servers()
        self.fake.observe = self.observe
        self.fake.encode_forms = True  # aiohttp's form encoding, PNGs and all
        self.fake.install(real_time=True)
        try:
            bot = await self.set_up(settings, db)
            async with observed(settings) as observatory, \
                    served_web(settings, bot.services, db, local_links=True) as self.web:
                if observatory is not None:
                    watch_bot(observatory, bot, db)
                result = await self.measure(bot, observatory.port if observatory else None)
        finally:
            self.fake.uninstall()
            await self.fake.close_relay()
        booked = await self.booked(db, {str(e[0]) for e in self.channels})
        durable = await self.durability(db) if url.startswith("postgresql") else None
        await db.close()
        return {**result, **booked, "database": "postgresql" if url.startswith(
            "postgresql") else "sqlite", "durability": durable}

    async def durability(self, db: Any) -> dict[str, str]:
        """The PostgreSQL server's own word on what a commit waits for (the tests'
        server runs without fsync: ``GARNET_PG_DURABLE=1 .ci/postgres start`` is one
        that does not)."""
        out = {}
        async with db.engine.connect() as conn:
            for name in ("fsync", "synchronous_commit", "full_page_writes"):
                out[name] = str((await conn.execute(text(f"SHOW {name}"))).scalar_one())
        return out

    async def open(self, bot: Any) -> None:
        """The bot logged in (its matches restored: ``Lifecycle.start``), its servers'
        guilds created."""
        await bot.login("bench")
        for gid in {entry[0] for entry in self.channels}:
            self.fake._dispatch("GUILD_CREATE", self.fake.guild_payload(gid))
        await asyncio.sleep(0.5)
        heap.settle()  # as the bot does once every shard is ready (its on_ready)

    def built(self, settings: Settings, db: Any) -> Any:
        bot = build_bot(settings, db, clock=RealClock())
        if self.plan.fifo:
            bot.pace(GlobalPacer(self.plan.global_limit, fifo=True))
        return bot

    async def set_up(self, settings: Settings, db: Any) -> Any:
        """Every DM started through ``/dm``; a share of them (``--near-end``: one at
        least, unless none) then played to a few plies before their end, stored
        straight into the database while the bot is stopped (``bench.nearend``); the
        bot started again restores them all, as after a restart. The bot to measure,
        its render workers warmed before it opens (in their own processes, while the
        DMs are started and stored; never in the run)."""
        plan = self.plan
        count = round(plan.near_end * len(self.channels)) or int(plan.near_end > 0)
        bot = self.built(settings, db)
        if not count:
            await self.warm(bot)
            await self.open(bot)
            await self.start_all(bot)
            return bot
        warming = asyncio.ensure_future(self.warm(bot))
        # The bot that starts the DMs and is stopped: its boards drawn by one worker of
        # its own. Drawn in this process, the drawings' caches (palettes, glyphs, cell
        # art: a sixth of what the collector walked) stayed in the measured bot's heap,
        # where a bot's, its boards drawn by its workers, never has them.
        first = self.built(dataclasses.replace(settings, render_processes=1), db)
        try:
            await self.open(first)
            await self.start_all(first)
            # Among the DMs started (a DM refused at set-up is offered again in the run).
            started = [e for e in self.channels if e[1] in self.started_in]
            chosen = self.rng.sample(started, min(count, len(started)))
            # Before the stop (whose heartbeat is later): the stored turns are charged
            # nothing up to it, and their clocks run from the restart on.
            at = first.services.matches.kit.now()
            rows = [row for e in chosen for row in self.near_end(first, e[1], at)]
            for _ in range(300):  # the set-up's posts out before the stop
                if not any(first.pacer.waiting(pace) for pace in Pace):
                    break
                await asyncio.sleep(0.1)
        finally:
            await first.close()  # its matches stopped, its leases given back
            if not warming.done():
                await asyncio.wait([warming])
        await store(db.engine, rows)
        try:
            warming.result()
            await self.open(bot)
        except BaseException:
            await bot.close()
            raise
        return bot

    async def start_all(self, bot: Any) -> None:
        """Every DM asked for through ``/dm``, 20 at a time: the set-up's start."""
        self.began = time.perf_counter()
        for i in range(0, len(self.channels), 20):
            batch = self.channels[i:i + 20]
            went = await asyncio.gather(*(self.start_dm(bot, e) for e in batch))
            self.ok += sum(went)
            self.started_in.update(e[1] for e, yes in zip(batch, went, strict=True) if yes)

    async def settle(self, bot: Any, port: int | None, before: Scrape) -> Scrape | None:
        """After the run, the boards the fake has answered through the bot's side too
        (a board arriving meanwhile counts as arrived): a send returns, and its
        rate-limit wait is observed (``metrics.board_on_its_way``), only after
        discord.py's own wait for its route's bucket to reset when the answer emptied
        it, a second or two. Until every board that entered the bot's HTTP client has
        left it or waits at the pacer (``SETTLE_MOST`` at most): that last scrape (None
        with the metrics off: a short pause)."""
        if port is None:
            await asyncio.sleep(SETTLE)
            return None
        deadline = time.perf_counter() + SETTLE_MOST
        while True:
            after = await scrape(port)
            counted = delta(before, after)
            entered = figures(counted["bot_latency_ms"])["n"] or 0
            left = figures(counted["rate_limit_wait_ms"])["n"] or 0
            if (entered <= left + len(bot.pacer.waiting(Pace.BOARD))
                    or time.perf_counter() > deadline):
                return after
            await asyncio.sleep(0.1)

    async def measure(self, bot: Any, port: int | None) -> dict[str, Any]:
        """The run; with ``port`` None (metrics off) the figures read from the metrics
        are None: not measured."""
        plan = self.plan
        started, ok, started_in = self.began, self.ok, self.started_in
        try:
            # The set-up's boards out (within 30 s) before the first scrape: a board's
            # bot share is observed as it enters discord.py and its rate-limit wait as
            # it leaves, so one on its way across the scrape would count in one only.
            for _ in range(300):
                if not bot.pacer.waiting(Pace.BOARD):
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(SETTLE)
            setup = time.perf_counter() - started
            # A set-up longer than a turn's clock ends DMs before the run: said in the
            # report, for their run is not the one asked for.
            lapsed = sum(1 for c in started_in if self.live_in(bot, c) is None)
            before = await scrape(port) if port is not None else {}
            profiler = cProfile.Profile() if plan.profile else None
            if profiler is not None:
                profiler.enable()
            self.measuring = True
            begin = time.perf_counter()
            self.stop_at = begin + plan.seconds
            # The bot's share once the players' first moves (all within the first think
            # time, a burst at stress pace) and their boards are through.
            settle = 2 * PACES[plan.pace][1]
            mid = (asyncio.ensure_future(self.scrape_after(port, settle))
                   if port is not None and settle < plan.seconds and not plan.flood
                   else None)  # a scrape in a flood waits at the door with it
            windows = Windows(port, plan.flood) if plan.flood and port is not None else None
            viewing = await self.viewers(bot) if plan.viewers else None
            await asyncio.gather(self.memory_monitor(), self.count_running(bot),
                                 *(self.player(bot, e) for e in self.channels),
                                 *([windows.run(self.stop_at)] if windows else []))
            end = time.perf_counter()
            last = await self.settle(bot, port, before)
            if viewing is not None:
                self.viewed = await viewing
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(str(plan.profile))
            elapsed = end - begin
            self.measuring = False
            for channel, live in list(self.current.items()):
                if live.finished:  # ended on time (or otherwise) since its last look
                    self.count_finished(channel)
            # Moves whose board had not arrived: at least the rest of the run.
            self.unfinished = sorted(end - sent for sent in self.pending.values())
            buckets: dict[str, Any] | None = None
            seen: dict[str, float] | None = None
            still = bot.pacer.waiting(Pace.BOARD)
            if port is not None:
                after = last or await scrape(port)
                buckets = delta(before, after)
                # The unfinished in the bot's figures too: the boards at the pacer (their
                # share done) with their wait so far, the rest in the bot's share, with
                # the shortest of the unfinished times (a lower bound).
                at_pacer = min(len(still), len(self.unfinished))
                observed_in(buckets["rate_limit_wait_ms"], sorted(still)[-at_pacer:]
                            if at_pacer else [])
                observed_in(buckets["bot_latency_ms"],
                            self.unfinished[:len(self.unfinished) - at_pacer])
                if mid is not None:
                    settled = delta(await mid, after)["bot_latency_ms"]
                    observed_in(settled, self.unfinished[:len(self.unfinished) - at_pacer])
                    buckets["bot_latency_settled_ms"] = settled
                # What operators would see moving: moves accepted, leases held.
                seen = {"moves": total(after, "garnet_moves_total")
                        - total(before, "garnet_moves_total"),
                        "leases_held": total(after, "garnet_leases_held"),
                        "matches_running": total(after, "garnet_matches_running")}
            pacer = bot.pacer
            health = bot.services.matches.kit.health.counters()
            pids = [os.getpid(), *_descendants(os.getpid())]
            memory = rss_mb(pids)
            await asyncio.sleep(1.0)  # the last results being written
        finally:
            await bot.close()
        return {
            "dms": plan.dms, "started": ok, "pace": plan.pace,
            "shards": list(plan.shard_ids), "seconds": round(elapsed, 1),
            "setup_seconds": round(setup, 1), "ended_in_setup": lapsed, "moves": self.moves,
            "moves_per_second": round(self.moves / elapsed, 1),
            "posts": self.posts, "posts_per_second": round(self.posts / elapsed, 1),
            "paced_per_second": round((self.posts - self.exempt) / elapsed, 1),
            "exempt_per_second": round(self.exempt / elapsed, 1),
            "running": self.running_figures(begin), "refused": self.refused,
            "timeline": self.timeline(begin),
            "reminders": plan.reminders, "retry_seconds": RETRY,
            "viewers": self.viewed,
            "global_limit": plan.global_limit, "429s": self.too_many,
            "429s_global": self.too_many_global,
            # DISCORD_API_BASE (--proxy): the proxy's answers, by status
            "relayed": {str(k): v for k, v in sorted(self.fake.relayed.items())},
            **{figure: figures(buckets[figure]) if buckets is not None else None
               for figure in FIGURES},
            "bot_latency_settled_ms": settled_figures(buckets), "settle_seconds": settle,
            "memory_mb": {"processes": len(memory), "total": round(sum(memory.values()), 1),
                          "main": memory.get(str(os.getpid())), "each": memory,
                          "peak_total": round(sum(self.peak.values()), 1)},
            "games_finished": self.finished, "buckets": buckets, "metrics": seen,
            "board_wait_ms": figures(self.board_wait_buckets()),
            "flood": windows.figures(self.moved) if windows is not None else None,
            "board_wait_buckets": self.board_wait_buckets(),
            "unfinished": len(self.unfinished),
            "games": {key: {"dms": sum(1 for g in self.game_of.values() if g == key),
                            "moves": self.moves_by_game.get(key, 0),
                            "finished": self.finished_by_game.get(key, 0)}
                      for key in plan.games},
            "near_end": {"dms": self.near_end_dms, "plies_stored": self.near_end_plies},
            "chatter": dict(self.chatter), "answered": dict(self.answered),
            "order": "fifo" if plan.fifo else "priorities",
            "metrics_on": plan.metrics,
            "boards_on_their_way": {"n": len(still), "longest_ms": round(
                max(still, default=0.0) * 1000, 1)},
            "pacer": {pace.name.lower(): {
                "sent": f.sent, "paced": f.paced, "longest_ms": round(f.longest * 1000, 1),
                "mean_ms": round(f.waited / f.sent * 1000, 1) if f.sent else None}
                for pace, f in pacer.figures.items()},
            "fake_forgot": self.forgot,
            # What the fake could not answer as Discord would (empty in a sound run).
            "fake_unexpected": self.fake.unexpected[:10],
            "limit_spells": health["discord_limit_spells"],
            "limit_refusals": health["discord_limit_refusals"],
        }

    def board_wait_buckets(self) -> Buckets:
        """The bench's own figure: from each move's message to its board answered by
        the fake, the unfinished counted as the time left of the run."""
        buckets: Buckets = {le: 0.0 for le in (*LATENCY, float("inf"))}
        observed_in(buckets, [*self.board_waits, *self.unfinished])
        return buckets

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


def settled_figures(buckets: dict[str, Buckets] | None) -> dict[str, Any] | None:
    """The bot's share after the run's first moves (``None``: not measured)."""
    if buckets is None or "bot_latency_settled_ms" not in buckets:
        return None
    return figures(buckets["bot_latency_settled_ms"])


def _merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    first = parts[0]
    measured = first["buckets"] is not None  # not with metrics off
    buckets = merged([p["buckets"] for p in parts]) if measured else None
    summed = ("started", "ended_in_setup", "moves", "moves_per_second", "posts", "posts_per_second",
              "paced_per_second", "exempt_per_second", "refused",
              "global_limit", "429s", "429s_global", "games_finished", "finished_in_db",
              "results", "rewards", "rating_changes")
    out = {**first, **{k: round(sum(p[k] for p in parts), 1) for k in summed}}
    out["processes"] = len(parts)
    # The DMs running in all: each process's least, median and most added (a bound).
    out["running"] = {**first["running"], **{k: sum(p["running"][k] for p in parts)
                                              for k in ("min", "median", "max")}}
    out["relayed"] = {k: sum(p.get("relayed", {}).get(k, 0) for p in parts)
                      for k in sorted({k for p in parts for k in p.get("relayed", {})})}
    for key in ("pacer", "boards_on_their_way"):  # each process's own
        out.pop(key, None)
    out["shards"] = sorted(s for p in parts for s in p["shards"])
    for figure in FIGURES:
        out[figure] = figures(buckets[figure]) if buckets is not None else None
    out["bot_latency_settled_ms"] = settled_figures(buckets)
    out["memory_mb"] = {"processes": sum(p["memory_mb"]["processes"] for p in parts),
                        "total": round(sum(p["memory_mb"]["total"] for p in parts), 1),
                        "peak_total": round(sum(p["memory_mb"]["peak_total"] for p in parts),
                                            1)}
    out["buckets"] = buckets
    waits = merged([{"w": p["board_wait_buckets"]} for p in parts])["w"]
    out["board_wait_buckets"] = waits
    out["board_wait_ms"] = figures(waits)
    out["unfinished"] = sum(p["unfinished"] for p in parts)
    out["chatter"] = {k: sum(p["chatter"][k] for p in parts) for k in first["chatter"]}
    out["answered"] = {k: sum(p["answered"][k] for p in parts) for k in first["answered"]}
    out["near_end"] = {k: sum(p["near_end"][k] for p in parts) for k in first["near_end"]}
    out["games"] = {g: {k: sum(p["games"][g][k] for p in parts) for k in first["games"][g]}
                    for g in first["games"]}
    out["metrics"] = ({k: sum(p["metrics"][k] for p in parts) for k in first["metrics"]}
                      if measured else None)
    return out


def with_viewers(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each size's bot share without and with live viewers, side by side."""
    out = []
    for n in dict.fromkeys(r["dms"] for r in results):
        without = next((r for r in results if r["dms"] == n and not r["viewers"]), None)
        seen = next((r for r in results if r["dms"] == n and r["viewers"]), None)
        if without and seen and without["bot_latency_ms"] and seen["bot_latency_ms"]:
            out.append({"dms": n, "viewers": seen["viewers"]["viewers"],
                        "without": without["bot_latency_ms"], "with": seen["bot_latency_ms"],
                        "viewed": seen["viewers"]})
    return out


def run_processes(plan: Plan, processes: int, proxy: bool = False) -> dict[str, Any]:
    """``processes`` children (``--child``), the shards dealt round-robin; the global
    limit is one bot's, so each child's fake allows its share of it. ``proxy``: every
    child sends through one shared REST proxy instead, at the whole limit, and the
    proxy holds the sum (``bench/proxied.py``)."""
    if proxy:
        from bench.proxied import through_proxy

        with through_proxy(plan.global_limit) as proxied:
            env = {**os.environ, "DISCORD_API_BASE": proxied.base}
            merged = _children(plan, processes, plan.global_limit, env)
        return {**merged, "proxy": {"meter": proxied.meter, "proxy": proxied.proxy}}
    return _children(plan, processes, max(1, plan.global_limit // processes), None)


def _children(plan: Plan, processes: int, limit: int,
              env: dict[str, str] | None) -> dict[str, Any]:
    children = []
    for n in range(processes):
        ids = [s for s in range(plan.shards) if s % processes == n]
        cmd = [sys.executable, "-m", "bot", "bench", "--child", "--dms", str(plan.dms),
               "--pace", plan.pace, "--seconds", str(plan.seconds), "--shards",
               str(plan.shards), "--shard-ids", ",".join(map(str, ids)),
               "--render-processes", str(plan.render_processes), "--global-limit",
               str(limit), "--seed", str(plan.seed + n),
               "--run-id", str(plan.run_id), "--games", ",".join(plan.games),
               "--near-end", str(plan.near_end), "--chatter", str(plan.chatter),
               "--plies-left", str(plan.plies_left), "--reminders", plan.reminders]
        if plan.database:
            cmd += ["--database", plan.database]
        if plan.fifo:
            cmd.append("--fifo")
        if not plan.metrics:
            cmd.append("--metrics-off")
        children.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env))
    parts = []
    for child in children:
        out, _ = child.communicate()
        if child.returncode != 0:
            raise SystemExit(f"a bench process failed ({child.returncode})")
        parts.append(json.loads(out.decode().strip().splitlines()[-1]))
    return _merge(parts)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pace", choices=sorted(PACES), default="realistic",
                        help="bench: think time per move, 10-20 s or 2 s")
    parser.add_argument("--processes", type=int, default=1, help="bench: bot processes")
    parser.add_argument("--proxy", action="store_true",
                        help="bench: the processes send through one shared Discord REST "
                        "proxy (@discordjs/proxy, installed by .ci/proxy), each at the whole "
                        "global limit, instead of a fixed share each")
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
    parser.add_argument("--flood", type=int, default=0, metavar="N",
                        help="bench: N clients on each of /metrics, /healthz and /readyz "
                        "(and N/5 slow ones) flood the bot's metrics server in alternate "
                        "2.5 s windows; the move -> board times of both kinds compared")
    parser.add_argument("--near-end", type=float, default=0.25,
                        help="bench: the share of DMs started a few plies before their "
                        "end (stored in the database at set-up), so that games finish in "
                        "the run")
    parser.add_argument("--plies-left", type=int, default=2,
                        help="bench: the plies a game started near its end has left")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="bench: cProfile the bot's process during the measured run "
                        "(one process) into FILE (python -m pstats FILE)")
    parser.add_argument("--reminders", choices=sorted(REMINDERS), default="default",
                        help="bench: the DMs' reminders: as a DM has them (default), or "
                        "stress: at 59, 50 and 45 s left, so that they fall due at the "
                        "realistic pace too")
    parser.add_argument("--chatter", type=float, default=0.3,
                        help="bench: the chance a think time holds chatter: talk, an "
                        "illegal move, /board, /time or an autocomplete (not moves)")


def main(args: argparse.Namespace) -> int:
    tune_interpreter()  # as the bot runs
    sizes: list[int] = args.dms or [200, 1000]
    seconds, pace = args.seconds, args.pace
    reminders = args.reminders
    if args.quick:
        sizes, seconds, pace = args.dms or [6], min(seconds, 4.0), "stress"
        reminders = "stress"  # so that some fall due within its seconds
    run_id = args.run_id if args.run_id is not None else int(time.time()) % 100_000
    games = tuple(get_game(g.strip()).key for g in args.games.split(",") if g.strip())
    results = []
    orders = (False, True) if args.compare else (args.fifo,)
    states = metric_states(args.metrics_compare, args.rounds, args.metrics_off)
    looks = (0, args.viewers) if args.viewers and not args.child else (args.viewers or 0,)
    runs = [(n, fifo, on, v) for n in sizes for fifo in orders for on in states
            for v in looks]
    for i, (n, fifo, on, viewers) in enumerate(runs):
        ids = (tuple(int(s) for s in args.shard_ids.split(",")) if args.shard_ids
               else tuple(range(args.shards)))
        plan = Plan(n, pace, seconds, args.database, args.shards, ids,
                    args.render_processes, args.global_limit, args.seed, run_id + i, fifo,
                    on, games, args.near_end, args.chatter, args.plies_left, args.profile,
                    args.flood, reminders, viewers)
        if args.processes > 1:
            result = run_processes(plan, args.processes, args.proxy)
        else:
            result = asyncio.run(Bench(plan).run())
        if args.child:
            print(json.dumps(result))
            return 0
        result.pop("buckets")
        result.pop("board_wait_buckets")
        results.append(result)
        if not args.json:
            print(describe(result), flush=True)
            if result["flood"] is not None:
                print(describe_flood(result["flood"]), flush=True)
    pairs = with_viewers(results) if args.viewers else []
    for pair in pairs if not args.json else []:
        print(describe_viewers(pair), flush=True)
    costs = cost(results) if args.metrics_compare else []
    if not args.json:
        for c in costs:
            print(describe_cost(c), flush=True)
    elif args.metrics_compare:
        print(json.dumps({"runs": results, "cost": costs}, indent=2))
    elif pairs:
        print(json.dumps({"runs": results, "viewers": pairs}, indent=2))
    else:
        print(json.dumps(results, indent=2))
    return 0
