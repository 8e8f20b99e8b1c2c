"""The documentation says what the code does.

``README.md`` and every page under ``docs/`` are read as a user reads them:

- every relative link resolves: the file exists in the repository and, where the
  link names an ``#anchor``, a heading of that page has it (as GitHub makes anchors);
- every slash command the docs write in code (``/name``, ``/group sub``,
  ``/host group sub``) is declared in ``bot/commands/``, every option written as
  ``name:`` after it is one of that command's, and a value written with an option
  that has choices is one of them;
- every declared command, and every subcommand of a group, is documented on the page
  of its audience (the page of its help section; and, where anyone may use it, the
  players' page too);
- every ``python -m bot …`` and ``python -m engine …`` subcommand and ``--option``
  the docs write exists in the argument parsers of the code.
- every file or folder of the repository the docs write in code (``bot/store/…``,
  ``tests/fake/…``) exists;
- every page that lists the games names every built-in game (those of garnet's
  ``garnet.games`` entry points) and the rules' index links each one's rules page.

The declarations are read from the code (``bot.commands``, the parsers of
``bot.__main__``, ``bot.services.tournaments.simulate`` and ``engine.cli``), never
from a list kept here. A failure names the page, the line and what is wrong; the
tests at the end show each check failing on a small bad sample.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bot.commands import COMMANDS, GROUPS, decks, events, history, hosting, play, season
from bot.commands import tournaments as tournament_commands
from bot.commands import web as web_commands
from bot.commands.spec import Audience

ROOT = Path(__file__).resolve().parents[1]

# The page that documents each help section's commands: its audience's page.
SECTION_PAGES = {
    play.SECTION: "docs/playing.md",
    history.SECTION: "docs/playing.md",
    hosting.SECTION: "docs/hosting.md",
    events.SECTION: "docs/hosting.md",
    season.SECTION: "docs/hosting.md",
    decks.SECTION: "docs/hosting.md",
    tournament_commands.SECTION: "docs/tournaments.md",
    web_commands.SECTION: "docs/hosting.md",
}
PLAYERS_PAGE = "docs/playing.md"  # every command anyone may use is on it too
ENGINE_PAGE = "docs/engine.md"  # every `python -m engine` subcommand is on it


# ---- what the code declares ------------------------------------------------------


@dataclass(frozen=True)
class Parser:
    """One command line: its options, and its subcommands by name."""

    options: frozenset[str]
    subcommands: dict[str, Parser] = field(default_factory=dict)


def _parser(p: argparse.ArgumentParser) -> Parser:
    subs: dict[str, Parser] = {}
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            subs.update({name: _parser(sub) for name, sub in action.choices.items()})
    options = frozenset(s for a in p._actions for s in a.option_strings)
    return Parser(options, subs)


class _Captured(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__()
        self.parser = parser


def _captured(main: Callable[[list[str]], Any], argv: list[str]) -> argparse.ArgumentParser:
    """The parser ``main`` builds, taken when it parses (nothing is run)."""
    original = argparse.ArgumentParser.parse_args

    def capture(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        raise _Captured(self)

    argparse.ArgumentParser.parse_args = capture  # type: ignore[method-assign]
    try:
        main(argv)
    except _Captured as captured:
        return captured.parser
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    raise AssertionError(f"{main.__module__}.main never parsed its arguments")


@dataclass(frozen=True)
class Declared:
    """The commands (name -> options), the choices of options, the groups and their
    subcommands, and the two command lines."""

    commands: dict[str, frozenset[str]]
    choices: dict[tuple[str, str], frozenset[str]]
    groups: dict[str, frozenset[str]]
    pages: dict[str, frozenset[str]]  # command -> the pages that must document it
    cli: dict[str, Parser]  # "bot", "engine"


@cache
def declared() -> Declared:
    from bench.cli import parser as bench_parser
    from bot.__main__ import CONSOLE_OPTIONS
    from bot.__main__ import parser as bot_parser
    from bot.services.tournaments.simulate import main as tournament_main
    from engine.cli import build_parser

    commands = {c.name: frozenset(o.name for o in c.options) for c in COMMANDS}
    choices = {(c.name, o.name): frozenset(v for pair in o.choices for v in pair)
               for c in COMMANDS for o in c.options if o.choices}
    # A group's subcommands and its groups (``/host`` holds ``tournament``, a group).
    groups = {g.name: frozenset([c.leaf for c in COMMANDS if c.group == g.name]
                                + [s.name.split()[-1] for s in GROUPS
                                   if s.name.rsplit(" ", 1)[0] == g.name and " " in s.name])
              for g in GROUPS}
    pages: dict[str, frozenset[str]] = {}
    for c in COMMANDS:
        assert c.section in SECTION_PAGES, (
            f"/{c.name} is in the help section {c.section!r}, which no page documents: "
            "add it to SECTION_PAGES in tests/test_docs.py")
        wanted = {SECTION_PAGES[c.section]}
        if c.audience is Audience.ANYONE:
            wanted.add(PLAYERS_PAGE)
        pages[c.name] = frozenset(wanted)
    # The launcher: one parser per job; ``bench`` and ``tournament`` parse their own
    # arguments. The older flat forms (``python -m bot --script FILE``) are the console's.
    launcher = _parser(bot_parser())
    bot_cli = Parser(frozenset(CONSOLE_OPTIONS) | {"--database", "-h", "--help"},
                     launcher.subcommands
                     | {"bench": _parser(bench_parser()),
                        "tournament": _parser(_captured(tournament_main, ["simulate"]))})
    return Declared(commands, choices, groups, pages,
                    {"bot": bot_cli, "engine": _parser(build_parser())})


# ---- reading markdown --------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
LINK = re.compile(r"\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//")


def _split(text: str) -> tuple[str, list[tuple[int, str]]]:
    """(the text with fenced blocks blanked, every line of a fenced block as
    (line number, text))."""
    prose, fenced, inside = [], [], False
    for number, line in enumerate(text.split("\n"), start=1):
        if FENCE.match(line):
            inside = not inside
            prose.append("")
        elif inside:
            fenced.append((number, line))
            prose.append("")
        else:
            prose.append(line)
    return "\n".join(prose), fenced


def code_pieces(text: str) -> list[tuple[int, str]]:
    """Every piece of code a reader sees, with its line: inline spans (which may run
    over a line break) and the lines of fenced blocks."""
    prose, fenced = _split(text)
    spans = [(prose.count("\n", 0, m.start()) + 1, m.group(2))
             for m in INLINE_CODE.finditer(prose) if "\n\n" not in m.group(2)]
    return sorted(spans + fenced)


def _without_code(text: str) -> str:
    """The prose, with code blanked out (same line breaks): links there are text."""
    prose, _ = _split(text)
    return INLINE_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    prose, _ = _split(text)
    seen: dict[str, int] = {}
    found = set()
    for line in prose.split("\n"):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


# ---- the checks -------------------------------------------------------------------


def check_links(root: Path, page: Path, text: str) -> Iterator[Problem]:
    name = page.relative_to(root).as_posix()
    prose = _without_code(text)
    targets = [(prose.count("\n", 0, m.start()) + 1, m.group(1))
               for pattern in (LINK, REFERENCE) for m in pattern.finditer(prose)]
    for line, target in sorted(targets):
        if not target or SCHEME.match(target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_relative_to(root):
            yield Problem(name, line, f"the link {target!r} points outside the repository")
            continue
        if not file.exists():
            yield Problem(name, line, f"the link {target!r}: there is no "
                          f"{file.relative_to(root).as_posix()}")
            continue
        if anchor and file.suffix == ".md" \
                and anchor not in anchors(file.read_text(encoding="utf-8")):
            yield Problem(name, line, f"the link {target!r}: "
                          f"{file.relative_to(root).as_posix()} has no heading "
                          f"with the anchor #{anchor}")


# A command: a slash that does not continue a word or a path, and a name that is not
# followed by more of a path (``engine/<game>/ai.py``, ``/etc/systemd``).
SLASH = re.compile(r"(?<![\w/.:~@<>=-])/([a-z][a-z0-9_-]*)(?=$|[\s`),;:\]|]|\.(?!\w))")
OPTION = re.compile(r"^([a-z][a-z0-9_]*):(.*)$")
TRAILING = "]),.;"


@dataclass(frozen=True)
class Mention:
    line: int
    command: str


def check_commands(name: str, text: str, known: Declared) -> tuple[list[Problem],
                                                                   list[Mention]]:
    """Problems with the slash commands written in code, and the commands named."""
    problems: list[Problem] = []
    mentions: list[Mention] = []
    for line, piece in code_pieces(text):
        found = list(SLASH.finditer(piece))
        for i, m in enumerate(found):
            end = found[i + 1].start() if i + 1 < len(found) else len(piece)
            words = piece[m.end():end].replace("\\|", "|").split()
            command = m.group(1)
            while command in known.groups:  # ``/host tournament create``: down the groups
                if words and words[0] in known.groups[command]:
                    command = f"{command} {words.pop(0)}"
                    continue
                if words and re.fullmatch(r"[a-z]+", words[0]):
                    problems.append(Problem(name, line, f"/{command} has no subcommand "
                                            f"{words[0]!r} (it has: "
                                            f"{', '.join(sorted(known.groups[command]))})"))
                else:
                    mentions.append(Mention(line, command))
                break
            if command in known.groups:
                continue
            if command not in known.commands:
                problems.append(Problem(name, line, f"no command /{command} is declared "
                                        "in bot/commands/"))
                continue
            mentions.append(Mention(line, command))
            for word in words:
                option = OPTION.match(word)
                if not option:
                    continue
                key, value = option.group(1), option.group(2).rstrip(TRAILING)
                if key not in known.commands[command]:
                    problems.append(Problem(
                        name, line, f"/{command} has no option {key}: (it has: "
                        f"{', '.join(sorted(known.commands[command])) or 'none'})"))
                    continue
                allowed = known.choices.get((command, key))
                if allowed is None or not value or value[0] in "…<[@#":
                    continue
                for choice in value.split("|"):
                    if choice not in allowed:
                        problems.append(Problem(
                            name, line, f"/{command} {key}: has no choice {choice!r} "
                            f"(it has: {', '.join(sorted(allowed))})"))
    return problems, mentions


PYTHON_M = re.compile(r"python -m (bot|engine)(?![\w.])(.*)", re.DOTALL)
SUBCOMMAND = re.compile(r"[a-z][a-z-]*")


def check_cli(name: str, text: str, known: Declared) -> tuple[list[Problem],
                                                              list[tuple[str, str]]]:
    """Problems with ``python -m bot|engine`` lines, and the (program, subcommand)
    pairs named."""
    problems: list[Problem] = []
    named: list[tuple[str, str]] = []
    for line, piece in code_pieces(text):
        for chunk in re.split(r"(?=python -m (?:bot|engine)(?![\w.]))", piece):
            m = PYTHON_M.match(chunk)
            if not m:
                continue
            program, rest = m.group(1), m.group(2).split()
            parser, where = known.cli[program], f"python -m {program}"
            while rest and parser.subcommands and SUBCOMMAND.fullmatch(rest[0]):
                word = rest.pop(0)
                if word not in parser.subcommands:
                    problems.append(Problem(
                        name, line, f"{where} has no subcommand {word!r} (it has: "
                        f"{', '.join(sorted(parser.subcommands))})"))
                    rest = []
                    break
                if where == f"python -m {program}":
                    named.append((program, word))
                parser, where = parser.subcommands[word], f"{where} {word}"
            for word in rest:
                option = re.match(r"^[\[(]?(--[a-z][a-z0-9-]*)", word)
                if option and option.group(1) not in parser.options:
                    problems.append(Problem(name, line, f"{where} has no option "
                                            f"{option.group(1)}"))
    return problems, named


PATH = re.compile(r"(?:engine|bot|tests|bench|docs|\.ci)/[\w./-]*")


def check_paths(root: Path, name: str, text: str) -> Iterator[Problem]:
    """Every path of the repository written in code exists (a moved file is stale)."""
    for line, piece in code_pieces(text):
        for word in piece.split():
            m = PATH.fullmatch(word.strip("()[],;:'\""))
            if m and not (root / m.group(0)).exists():
                yield Problem(name, line, f"there is no {m.group(0)} in the repository")


def pages(root: Path) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def problems(root: Path, known: Declared) -> list[Problem]:
    """Every problem of the docs under ``root``."""
    found: list[Problem] = []
    documented: dict[str, set[str]] = {}
    engine_documented: set[str] = set()
    for page in pages(root):
        name = page.relative_to(root).as_posix()
        text = page.read_text(encoding="utf-8")
        found += check_links(root, page, text)
        found += check_paths(root, name, text)
        command_problems, mentions = check_commands(name, text, known)
        found += command_problems
        documented[name] = {m.command for m in mentions}
        cli_problems, named = check_cli(name, text, known)
        found += cli_problems
        if name == ENGINE_PAGE:
            engine_documented |= {sub for program, sub in named if program == "engine"}
    for command, wanted in sorted(known.pages.items()):
        for page_name in sorted(wanted):
            if command not in documented.get(page_name, set()):
                found.append(Problem(page_name, 1, f"/{command} is not documented here "
                                     "(its audience reads this page)"))
    if any(p.relative_to(root).as_posix() == ENGINE_PAGE for p in pages(root)):
        for sub in sorted(set(known.cli["engine"].subcommands) - engine_documented):
            found.append(Problem(ENGINE_PAGE, 1, f"python -m engine {sub} is not "
                                 "documented here"))
    return found


# ---- the docs of this repository ------------------------------------------------


def _report(found: list[Problem]) -> str:
    return "the docs disagree with the code:\n" + "\n".join(map(str, found))


def test_the_docs_agree_with_the_code() -> None:
    found = problems(ROOT, declared())
    assert not found, _report(found)


def test_the_declarations_were_read() -> None:
    # A reader that found nothing would pass everything: make sure it found the code.
    known = declared()
    assert {"challenge", "dm", "host tournament create", "deck show"} <= set(known.commands)
    assert {"bench", "migrate-db", "tournament"} <= set(known.cli["bot"].subcommands)
    assert "simulate" in known.cli["bot"].subcommands["tournament"].subcommands
    assert {"review", "duel", "deck"} <= set(known.cli["engine"].subcommands)
    assert "--fixed" in known.cli["engine"].subcommands["duel"].options
    mentioned = sum(len(check_commands(p.name, p.read_text(encoding="utf-8"), known)[1])
                    for p in pages(ROOT))
    assert mentioned > 100


def test_the_admin_is_told_every_command_hosts_are_shown_by() -> None:
    """Discord lists a host's command to Manage Server only; an admin shows it to the
    host role command by command (docs/hosting.md). The page names each top-level
    command for hosts (``/host`` and those of their own), so none is forgotten."""
    text = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    section = text.split("### Where the host commands are, and who sees them")[1]
    section = section.split("\n## ")[0]
    named = {m.group(1) for m in SLASH.finditer(section)}
    tops = {g.name for g in GROUPS if g.for_hosts and " " not in g.name}
    tops |= {c.name for c in COMMANDS if c.for_hosts and c.group is None}
    assert "host" in tops and tops <= named, sorted(tops - named)


def test_no_file_points_at_rules_outside_the_repository() -> None:
    """The rules live in docs/rules/; a user of garnet has no ../shared/ folder."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=False).stdout.split()
    files = listed or [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
                       if ".venv" not in p.parts and ".git" not in p.parts]
    pattern = re.compile(r"shared/rules|shared/seeds")
    found = []
    for file in files:
        path = ROOT / file
        if path.suffix not in {".py", ".md", ".toml", ".txt", ".c", ".ini", ".example", ""} \
                or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace")
                                      .splitlines(), start=1):
            if pattern.search(line) and path != Path(__file__):
                found.append(f"{file}:{number}: {line.strip()}")
    assert not found, "rules outside the repository (use docs/rules/):\n" + "\n".join(found)


# ---- the checker fails where it should ------------------------------------------


BAD_README = """# Sample

See [the rules](docs/rules/nowhere.md) and [hosting](docs/hosting.md#no-such-part),
[outside](../elsewhere.md), [fine](docs/hosting.md#events-and-garnets) and
[the web](https://example.org/x).

- `/challenge opponent:@x game:cairo colour:red` — a wrong option
- `/dm game:cairo chooser:sometimes` — a wrong choice
- `/duel game:cairo` — no such command
- `/tournament launch` — no such subcommand
- `/host tournament launch`, `/host event create colour:red` — the same in /host's groups
- `python -m engine solve cairo --depth 3` and `python -m bot frobnicate`
- the fake is in `tests/bot/fake_transport.py`

```
alice: /challenge @bob game:cairo first:me
python -m bot tournament simulate --format swiss --players 8 --colours
```

Text in code is not a link: `[x](missing.md)`.
"""

BAD_HOSTING = """# Hosting

## Events and garnets

`/dm game:cairo player1:@a player2:@b`
"""


def test_the_checker_names_each_problem(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text(BAD_README, encoding="utf-8")
    (tmp_path / "docs" / "hosting.md").write_text(BAD_HOSTING, encoding="utf-8")
    found = [str(p) for p in problems(tmp_path, declared())]
    expected = [
        "README.md:3: the link 'docs/rules/nowhere.md': there is no docs/rules/nowhere.md",
        "README.md:3: the link 'docs/hosting.md#no-such-part': docs/hosting.md has no "
        "heading with the anchor #no-such-part",
        "README.md:4: the link '../elsewhere.md' points outside the repository",
        "README.md:7: /challenge has no option colour:",
        "README.md:8: /dm chooser: has no choice 'sometimes'",
        "README.md:9: no command /duel is declared in bot/commands/",
        "README.md:10: /tournament has no subcommand 'launch'",
        "README.md:11: /host tournament has no subcommand 'launch'",
        "README.md:11: /host event create has no option colour:",
        "README.md:12: python -m engine solve has no option --depth",
        "README.md:12: python -m bot has no subcommand 'frobnicate'",
        "README.md:13: there is no tests/bot/fake_transport.py in the repository",
        "README.md:17: python -m bot tournament simulate has no option --colours",
    ]
    for message in expected:
        assert any(f.startswith(message) for f in found), (message, found)
    # What is right raises nothing: the good link, the web, the console line's options,
    # a link inside code, and /dm documented on the hosts' page.
    assert not any("events-and-garnets" in f or "example.org" in f or "missing.md" in f
                   or "first:" in f for f in found), found
    assert "docs/hosting.md:1: /dm is not documented here" not in " ".join(found)
    # Everything undocumented is named, on the page of its audience.
    assert "docs/playing.md:1: /challenge is not documented here (its audience reads " \
           "this page)" in found
    assert "docs/tournaments.md:1: /host tournament create is not documented here (its " \
           "audience reads this page)" in found
    assert len([f for f in found if "not documented" in f]) == len(
        [p for wanted in declared().pages.values() for p in wanted]) - 1


def test_anchors_are_made_as_github_makes_them() -> None:
    text = "# A\n\n## The season's Death Match\n\n### Moving to PostgreSQL: `migrate-db`\n" \
           "\n## Notes\n\n## Notes\n\n```\n# not a heading\n```\n"
    assert anchors(text) == {"a", "the-seasons-death-match",
                             "moving-to-postgresql-migrate-db", "notes", "notes-1"}


# ---- the pages that list the games ---------------------------------------------------

# The pages that list every game garnet ships (README's "Games:", playing's "Typing a
# move", engine's games, the rules' index) and the package's description.
GAME_LISTS = ("README.md", "docs/playing.md", "docs/engine.md", "docs/rules/README.md",
              "pyproject.toml")


def built_in_titles() -> dict[str, str]:
    from engine.registry import entries, get_game

    return {e.key: get_game(e.key).title for e in entries() if e.built_in}


def missing_games(root: Path, titles: dict[str, str]) -> list[Problem]:
    """Each page of ``GAME_LISTS`` that misses a built-in game, and each game whose
    rules page (``docs/rules/<title as a slug>.md``) the rules' index does not link."""
    found = []
    for name in GAME_LISTS:
        text = (root / name).read_text(encoding="utf-8")
        found += [Problem(name, 1, f"the games' list misses {title} ({key})")
                  for key, title in titles.items() if title not in text]
    index = (root / "docs/rules/README.md").read_text(encoding="utf-8")
    for key, title in titles.items():
        page = title.lower().replace(" ", "-") + ".md"
        if f"({page}" not in index:
            found.append(Problem("docs/rules/README.md", 1,
                                 f"no link to the rules of {title} ({key}): {page}"))
    return found


def test_every_page_that_lists_the_games_names_each_one() -> None:
    titles = built_in_titles()
    assert len(titles) == 4
    found = missing_games(ROOT, titles)
    assert not found, _report(found)


def test_a_page_missing_a_game_is_named(tmp_path: Path) -> None:
    for name in GAME_LISTS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ROOT / name).read_text(encoding="utf-8"),
                                     encoding="utf-8")
    titles = built_in_titles() | {"nim": "Nim Solitaire"}
    found = [str(p) for p in missing_games(tmp_path, titles)]
    assert "docs/playing.md:1: the games' list misses Nim Solitaire (nim)" in found
    assert ("docs/rules/README.md:1: no link to the rules of Nim Solitaire (nim): "
            "nim-solitaire.md") in found
    assert len(found) == len(GAME_LISTS) + 1
