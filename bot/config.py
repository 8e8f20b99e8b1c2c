"""Settings, read from the environment (and a `.env` file in the working directory).

Every setting is documented in `.env.example`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dotenv import load_dotenv

if TYPE_CHECKING:  # imported when used: `python -m bot tournament` loads no more of bot/
    from bot.core.shards import Shards


class ConfigError(ValueError):
    """A setting has a value the bot cannot use; the message names it."""


def _int(name: str, default: int, minimum: int = 0, maximum: int | None = None) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not '{raw}'") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise ConfigError(f"{name} must be at most {maximum}, not {value}")
    return value


# Discord raises a large bot's global limit on request; none is near this.
MAX_REQUESTS_PER_SECOND = 10_000

DATABASES = ("sqlite+aiosqlite", "postgresql+asyncpg")  # the async drivers garnet uses


def _database_url() -> str:
    url = os.environ.get("DATABASE_URL", "").strip() or "sqlite+aiosqlite:///garnet.db"
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme not in DATABASES:
        hint = (" (PostgreSQL: postgresql+asyncpg://user:password@host/dbname, with "
                "pip install 'garnet[postgres]')" if scheme.startswith("postgres") else "")
        raise ConfigError(f"DATABASE_URL must start with sqlite+aiosqlite:// or "
                          f"postgresql+asyncpg://, not '{url.split('://')[0]}'{hint}")
    return url


def _address(name: str) -> tuple[str, int] | None:
    """``PORT`` (on loopback), ``HOST:PORT`` or ``[IPV6]:PORT``; unset: None (off)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    host, _, port = raw.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise ConfigError(f"{name} must be PORT or HOST:PORT (e.g. 9108 or "
                          f"0.0.0.0:9108), not '{raw[:60]}'")
    return host, int(port)


def _choice(name: str, choices: tuple[str, ...], default: str) -> str:
    value = os.environ.get(name, "").strip().lower() or default
    if value not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not '{value[:40]}'")
    return value


@dataclass(frozen=True)
class Settings:
    discord_token: str | None
    database_url: str
    host_role: str
    image_dir: Path
    dm_reward: int
    command_guild: int | None
    instance: str
    log_level: str
    render_processes: int
    first_player_minutes: int = 60
    casual_idle_hours: int = 24
    members_intent: bool = False  # Discord's Server Members intent (roles' members)
    # SHARD_COUNT (None: Discord's recommended count, every shard in this process) and
    # SHARD_IDS (None: all of them).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    lease_seconds: int = 30  # a process that stops renewing is taken over after this
    # Requests per second this process sends with the bot token at most: Discord's
    # global limit (50), divided by the processes sharing the token.
    global_requests_per_second: int = 50
    # Seconds a board may wait for Discord's global limit before new matches and
    # practice games are refused (``bot.services.pressure``).
    board_wait_limit: int = 5
    # The share of GLOBAL_REQUESTS_PER_SECOND, in percent, that new matches are admitted
    # up to by the running matches' measured need (``bot.services.budget``).
    request_budget: int = 85
    # The share of one core, in percent, that new matches are admitted up to by this
    # process's CPU use (None: "off"): past most of a core every move waits.
    cpu_budget: int | None = 70

    @property
    def shards(self) -> Shards:
        """The shards whose matches this process runs (leased), 0 of 1 without sharding."""
        from bot.core.shards import Shards

        if self.shard_count is None:
            return Shards()
        return Shards(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))
    # Discord's Message Content intent (typed moves): "auto" asks for it and starts
    # without it when Discord refuses; "off" never asks (players move with /move).
    message_content: str = "auto"
    # METRICS_ADDRESS: where /metrics, /healthz and /readyz are served (None: nowhere).
    metrics_address: tuple[str, int] | None = None
    # METRICS: "on" measures (the default); "off" turns the instrumentation off in the
    # process (no hooks, every metric a no-op, nothing served: bot.core.metrics).
    metrics: bool = True
    log_format: str = "text"  # LOG_FORMAT: text, or json (one object a line)
    # WEB_ADDRESS: where the public pages are served (None: nowhere, the default);
    # PUBLIC_URL: the address people reach them at, for the links garnet posts.
    web_address: tuple[str, int] | None = None
    public_url: str | None = None
    # WEB_PROCESS: "on" serves the pages from a process of their own beside the bot's
    # (bot.web.process: the pages' work never holds up a move's board); "off" in the
    # bot's own process. Built directly (tests), in the bot's process.
    web_process: bool = False
    # DISCORD_API_BASE: a shared Discord REST proxy every process of the bot sends
    # through (e.g. http://proxy:8080/api), which keeps the token's limits for them
    # all; None: Discord itself (https://discord.com/api).
    discord_api_base: str | None = None

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        if env_file:
            load_dotenv(env_file, override=False)
        guild = os.environ.get("COMMAND_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"COMMAND_GUILD_ID must be a server id (digits), not '{guild}'")
        shard_count, shard_ids = _shards()
        return cls(
            discord_token=_token(),
            database_url=_database_url(),
            host_role=os.environ.get("HOST_ROLE", "").strip() or "Host",
            image_dir=Path(os.environ.get("IMAGE_DIR", "").strip() or "images"),
            dm_reward=_int("DM_REWARD", 3),
            command_guild=int(guild) if guild else None,
            instance=os.environ.get("INSTANCE_NAME", "").strip() or "main",
            log_level=os.environ.get("LOG_LEVEL", "").strip().upper() or "INFO",
            render_processes=_int("RENDER_PROCESSES", min(4, os.cpu_count() or 1)),
            first_player_minutes=_int("FIRST_PLAYER_MINUTES", 60, minimum=1),
            casual_idle_hours=_int("CASUAL_IDLE_HOURS", 24),
            members_intent=os.environ.get("MEMBERS_INTENT", "").strip().lower()
            in ("1", "yes", "true", "on"),
            shard_count=shard_count, shard_ids=shard_ids,
            lease_seconds=_int("LEASE_SECONDS", 30, minimum=3),
            global_requests_per_second=_int("GLOBAL_REQUESTS_PER_SECOND", 50, minimum=1,
                                            maximum=MAX_REQUESTS_PER_SECOND),
            message_content=_choice("MESSAGE_CONTENT", ("auto", "off"), "auto"),
            metrics_address=_metrics_address(),
            metrics=_choice("METRICS", ("on", "off"), "on") == "on",
            log_format=_choice("LOG_FORMAT", ("text", "json"), "text"),
            board_wait_limit=_int("BOARD_WAIT_LIMIT", 5, minimum=1, maximum=3600),
            request_budget=_int("REQUEST_BUDGET", 85, minimum=1, maximum=100),
            cpu_budget=None if os.environ.get("CPU_BUDGET", "").strip().lower() == "off"
            else _int("CPU_BUDGET", 70, minimum=1, maximum=100),
            web_address=_address("WEB_ADDRESS"),
            public_url=_public_url(),
            web_process=_choice("WEB_PROCESS", ("on", "off"), "on") == "on",
            discord_api_base=_api_base(),
        )


# A bot token is about 70 characters; a file far larger is not one (a key, a folder).
TOKEN_FILE_LIMIT = 4096


def _token() -> str | None:
    """DISCORD_TOKEN, or the contents of the file DISCORD_TOKEN_FILE names (a Docker or
    Kubernetes secret: the token is then in no environment ``docker inspect`` shows).
    Both set is refused rather than one silently winning: the operator who mounted a
    secret and left the old variable behind learns that it is still exposed."""
    value = os.environ.get("DISCORD_TOKEN", "").strip()
    name = os.environ.get("DISCORD_TOKEN_FILE", "").strip()
    if not name:
        return value or None
    if value:
        raise ConfigError("DISCORD_TOKEN and DISCORD_TOKEN_FILE are both set: keep only "
                          "DISCORD_TOKEN_FILE (and remove DISCORD_TOKEN from .env and the "
                          "environment, where docker inspect shows it)")
    try:
        with open(name, "rb") as file:
            raw = file.read(TOKEN_FILE_LIMIT + 1)
    except FileNotFoundError:
        raise ConfigError(f"DISCORD_TOKEN_FILE names {name[:200]}, which does not "
                          f"exist") from None
    except IsADirectoryError:
        raise ConfigError(f"DISCORD_TOKEN_FILE names {name[:200]}, which is a folder, "
                          f"not a file (Docker makes one where a secret's file was "
                          f"missing on the host)") from None
    except OSError as exc:
        raise ConfigError(f"DISCORD_TOKEN_FILE {name[:200]} cannot be read: "
                          f"{exc.strerror or exc} (it must be readable by the user garnet "
                          f"runs as, uid {os.getuid()})") from None
    try:
        token = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        token = ""
    if not token or len(raw) > TOKEN_FILE_LIMIT or any(c.isspace() for c in token):
        what = "is empty" if not raw.strip() else "does not hold a bot token alone"
        raise ConfigError(f"DISCORD_TOKEN_FILE {name[:200]} {what}: write the bot token "
                          f"from Discord's developer portal in it, on one line")
    return token


def _metrics_address() -> tuple[str, int] | None:
    address = _address("METRICS_ADDRESS")
    if address is not None and os.environ.get("METRICS", "").strip().lower() == "off":
        raise ConfigError("METRICS=off measures nothing and serves nothing: unset "
                          "METRICS_ADDRESS (or set METRICS=on)")
    return address


MAX_URL = 200


def _public_url() -> str | None:
    """PUBLIC_URL: http(s)://host[:port], without a path (the pages link to each other
    from the root); unset: None."""
    raw = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
    if not raw:
        return None
    scheme, _, rest = raw.partition("://")
    if (scheme not in ("http", "https") or not rest or len(raw) > MAX_URL
            or any(c.isspace() or c in "<>\"'?#/@\\" for c in rest)):
        raise ConfigError(f"PUBLIC_URL must be an address such as https://garnet.example.org "
                          f"(http or https, a host and port, no path), not '{raw[:60]}'")
    return raw


def _api_base() -> str | None:
    """DISCORD_API_BASE: http(s)://host[:port]/path of a REST proxy that answers as
    Discord's API does under that path (``/api`` for @discordjs/proxy and nirn-proxy);
    discord.py adds ``/v10`` and the route. Unset: None."""
    raw = os.environ.get("DISCORD_API_BASE", "").strip().rstrip("/")
    if not raw:
        return None
    scheme, _, rest = raw.partition("://")
    if (scheme not in ("http", "https") or not rest or rest.startswith("/")
            or len(raw) > MAX_URL or any(c.isspace() or c in "<>\"'?#@\\" for c in rest)):
        raise ConfigError(f"DISCORD_API_BASE must be a proxy's address such as "
                          f"http://proxy:8080/api (http or https, no query), not '{raw[:60]}'")
    if raw.endswith("/v10"):
        raw = raw[: -len("/v10")]  # discord.py adds the version itself
    return raw


def _shards() -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS, checked together."""
    from bot.core.shards import MAX_SHARDS, parse_ids

    raw_ids = os.environ.get("SHARD_IDS", "").strip()
    if not os.environ.get("SHARD_COUNT", "").strip():
        if raw_ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards in all, over "
                              "every process)")
        return None, None
    count = _int("SHARD_COUNT", 1, minimum=1)
    if count > MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT must be at most {MAX_SHARDS}, not {count}")
    if not raw_ids:
        return count, None
    try:
        ids = parse_ids(raw_ids, count)
    except ValueError as exc:
        raise ConfigError(f"SHARD_IDS: {exc} (write e.g. 0,1,2 or 0-3)") from None
    return count, ids
