"""The shape of the code: layers (see pyproject's import-linter contracts, run by
``make test``), no import cycles and modules of a readable length. The documentation
is checked against the commands by ``tests/test_docs.py``."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600  # aim for 350


def _cycle(graph: grimp.ImportGraph, package: str) -> list[str] | None:
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name):], name]
        if name in done:
            return None
        for dep in sorted(graph.find_modules_directly_imported_by(name)):
            if dep.startswith(package):
                found = visit(dep, [*path, name])
                if found:
                    return found
        done.add(name)
        return None

    for name in modules:
        found = visit(name, [])
        if found:
            return found
    return None


@pytest.mark.parametrize("package", ["bot", "engine"])
def test_no_import_cycles(package: str) -> None:
    # Type-only and function-level imports count: they close a cycle all the same.
    graph = grimp.build_graph(package, include_external_packages=False)
    cycle = _cycle(graph, package)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_modules_of_bot_stay_readable() -> None:
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / "bot").rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def _refusal_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """``Refusal`` and every class of bot/ derived from it, by name."""
    names = {"Refusal"}
    grew = True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names and any(
                        (base.id if isinstance(base, ast.Name) else
                         base.attr if isinstance(base, ast.Attribute) else None) in names
                        for base in node.bases):
                    names.add(node.name)
                    grew = True
    return names


def _sentence(node: ast.expr) -> bool:
    """A sentence written in place: a string literal, an f-string, or a choice of them."""
    if isinstance(node, ast.IfExp):
        return _sentence(node.body) or _sentence(node.orelse)
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def _literal_refusals(trees: dict[Path, ast.Module], names: set[str]) -> list[str]:
    """Each call of a refusal class outside bot/texts given a sentence as a string
    literal or an f-string, and each refusal class that hands one to ``super().__init__``
    (the sentence belongs in bot/texts)."""
    found = []
    for path, tree in trees.items():
        if "texts" in path.relative_to(ROOT / "bot").parts[:1]:
            continue
        inits = {id(node) for cls in ast.walk(tree)
                 if isinstance(cls, ast.ClassDef) and cls.name in names
                 for node in ast.walk(cls)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                 and node.func.attr == "__init__" and isinstance(node.func.value, ast.Call)
                 and isinstance(node.func.value.func, ast.Name)
                 and node.func.value.func.id == "super"}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (func.id if isinstance(func, ast.Name) else
                    func.attr if isinstance(func, ast.Attribute) else None)
            args = [*node.args, *(k.value for k in node.keywords)]
            if (name in names or id(node) in inits) and any(_sentence(a) for a in args):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def _bot_trees() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in (ROOT / "bot").rglob("*.py")}


def test_refusals_take_their_sentences_from_texts() -> None:
    trees = _bot_trees()
    literal = _literal_refusals(trees, _refusal_classes(trees))
    assert not literal, "sentences of refusals belong in bot/texts:\n" + "\n".join(literal)


def test_a_literal_refusal_is_caught() -> None:
    trees = _bot_trees()
    names = _refusal_classes(trees)
    assert {"Refusal", "NoSuchMatch", "TournamentRefusal", "UserError"} <= names
    sample = ast.parse('class Odd(NoSuchMatch):\n    pass\n\n'
                       'raise Refusal("No.")\nraise Odd(f"#{n} is odd")\n'
                       'raise Refusal(texts.no())\n'
                       'class Own(Refusal):\n'
                       '    def __init__(self, n):\n'
                       '        super().__init__("Yes." if n else f"{n}.")\n'
                       'class Fine(Refusal):\n'
                       '    def __init__(self):\n'
                       '        super().__init__(texts.fine())\n')
    path = ROOT / "bot" / "services" / "sample.py"
    caught = _literal_refusals({path: sample}, _refusal_classes({path: sample} | trees))
    assert [line.split(":")[1] for line in caught] == ["4", "5", "9"]
    assert not _literal_refusals({ROOT / "bot" / "texts" / "sample.py": sample}, names)


def test_no_test_module_imports_another() -> None:
    """A helper two test modules share lives in a helper module (``tests/discord_bot.py``,
    ``tests/decks.py``, ``tests/engine/positions.py``, ...), never in a test module: an
    import of a test module breaks when its helper moves, and runs its tests' module-level
    set-up in the importer."""
    found = []
    for path in sorted(ROOT.glob("tests/**/*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            words = line.strip().split()
            if len(words) >= 2 and words[0] in ("from", "import") and any(
                    part.startswith("test_") for part in words[1].split(".")):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
