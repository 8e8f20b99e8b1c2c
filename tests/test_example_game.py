"""The example game of the guide (``examples/nim``), installed beside garnet as a third
party's package: found through its entry point, it passes the conformance check and a
host offers it and plays a Death Match of it on the console, its options and move help
its own, with nothing of garnet changed. (``.ci/package`` builds its wheel and does the
same with the installed ``garnet``.)"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from tests.installed import install
from tests.transcripts import transcript

EXAMPLE = Path(__file__).parent.parent / "examples" / "nim"


@pytest.fixture
def nim(tmp_path: Path) -> Iterator[Path]:
    # What ``pip install -e examples/nim`` leaves: the entry points of the example's own
    # ``pyproject.toml``, its package on the path.
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    site = tmp_path / "site"
    install(site, project["name"], project["version"], project["entry-points"]["garnet.games"])
    sys.path[:0] = [str(site), str(EXAMPLE)]
    registry.reload()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        sys.path.remove(str(EXAMPLE))
        sys.modules.pop("garnet_nim", None)
        sys.modules.pop("garnet_nim.game", None)
        sys.modules.pop("garnet_nim.render", None)
        registry.reload()


def test_the_example_is_found_beside_the_four(nim: Path) -> None:
    from importlib.metadata import entry_points

    assert sorted(p.name for p in entry_points(group="garnet.games")) == [
        "cairo", "nim", "pathwayz", "quoridor", "sigma"]
    found = registry.entry("nim")
    assert (found.package, found.built_in) == ("garnet-nim", False)
    assert registry.get_game("nim").title == "Nim"


def test_the_example_passes_the_conformance_check(nim: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "conformance", "nim"],
                          env={"PYTHONPATH": f"{nim}:{EXAMPLE}", "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "nim: 6 of 6 checks passed" in done.stdout


async def test_a_host_offers_the_example_and_it_is_played_to_its_end(
        nim: Path, tmp_path: Path, database_url: str) -> None:
    out = await transcript(EXAMPLE / "dm.txt", tmp_path, database_url)
    # Its move help and options, as it declares them.
    assert "Moves: type how many stones you take" in out
    assert "• `stones` — the stones on the pile at the start; a whole number from 5 to 60" in out
    # Not offered until a host turns it on: an installed package runs code.
    assert "This server does not offer Nim: a host turns it on with `/host games on:nim`." in out
    # Its options in the rules line, its words for moves, its end.
    assert "· 7 stones · take 1 to 3 · who takes the last stone wins." in out
    assert "Take 1 to 3 stones, not 4." in out
    assert "🏆 **@alice wins DM #1** — Blue took the last stone." in out
    assert (tmp_path / "images" / "0004-nim.png").read_bytes().startswith(b"\x89PNG")
