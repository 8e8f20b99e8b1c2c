"""The public pages in a process of their own beside the bot's (``WEB_PROCESS=on``).

Pages share nothing with the matches but the database: served in the bot's process they
share its one event loop and interpreter lock, and 1,000 viewers tripled the time a
move's board took to leave (the bench's ``--viewers``). So the bot's process starts
``garnet web`` (``bot.app.run_pages``) as a child, which binds ``WEB_ADDRESS`` and reads
the database on connections of its own (SQLite's WAL lets it read beside the bot's
writer); the live notices reach it by PostgreSQL's ``LISTEN`` or, on SQLite, as lines
on its standard input (``Hub.outlets``). Its standard input closing (the bot's process
gone, however it went) ends it. Should it die, it is started again; meanwhile the
matches go on and browsers reconnect by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sys

log = logging.getLogger(__name__)

START_SECONDS = 60.0  # from starting the pages' process to its address said
STOP_SECONDS = 5.0  # from its standard input closed to its exit, then it is killed
RESTART_SECONDS = 2.0  # after it died, before it is started again
# Notices written and not yet read by the pages' process, in bytes: past it they are
# dropped (a stuck process must not grow the bot's memory; what the pages keep is
# bounded by ``bot.web.cache.KEEP_SECONDS`` anyway).
BACKLOG = 1 << 20
NICE = 10  # the pages run this much below the bot: the matches' boards go first
SECRETS = ("DISCORD_TOKEN", "DISCORD_TOKEN_FILE")  # kept from the pages' process
SAID = re.compile(r"garnet web pages on (http://\S+):(\d+)$")


def said(address: str) -> str:
    """The line the pages' process writes once it listens (``address`` as WebServer
    gives it); its parent reads the port from it."""
    return f"garnet web pages on {address}"


class PagesProcess:
    """The child serving the pages at ``address`` on ``database_url``; ``address`` and
    ``port`` say where once started (port 0 asks for a free one)."""

    def __init__(self, address: tuple[str, int], database_url: str) -> None:
        self.host, self.port = address
        self.database_url = database_url
        self.address = ""
        self._child: asyncio.subprocess.Process | None = None
        self._watch: asyncio.Task[None] | None = None
        self._stopping = False
        self.dropped = 0  # notices dropped because the pages' process did not read them

    async def start(self) -> None:
        self._child = await self._spawn()
        self._watch = asyncio.get_running_loop().create_task(self._supervise())

    async def _spawn(self) -> asyncio.subprocess.Process:
        host = f"[{self.host}]" if ":" in self.host else self.host
        # Its settings are this process's (the environment and .env), but for where it
        # listens, the database this process was given and the log's level.
        # Not the bot's token: the process that faces the internet never holds it.
        level = logging.getLevelName(logging.getLogger().getEffectiveLevel())
        env = {**{k: v for k, v in os.environ.items() if k not in SECRETS},
               "WEB_ADDRESS": f"{host}:{self.port}", "DATABASE_URL": self.database_url,
               "LOG_LEVEL": str(level)}
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "web", "--child", "--nice", str(NICE),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env)
        assert child.stdout is not None
        try:
            line = await asyncio.wait_for(child.stdout.readline(), START_SECONDS)
        except TimeoutError:
            line = b""
        found = SAID.match(line.decode(errors="replace").strip())
        if found is None:
            with contextlib.suppress(ProcessLookupError):
                child.kill()
            await child.wait()
            raise RuntimeError(f"the web pages' process did not start (exit code "
                               f"{child.returncode}; its errors are in the log above)")
        self.address, self.port = f"{found.group(1)}:{found.group(2)}", int(found.group(2))
        return child

    async def _supervise(self) -> None:
        while not self._stopping:
            assert self._child is not None
            code = await self._child.wait()
            if self._stopping:
                return
            log.error("the web pages' process ended (exit code %s); starting it again in "
                      "%g s", code, RESTART_SECONDS)
            await asyncio.sleep(RESTART_SECONDS)
            try:
                self._child = await self._spawn()
            except (RuntimeError, OSError):
                log.exception("could not start the web pages' process again")

    def send(self, payload: str) -> None:
        """A live notice (``bot.web.live``) to the pages' process; never blocks."""
        child = self._child
        if child is None or child.stdin is None or child.returncode is not None:
            return
        transport = child.stdin.transport
        if transport.is_closing():
            return
        if transport.get_write_buffer_size() > BACKLOG:
            self.dropped += 1
            return
        child.stdin.write(payload.encode() + b"\n")

    async def stop(self) -> None:
        self._stopping = True
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        child = self._child
        if child is None or child.returncode is not None:
            return
        if child.stdin is not None:
            child.stdin.close()  # its end: it stops serving and exits
        try:
            await asyncio.wait_for(child.wait(), STOP_SECONDS)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                child.kill()
            await child.wait()
