"""The package as it ships: package data that covers the schema, an image built by
exactly the install steps CI checks (``.ci/package`` builds the wheel, installs it in a
clean environment and plays a Death Match with it; here only what is quick to read)."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "package").read_text(encoding="utf-8")


def _shipped(package: str, path: Path) -> bool:
    """Does pyproject's package data put ``path`` (a file that is not Python) in the
    wheel?"""
    name = path.relative_to(ROOT / package).as_posix()
    return any(fnmatch.fnmatch(name, pattern)
               for pattern in PYPROJECT["tool"]["setuptools"]["package-data"][package])


def test_the_wheel_carries_the_whole_schema_and_the_engines_data() -> None:
    migrations = ROOT / "bot" / "store" / "migrations"
    files = [p for p in migrations.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len([p for p in files if p.parent.name == "versions"]) >= 8
    missing = [str(p.relative_to(ROOT)) for p in files if not _shipped("bot", p)]
    assert not missing, f"not in the wheel: {missing}"
    data = [p for p in (ROOT / "engine").rglob("*") if p.is_file()
            and p.suffix in (".ttf", ".toml", ".txt")]
    assert data and all(_shipped("engine", p) for p in data), data


def test_only_bot_and_engine_are_installed() -> None:
    assert PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"] == ["engine*",
                                                                                "bot*"]
    assert PYPROJECT["project"]["scripts"] == {"garnet": "bot.__main__:main"}


def _runs(text: str, script: str) -> list[str]:
    """The lines (not comments) that run ``script``."""
    return [line for line in re.findall(rf"^.*{re.escape(script)} .*$", text, re.MULTILINE)
            if not line.lstrip().startswith("#")]


def test_the_image_installs_exactly_as_ci_checks() -> None:
    # Both build with .ci/wheels and install with .ci/install; the Dockerfile runs no
    # other pip, and CI's check runs the same two scripts before it plays its DM.
    assert _runs(DOCKERFILE, ".ci/wheels") == ["RUN .ci/wheels /wheels"]
    assert "    /ci/install /opt/garnet /wheels" in _runs(DOCKERFILE, "/ci/install")
    assert "source=/src/.ci,target=/ci" in DOCKERFILE
    assert "pip" not in DOCKERFILE.replace("--without-pip", "")
    assert _runs(CI, ".ci/wheels") == ['wheel="$(PYTHON="$python" .ci/wheels "$wheels")"']
    assert _runs(CI, ".ci/install") == ['PYTHON="$python" .ci/install "$work/venv" "$wheels"']
    assert CI.index(".ci/install") < CI.index('console --script dm.txt --virtual-clock')
    assert "bash .ci/package" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_image_runs_garnet_as_its_own_user_with_the_fonts_and_a_health_check() -> None:
    stages = re.findall(r"^FROM (\S+)", DOCKERFILE, re.MULTILINE)
    assert stages == ["python:3.11-slim", "python:3.11-slim"]
    run_stage = DOCKERFILE[DOCKERFILE.rindex("\nFROM "):]
    fonts = set(re.findall(r"need\+=\((\S+)\)", (ROOT / ".ci" / "fonts").read_text()))
    assert fonts == {"fonts-noto-cjk", "fonts-noto-color-emoji"}
    assert all(font in run_stage for font in fonts)
    assert "gcc" not in run_stage  # the compiler stays in the build stage
    users = re.findall(r"^USER (\S+)", run_stage, re.MULTILINE)
    assert users == ["garnet"]
    assert run_stage.index("USER garnet") > run_stage.index("/ci/install")
    assert 'CMD ["garnet", "health"]' in run_stage
    assert run_stage.rstrip().endswith('CMD ["garnet", "run"]')
    assert "VOLUME /data" in run_stage and "sqlite+aiosqlite:////data/garnet.db" in run_stage


def test_compose_builds_the_image_it_runs() -> None:
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert re.search(r"^  garnet:\n    build: \.\n    image: garnet\n", compose, re.MULTILINE)
    assert "garnet-data:/data" in compose
    ignored = [line.strip() for line in
               (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")]
    for needed in ("bot", "engine", ".ci", "pyproject.toml", "setup.py", "README.md"):
        assert needed not in ignored
    assert {"tests", "bench", ".venv", "build", ".env", "*.db",
            "discord_token"} <= set(ignored)  # no secret is copied into the image
    assert "DISCORD_TOKEN_FILE: /run/secrets/discord_token" in compose
    assert "DISCORD_TOKEN:" not in compose  # the token is in no environment


async def test_the_package_checks_dm_gives_the_lines_ci_looks_for(tmp_path: Path,
                                                                  database_url: str) -> None:
    """``.ci/package-dm.txt`` as the console plays it here: every line ``.ci/package``
    greps for after the installed ``garnet`` played it (a changed text fails here first)."""
    from tests.transcripts import transcript

    wanted = re.findall(r'grep -q?F "([^"]+)" dm\.out', CI)
    assert len(wanted) == 2 and any("wins DM #1" in line for line in wanted)
    out = await transcript(ROOT / ".ci" / "package-dm.txt", tmp_path, database_url)
    for line in wanted:
        assert line in out, line
    assert "something went wrong" not in out
    assert out.count("[image: <tmp>/images/") == 16  # .ci/package counts the files


def test_the_wheel_carries_the_web_pages_templates_and_script() -> None:
    web = ROOT / "bot" / "web"
    files = [p for folder in ("templates", "static") for p in (web / folder).iterdir()]
    assert len(files) >= 8
    assert not [str(p.relative_to(ROOT)) for p in files if not _shipped("bot", p)]
