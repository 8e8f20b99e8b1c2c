"""The public web pages, on ``WEB_ADDRESS`` (off by default): read-only, GET only, no
login. aiohttp's server (it comes with discord.py) on the bot's event loop, Jinja2
templates with autoescaping, a stylesheet and a few lines of script of our own (no
inline script: the content security policy forbids it).

    /s/<slug>                     the server: running matches, tournaments, leaderboard
    /s/<slug>/m/<n>               a match (``?ply=N``: its position after N moves)
    /s/<slug>/m/<n>/board/<p>.png its board after p moves
    /s/<slug>/m/<n>/events        its live notices (server-sent events)
    /s/<slug>/t/<n>               a tournament (``/events``: its server's notices)
    /s/<slug>/p/<token>           a player

``?part=live`` answers a page's live part alone, which the script swaps in when a
notice comes. A match's stream carries its live part itself (``event: live``): one
reading and one rendering of a change, shared by every viewer of it in this process,
and no request back per viewer and move. Pages, and the readings they are made from,
are kept until their match changes (``bot.web.cache``); turned off,
every page of the server is 404 from the next request on, in every process (the switch
is a notice that empties every cache), and no copy is kept on the way
(``Cache-Control: no-store``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape

from bot.core.clock import Clock
from bot.services.languages import Languages, from_browser
from bot.services.web import PublicPages, Site, find_site
from bot.store.db import Database
from bot.texts import web as say
from bot.texts.language import _, language, n_, speaking
from bot.web import read
from bot.web.boards import Boards
from bot.web.cache import Cache
from bot.web.guard import (
    IDLE_SECONDS,
    MAX_BODY,
    MAX_HEADERS,
    MAX_LINE,
    Guard,
    Refused,
    room_for_connections,
)
from bot.web.live import Hub
from bot.web.tournament import tournament
from engine.registry import get_game

log = logging.getLogger(__name__)

SLUG = re.compile(r"^[A-Za-z0-9_-]{8,32}$")
STREAM_SECONDS = 600.0  # a stream ends after this; the browser opens another
PING_SECONDS = 15.0  # a comment line this often: proxies keep the stream, we see it's on
WRITE_SECONDS = 10.0  # a stream's write that a client does not read within this: cut
SECURITY = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
STATIC = {"style.css": "text/css; charset=utf-8",
          "live.js": "text/javascript; charset=utf-8",
          "replay.js": "text/javascript; charset=utf-8"}
NOW = b"@@NOW@@"  # in a kept page: the instant it is served, for its clocks
# A match's live part pushed in its stream, framed, at most this long; a longer one (a
# very long game's moves) goes as a bare notice and the script fetches the part.
MAX_EVENT = 64 * 1024
CHANGE = b"event: change\ndata: 1\n\n"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class WebServer:
    """The pages of every server that turned them on, served by this process. ``db`` is
    read only: on SQLite a connection of the pages' own, which WAL lets read beside the
    bot's writer (pages never wait for a move's commit)."""

    def __init__(self, db: Database, clock: Clock, pages: PublicPages, boards: Boards,
                 hub: Hub, address: tuple[str, int], languages: Languages | None = None
                 ) -> None:
        self.db, self.clock, self.pages, self.boards, self.hub = db, clock, pages, boards, hub
        # The servers' languages, as this process keeps them (told of a change by the hub).
        self.languages = languages or Languages(db, pages.roles)
        self.host, self.port = address
        self.guard = Guard()
        self.cache = Cache()
        self.positions = read.Positions()
        hub.watchers.append(self._heard)
        self.env = Environment(loader=PackageLoader("bot.web", "templates"),
                               autoescape=select_autoescape(default=True,
                                                            default_for_string=True),
                               # Read once: no look at the files' times per page.
                               auto_reload=False, trim_blocks=True, lstrip_blocks=True,
                               extensions=["jinja2.ext.i18n"])
        # The pages' words, through the catalogs in the language spoken when a page is
        # made (``speaking``): ``{{ _("Moves") }}`` in the templates, found by `make catalogs`.
        self.env.install_gettext_callables(  # type: ignore[attr-defined]
            gettext=_, ngettext=n_, newstyle=True)
        self.static: dict[str, bytes] = {
            name: resources.files("bot.web").joinpath("static", name).read_bytes()
            for name in STATIC}
        version = hashlib.sha256(b"".join(self.static.values())).hexdigest()[:10]
        self.env.globals.update(v=version, say=say, lang=language)
        self._runner: web.AppRunner | None = None
        self._server: asyncio.AbstractServer | None = None

    @property
    def address(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}" if ":" not in host else f"http://[{host}]:{self.port}"

    # ---- start and stop ------------------------------------------------------------

    async def start(self) -> None:
        room_for_connections()
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._bounded])
        get = app.router.add_get
        get("/", self._root, allow_head=True)
        get("/static/{name}", self._static)
        get("/s/{slug}", self._server_page)
        get("/s/{slug}/m/{number:\\d{1,9}}", self._match_page)
        get("/s/{slug}/m/{number:\\d{1,9}}/board/{ply:\\d{1,5}}.png", self._board)
        get("/s/{slug}/m/{number:\\d{1,9}}/events", self._match_events)
        get("/s/{slug}/t/{number:\\d{1,9}}", self._tournament_page)
        get("/s/{slug}/t/{number:\\d{1,9}}/events", self._server_events)
        get("/s/{slug}/p/{token}", self._player_page)
        self._runner = web.AppRunner(app, access_log=None, keepalive_timeout=IDLE_SECONDS,
                                     max_line_size=MAX_LINE, max_field_size=MAX_LINE,
                                     max_headers=MAX_HEADERS, handler_cancellation=True)
        await self._runner.setup()
        assert self._runner.server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self.guard.wrap(self._runner.server),
                                                self.host, self.port, reuse_address=True,
                                                backlog=256)
        if self.port == 0:  # a free port picked by the system (tests, the bench)
            self.port = int(self._server.sockets[0].getsockname()[1])
        self.guard.start()
        await self.hub.start()
        log.info("web pages on %s", self.address)

    async def stop(self) -> None:
        await self.guard.stop()
        if self._server is not None:
            self._server.close()
            for transport in list(self.guard.connections):
                transport.abort()
            self._server = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.hub.stop()

    # ---- every request ----------------------------------------------------------------

    @web.middleware
    async def _bounded(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            if request.method not in ("GET", "HEAD"):
                response: web.StreamResponse = web.Response(
                    status=405, text="GET only\n", headers={"Allow": "GET, HEAD"})
            else:
                with self.guard.request(request):
                    response = await handler(request)
        except Refused as refused:
            response = web.Response(status=refused.status, text=say.too_busy() + "\n",
                                    headers={"Retry-After": "5"})
        except web.HTTPNotFound:
            response = self._page("missing.html", status=404)
        except web.HTTPException as exc:
            response = web.Response(status=exc.status, text=f"{exc.reason}\n")
        if not response.prepared:
            response.headers.update(SECURITY)
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    def _page(self, template: str, status: int = 200, **values: Any) -> web.Response:
        body = self.env.get_template(template).render(**values)
        return web.Response(text=body, status=status, content_type="text/html",
                            charset="utf-8")

    def _heard(self, guild_id: str | None, number: int, ended: bool) -> None:
        if guild_id is None:
            self.cache.reset()
            self.languages.forget()
        else:
            self.cache.changed(guild_id, number, ended)

    async def _site(self, request: web.Request) -> Site:
        slug = request.match_info["slug"]
        if not SLUG.match(slug):
            raise web.HTTPNotFound()
        site = await self.cache.sites.get(("site", slug), lambda: find_site(self.db, slug))
        if site is None:
            raise web.HTTPNotFound()
        return site

    async def _language(self, request: web.Request, site: Site) -> tuple[str, bool]:
        """The language a page speaks to this browser, and whether it is the browser's
        choice (then the same address says another language to another browser)."""
        spoken = await self.languages.spoken(site.guild_id)
        lang = ((spoken.browser and from_browser(request.headers.get("Accept-Language", "")))
                or spoken.language)
        return lang, spoken.browser

    async def _made(self, key: tuple[str, ...], site: Site, number: int, lang: str,
                    make: Callable[[], Awaitable[bytes | None]]) -> bytes | None:
        """What ``make`` makes in ``lang`` (words and board), from the cache: kept until
        match ``number`` (0: anything of the server) changes."""
        async def said() -> bytes | None:
            with speaking(lang):
                return await make()

        return await self.cache.pages.get((site.slug, *key, lang), said, site.guild_id,
                                          number)

    async def _kept(self, request: web.Request, site: Site, number: int,
                    make: Callable[[], Awaitable[bytes | None]],
                    content_type: str = "text/html; charset=utf-8") -> web.Response:
        """The page from the cache, or made (``make``: None for 404); kept until match
        ``number`` (0: anything of the server) changes. Its clocks are told the time
        it is served at."""
        lang, browser = await self._language(request, site)
        body = await self._made((request.path, request.query_string[:100]), site, number,
                                lang, make)
        if body is None:
            raise web.HTTPNotFound()
        if content_type.startswith("text/html"):
            body = body.replace(NOW, b"%.2f" % self.clock.now())
        headers = {"Content-Type": content_type, "Content-Language": lang}
        if browser:  # the same address says another language to another browser
            headers["Vary"] = "Accept-Language"
        return web.Response(body=body, headers=headers)

    async def _match_view(self, site: Site, number: int, ply: int | None
                          ) -> read.Viewed | None:
        """Match ``number`` read at ``ply`` (None: as it stands) in the language spoken
        now, with its record, position and the instant it was read; one reading,
        kept until the match changes, for its page, its live part, its stream's
        event and its board."""
        async def reading() -> read.Viewed | None:
            now = self.clock.now()
            found = await read.match(self.db, site, number, now, ply, reviewed=True,
                                     kept=self.positions)
            return None if found is None else (*found, now)

        return await self.cache.views.get(
            (site.slug, str(number), str(ply), language()), reading, site.guild_id, number)

    def _html(self, template: str, part: bool, **values: Any) -> bytes:
        tpl = self.env.get_template(template)
        if part:  # the page's ``live`` block alone (what the script swaps in)
            return "".join(tpl.blocks["live"](tpl.new_context(values))).encode()
        return tpl.render(**values).encode()

    # ---- the pages ------------------------------------------------------------------------

    async def _root(self, _request: web.Request) -> web.Response:
        return self._page("root.html")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.static:
            raise web.HTTPNotFound()
        return web.Response(body=self.static[name], headers={
            "Content-Type": STATIC[name], "Cache-Control": "public, max-age=86400"})

    async def _server_page(self, request: web.Request) -> web.Response:
        site = await self._site(request)

        async def make() -> bytes:
            return self._html("server.html", False, site=site,
                              view=await read.server(self.db, site))

        return await self._kept(request, site, 0, make)

    async def _match_page(self, request: web.Request) -> web.Response:
        site = await self._site(request)
        number = int(request.match_info["number"])
        ply = _number(request.query.get("ply"))
        part = request.query.get("part") == "live"

        async def make() -> bytes | None:
            return self._match_html(site, await self._match_view(site, number, ply),
                                    part, ply)

        return await self._kept(request, site, number, make)

    def _match_html(self, site: Site, found: read.Viewed | None,
                    part: bool, ply: int | None) -> bytes | None:
        if found is None:
            return None
        view, _record, _state, at = found
        return self._html("match.html", part, site=site, m=view, at=at,
                          replay=view.finished or ply is not None)

    async def _board(self, request: web.Request) -> web.Response:
        site = await self._site(request)
        number, ply = int(request.match_info["number"]), int(request.match_info["ply"])

        async def make() -> bytes | None:
            # The board of the match as it stands: the reading its page was made from.
            found = await self._match_view(site, number, None)
            if found is None or found[0].ply != ply:
                found = await self._match_view(site, number, ply)
            if found is None or found[0].ply != ply:
                return None
            view, record, state, _at = found
            game = get_game(record.game)
            banner = view.result if view.finished and view.ply == view.plies and \
                game.outcome(state) is None else None
            hints = record.hints and not view.finished and view.ply == view.plies
            return await self.boards.png(record.id, view.ply, game, state, record.names,
                                         hints, banner, site.guild_id)

        return await self._kept(request, site, number, make, "image/png")

    async def _tournament_page(self, request: web.Request) -> web.Response:
        site = await self._site(request)
        part = request.query.get("part") == "live"

        async def make() -> bytes | None:
            view = await tournament(self.db, site, int(request.match_info["number"]))
            return None if view is None else self._html("tournament.html", part, site=site,
                                                        t=view)

        return await self._kept(request, site, 0, make)

    async def _player_page(self, request: web.Request) -> web.Response:
        site = await self._site(request)

        async def make() -> bytes | None:
            view = await read.player(self.db, site, request.match_info["token"])
            return None if view is None else self._html("player.html", False, site=site,
                                                        p=view)

        return await self._kept(request, site, 0, make)

    # ---- live notices -------------------------------------------------------------------

    async def _match_events(self, request: web.Request) -> web.StreamResponse:
        site = await self._site(request)
        return await self._events(request, site, int(request.match_info["number"]))

    async def _server_events(self, request: web.Request) -> web.StreamResponse:
        site = await self._site(request)
        return await self._events(request, site, 0)

    async def _events(self, request: web.Request, site: Site,
                      number: int) -> web.StreamResponse:
        """Each time the match changes, its live part (``event: live``, one rendering
        shared by every stream of it); for a server's stream (``number`` 0), a notice
        (``event: change``) each time anything of it changes. The stream ends when the
        server's pages are turned off, or after ``STREAM_SECONDS`` (the browser
        reconnects)."""
        with self.guard.stream(request):
            response = web.StreamResponse(headers={
                **SECURITY, "Content-Type": "text/event-stream", "Cache-Control": "no-store",
                "X-Accel-Buffering": "no"})
            await response.prepare(request)
            loop = asyncio.get_running_loop()
            end = loop.time() + STREAM_SECONDS
            with self.hub.follow(site.guild_id, number) as notices:
                await self._send(request, response, b"retry: 2000\n\n")
                while loop.time() < end:
                    try:
                        await asyncio.wait_for(notices.get(), PING_SECONDS)
                        changed = True
                    except TimeoutError:
                        changed = False
                    if await self.cache.sites.get(("site", site.slug),
                                                  lambda: find_site(self.db, site.slug)) is None:
                        await self._send(request, response, b"event: gone\ndata: 1\n\n")
                        break
                    event = b": ping\n\n"
                    if changed:
                        event = await self._pushed(request, site, number) if number else CHANGE
                    await self._send(request, response, event)
            return response

    async def _pushed(self, request: web.Request, site: Site, number: int) -> bytes:
        """Match ``number``'s live part as an event of its stream, in the language of
        this viewer's page: made once per change and language, whoever asks."""
        lang, _ = await self._language(request, site)

        async def make() -> bytes:
            part = self._match_html(site, await self._match_view(site, number, None),
                                    True, None)
            return CHANGE if part is None else framed(b"live", part)

        event = await self._made((f"/m/{number}", "event"), site, number, lang, make)
        assert event is not None
        return event.replace(NOW, b"%.2f" % self.clock.now())

    async def _send(self, request: web.Request, response: web.StreamResponse,
                    data: bytes) -> None:
        try:
            await asyncio.wait_for(response.write(data), WRITE_SECONDS)
        except TimeoutError:  # a client that does not read: cut off
            if request.transport is not None:
                request.transport.abort()
            raise


def framed(name: bytes, data: bytes) -> bytes:
    """A server-sent event ``name`` carrying ``data`` (one ``data:`` line per line, a
    carriage return read as the end of a line, so that nothing in it starts a field of
    its own); a bare notice when it would be longer than ``MAX_EVENT``."""
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    event = b"event: " + name + b"\n" + b"".join(b"data: " + line + b"\n" for line in lines)
    return event + b"\n" if len(event) < MAX_EVENT else CHANGE


def _number(raw: str | None) -> int | None:
    if raw is None or not raw.isdigit() or len(raw) > 5:
        return None
    return int(raw)
