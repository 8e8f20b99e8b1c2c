"""A package as ``pip`` leaves it installed, for the tests of games as plugins: a
dist-info with its metadata and its ``garnet.games`` entry points, in a folder that the
test puts on ``sys.path`` (``importlib.metadata`` finds it there)."""

from __future__ import annotations

from pathlib import Path


def install(site: Path, name: str, version: str, games: dict[str, str]) -> None:
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[garnet.games]\n" + "".join(f"{key} = {value}\n" for key, value in games.items()),
        encoding="utf-8")
