"""The launcher (``garnet``, ``python -m bot``): one subcommand per job, each with only
its own options; the older flat forms; ``migrate``; ``health`` read from the leases."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import _subcommand, main, parser
from bot.core.shards import Shards
from bot.services.health import unhealthy
from bot.services.leases import lease_keys
from bot.store.db import Database
from bot.store.models import Lease

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("given", "meant"), [
    ([], ["run"]),
    (["--console"], ["console"]),
    (["--console", "--virtual-clock"], ["console", "--virtual-clock"]),
    (["--script", "s.txt", "--virtual-clock"], ["console", "--script", "s.txt",
                                                 "--virtual-clock"]),
    (["--host=ann", "--host", "bob"], ["console", "--host=ann", "--host", "bob"]),
    (["--database", "sqlite+aiosqlite:///x.db"], ["run", "--database",
                                                  "sqlite+aiosqlite:///x.db"]),
    (["export", "--json"], ["export", "--json"]),
    (["--database", "sqlite+aiosqlite:///a.db", "migrate-db", "--to", "sqlite+aiosqlite:///b.db"],
     ["migrate-db", "--database", "sqlite+aiosqlite:///a.db", "--to",
      "sqlite+aiosqlite:///b.db"]),
    (["--json", "export"], ["export", "--json"]),
    (["--host", "run", "--console"], ["console", "--host", "run"]),
    (["--help"], ["--help"]),
])
def test_the_older_flat_forms_are_subcommands(given: list[str], meant: list[str]) -> None:
    assert _subcommand(given) == meant
    if meant[0] not in ("--help",):
        parser().parse_args(meant)  # and each parses


@pytest.mark.parametrize("argv", [
    ["export", "--script", "s.txt"],  # the console's option
    ["console", "--json"],  # export's
    ["run", "--to", "sqlite+aiosqlite:///x.db"],  # migrate-db's
    ["health", "--virtual-clock"],
    ["migrate-db"],  # --to is required
    ["frobnicate"],
])
def test_each_job_takes_only_its_own_options(argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_bench_without_the_repository_says_where_it_runs(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "bench", None)  # as from an installed wheel
    assert main(["bench", "--quick"]) == 2
    assert "run from a checkout of garnet's repository" in capsys.readouterr().err
    assert main(["bench", "--help"]) == 0  # listed by garnet --help: asking is no error
    out = capsys.readouterr().out
    assert "run from a checkout of garnet's repository" in out
    assert "python -m bot bench --help" in out


@pytest.mark.parametrize("argv", [["--help"], ["tournament", "--help"],
                                  ["tournament", "simulate", "--help"],
                                  ["bench", "--help"],
                                  *([name, "--help"] for name in ("run", "console", "migrate",
                                                                  "health", "export",
                                                                  "migrate-db"))])
def test_help_reads_as_plain_text_with_commands_that_run(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "`" not in out, out  # no reST markup in a terminal
    # The examples (indented) are commands an operator can type: the installed one,
    # or the checkout's for the benchmarks (which garnet alone does not find).
    examples = [line.split() for line in out.splitlines() if line.startswith("    ")
                and line.split()[0] in ("garnet", "python")]
    assert examples or argv[0] not in ("tournament", "bench")
    for words in examples:
        bench = "bench" in words[:4]
        assert words[:4] == ["python", "-m", "bot", "bench"] if bench \
            else words[0] == "garnet", words
    if argv[0] == "tournament":
        assert "python -m bot" not in out


def test_bench_and_tournament_parse_their_own_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["bench", "--help"], ["tournament", "simulate", "--help"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "usage: python -m bot bench" in out and "--pace" in out and "--queries" in out
    assert "usage: garnet tournament simulate" in out and "--players" in out


@pytest.mark.sqlite_only("a new database file")
def test_migrate_creates_the_database_then_finds_it_up_to_date(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///fresh.db")
    assert main(["migrate"]) == 0
    first = capsys.readouterr().out
    assert first.startswith("sqlite+aiosqlite:///fresh.db: migrated from an empty "
                            "database to revision 00"), first
    assert (tmp_path / "fresh.db").is_file()
    assert main(["migrate"]) == 0
    assert "the schema is up to date (revision 00" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.db"]  # no lock left


@pytest.mark.sqlite_only("the file it looks for")
def test_health_without_a_database_file_makes_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///garnet.db")
    assert main(["health"]) == 1
    assert capsys.readouterr().out == ("unhealthy: no database file garnet.db (the bot "
                                       "has not started here)\n")
    assert not (tmp_path / "garnet.db").exists()


def test_health_of_a_setting_it_cannot_use_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://garnet@db/garnet")
    assert main(["health"]) == 1
    assert capsys.readouterr().out == ("unhealthy: DATABASE_URL must start with "
                                       "sqlite+aiosqlite:// or postgresql+asyncpg://, not "
                                       "'mysql'\n")
    assert main(["export"]) == 2
    assert capsys.readouterr().err.startswith("error: DATABASE_URL must start with ")


async def test_health_reads_this_instances_leases(database_url: str) -> None:
    db = Database(database_url)
    keys = lease_keys(Shards(), database_url)
    host, now = socket.gethostname()[:100], time.time()

    async def holder(instance: str = "main", on: str = host, pid: int = os.getpid(),
                     expires: float = now + 20) -> str | None:
        async with db.session() as s, s.begin():
            for key in keys:
                await s.merge(Lease(key=key, owner=f"{instance}/{pid}@{on}#t",
                                    instance=instance, pid=pid, host=on, since=now - 60,
                                    expires_at=expires))
        return await unhealthy(db, keys, "main", host, now)

    try:
        assert (await unhealthy(db, keys, "main", host, now) or "").startswith(
            "no lease shard:0/1: instance 'main' is not running on this database")
        assert await holder() is None
        assert (await holder(expires=now - 5) or "").startswith(
            "lease shard:0/1 lapsed at ")
        assert "s ago: pid" in (await holder(expires=now - 5) or "")
        assert (await holder(instance="standby") or "").startswith(
            "lease shard:0/1 is held by instance 'standby' (pid ")
        assert "not by instance 'main' on host" in (await holder(on="elsewhere") or "")
        assert await holder(pid=4_194_305) == (  # above Linux's largest pid
            "lease shard:0/1: its process (pid 4194305) is gone")
    finally:
        await db.close()


async def _health(cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "health", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


@pytest.mark.sqlite_only("one process on a new file")
async def test_health_of_a_running_console_then_of_its_clean_stop(tmp_path: Path) -> None:
    env = dict(os.environ, DATABASE_URL="sqlite+aiosqlite:///garnet.db", DISCORD_TOKEN="",
               RENDER_PROCESSES="0")
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "console", cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    assert bot.stdout is not None and bot.stdin is not None
    try:
        line = await asyncio.wait_for(bot.stdout.readline(), timeout=60)
        assert line.startswith(b"garnet console:"), line  # started: leases held
        code, out = await _health(tmp_path, env)
        assert (code, out) == (0, "healthy: instance 'main' holds its leases on "
                                  "sqlite+aiosqlite:///garnet.db\n")
    finally:
        bot.stdin.close()
        await asyncio.wait_for(bot.wait(), timeout=60)
    code, out = await _health(tmp_path, env)
    assert code == 1 and out.startswith("unhealthy: no lease shard:0/1"), out
