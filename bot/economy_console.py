"""The console's commands for events, priority, garnets, ratings, leaderboards and exports.

Written as on Discord: ``/event create name:Season 1 reward:3 transfers:yes``,
``/priority set player:@alice rank:1``, ``/transfer to:@bob amount:5 reason:deal``.
Players may also be named bare (``/grant @alice 5 reason:late``). bot/console.py
merges these handlers into its command table.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.core import options as opt
from bot.core.messages import Actor, Response
from engine.game import OptionError

if TYPE_CHECKING:
    from bot.console import Console

GUILD = "console"
MENTION = re.compile(r"<@([^>]+)>")

Handler = Callable[["Console", Actor, list[str], dict[str, str]], Awaitable[Response]]


def _name(value: str) -> str | None:
    value = value.strip()
    found = MENTION.fullmatch(value)
    return found.group(1) if found else (value.lstrip("@") or None)


def _people(c: Console, positional: list[str], named: dict[str, str],
            key: str) -> list[Actor]:
    """Players named by ``key:`` and by ``@name`` words (taken out of ``positional``)."""
    words = [w for w in positional if w.startswith("@") or MENTION.fullmatch(w)]
    for word in words:
        positional.remove(word)
    raw = named.pop(key, None)
    names = ([_name(w) for w in raw.split()] if raw else []) + [_name(w) for w in words]
    return [c.actor(n) for n in names if n]


def _one(c: Console, positional: list[str], named: dict[str, str], key: str,
         required: bool) -> Actor | None:
    people = _people(c, positional, named, key)
    if len(people) > 1:
        raise OptionError(f"name one player with `{key}:`")
    if not people and required:
        raise OptionError(f"name the player: `{key}:@name`")
    return people[0] if people else None


def _check(named: dict[str, str], allowed: set[str]) -> None:
    unknown = set(named) - allowed
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(sorted(unknown))}; this command "
                          f"takes {', '.join(sorted(allowed)) or 'none'}")


def _number(positional: list[str], named: dict[str, str], key: str) -> int | None:
    raw = named.pop(key, None)
    if raw is None:
        digits = next((w for w in positional if w.lstrip("-").isdigit()), None)
        if digits is not None:
            positional.remove(digits)
            raw = digits
    return opt.as_int(key, raw)


def _rest(positional: list[str]) -> str | None:
    text = " ".join(positional).strip()
    return text or None


async def _event(c: Console, actor: Actor, positional: list[str],
                 named: dict[str, str]) -> Response:
    eco = c.economy
    sub = positional.pop(0).lower() if positional else ""
    if sub == "create":
        _check(named, {"name", "reward", "transfers", "confiscate"})
        name = named.get("name") or _rest(positional) or ""
        return await eco.event_create(
            GUILD, actor, name, reward=opt.as_int("reward", named.get("reward")),
            transfers=opt.as_bool("transfers", named.get("transfers"), False),
            confiscate=named.get("confiscate"))
    if sub == "add":
        people = _people(c, positional, named, "player")
        _check(named, {"event"})
        return await eco.event_add(GUILD, actor, people, named.get("event") or _rest(positional))
    if sub == "remove":
        person = _one(c, positional, named, "player", required=True)
        assert person is not None
        _check(named, {"event"})
        return await eco.event_remove(GUILD, actor, person,
                                      named.get("event") or _rest(positional))
    if sub in ("close", "info"):
        _check(named, {"event"})
        chosen = named.get("event") or _rest(positional)
        if sub == "close":
            return await eco.event_close(GUILD, actor, chosen)
        return await eco.event_info(GUILD, actor, chosen)
    raise OptionError("`/event create|add|remove|close|info`, e.g. "
                      "`/event create name:Season 1 reward:3`")


async def _priority(c: Console, actor: Actor, positional: list[str],
                    named: dict[str, str]) -> Response:
    eco = c.economy
    sub = positional.pop(0).lower() if positional else "show"
    if sub == "set":
        person = _one(c, positional, named, "player", required=True)
        assert person is not None
        rank = _number(positional, named, "rank")
        _check(named, {"event"})
        if rank is None:
            raise OptionError("say the rank: `/priority set player:@name rank:1`")
        return await eco.priority_set(GUILD, actor, person, rank,
                                      named.get("event") or _rest(positional))
    if sub == "show":
        _check(named, {"event"})
        return await eco.priority_show(GUILD, actor, named.get("event") or _rest(positional))
    raise OptionError("`/priority set player:@name rank:N` or `/priority show`")


async def _garnets(c: Console, actor: Actor, positional: list[str],
                   named: dict[str, str]) -> Response:
    person = _one(c, positional, named, "player", required=False)
    _check(named, {"event"})
    return await c.economy.garnets(GUILD, actor, person,
                                         named.get("event") or _rest(positional))


async def _transfer(c: Console, actor: Actor, positional: list[str],
                    named: dict[str, str]) -> Response:
    to = _one(c, positional, named, "to", required=True)
    assert to is not None
    amount = _number(positional, named, "amount")
    _check(named, {"reason", "event"})
    return await c.economy.transfer(GUILD, actor, to, amount,
                                          named.get("reason") or _rest(positional) or "",
                                          named.get("event"))


def _adjust(fine: bool) -> Handler:
    async def handler(c: Console, actor: Actor, positional: list[str],
                      named: dict[str, str]) -> Response:
        person = _one(c, positional, named, "player", required=True)
        assert person is not None
        amount = _number(positional, named, "amount")
        _check(named, {"reason", "event"})
        reason = named.get("reason") or _rest(positional) or ""
        eco = c.economy
        call = eco.fine if fine else eco.grant
        return await call(GUILD, actor, person, amount, reason, named.get("event"))

    return handler


async def _ledger(c: Console, actor: Actor, positional: list[str],
                  named: dict[str, str]) -> Response:
    person = _one(c, positional, named, "player", required=False)
    page = _number(positional, named, "page")
    _check(named, {"event"})
    return await c.economy.ledger(GUILD, actor, person,
                                        named.get("event") or _rest(positional), page or 1)


async def _leaderboard(c: Console, actor: Actor, positional: list[str],
                       named: dict[str, str]) -> Response:
    page = _number(positional, named, "page")
    _check(named, {"by", "game", "event"})
    by = named.get("by") or (positional.pop(0) if positional else "garnets")
    return await c.economy.leaderboard(GUILD, actor, by, named.get("game"),
                                             named.get("event"), page or 1)


async def _rating(c: Console, actor: Actor, positional: list[str],
                  named: dict[str, str]) -> Response:
    person = _one(c, positional, named, "player", required=False)
    _check(named, {"game"})
    return await c.economy.rating(GUILD, actor, person,
                                        named.get("game") or _rest(positional))


async def _export(c: Console, actor: Actor, positional: list[str],
                  named: dict[str, str]) -> Response:
    _check(named, {"event"})
    return await c.economy.export(GUILD, actor, named.get("event") or _rest(positional))


ECONOMY_COMMANDS: dict[str, Handler] = {
    "event": _event,
    "priority": _priority,
    "garnets": _garnets,
    "transfer": _transfer,
    "grant": _adjust(fine=False),
    "fine": _adjust(fine=True),
    "ledger": _ledger,
    "leaderboard": _leaderboard,
    "rating": _rating,
    "export": _export,
}


def _lb_button(parts: list[str]) -> str:
    # garnet:lb:BY:GAME:SCOPE:PAGE
    by, game, scope, page = parts[2:6]
    game_part = f" game:{game}" if game != "-" else ""
    return f"/leaderboard by:{by}{game_part} event:{scope} page:{page}"


def _ledger_button(parts: list[str]) -> str:
    # garnet:ledger:USER:SCOPE:PAGE
    user, scope, page = parts[2:5]
    return f"/ledger player:@{user} event:{scope} page:{page}"


ECONOMY_BUTTONS: dict[str, Callable[[list[str]], str]] = {
    "lb": _lb_button,
    "ledger": _ledger_button,
}
