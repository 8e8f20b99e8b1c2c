"""Discord's API description, held against every request the bot makes to the fake and
every answer the fake gives (``FakeDiscord(validate=True)``, the default in tests).

The description is a pinned dependency, not a copy: npm ``discord-api-spec`` (the Zod
schemas and routes generated from github discord/discord-api-spec's OpenAPI 3.1
document; no npm package carries the OpenAPI JSON itself), at the exact version that
``tests/fake/spec/package.json`` and its lock pin. The first check of a machine installs
it with ``npm ci`` into a cache (``$GARNET_CACHE`` or ``~/.cache/garnet``), keyed by the
pins; one ``node tests/fake/spec/check.mjs`` per test session answers the checks.

On top of the description, the documented limits (``limits``): where the description
and Discord's documentation disagree, the documentation wins (each such rule says so).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import subprocess
from collections import OrderedDict
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "spec"
PINNED = ("package.json", "package-lock.json", "check.mjs", "types.mjs")


class SpecUnavailable(RuntimeError):
    """node or npm is missing, or the pinned description could not be installed."""


def cache_dir() -> Path:
    """Where the pinned description is installed: one folder per set of pins."""
    digest = hashlib.sha256()
    for name in PINNED:
        digest.update((HERE / name).read_bytes())
    base = Path(os.environ.get("GARNET_CACHE") or Path.home() / ".cache" / "garnet")
    return base / f"discord-spec-{digest.hexdigest()[:16]}"


def install() -> Path:
    """The pinned description, installed once per machine (``npm ci``)."""
    target = cache_dir()
    if (target / "node_modules" / "discord-api-spec" / "build").is_dir():
        return target
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise SpecUnavailable("node and npm are needed to check the Discord fake")
    staging = target.with_name(target.name + f".{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name in PINNED:
        shutil.copy(HERE / name, staging / name)
    done = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                          cwd=staging, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SpecUnavailable(f"npm ci failed: {done.stderr[-2000:]}")
    try:
        staging.rename(target)
    except OSError:  # another process installed it meanwhile
        shutil.rmtree(staging, ignore_errors=True)
    return target


class Checker:
    """One node process answering checks, line by line. A check is a function of the
    pinned description and what is checked alone: its answer is kept (``KEPT``), and
    the same check asked again (every test's bot syncs the same commands, ~150 KB, and
    gets the same answer) is answered from it."""

    KEPT = 512

    def __init__(self) -> None:
        folder = install()
        self._node = subprocess.Popen(
            ["node", "check.mjs"], cwd=folder, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, bufsize=1)
        self._answers: OrderedDict[str, str] = OrderedDict()
        atexit.register(self.close)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self._node.stdin is not None and self._node.stdout is not None
        asked = json.dumps(request)
        line = self._answers.get(asked)
        if line is not None:
            self._answers.move_to_end(asked)
            kept: dict[str, Any] = json.loads(line)  # the caller's own copy
            return kept
        self._node.stdin.write(asked + "\n")
        self._node.stdin.flush()
        line = self._node.stdout.readline()
        if not line:
            raise SpecUnavailable("the spec checker stopped")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise SpecUnavailable(answer["error"])
        self._answers[asked] = line
        if len(self._answers) > self.KEPT:
            self._answers.popitem(last=False)
        return answer

    def close(self) -> None:
        if self._node.poll() is None:
            assert self._node.stdin is not None
            self._node.stdin.close()
            self._node.wait(timeout=10)


_checker: Checker | None = None


def checker() -> Checker:
    global _checker
    if _checker is None:
        _checker = Checker()
    return _checker


def _where(path: list[Any]) -> str:
    return ".".join(str(p) for p in path) or "(body)"


def _issues(what: str, answer: dict[str, Any]) -> list[str]:
    found = []
    for issue in answer.get("issues") or []:
        rule = issue.get("message", "")
        if issue.get("code") == "unrecognized_keys":
            rule = f"not in the description: {', '.join(issue.get('keys') or [])}"
        elif issue.get("code"):
            details = [f"{k} {issue[k]}" for k in ("expected", "values", "maximum",
                                                    "minimum") if issue.get(k) is not None]
            got = [f"got {issue['got']!r}"] if "got" in issue else []
            rule = f"{issue['code']} ({', '.join(details + got) or rule})"
        found.append(f"{what} {_where(issue.get('path') or [])}: {rule} "
                     f"(schema {answer.get('schema')})")
    return found


def check_exchange(method: str, path: str, body: Any, status: int, answer: Any
                   ) -> list[str]:
    """What in one request (``path`` a route template) and its answer the description
    or the documentation does not allow; each names route, field and rule."""
    route = f"{method} {path}"
    spec_path = _normalised(path)
    problems = [f"{route}: request {p}" for p in limits(method, path, body)]
    ask = checker().ask
    if method in ("POST", "PUT", "PATCH") and body is not None:
        told = ask({"method": method.lower(), "path": spec_path, "part": "request",
                    "body": as_described(body)})
        if not told.get("route"):
            return [f"{route}: not a route of Discord's API description"]
        problems += [f"{route}: {p}" for p in _issues("request", told)]
    if status >= 500:
        # Not in the description; the documentation: a server error, to be retried.
        return problems
    part = "4XX" if 400 <= status < 500 and status != 429 else str(status)
    told = ask({"method": method.lower(), "path": spec_path, "part": part, "body": answer})
    told["issues"] = [i for i in told.get("issues") or [] if not _documented(i, answer)]
    if not told.get("route"):
        return [*problems, f"{route}: not a route of Discord's API description"]
    if told.get("schema") is None and "described" in told:
        described = [s for s in told["described"] if s[0] == "2"] or told["described"]
        problems.append(f"{route}: answer status {status} is not described "
                        f"(Discord answers {', '.join(described)})")
    elif told.get("schema") == "unknown" and answer is not None and status == 204:
        problems.append(f"{route}: a 204 answer has a body")
    problems += [f"{route}: answer {status} {p}" for p in _issues("", told)]
    return problems


def check_schema(name: str, body: Any, what: str) -> list[str]:
    """``body`` against the description's schema ``name`` (a gateway event's object)."""
    told = checker().ask({"schema": name, "body": body})
    if not told.get("known"):
        return [f"{what}: no schema {name} in the description"]
    told["issues"] = [i for i in told.get("issues") or [] if not _documented(i, body)]
    return [f"{what}: {p}" for p in _issues("", told)]


# Where the description and Discord's documentation disagree, the documentation wins:
# - Snowflakes: the description types them as strings; the documentation ("Snowflakes")
#   returns them as strings but takes integers too, as discord.py sends them in
#   allowed_mentions and message_reference; and an upload's attachment ``id`` is the
#   integer index of its file ("Uploading Files").
# - ``default_member_permissions``: an integer in the description, a string in the
#   documentation (Application Command Object), which garnet sends.
# - Timestamps: the description's date-time wants "Z"; Discord writes ISO 8601 with an
#   offset ("+00:00"), as the documentation's examples show.
# - Field errors (``errors``, 50035 Invalid Form Body): the description's codes in
#   ``_errors`` are integers; the documentation's ("Error Messages") are strings such
#   as "BASE_TYPE_REQUIRED".
SNOWFLAKE_LISTS = ("users", "roles")
REFERENCE_IDS = ("message_id", "channel_id", "guild_id")


def as_described(body: Any) -> Any:
    """A request body as the description types it, where the documentation allows
    other forms (see above); what is checked is the rest."""
    if isinstance(body, list):
        return [as_described(item) for item in body]
    if not isinstance(body, dict):
        return body
    made = {k: as_described(v) for k, v in body.items()}
    mentions = made.get("allowed_mentions")
    if isinstance(mentions, dict):
        for key in SNOWFLAKE_LISTS:
            if isinstance(mentions.get(key), list):
                mentions[key] = [str(v) for v in mentions[key]]
    reference = made.get("message_reference")
    if isinstance(reference, dict):
        for key in REFERENCE_IDS:
            if isinstance(reference.get(key), int):
                reference[key] = str(reference[key])
    for attachment in made.get("attachments") or []:
        if isinstance(attachment, dict) and isinstance(attachment.get("id"), int):
            attachment["id"] = str(attachment["id"])
    permissions = made.get("default_member_permissions")
    if isinstance(permissions, str) and permissions.isdigit():
        made["default_member_permissions"] = int(permissions)
    return made


def _documented(issue: dict[str, Any], body: Any) -> bool:
    """An issue of the description that the documentation allows (see above)."""
    if "_errors" in (issue.get("path") or []):
        return True
    if issue.get("code") != "invalid_format":
        return False
    value = body
    for step in issue.get("path") or []:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return False
    if not isinstance(value, str) or "T" not in value:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


# The gateway events the fake makes, by the discord-api-types type of their ``d``.
EVENT_TYPES = {
    "READY": "GatewayReadyDispatchData", "GUILD_CREATE": "GatewayGuildCreateDispatchData",
    "MESSAGE_CREATE": "GatewayMessageCreateDispatchData",
    "MESSAGE_DELETE": "GatewayMessageDeleteDispatchData",
    "INTERACTION_CREATE": "GatewayInteractionCreateDispatchData",
    "CHANNEL_UPDATE": "GatewayChannelUpdateDispatchData",
    "CHANNEL_DELETE": "GatewayChannelDeleteDispatchData",
    "THREAD_CREATE": "GatewayThreadCreateDispatchData",
    "THREAD_UPDATE": "GatewayThreadUpdateDispatchData",
    "THREAD_DELETE": "GatewayThreadDeleteDispatchData",
}


# An interaction in a server, by its type: the member of the union
# GatewayInteractionCreateDispatchData it must be (a narrower type checks faster).
GUILD_INTERACTIONS = {2: "APIChatInputApplicationCommandGuildInteraction",
                      3: "APIMessageComponentGuildInteraction",
                      4: "APIApplicationCommandAutocompleteGuildInteraction"}


def _event_type(name: str, body: Any) -> str:
    if name == "INTERACTION_CREATE" and isinstance(body, dict) and "guild_id" in body:
        return GUILD_INTERACTIONS.get(int(body.get("type") or 0), EVENT_TYPES[name])
    return EVENT_TYPES[name]


# The guild of GUILD_CREATE: the description requires ``home_header`` and ``nsfw``,
# which discord-api-types lacks, and lacks ``hub_type``, which discord-api-types
# requires; Discord sends all three. Each check is given what it describes.
TYPES_LACK = {"GUILD_CREATE": ("home_header", "nsfw")}


def check_events(events: list[tuple[str, Any]]) -> list[str]:
    """Gateway events (name, ``d``) against npm discord-api-types, in one batch. The
    types are checked loosely (an enum as its number or string: see ``types.mjs``), so
    an event's values do not matter, only its shape: each shape is checked once a
    session (``_shape``)."""
    items = [(name, _event_type(name, body), _shape(_less(body, TYPES_LACK.get(name, ()))))
             for name, body in events if name in EVENT_TYPES]
    keys = [f"{kind} {json.dumps(shape, sort_keys=True)}" for _, kind, shape in items]
    new = {key: (kind, shape) for key, (_, kind, shape) in zip(keys, items, strict=True)
           if key not in _shapes_seen}
    if new:
        told = checker().ask({"types": [{"type": kind, "body": shape}
                                        for kind, shape in new.values()]})
        _shapes_seen.update(zip(new, told["found"], strict=True))
    return [f"gateway {name} ({kind}): {problem}"
            for (name, kind, _), key in zip(items, keys, strict=True)
            for problem in _shapes_seen[key]]


_shapes_seen: dict[str, list[str]] = {}  # a shape's problems, once checked


# The objects a gateway event carries, as the description has them for the REST API
# (the documentation: "the inner payload is a … object", with the extra fields it
# lists for the event): event -> (the schema of ``d`` less those fields, the fields,
# and lists in ``d`` whose every item is an object of a schema).
EVENT_OBJECTS: dict[str, tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]] = {
    "GUILD_CREATE": ("GuildResponse", (
        "hub_type", "joined_at", "large", "unavailable", "member_count", "voice_states",
        "members",
        "channels", "threads", "presences", "stage_instances", "guild_scheduled_events",
        "soundboard_sounds"), (("members", "GuildMemberResponse"),
                               ("channels", "GuildChannelResponse"),
                               ("threads", "ThreadResponse"))),
    "MESSAGE_CREATE": ("MessageResponse", ("guild_id", "member"), ()),
    "THREAD_CREATE": ("ThreadResponse", ("newly_created", "member"), ()),
    "THREAD_UPDATE": ("ThreadResponse", (), ()),
    "CHANNEL_UPDATE": ("GuildChannelResponse", (), ()),
    "CHANNEL_DELETE": ("GuildChannelResponse", (), ()),
}


def check_event_objects(name: str, body: Any) -> list[str]:
    """The objects in a gateway event's ``d`` against the description's schemas of
    those objects (``EVENT_OBJECTS``), checked strictly as the REST answers are."""
    if name not in EVENT_OBJECTS or not isinstance(body, dict):
        return []
    schema, extra, parts = EVENT_OBJECTS[name]
    found = check_schema(schema, {k: v for k, v in body.items() if k not in extra},
                         f"gateway {name}")
    for key, part in parts:
        for i, item in enumerate(body.get(key) or []):
            found += check_schema(part, item, f"gateway {name} {key}.{i}")
    return found


def _less(body: Any, keys: tuple[str, ...]) -> Any:
    if not keys or not isinstance(body, dict):
        return body
    return {k: v for k, v in body.items() if k not in keys}


def _shape(value: Any) -> Any:
    """A value with every string "" and every number 0, each array's items one of
    each shape, and ids as keys (``resolved.users``) one "0": what a loose type check
    sees of it."""
    if isinstance(value, dict):
        return {("0" if k.isdigit() else k): _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        shapes: dict[str, Any] = {}
        for item in value:
            shaped = _shape(item)
            shapes.setdefault(json.dumps(shaped, sort_keys=True), shaped)
        return list(shapes.values())
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return 0
    if isinstance(value, str):
        return ""
    return value


def _normalised(path: str) -> str:
    parts = ["{}" if p.startswith("{") and p.endswith("}") else p for p in path.split("/")]
    return "/".join(parts)


# ---- the documented limits ------------------------------------------------------------

# The description allows 4,000 characters of content (what Discord allows some users);
# the documentation of Create Message says 2,000 for a bot's message, and wins here.
MAX_CONTENT = 2000
MAX_FILES = 10
MAX_DESCRIPTION = 1024  # an attachment's description (what screen readers say of it)
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
# Name, description and options' names, descriptions, choices of one top-level command:
# the documentation of application commands ("Slash Commands") says 8,000 (it was
# 4,000 until Discord raised it; the description has no such limit).
COMMANDS_TOTAL = 8000


def limits(method: str, path: str, body: Any) -> list[str]:
    """The documented limits a request body breaks (the description has most, not all)."""
    if not isinstance(body, dict | list):
        return []
    if method == "PUT" and path.endswith("/commands") and isinstance(body, list):
        return [p for command in body for p in _command_limits(command)]
    if not isinstance(body, dict):
        return []
    message = body.get("data") if path.endswith("/callback") else body
    if not isinstance(message, dict):
        return []
    found = []
    content = message.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        found.append(f"content: {len(content)} characters, the documented most is "
                     f"{MAX_CONTENT}")
    if len(message.get("attachments") or []) > MAX_FILES:
        found.append(f"attachments: more than {MAX_FILES} files")
    for a, attachment in enumerate(message.get("attachments") or []):
        described = attachment.get("description") if isinstance(attachment, dict) else None
        if isinstance(described, str) and len(described) > MAX_DESCRIPTION:
            found.append(f"attachments.{a}.description: {len(described)} characters, the "
                         f"documented most is {MAX_DESCRIPTION}")
    rows = message.get("components") or []
    if len(rows) > MAX_ROWS:
        found.append(f"components: {len(rows)} rows, the documented most is {MAX_ROWS}")
    for r, row in enumerate(rows):
        items = row.get("components") or []
        if len(items) > MAX_PER_ROW:
            found.append(f"components.{r}: {len(items)} components in a row "
                         f"(documented most {MAX_PER_ROW})")
        for i, item in enumerate(items):
            found += [f"components.{r}.{i}.{p}" for p in _component_limits(item)]
    return found


def _component_limits(item: dict[str, Any]) -> list[str]:
    found = []
    if len(item.get("custom_id") or "") > MAX_CUSTOM_ID:
        found.append(f"custom_id: longer than {MAX_CUSTOM_ID}")
    if item.get("type") == 2 and len(item.get("label") or "") > MAX_BUTTON_LABEL:
        found.append(f"label: longer than {MAX_BUTTON_LABEL}")
    if len(item.get("placeholder") or "") > MAX_PLACEHOLDER:
        found.append(f"placeholder: longer than {MAX_PLACEHOLDER}")
    options = item.get("options") or []
    if len(options) > MAX_OPTIONS:
        found.append(f"options: more than {MAX_OPTIONS}")
    for o, option in enumerate(options):
        for key in ("label", "value", "description"):
            if len(option.get(key) or "") > MAX_OPTION_TEXT:
                found.append(f"options.{o}.{key}: longer than {MAX_OPTION_TEXT}")
    return found


def _command_limits(command: dict[str, Any], where: str = "") -> list[str]:
    found = []
    name = command.get("name") or ""
    at = f"{where}{name}"
    if not 1 <= len(name) <= COMMAND_NAME or name != name.lower():
        found.append(f"{at}.name: 1 to {COMMAND_NAME} lower-case characters")
    description = command.get("description") or ""
    if command.get("type", 1) == 1 and not 1 <= len(description) <= COMMAND_DESCRIPTION:
        found.append(f"{at}.description: 1 to {COMMAND_DESCRIPTION} characters")
    found += _localisation_limits(command, at)
    options = command.get("options") or []
    if len(options) > COMMAND_OPTIONS:
        found.append(f"{at}.options: more than {COMMAND_OPTIONS}")
    for option in options:
        found += _command_limits(option, f"{at}.")
        if len(option.get("choices") or []) > MAX_OPTIONS:
            found.append(f"{at}.{option.get('name')}.choices: more than {MAX_OPTIONS}")
    if not where and characters(command) > COMMANDS_TOTAL:
        found.append(f"{at}: more than {COMMANDS_TOTAL} characters in all")
    return found


# Discord's locales ("Locales" of the reference): the keys of a localisation map.
LOCALES = frozenset((
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
    "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"))
# A command's or an option's name ("Application Command Naming"): letters of any script
# (lower case where the script has case), digits, - and _.
COMMAND_NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")


def _localisation_limits(item: dict[str, Any], at: str) -> list[str]:
    """What a command's or an option's localisations break: a locale Discord does not
    have, a name against the naming rule, a description or choice out of bounds."""
    found = []
    for key, most in (("name", COMMAND_NAME), ("description", COMMAND_DESCRIPTION)):
        for locale, said in (item.get(f"{key}_localizations") or {}).items():
            if locale not in LOCALES:
                found.append(f"{at}.{key}_localizations: no locale {locale!r}")
            if not isinstance(said, str) or not 1 <= len(said) <= most:
                found.append(f"{at}.{key}_localizations.{locale}: 1 to {most} characters")
            elif key == "name" and (said != said.lower()
                                    or not COMMAND_NAME_PATTERN.match(said)):
                found.append(f"{at}.name_localizations.{locale}: not a command name")
    for choice in item.get("choices") or []:
        for locale, said in (choice.get("name_localizations") or {}).items():
            if locale not in LOCALES or not 1 <= len(str(said)) <= MAX_OPTION_TEXT:
                found.append(f"{at}.choices.{choice.get('value')}.name_localizations."
                             f"{locale}: 1 to {MAX_OPTION_TEXT} characters")
    return found


def longest(item: dict[str, Any], key: str) -> int:
    """A field's length as Discord counts it against its limits: its longest
    localisation (``name_localizations``, ...)."""
    texts = [str(item.get(key) or "")]
    texts += [str(v) for v in (item.get(f"{key}_localizations") or {}).values()]
    return max(len(t) for t in texts)


def characters(command: dict[str, Any]) -> int:
    """The characters Discord counts of a command against its 8,000: names,
    descriptions, choices' names and values, of the command and every option and
    subcommand in it, each field by its longest localisation."""
    total = longest(command, "name") + longest(command, "description")
    for choice in command.get("choices") or []:
        total += longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(characters(o) for o in command.get("options") or [])
