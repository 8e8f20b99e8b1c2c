"""What the bot says about the games a server offers (``/host games``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain


def not_offered(title: str, key: str) -> str:
    return (f"This server does not offer {plain(title)}: a host turns it on with "
            f"`/host games on:{key}`.")


def unknown(name: str, keys: Sequence[str]) -> str:
    return f"No game '{plain(name)}' is installed (games: {', '.join(keys)})."


def on_and_off() -> str:
    return "Give `on:` or `off:`, not both at once."


def listing(games: Sequence[tuple[str, str, str, bool]], broken: Sequence[str]) -> str:
    """``/host games``: each installed game (key, title, package, offered here)."""
    lines = ["**Games installed**, and whether this server offers them:"]
    lines += [f"• `{key}` {plain(title)} ({plain(package)}): {'on' if on else 'off'}"
              for key, title, package, on in games]
    if broken:
        lines.append(f"Installed but not loadable (the operator's log says why): "
                     f"{', '.join(f'`{plain(k)}`' for k in broken)}.")
    lines.append("`/host games on:KEY` offers one here, `off:KEY` stops offering it "
                 "(matches already set up go on).")
    return "\n".join(lines)


def turned(title: str, on: bool) -> str:
    return (f"This server now offers **{plain(title)}**." if on else
            f"This server no longer offers **{plain(title)}**; matches already set up go on.")
