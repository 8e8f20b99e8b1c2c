"""What the processes of one bot share with Discord: a REST proxy in front of the
token's limits (``DISCORD_API_BASE``: the pacer's room in the proxy's queue) and the
gateway's session starts (one IDENTIFY per bucket per 5 s across processes)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import discord.http
import pytest

from bot.adapters.discord.pacing import GlobalPacer
from bot.adapters.discord.sharing import DISCORD_API, send_through
from bot.config import ConfigError, Settings
from bot.core.clock import VirtualClock
from bot.core.messages import Pace
from bot.services.identify import IDENTIFY_WINDOW, IdentifyTurns, bucket_of, lock_key
from bot.store.db import open_database
from tests.discord_bot import World
from tests.fake.fake_transport import VirtualAsyncio

# ---- DISCORD_API_BASE --------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "base"), [
    ("http://proxy:8080/api", "http://proxy:8080/api"),
    ("http://127.0.0.1:8080/api/", "http://127.0.0.1:8080/api"),
    ("https://rest.example.org/api/v10", "https://rest.example.org/api"),
])
def test_the_api_base_is_a_proxy_s_address(monkeypatch: pytest.MonkeyPatch, raw: str,
                                          base: str) -> None:
    monkeypatch.setenv("DISCORD_API_BASE", raw)
    assert Settings.from_env(env_file=None).discord_api_base == base


@pytest.mark.parametrize("raw", ["proxy:8080", "ftp://proxy/api", "http://proxy/api?x=1",
                                 "http:///api", "http://user@proxy/api",
                                 "http://" + "a" * 300])
def test_a_bad_api_base_is_refused_saying_what_it_must_be(monkeypatch: pytest.MonkeyPatch,
                                                          raw: str) -> None:
    monkeypatch.setenv("DISCORD_API_BASE", raw)
    with pytest.raises(ConfigError, match="DISCORD_API_BASE must be a proxy's address"):
        Settings.from_env(env_file=None)


def test_discord_py_sends_through_the_proxy_and_back_to_discord() -> None:
    try:
        send_through("http://proxy:8080/api")
        route = discord.http.Route("GET", "/channels/{channel_id}", channel_id=1)
        assert route.url == "http://proxy:8080/api/v10/channels/1"
    finally:
        send_through(None)
    assert f"{DISCORD_API}/v10" == discord.http.Route.BASE


# ---- the pacer's room in the proxy -------------------------------------------------------


async def test_behind_a_proxy_only_so_many_requests_are_on_their_way_and_boards_go_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = VirtualClock()
    monkeypatch.setattr(discord.http, "asyncio", VirtualAsyncio(clock))
    pacer = GlobalPacer(50, in_flight=2)
    went: list[str] = []

    async def one(name: str, pace: Pace) -> None:
        await pacer.acquire(pace)
        went.append(name)

    waiting = [asyncio.ensure_future(one(f"low{n}", Pace.LOW)) for n in range(3)]
    await asyncio.sleep(0.01)
    assert went == ["low0", "low1"]  # two on their way: the third waits here
    assert pacer.outstanding == 2
    board = asyncio.ensure_future(one("board", Pace.BOARD))
    await asyncio.sleep(0.01)
    assert went == ["low0", "low1"]
    pacer.done()  # the proxy answered one: the board takes the room, not the reminder
    await asyncio.sleep(0.01)
    assert went == ["low0", "low1", "board"]
    pacer.done()
    await asyncio.gather(*waiting, board)
    assert went == ["low0", "low1", "board", "low2"]
    assert pacer.outstanding == 2


async def test_without_a_proxy_the_pacer_keeps_no_count_of_rooms(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = VirtualClock()
    monkeypatch.setattr(discord.http, "asyncio", VirtualAsyncio(clock))
    pacer = GlobalPacer(50)
    await asyncio.gather(*(pacer.acquire(Pace.LOW) for _ in range(20)))
    assert pacer.outstanding == 20 and not pacer._full()


# ---- IDENTIFY turns ---------------------------------------------------------------------


class Gate:
    """A sleep that ends when the test says (the turns' 5 s, on the test's word)."""

    def __init__(self) -> None:
        self.sleeping: list[asyncio.Future[None]] = []

    async def sleep(self, seconds: float) -> None:
        assert seconds == IDENTIFY_WINDOW
        future = asyncio.get_running_loop().create_future()
        self.sleeping.append(future)
        await future

    def pass_window(self) -> None:
        self.sleeping.pop(0).set_result(None)


def test_buckets_and_keys_are_discord_s_and_one_per_application() -> None:
    assert [bucket_of(s, 4) for s in range(6)] == [0, 1, 2, 3, 0, 1]
    assert bucket_of(3, 1) == 0 and bucket_of(3, 0) == 0
    keys = {lock_key(app, b) for app in ("1", "2") for b in range(16)}
    assert len(keys) == 32
    assert all(-(1 << 63) <= k < 1 << 63 for k in keys)


async def test_a_bucket_identifies_once_per_window_and_other_buckets_do_not_wait(
        tmp_path: Path) -> None:
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'turns.db'}")
    gate = Gate()
    turns = IdentifyTurns(db, sleep=gate.sleep)
    order: list[int] = []

    async def identify(shard: int) -> None:
        await turns.take(shard, 2, "app")
        order.append(shard)

    try:
        tasks = [asyncio.ensure_future(identify(s)) for s in (0, 2, 1, 3)]
        await asyncio.sleep(0.05)
        assert order == [0, 1]  # buckets 0 and 1 at once; 2 and 3 wait their bucket's 5 s
        gate.pass_window()  # bucket 0's window passes
        await asyncio.sleep(0.05)
        assert order == [0, 1, 2]
        gate.pass_window()
        await asyncio.gather(*tasks)
        assert order == [0, 1, 2, 3]
    finally:
        await turns.close()
        await db.close()


async def test_the_bot_waits_its_turn_before_identifying_with_discord_s_concurrency(
        world: World) -> None:
    world.fake.max_concurrency = 2
    turns = world.bot.turns
    assert turns is not None
    gate = Gate()
    turns.sleep = gate.sleep
    await world.bot.before_identify_hook(0, initial=True)
    gets = [c for c in world.fake.calls if c.path == "/gateway/bot"]
    assert len(gets) == 1  # the session start limit, asked once
    await world.bot.before_identify_hook(1)  # bucket 1: no wait
    second = asyncio.ensure_future(world.bot.before_identify_hook(2))
    await asyncio.sleep(0.05)
    assert not second.done()  # bucket 0 again: its 5 s first
    gate.pass_window()
    await asyncio.wait_for(second, 1)
    assert len([c for c in world.fake.calls if c.path == "/gateway/bot"]) == 1


async def test_on_postgresql_the_turn_is_the_database_s_advisory_lock(
        database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("an advisory lock is PostgreSQL's")
    db = await open_database(database_url)
    gate = Gate()
    # two processes' turns: each its own lock in the process, one lock in the database
    first, second = IdentifyTurns(db, sleep=gate.sleep), IdentifyTurns(db, sleep=gate.sleep)
    try:
        await first.take(0, 1, "app")
        other = asyncio.ensure_future(second.take(1, 1, "app"))  # another process's turns
        await asyncio.sleep(0.3)
        assert not other.done()  # held in the database, not in a process
        gate.pass_window()
        await asyncio.wait_for(other, 5)
    finally:
        await first.close()
        await second.close()
        await db.close()


@pytest.mark.realtime(seconds=12)
@pytest.mark.waits("four processes waiting for their turns: a few seconds, nearly no CPU")
async def test_processes_started_at_once_identify_one_per_bucket_per_5_seconds(
        database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes share PostgreSQL")
    root = Path(__file__).resolve().parents[2]
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bot.identify_harness", database_url, str(shard), "2",
        cwd=root, stdout=asyncio.subprocess.PIPE) for shard in range(4)]
    outs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), 60)
    assert [p.returncode for p in procs] == [0, 0, 0, 0]
    at = {int(e["shard"]): float(e["at"]) for out, _ in outs
          for e in map(json.loads, out.decode().splitlines())}
    # Buckets 0 (shards 0 and 2) and 1 (shards 1 and 3): each one IDENTIFY per 5 s
    for first, second in ((0, 2), (1, 3)):
        assert abs(at[first] - at[second]) >= IDENTIFY_WINDOW - 0.05, at
    # and the two buckets side by side: the first of each at about the same moment
    assert abs(min(at[0], at[2]) - min(at[1], at[3])) < IDENTIFY_WINDOW - 1, at


# ---- two bot processes through one real proxy --------------------------------------------


@pytest.mark.realtime(seconds=20)
def test_two_bot_processes_through_one_real_proxy_keep_the_limit_together() -> None:
    """The bench's two processes (--processes 2 --proxy), each sending at the whole
    limit: @discordjs/proxy holds their sum to it (a scaled model: 8 a second, so that
    a few DMs saturate it), and Discord's limits behind it (the meter) see no 429."""
    from bench.proxied import proxy_dir

    if proxy_dir() is None:
        pytest.skip("@discordjs/proxy is not installed (bash .ci/proxy; it needs npm)")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-m", "bot", "bench", "--processes", "2", "--proxy", "--dms", "4",
         "--seconds", "3", "--pace", "stress", "--near-end", "0", "--chatter", "0",
         "--render-processes", "1", "--global-limit", "8", "--json"],
        cwd=root, capture_output=True, text=True, timeout=300, check=True)
    run = json.loads(out.stdout)[0]
    meter, proxy = run["proxy"]["meter"], run["proxy"]["proxy"]
    assert run["processes"] == 2 and run["moves"] > 0
    # every request with the token went through the proxy, and was answered
    assert meter["requests"] == proxy["requests"] > 20
    assert run["relayed"] == {"200": meter["requests"]}
    # the proxy had to hold requests back for the global limit, and held it
    assert proxy["why"].get("global", 0) > 0
    assert meter["limited"] == 0, meter
    assert run["429s"] == 0
