"""The operators' window (issue 30): /metrics, /healthz and /readyz of the Discord bot
on the fake, served over real HTTP on loopback; the metrics move as a match is played;
/readyz follows the gateway; the settings that turn them on."""

from __future__ import annotations

import asyncio
import dataclasses
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import event

from bot.app import instrument, observed
from bot.config import ConfigError, Settings
from bot.core import metrics
from bot.core.metrics import LIVE_GAUGES, REGISTRY, exported, route_of
from bot.services.observe import Observatory
from bot.store.db import _begun
from tests.bot.discord_fake import ALICE, BOB
from tests.discord_bot import World, challenge_accepted, serving

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


async def get(observatory: Observatory, path: str) -> tuple[int, str]:
    """A real HTTP request (aiohttp's client is the fake's), from a thread."""
    return await asyncio.to_thread(_get, f"http://127.0.0.1:{observatory.port}{path}")


async def scrape(observatory: Observatory) -> Samples:
    status, body = await get(observatory, "/metrics")
    assert status == 200
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(body) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
async def served(world: World) -> AsyncIterator[Observatory]:
    async with serving(world, fresh=0.0) as observatory:  # each scrape rendered anew
        yield observatory


async def test_a_move_moves_its_metrics_on_metrics(world: World,
                                                   served: Observatory) -> None:
    before = await scrape(served)
    await challenge_accepted(world)
    running = await scrape(served)
    assert value(running, "garnet_matches_running", game="cairo", kind="casual") == 1
    assert value(running, "garnet_leases_held") >= 1
    live = world.live()
    first = ALICE if str(ALICE.id) == live.users[live.to_move] else BOB
    await world.say(first, "A down")
    after = await scrape(served)
    assert value(after, "garnet_moves_total", game="cairo") == value(
        before, "garnet_moves_total", game="cairo") + 1
    for part in ("bot", "rate_limit"):
        assert value(after, "garnet_board_latency_seconds_count", part=part) == value(
            before, "garnet_board_latency_seconds_count", part=part) + 1
    posted = ("garnet_discord_requests_total",
              {"method": "POST", "route": "/channels/{id}/messages", "status": "200"})
    assert value(after, posted[0], **posted[1]) > value(before, posted[0], **posted[1])
    assert value(after, "garnet_db_transaction_seconds_count", outcome="commit") > value(
        before, "garnet_db_transaction_seconds_count", outcome="commit")
    # Where the bot's share went: each stage of the typed move once, and every
    # connection the database handed out (the move's commit among them) with its wait.
    for stage in ("dispatch", "lock", "render", "write", "announce"):
        assert value(after, "garnet_move_stage_seconds_count", stage=stage) == value(
            before, "garnet_move_stage_seconds_count", stage=stage) + 1, stage
    assert value(after, "garnet_db_connection_wait_seconds_count") > value(
        before, "garnet_db_connection_wait_seconds_count")
    assert value(after, "garnet_process_resident_memory_bytes") > 0
    # Every sample is one garnet exports, and no label carries a name or a message.
    names = {name for name, _ in after}
    assert names <= exported()
    for _, labels in after:
        for _, label in labels:
            assert "Alice" not in label and "A down" not in label


async def test_a_match_s_last_move_is_booked_in_its_own_stage(world: World,
                                                              served: Observatory) -> None:
    """A match's last move is committed with its result, rewards and ratings: the
    ``book`` stage in place of ``write``, so that every move's share is in a stage."""
    await challenge_accepted(world)
    before = await scrape(served)
    live = world.live()
    people = {str(p.id): p for p in (ALICE, BOB)}
    moves = 0
    while not live.game.is_over(live.state):
        move = live.game.legal_moves(live.state)[0]
        await world.say(people[live.users[live.to_move]], live.game.notation(move))
        moves += 1
    after = await scrape(served)

    def counted(stage: str) -> float:
        return (value(after, "garnet_move_stage_seconds_count", stage=stage)
                - value(before, "garnet_move_stage_seconds_count", stage=stage))

    assert live.finished
    assert (counted("write"), counted("book")) == (moves - 1, 1)
    assert counted("dispatch") == counted("render") == counted("announce") == moves


async def test_a_429_is_counted_by_route_and_scope(world: World, served: Observatory) -> None:
    await challenge_accepted(world)
    before = await scrape(served)
    world.fake.fail("POST", "/channels/{channel_id}/messages", 429, retry_after=2)
    live = world.live()
    first = ALICE if str(ALICE.id) == live.users[live.to_move] else BOB
    await world.say(first, "A down")
    await world.advance(3)
    after = await scrape(served)
    route = "/channels/{id}/messages"
    limited = [k for k in after if k[0] == "garnet_discord_rate_limited_total"
               and ("route", route) in k[1]]
    assert limited, sorted(k for k in after if "rate" in k[0])
    assert sum(after[k] - before.get(k, 0.0) for k in limited) >= 1


async def test_healthz_and_readyz_follow_the_gateway(world: World,
                                                     served: Observatory) -> None:
    assert await get(served, "/healthz") == (200, "ok\n")
    status, body = await get(served, "/readyz")  # logged in, no READY yet
    assert status == 503 and "gateway: not connected on shard 0" in body
    await world._feed(world.fake.new_session)
    assert await get(served, "/readyz") == (200, "ready\n")
    await world._feed(world.fake.disconnect)
    status, body = await get(served, "/readyz")
    assert status == 503 and "gateway" in body
    gauge = await scrape(served)
    assert value(gauge, "garnet_gateway_connected", shard="0") == 0
    await world._feed(world.fake.resume)
    assert await get(served, "/readyz") == (200, "ready\n")
    after = await scrape(served)
    assert value(after, "garnet_gateway_connected", shard="0") == 1
    assert value(after, "garnet_gateway_outage_seconds_count") >= 1


async def test_readyz_names_a_lost_lease_and_an_unreachable_database(
        world: World, served: Observatory) -> None:
    await world._feed(world.fake.new_session)
    world.bot.services.matches.kit.leases.lose()
    status, body = await get(served, "/readyz")
    assert status == 503 and "leases: lease lost" in body

    async def gone() -> str | None:
        raise OSError("connection refused")

    served.checks["database"] = gone
    status, body = await get(served, "/readyz")
    assert "database: connection refused" in body


def test_routes_are_templates_without_ids_or_tokens() -> None:
    assert route_of("/api/v10/channels/123/messages") == "/channels/{id}/messages"
    assert route_of("https://discord.com/api/v10/interactions/99/aW50ZXJh-X_tok/callback"
                    ) == "/interactions/{id}/{id}/callback"
    assert route_of("/api/v10/webhooks/1/Tok3n.abc/messages/@original"
                    ) == "/webhooks/{id}/{id}/messages/@original"


def test_metrics_address_port_alone_is_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("METRICS_ADDRESS", " 9108")
    assert Settings.from_env(env_file=None).metrics_address == ("127.0.0.1", 9108)
    monkeypatch.setenv("METRICS_ADDRESS", "0.0.0.0:9108")
    assert Settings.from_env(env_file=None).metrics_address == ("0.0.0.0", 9108)
    monkeypatch.setenv("METRICS_ADDRESS", "[::1]:9108")
    assert Settings.from_env(env_file=None).metrics_address == ("::1", 9108)
    monkeypatch.setenv("METRICS_ADDRESS", "metrics")
    with pytest.raises(ConfigError, match="METRICS_ADDRESS"):
        Settings.from_env(env_file=None)
    monkeypatch.delenv("METRICS_ADDRESS")
    assert Settings.from_env(env_file=None).metrics_address is None


# ---- METRICS=off ------------------------------------------------------------------------


@pytest.fixture
def metrics_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``METRICS=off`` in this process, before the bot and its database are built (the
    test asks for it before ``world``); on again afterwards."""
    monkeypatch.setenv("METRICS", "off")
    settings = Settings.from_env(env_file=None)
    assert not settings.metrics
    instrument(settings)
    try:
        yield
    finally:
        metrics.switch_on()


def moving() -> Samples:
    """Every sample garnet's metrics hold now (not the process's own figures, which
    move by themselves, nor the gauges read at scrape)."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in REGISTRY.collect() for s in family.samples
            if not s.name.startswith("garnet_process_") and family.name not in LIVE_GAUGES}


def hooks(world: World) -> dict[str, bool]:
    bot = world.bot
    return {"http_trace": bot.http.http_trace is not None,
            "pacer": "acquire" in vars(bot.pacer),
            "database": event.contains(world.db.engine.sync_engine, "begin", _begun)}


async def test_metrics_off_leaves_every_metric_untouched_and_hooks_nothing(
        metrics_off: None, world: World) -> None:
    assert not metrics.on()
    assert hooks(world) == {"http_trace": False, "pacer": False, "database": False}
    before = moving()
    await challenge_accepted(world)
    live = world.live()
    first = ALICE if str(ALICE.id) == live.users[live.to_move] else BOB
    ply = live.ply
    calls, _ = await world.say(first, "A down")
    assert any(c.files for c in calls)  # the move was played: its board went out
    assert world.live().ply == ply + 1
    assert moving() == before
    # Nothing served and no loop-lag watch, even with an address.
    tasks = set(asyncio.all_tasks())
    served = dataclasses.replace(world.settings, metrics_address=("127.0.0.1", 0))
    async with observed(served) as observatory:
        assert observatory is None
        assert set(asyncio.all_tasks()) == tasks


async def test_metrics_on_hooks_everything_and_a_move_moves_them(world: World) -> None:
    assert metrics.on()
    assert hooks(world) == {"http_trace": True, "pacer": True, "database": True}
    before = moving()
    await challenge_accepted(world)
    assert moving() != before


def test_metrics_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("METRICS", raising=False)
    assert Settings.from_env(env_file=None).metrics
    monkeypatch.setenv("METRICS", "off")
    assert not Settings.from_env(env_file=None).metrics
    monkeypatch.setenv("METRICS_ADDRESS", "9108")
    with pytest.raises(ConfigError, match="METRICS=off"):
        Settings.from_env(env_file=None)
    monkeypatch.setenv("METRICS", "maybe")
    with pytest.raises(ConfigError, match="METRICS"):
        Settings.from_env(env_file=None)


def test_a_transaction_cut_off_halfway_is_not_timed_and_raises_nothing() -> None:
    """A page's query cancelled when its visitor leaves invalidates its connection;
    the transaction metric's listener must not read the connection's info then (it
    raised PendingRollbackError inside SQLAlchemy's clean-up, under 1,000 viewers)."""
    from bot.store.db import _ended

    class Invalid:
        invalidated = True

        @property
        def info(self) -> dict[str, float]:
            raise AssertionError("read the info of an invalidated connection")

    _ended("rollback")(Invalid())
