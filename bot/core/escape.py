"""User text made safe to echo in a post: it pings nobody and renders as typed.

Names, event names, reasons and notes come from users. Put into a message as they
are, ``@everyone`` or ``<@id>`` would ping, ``**x**``, ``# x`` or ``[x](link)`` would
render as markdown, and a newline could forge a line of the bot's own. ``plain``
escapes every markdown character with a backslash (Discord shows the character and
hides the backslash; the console removes it too), breaks mentions with a zero-width
space, and joins lines. Every sentence in ``bot.texts`` that echoes user text passes
it through here; images and ledger notes keep the raw text and escape when shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_MARKDOWN = re.compile(r"([\\*_~|`>#\-\[\]<:])")
_MENTION = re.compile(r"@(everyone|here|[!&]?\d)")
_PROSE = re.compile(r"([\\*_~|>#\[\]<])")
_LIST = re.compile(r"^(\d+)([.)])")
_ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])")
ZWSP = "\u200b"


def plain(text: str) -> str:
    """``text`` as a literal: no mention, no markdown, one line."""
    one_line = " ".join(text.split())
    escaped = _MARKDOWN.sub(r"\\\1", one_line)
    escaped = _LIST.sub(r"\1\\\2", escaped)
    return _MENTION.sub("@" + ZWSP + r"\1", escaped)


def plains(texts: Sequence[str]) -> list[str]:
    return [plain(t) for t in texts]


def defang(text: str) -> str:
    """A sentence written elsewhere (the engine's refusals) that may quote user text:
    mentions broken and links and markdown escaped, its own `code` kept."""
    parts = text.split("`")
    # Even parts are prose, odd parts were between backticks (the engine's own code).
    return "`".join(p if i % 2 else _PROSE.sub(r"\\\1", _MENTION.sub("@" + ZWSP + r"\1", p))
                    for i, p in enumerate(parts))


def unescape(text: str) -> str:
    """What a reader sees of escaped text (for the console, which renders no markdown)."""
    return _ESCAPED.sub(r"\1", text)
