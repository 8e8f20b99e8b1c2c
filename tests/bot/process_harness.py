"""A bot process without Discord or the console, for tests that need real processes
(``tests/bot/test_processes.py``): ``python -m tests.bot.process_harness``.

It reads its settings from the environment as the bot does (DATABASE_URL,
INSTANCE_NAME, SHARD_COUNT, SHARD_IDS, LEASE_SECONDS), builds every service through the
composition root on real time, and starts the matches (taking the leases of its shards,
waiting for them or refused as the bot is). Then it writes one JSON line to stdout per
event: ``{"ready": pid}`` once started; ``{"post": text, "channel": id}`` for each post,
delivered or answering a command; ``{"done": n, "reply": text, "posts": [text, ...],
"board": bool}`` when the n-th command is carried out: its whole answer, ``board``
true when the answer carries a board (the bot accepted a move: its board is its
acknowledgement; an empty answer acknowledges nothing, it is what a message that is
no move is answered, or a move in a match already over). Commands are JSON lines on
stdin:

- ``{"op": "challenge", "guild", "channel", "a", "b"}``: a casual game without a clock,
  accepted at once, ``a`` moves first;
- ``{"op": "dm", "guild", "channel", "a", "b", "turn", "remind"}``: a Death Match, the
  First Player by lots, ``turn`` seconds a turn, no banks, one reminder ``remind`` s
  before the turn's end;
- ``{"op": "typed", "guild", "channel", "who", "text"}``: a message in a channel;
- ``{"op": "clock", "guild", "channel"}``: the seconds the turn of the channel's match
  has used, now (the reply);
- ``{"op": "legal", "guild", "channel"}``: who is to move in the channel's running
  match, a legal move of theirs and the move's number, as JSON (the reply; none when no
  match runs there).

``{"ready": pid, "clocks": {channel: seconds}}`` gives the turns' clocks as restored.
Faults for the tests, from the environment: ``BOARD_DELAY`` (s): a board is reported
out that long after it is posted, as a slow upload is; ``SLOW_REWARD`` (s): the write
of a reward (the ledger, inside the result's transaction) stops that long, after
``{"writing": "reward"}``, so that a kill lands in the middle of it.

The log (the leases' waiting and takeovers) goes to stderr. Exit status 2: refused at
start (SQLite: another process holds the database).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from typing import Any

from sqlalchemy import event

from bot.app import build_services, host_config
from bot.commands.spec import Services
from bot.config import Settings
from bot.core.clock import RealClock
from bot.core.messages import Actor, Post, Response, Role
from bot.core.refusal import answered
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.leases import LeaseHeld
from bot.services.matches import DMSetup
from bot.store.db import open_database

HOST_ROLE = Role("host-role", "Host")
HOSTY = Actor("hosty", "Hosty", roles=frozenset({HOST_ROLE.id}))


def emit(**fields: Any) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


SERVICES: list[Services] = []  # the one process's services, once built


BOARD_DELAY = float(os.environ.get("BOARD_DELAY", "0"))
SLOW_REWARD = float(os.environ.get("SLOW_REWARD", "0"))
_REPORTS: set[asyncio.Task[None]] = set()


async def posted(post: Post) -> None:
    """Report a board that starts a turn as out, as an adapter does (its clock runs
    from then): at once, or ``BOARD_DELAY`` later (with the instant it went out)."""
    if post.turn is None or not SERVICES:
        return
    matches = SERVICES[0].matches
    turn = post.turn
    if BOARD_DELAY <= 0:
        await matches.timing.board_posted(turn, matches.clock.now())
        return

    async def later() -> None:
        await asyncio.sleep(BOARD_DELAY)
        await matches.timing.board_posted(turn, matches.clock.now())

    task = asyncio.create_task(later())
    _REPORTS.add(task)
    task.add_done_callback(_REPORTS.discard)


def slow_reward(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
    if statement.lstrip().upper().startswith("INSERT INTO LEDGER_ENTRIES"):
        emit(writing="reward")
        time.sleep(SLOW_REWARD)  # the whole process stands in the middle of the write


async def deliver(post: Post) -> None:
    emit(post=post.text, channel=post.channel_id)
    await posted(post)


def actor(name: str) -> Actor:
    return Actor(name, name.title())


async def carry_out(services: Services, cmd: dict[str, Any]) -> Response:
    m = services.matches
    guild, channel = str(cmd["guild"]), str(cmd["channel"])
    if cmd["op"] == "challenge":
        r = await m.lobby.challenge(Asker(guild, channel, actor(cmd["a"])), "cairo",
                                    [actor(cmd["b"])],
                              first="me", tc=TimeControl.off())
        if r.reply is not None and r.reply.ephemeral:
            return r
        accepted = await m.lobby.answer(Asker(guild, channel, actor(cmd["b"])), None, accept=True)
        return Response(reply=r.reply, posts=r.posts + accepted.posts)
    if cmd["op"] == "dm":
        await m.roles.adopt(guild, [HOST_ROLE])
        tc = TimeControl(turn=float(cmd["turn"]), banks=0, bank=1.0,
                         turn_reminders=(float(cmd["remind"]),), reserve_every=0,
                         reserve_reminder=False)
        return await m.choosing.start_dm(Asker(guild, channel, HOSTY), DMSetup("cairo",
                                [actor(cmd["a"]), actor(cmd["b"])], chooser="lots", tc=tc))
    if cmd["op"] == "typed":
        return await m.play.typed(Asker(guild, channel, actor(cmd["who"])), str(cmd["text"]))
    if cmd["op"] == "legal":
        live = next((x for x in m.live.values() if x.guild_id == guild
                     and x.channel_id == channel and not x.finished), None)
        if live is None or live.to_move is None:
            return Response()
        move = live.game.legal_moves(live.state)[0]
        return Response(reply=Post(json.dumps({"who": live.users[live.to_move],
                                               "move": live.game.notation(move),
                                               "ply": live.ply + 1})))
    if cmd["op"] == "clock":
        live = next(x for x in m.live.values()
                    if x.guild_id == guild and x.channel_id == channel)
        return Response(reply=Post(f"{live.elapsed(m.clock.now()):.3f}"))
    raise ValueError(f"unknown op {cmd['op']!r}")


async def main() -> int:
    settings = Settings.from_env(env_file=None)
    db = await open_database(settings.database_url)
    if SLOW_REWARD > 0:
        event.listen(db.engine.sync_engine, "before_cursor_execute", slow_reward)
    services = build_services(db, RealClock(), host_config(settings), deliver=deliver)
    SERVICES.append(services)
    try:
        await services.matches.start()
    except LeaseHeld as exc:
        print(f"error: {exc}", file=sys.stderr)
        await db.close()
        return 2
    now = services.matches.clock.now()
    emit(ready=os.getpid(), clocks={live.channel_id: live.elapsed(now)
                                    for live in services.matches.live.values()})
    done = 0
    try:
        while line := await asyncio.to_thread(sys.stdin.readline):
            if not line.strip():
                continue
            cmd = json.loads(line)
            r = await answered(lambda: carry_out(services, cmd))  # noqa: B023
            for post in r.posts:
                await deliver(post)
            done += 1
            emit(done=done, reply=r.reply.text if r.reply is not None else None,
                 posts=[p.text for p in r.posts],
                 board=any(p.image is not None for p in r.posts))
            if r.reply is not None:
                await posted(r.reply)
    finally:
        await services.matches.stop()
        await db.close()
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    sys.exit(asyncio.run(main()))
