"""The one composition root: settings, database, clock, every service, then an adapter.

Nothing imports this module but the launcher (``python -m bot``), benchmarks and
tests: every part is built here once and handed what it needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import random
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from sqlalchemy import func, select

from bot.adapters.console import Console
from bot.commands.spec import Services
from bot.config import ConfigError, Settings
from bot.core import heap, logs, metrics
from bot.core.clock import Clock, RealClock, VirtualClock
from bot.core.messages import Post
from bot.core.metrics import watch_loop_lag
from bot.services.decks import Decks
from bot.services.economy import Economy
from bot.services.event_review import EventReviews
from bot.services.games import Games
from bot.services.history import History
from bot.services.languages import Languages
from bot.services.limits import ServerQueues
from bot.services.matches import (
    Deliver,
    MatchConfig,
    MatchEnd,
    Matches,
    Outlets,
    Reach,
    ThreadMaker,
)
from bot.services.observe import Observatory, database_check, lease_check, watch
from bot.services.permissions import HostRoles
from bot.services.render import Renderer
from bot.services.season import Season
from bot.services.tournaments.host import Tournaments
from bot.services.web import PublicPages
from bot.services.workers import Workers
from bot.store.db import Database, open_database
from bot.store.models import Heartbeat
from bot.web import Boards, Hub, WebServer
from bot.web.cache import KEEP_SECONDS
from bot.web.live import MAX_PAYLOAD
from bot.web.process import PagesProcess, said

# How long a thread that wants the interpreter's lock waits before the one holding it
# must give it up (CPython's default: 5 ms). The event loop gives the lock up at each
# system call (a socket's send, a render worker's pipe, a job handed to a database
# thread) and must then get it back from whichever thread took it: with the default,
# up to 5 ms a call whenever a database thread (aiosqlite's, one per connection) is
# busy, which showed in every stage of a move once live viewers' pages kept the pages'
# thread busy (docs/benchmarks.md, "Live viewers: where the bot's share went").
LOCK_SWITCH_SECONDS = 0.0005


def tune_interpreter() -> None:
    """This process's lock switch interval (``LOCK_SWITCH_SECONDS``) and its garbage
    collector: the bot's and the benches' (which measure the bot as it runs).

    What is loaded by now (discord.py, SQLAlchemy, the games, every module: some
    160,000 objects) lives as long as the process, and each full collection walked it
    all: about 100 ms with the event loop stopped, and 200-300 ms once a thousand DMs'
    objects were beside it, a dozen times a minute at Discord's limit (the loop's lag
    p99 200 ms at stress pace). Frozen, the collector leaves it alone."""
    sys.setswitchinterval(LOCK_SWITCH_SECONDS)
    heap.settle()


async def last_heartbeat(db: Database) -> float:
    async with db.session() as s:
        latest = await s.scalar(select(func.max(Heartbeat.at)))
    return float(latest or 0.0)


if TYPE_CHECKING:
    from bot.adapters.discord.client import GarnetBot


def build_services(db: Database, clock: Clock, config: MatchConfig | None = None,
                   deliver: Deliver | None = None, rng: random.Random | None = None,
                   threads: ThreadMaker | None = None, reach: Reach | None = None) -> Services:
    """Every service, each built once and handed what it needs. ``threads`` is the
    adapter's way to open a thread outside a command (a tournament's next match),
    ``reach`` its way to tell whether garnet can post to a channel."""
    config = config or MatchConfig()
    roles = HostRoles(db, config.default_host_role)
    renderer = Renderer(config.render_processes)
    # The computer player's moves and reviews.
    workers = Workers(config.ai_processes, config.ai_fixed)
    # The public pages' switches; the links in posts once ``served_web`` says where.
    pages = PublicPages(db, roles)
    languages = Languages(db, roles)  # which language garnet speaks in each server
    matches = Matches(db, clock, config, deliver=deliver, rng=rng, roles=roles,
                      renderer=renderer, workers=workers,
                      outlets=Outlets(threads=threads, reach=reach, web_link=pages.link,
                                      language=languages.of))
    heavy = ServerQueues()  # replays and exports: one queue per server, one cap overall
    history = History(db, renderer, heavy, workers)
    # An event's DMs reviewed when they end (``/host event create review:yes``), in a worker.
    auto_reviews = EventReviews(db, history.reviews, matches)
    matches.watch_ends(auto_reviews.match_ended)
    matches.around(_nothing, auto_reviews.stop)
    # Tournaments run on the match host: they hear every match's end, restore after it
    # and stop before it; the match host knows nothing of them.
    tournaments = Tournaments(db, clock, matches, roles, rng, web_link=pages.link)
    matches.watch_ends(tournaments.match_ended)
    matches.around(tournaments.restore, tournaments.stop)
    return Services(matches=matches,
                    economy=Economy(db, clock, roles, config.dm_reward, heavy),
                    history=history, roles=roles,
                    season=Season(db, clock, roles, matches), tournaments=tournaments,
                    decks=Decks(db, clock, roles, matches), games=Games(db, roles),
                    languages=languages,
                    event_reviews=auto_reviews, web=pages)


async def _nothing() -> None:
    return None


def host_config(settings: Settings) -> MatchConfig:
    return MatchConfig(instance=settings.instance, default_host_role=settings.host_role,
                       dm_reward=settings.dm_reward,
                       render_processes=settings.render_processes,
                       # The computer's moves: two workers (one server never holds
                       # both); its reviews: one more (bot.services.workers).
                       ai_processes=2 if settings.render_processes > 0 else 0,
                       choose_within=settings.first_player_minutes * 60.0,
                       casual_idle=settings.casual_idle_hours * 3600.0,
                       shards=settings.shards, lease_seconds=float(settings.lease_seconds),
                       board_wait_limit=float(settings.board_wait_limit),
                       requests_per_second=float(settings.global_requests_per_second),
                       request_budget=settings.request_budget / 100,
                       cpu_budget=None if settings.cpu_budget is None
                       else settings.cpu_budget / 100)


async def _stdin_lines(prompt: Callable[[], str], out: TextIO) -> AsyncIterator[str]:
    interactive = sys.stdin.isatty()
    while True:
        if interactive:  # where the next line is said: server and channel
            out.write(prompt())
            out.flush()
        line = await asyncio.to_thread(sys.stdin.readline)
        if not line:
            return
        yield line


async def _file_lines(path: Path, echo: TextIO) -> AsyncIterator[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            echo.write(line + "\n")
        yield line


async def run_console(settings: Settings, script: Path | None, virtual: bool,
                      hosts: tuple[str, ...], out: TextIO = sys.stdout) -> int:
    instrument(settings)
    tune_interpreter()
    db = await open_database(settings.database_url)
    clock: Clock = RealClock()
    if virtual:
        # Virtual time must not run backwards past what an earlier run recorded.
        clock = VirtualClock(start=max(RealClock().now(), await last_heartbeat(db)))
    console = Console(None, settings.image_dir, out=out, hosts=hosts)
    # On the virtual clock the computer searches to its node budgets, never to a real
    # second: a script's moves and reviews are the same on a busy machine.
    config = dataclasses.replace(host_config(settings), ai_fixed=virtual)
    services = build_services(db, clock, config, deliver=console.show,
                              threads=console.thread_in)
    console.attach(services)
    host = services.matches
    await host.start()
    try:
        # In the console the links go to the local pages when PUBLIC_URL is not set.
        # On the virtual clock the pages' clocks are the console's: in its process.
        web = dataclasses.replace(settings, web_process=settings.web_process and not virtual)
        async with served_web(web, services, db, local_links=True):
            if script is not None:
                await console.run(_file_lines(script, out))
            else:
                out.write("garnet console: type `name: message` (e.g. `alice: /help`), "
                          "Ctrl-D to quit.\n")
                out.flush()
                await console.run(_stdin_lines(console.prompt, out))
    finally:
        await host.stop()
        await db.close()
    return 0


@contextlib.asynccontextmanager
async def served_web(settings: Settings, services: Services, db: Database,
                     local_links: bool = False
                     ) -> AsyncIterator[WebServer | PagesProcess | None]:
    """The public pages on ``WEB_ADDRESS`` while the bot runs, and the live notices of
    this process's matches to their viewers (on PostgreSQL to every process's viewers:
    sent wherever ``WEB_ADDRESS`` or ``PUBLIC_URL`` is set); nothing when both are off.
    ``local_links``: the console links to its own pages when ``PUBLIC_URL`` is not set."""
    pages, matches = services.web, services.matches
    if pages is None or (settings.web_address is None and settings.public_url is None):
        yield None
        return
    pages.base = settings.public_url
    hub = Hub(db)
    pages.switched = hub.reset
    # A server's new language reaches every process at once: each forgets what it kept.
    services.languages.changed = hub.reset
    hub.watchers.append(lambda guild, _number, _ended: services.languages.forget()
                        if guild is None else None)
    matches.watch_turns(lambda live: hub.changed(live.guild_id, live.number))
    # A review stored: the match's page shows it (its kept copy goes, in every process).
    services.history.reviews.reviewed = hub.changed

    async def ended(end: MatchEnd) -> list[Post]:
        hub.changed(end.guild_id, end.number, ended=True)
        return []

    matches.watch_ends(ended)
    if settings.web_address is None:
        try:
            yield None
        finally:
            await hub.stop()
        return
    if settings.web_process:
        async with _pages_apart(settings.web_address, db, hub) as apart:
            if pages.base is None and local_links:
                pages.base = apart.address
            yield apart
        return
    # On SQLite the pages read on a connection of their own (WAL: beside the writer).
    reader = Database(db.url) if db.engine.dialect.name == "sqlite" else db
    server = WebServer(reader, matches.kit.clock, pages, Boards(matches.kit.renderer), hub,
                       settings.web_address, Languages(reader, pages.roles))
    try:
        await server.start()
        if pages.base is None and local_links:
            pages.base = server.address
        yield server
    finally:
        await server.stop()
        if reader is not db:
            await reader.close()


@contextlib.asynccontextmanager
async def _pages_apart(address: tuple[str, int], db: Database,
                       hub: Hub) -> AsyncIterator[PagesProcess]:
    """``WEB_PROCESS=on``: the pages served by a process of their own
    (``bot.web.process``), told of this process's notices on SQLite."""
    apart = PagesProcess(address, db.url)
    await apart.start()
    if not hub.postgres:  # PostgreSQL's NOTIFY reaches it as it reaches every process
        hub.outlets.append(apart.send)
    try:
        yield apart
    finally:
        await apart.stop()
        await hub.stop()


async def run_pages(settings: Settings, nice: int = 0, child: bool = False) -> int:
    """``garnet web``: the public pages alone, on ``WEB_ADDRESS``, until stopped; live
    notices by PostgreSQL's LISTEN. With ``child`` (the bot's process starts it so with
    ``WEB_PROCESS=on``) the notices also come as lines on standard input
    (``Hub.heard``), and its end ends it. The line saying where it listens is its only
    output (its parent reads the port from it)."""
    assert settings.web_address is not None  # the launcher said so
    if nice:
        os.nice(nice)
        # And as a batch job: it does not preempt the bot's threads when they wake (a
        # move's trips between the event loop and the database's thread are such
        # wake-ups), while it still gets every core's idle time.
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    tune_interpreter()
    db = Database(settings.database_url)  # read only: never migrated from here
    roles = HostRoles(db, settings.host_role)
    pages = PublicPages(db, roles, settings.public_url)
    renderer = Renderer(1)
    hub = Hub(db)
    server = WebServer(db, RealClock(), pages, Boards(renderer), hub, settings.web_address,
                       Languages(db, roles))
    try:
        await server.start()
        print(said(server.address), flush=True)
        sys.stdout = sys.stderr  # nothing else on the line the parent read
        if child:
            await _notices(hub)
        else:
            if not hub.postgres:
                logging.getLogger(__name__).warning(
                    "garnet web alone on SQLite gets no live notices: pages show a move "
                    "within %g s, without live updates (WEB_PROCESS=on has the bot start it "
                    "with them)", KEEP_SECONDS)
            await asyncio.Event().wait()  # until stopped (Ctrl-C)
    finally:
        await server.stop()
        renderer.close()
        await db.close()
    return 0


async def _notices(hub: Hub) -> None:
    """Standard input's lines to ``hub`` until it ends."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_PAYLOAD + 2)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        try:
            line = await reader.readline()
        except ValueError:  # longer than any notice: not ours
            continue
        if not line:
            return
        hub.heard(line.decode(errors="replace").strip())


def instrument(settings: Settings) -> None:
    """``METRICS=off``: the instrumentation off in this process, before anything is
    built (``bot.core.metrics.switch_off``)."""
    if not settings.metrics:
        metrics.switch_off()


def build_discord_bot(settings: Settings, db: Database,
                      clock: Clock | None = None, message_content: bool = True) -> GarnetBot:
    """The Discord bot with its services (the bot delivers the services' own posts)."""
    from bot.adapters.discord.client import GarnetBot
    from bot.adapters.discord.sharing import proxied_pacer, send_through
    from bot.services.identify import IdentifyTurns

    send_through(settings.discord_api_base)
    bot = GarnetBot(command_guild=settings.command_guild,
                    members_intent=settings.members_intent,
                    shard_count=settings.shard_count, shard_ids=settings.shard_ids,
                    message_content=message_content and settings.message_content != "off",
                    global_requests_per_second=settings.global_requests_per_second)
    services = build_services(db, clock or RealClock(), host_config(settings),
                              deliver=bot.deliver, threads=bot.thread_in, reach=bot.reach)
    bot.attach(services)
    if settings.discord_api_base is not None:
        bot.pace(proxied_pacer(settings.global_requests_per_second))
    bot.turns = IdentifyTurns(db)
    return bot


async def run_discord(settings: Settings) -> int:
    """Log in and serve until the process is stopped."""
    if not settings.discord_token:
        raise ConfigError("DISCORD_TOKEN (or DISCORD_TOKEN_FILE) is not set")
    instrument(settings)
    tune_interpreter()
    db: Database = await open_database(settings.database_url)
    try:
        await serve_discord(settings, db)
    finally:
        await db.close()
    return 0


NO_MESSAGE_CONTENT = (
    "Discord refused the Message Content intent (close code 4014: it is not turned on "
    "under Bot -> Privileged Gateway Intents, or not granted to a bot in over 100 "
    "servers). garnet runs without it: players cannot type their moves and move with "
    "/move, whose suggestions list the moves (MESSAGE_CONTENT=off starts so directly).")
MESSAGE_CONTENT_OFF = ("MESSAGE_CONTENT=off: typed moves are not read; players move with "
                       "/move, whose suggestions list the moves.")


async def serve_discord(settings: Settings, db: Database, clock: Clock | None = None) -> None:
    """Serve on Discord; if Discord refuses the privileged Message Content intent
    (``MESSAGE_CONTENT=auto``), say so once and serve again without it. With
    ``METRICS_ADDRESS``, /metrics, /healthz and /readyz are served meanwhile."""
    import discord

    content = settings.message_content != "off"
    if not content:
        logging.getLogger(__name__).warning(MESSAGE_CONTENT_OFF)
    async with observed(settings) as observatory:
        while True:
            bot = build_discord_bot(settings, db, clock, message_content=content)
            if observatory is not None:
                watch_bot(observatory, bot, db)
            # The leases of our shards first (waiting while another process holds
            # them): a process must not connect to Discord for shards whose matches it
            # cannot run.
            await bot.services.matches.claim()
            try:
                async with served_web(settings, bot.services, db), bot:
                    await bot.start(settings.discord_token or "")
                return
            except discord.PrivilegedIntentsRequired:
                if not content:
                    raise  # another privileged intent (MEMBERS_INTENT) is refused
                logging.getLogger(__name__).warning(NO_MESSAGE_CONTENT)
                content = False


@contextlib.asynccontextmanager
async def observed(settings: Settings) -> AsyncIterator[Observatory | None]:
    """The metrics server on ``METRICS_ADDRESS`` and the event loop's lag watch, for
    as long as the bot serves; nothing when it is off."""
    if settings.metrics_address is None or not metrics.on():
        yield None
        return
    observatory = Observatory(*settings.metrics_address)
    await observatory.start()
    lag = asyncio.create_task(watch_loop_lag())
    try:
        yield observatory
    finally:
        lag.cancel()
        await observatory.stop()


def watch_bot(observatory: Observatory, bot: GarnetBot, db: Database) -> None:
    """What /readyz checks and the gauges read, on this bot and its services."""
    matches = bot.services.matches
    kit, renderer = matches.kit, matches.kit.renderer
    workers = matches.practice.workers
    observatory.checks = {"gateway": bot.gateway.check,
                          "leases": lease_check(kit.leases),
                          "database": database_check(db)}
    bot.gateway.watch()
    watch(kit.live, kit.leases, [renderer.boards, renderer.heavy, workers.moves,
                                 workers.reviews], kit.budget)


def setup_logging(level: str, settings: Settings | None = None) -> None:
    """The log on stderr: ``LOG_FORMAT`` text or json, the token never in it."""
    if settings is None:
        logs.setup(level)
        return
    logs.setup(level, settings.log_format, settings.instance, [settings.discord_token])
