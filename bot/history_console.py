"""The console's commands for match history: ``/history``, ``/match``, ``/replay``.

Written as on Discord: ``/history player:@alice game:cairo page:2``, ``/match id:12``,
``/replay id:12`` (or bare: ``/history @alice 2``, ``/match 12``). bot/console.py
merges these handlers into its command table, and shows the history's paging
buttons as the ``/history`` command they stand for.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.core.messages import Actor, Response
from bot.services import history
from engine.game import OptionError

if TYPE_CHECKING:
    from bot.console import Console

GUILD = "console"
MENTION = re.compile(r"<@([^>]+)>")

Handler = Callable[["Console", Actor, list[str], dict[str, str]], Awaitable[Response]]


def _check(named: dict[str, str], allowed: set[str]) -> None:
    unknown = set(named) - allowed
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(sorted(unknown))}; this command "
                          f"takes {', '.join(sorted(allowed))}")


def _number(name: str, value: str) -> int:
    text = value.strip().lstrip("#")
    if not text.isdigit():
        raise OptionError(f"`{name}` is a number, not '{value.strip()}'")
    return int(text)


def _person(value: str) -> str | None:
    value = value.strip()
    found = MENTION.fullmatch(value)
    return found.group(1) if found else (value.lstrip("@") or None)


async def _history(c: Console, actor: Actor, positional: list[str],
                   named: dict[str, str]) -> Response:
    _check(named, {"player", "game", "page"})
    words = list(positional)
    people = [w for w in words if w.startswith("@") or MENTION.fullmatch(w)]
    numbers = [w for w in words if w.isdigit()]
    rest = [w for w in words if w not in people and w not in numbers]
    raw_player = named.get("player") or (people[0] if people else None)
    player = _person(raw_player) if raw_player else actor.id
    game = named.get("game") or (rest[0] if rest else None)
    raw_page = named.get("page") or (numbers[0] if numbers else None)
    page = _number("page", raw_page) if raw_page else 1
    return await history.history(c.host.db, GUILD, player or actor.id, game, page)


def _match_id(positional: list[str], named: dict[str, str]) -> int:
    _check(named, {"id"})
    raw = named.get("id") or (positional[0] if positional else "")
    if not raw:
        raise OptionError("name the match: `id:12`")
    return _number("id", raw)


async def _match(c: Console, actor: Actor, positional: list[str],
                 named: dict[str, str]) -> Response:
    return await history.show_match(c.host.db, c.host.renderer, GUILD, _match_id(positional, named))


async def _replay(c: Console, actor: Actor, positional: list[str],
                  named: dict[str, str]) -> Response:
    return await history.replay(c.host.db, c.host.renderer, GUILD, _match_id(positional, named))


def _history_button(parts: list[str]) -> str:
    # garnet:hist:USER:PAGE[:GAME]
    game = f" game:{parts[4]}" if len(parts) > 4 else ""
    return f"/history player:@{parts[2]} page:{parts[3]}{game}"


HISTORY_COMMANDS: dict[str, Handler] = {
    "history": _history,
    "match": _match,
    "replay": _replay,
}
HISTORY_BUTTONS: dict[str, Callable[[list[str]], str]] = {"hist": _history_button}
