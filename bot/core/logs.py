"""The log's two formats (``LOG_FORMAT``): lines for people, or one JSON object a line
for machines (``time``, ``level``, ``logger``, ``message``, ``instance``, and ``server``,
``shard`` and ``match`` where the line was written on behalf of one, from the context
variables the adapters and the match host set), and the filter that keeps tokens out:
the bot's, and every interaction's and webhook's (what discord.py writes at DEBUG, and
at WARNING when a webhook is rate limited, holds them in URLs and gateway events).

User text in a message is escaped by JSON (a newline or a quote in a player's message
cannot start a line or a field of its own).
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
import time
from collections.abc import Iterable
from typing import Any

SERVER: contextvars.ContextVar[str | None] = contextvars.ContextVar("server", default=None)
SHARD: contextvars.ContextVar[int | None] = contextvars.ContextVar("shard", default=None)
MATCH: contextvars.ContextVar[int | None] = contextvars.ContextVar("match", default=None)

REDACTED = "[redacted]"
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


# Tokens that are not known in advance: an interaction's token answers and edits in the
# bot's name for 15 minutes, and a webhook's posts in a channel for ever. discord.py puts
# them in request URLs (/interactions/{id}/{token}/callback, /webhooks/{id}/{token}/...)
# and the gateway's events hold them as "token" (INTERACTION_CREATE, as a dict's repr at
# DEBUG). What precedes a token is kept, so that a line still says which request it was.
TOKENS = (re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/?#\s'\"]+"),
          re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""))


class Redact(logging.Filter):
    """Replaces every secret (the bot token) and every interaction's or webhook's token
    in a record's message, its exception and its stack with ``[redacted]``, whatever
    logged it (discord.py, aiohttp, garnet), at every level."""

    def __init__(self, secrets: Iterable[str | None]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s and len(s) >= 8]

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        for pattern in TOKENS:
            text = pattern.sub(rf"\g<1>{REDACTED}", text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = self._clean(record.getMessage()), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        return True


class Json(logging.Formatter):
    """One JSON object a line."""

    def __init__(self, instance: str) -> None:
        super().__init__()
        self.instance = instance

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname, "logger": record.name,
            "message": record.getMessage(), "instance": self.instance}
        for key, var in (("server", SERVER), ("shard", SHARD), ("match", MATCH)):
            value = var.get()
            if value is not None:
                out[key] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["exception"] = record.exc_text
        if record.stack_info:
            out["stack"] = record.stack_info
        return json.dumps(out, ensure_ascii=False)


def setup(level: str, fmt: str = "text", instance: str = "main",
          secrets: Iterable[str | None] = ()) -> logging.Handler:
    """The root logger's one handler on stderr, in ``fmt``, with the secrets redacted."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(Json(instance) if fmt == "json" else logging.Formatter(TEXT))
    handler.addFilter(Redact(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level, logging.INFO))
    return handler
