"""What the bot says about the games a server offers (``/host games``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.escape import plain
from bot.texts.language import N_, _, text
from engine.game import OptionSpec

#: How the games' rules lines say their options' values (each ``OptionSpec``'s
#: ``words`` and ``phrase``, English in the engine), marked for the catalogs;
#: tests/bot/test_catalogs.py keeps this list and the shipped games' the same.
OPTION_WORDS = (
    N_("in a tie the First Player loses"), N_("in a tie the player who moved last loses"),
    N_("a tie is a draw"), N_("a draw after {value} plies"), N_("deck {value}"),
)


@text
def option_value(spec: OptionSpec, value: Any) -> str:
    """An option's value as a match's rules line says it ("a tie is a draw")."""
    said = dict(spec.words).get(str(value))
    if said:
        return _(said)
    if spec.phrase:
        return _(spec.phrase).format(value=value)
    return spec.describe(value)


@text
def not_offered(title: str, key: str) -> str:
    return (_("This server does not offer {title}: a host turns it on with `/host games "
              "on:{key}`.").format(title=plain(title), key=key))


@text
def unknown(name: str, keys: Sequence[str]) -> str:
    return _("No game '{name}' is installed (games: {listed}).").format(
               name=plain(name), listed=', '.join(keys))


@text
def on_and_off() -> str:
    return _("Give `on:` or `off:`, not both at once.")


@text
def listing(games: Sequence[tuple[str, str, str, bool]], broken: Sequence[str]) -> str:
    """``/host games``: each installed game (key, title, package, offered here)."""
    lines = [_("**Games installed**, and whether this server offers them:")]
    words = {True: _("on"), False: _("off")}
    lines += [f"• `{key}` {plain(title)} ({plain(package)}): {words[on]}"
              for key, title, package, on in games]
    if broken:
        lines.append(
            _("Installed but not loadable (the operator's log says why): {listed}.").format(
                listed=", ".join(f"`{plain(k)}`" for k in broken)))
    lines.append(
        _(
            "`/host games on:KEY` offers one here, `off:KEY` stops offering it "
            "(matches already set up go on)."))
    return "\n".join(lines)


@text
def turned(title: str, on: bool) -> str:
    return (
        _("This server now offers **{title}**.").format(title=plain(title))
        if on
        else _("This server no longer offers **{title}**; matches already set up go on.").format(
            title=plain(title)))
