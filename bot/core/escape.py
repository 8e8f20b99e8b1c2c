"""User text made safe to echo in a post: it pings nobody and renders as typed.

Names, event names, reasons and notes come from users. Put into a message as they
are, ``@everyone`` or ``<@id>`` would ping, ``**x**``, ``# x`` or ``[x](link)`` would
render as markdown, and a newline could forge a line of the bot's own. ``plain``
escapes every markdown character with a backslash (Discord shows the character and
hides the backslash; the console removes it too), breaks mentions with a zero-width
space, joins lines, and drops the bidirectional controls (U+202A-U+202E, U+2066-U+2069)
that would show the rest of the bot's sentence reversed. Every sentence in ``bot.texts``
that echoes user text passes it through here; images and ledger notes keep the raw
text and escape when shown.
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
# Embeddings, overrides and isolates: one U+202E in a name reverses every character
# after it on the reader's screen, the bot's own words included.
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def plain(text: str) -> str:
    """``text`` as a literal: no mention, no markdown, one line."""
    one_line = " ".join(text.translate(_BIDI_CONTROLS).split())
    escaped = _MARKDOWN.sub(r"\\\1", one_line)
    escaped = _LIST.sub(r"\1\\\2", escaped)
    return _MENTION.sub("@" + ZWSP + r"\1", escaped)


def plains(texts: Sequence[str]) -> list[str]:
    return [plain(t) for t in texts]


def defang(text: str) -> str:
    """A sentence written elsewhere (the engine's refusals) that may quote user text:
    mentions broken and links and markdown escaped, its own `code` kept."""
    parts = text.translate(_BIDI_CONTROLS).split("`")
    # Even parts are prose, odd parts were between backticks (the engine's own code).
    return "`".join(p if i % 2 else _PROSE.sub(r"\\\1", _MENTION.sub("@" + ZWSP + r"\1", p))
                    for i, p in enumerate(parts))


def unescape(text: str) -> str:
    """What a reader sees of escaped text (for the console, which renders no markdown)."""
    return _ESCAPED.sub(r"\1", text)


def sentence(text: str) -> str:
    """The engine's messages (written for its command line: "unknown game 'go' (games:
    cairo, …)") as a sentence for a person: a first word in lower case capitalised
    (not a move or a cell such as "e9" or "c3*", written as the game writes it), and a
    full stop at the end (unless a translation ends with its language's own: 。！？)."""
    text = text.strip()
    if not text:
        return text
    first = text.split(maxsplit=1)[0]
    if first.isalpha() and first.islower():
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?。！？" else text + "."
