"""The shape of the code: layers (see pyproject's import-linter contracts, run by
``make test``), no import cycles and modules of a readable length. The documentation
is checked against the commands by ``tests/test_docs.py``."""

from __future__ import annotations

import ast
import re
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


# ---- the catalogs: every sentence of bot/texts through _ / n_ ---------------------------

_WORD = re.compile(r"[A-Za-z]{2,}")
#: the catalogs' keywords (bot/texts/language.py; babel.cfg's extraction uses the same)
_SAYING = {"_", "n_", "N_"}
#: calls whose string arguments are never said (matched, split, looked up)
_NOT_SAID = {"startswith", "endswith", "split", "rsplit", "partition", "replace", "strip",
             "rstrip", "lstrip", "removesuffix", "removeprefix", "getattr", "hasattr",
             "isinstance", "compile", "match", "fullmatch", "search", "sub", "count", "index",
             "find", "get_game", "strftime", "moment"}


def _has_words(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(_WORD.search(node.value))
    return isinstance(node, ast.JoinedStr) and any(
        isinstance(v, ast.Constant) and _WORD.search(str(v.value)) for v in node.values)


def _call_name(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _unsaid(tree: ast.Module) -> list[ast.AST]:
    """String literals with words in a text module that are not a catalog's message: in a
    function (not its docstring, a comparison, a lookup's key or a default) outside
    ``_``/``n_``/``N_``, or a module table's value not marked ``N_``; and each ``_``
    inside an f-string, which the extractor cannot see."""
    skip: set[int] = set()

    def mark(node: ast.AST) -> None:
        skip.update(id(x) for x in ast.walk(node))

    checked: list[ast.AST] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            checked.append(node)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
            checked.extend(v for v in node.value.values)
    found = []
    for top in checked:
        for node in ast.walk(top):
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.body and isinstance(
                    node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
                mark(node.body[0])
            elif isinstance(node, ast.Call):
                name = _call_name(node)
                if name in _SAYING or name in _NOT_SAID:
                    for a in [*node.args, *(k.value for k in node.keywords)]:
                        mark(a)
                elif name == "get" and node.args:
                    mark(node.args[0])
            elif isinstance(node, ast.Compare):
                mark(node)
            elif isinstance(node, ast.Subscript):
                mark(node.slice)
            elif isinstance(node, ast.Dict):
                for k in node.keys:
                    if k is not None:
                        mark(k)
            elif isinstance(node, ast.arguments):
                for d in [*node.defaults, *node.kw_defaults]:
                    if d is not None:
                        mark(d)
            elif isinstance(node, ast.JoinedStr):  # said whole, or not at all
                skip.update(id(v) for v in node.values if isinstance(v, ast.Constant))
                found += [c for c in ast.walk(node) if isinstance(c, ast.Call)
                          and _call_name(c) in _SAYING and c.args and _has_words(c.args[0])]
        found += [n for n in ast.walk(top) if id(n) not in skip and _has_words(n)]
    return found


def _text_modules() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted((ROOT / "bot" / "texts").glob("*.py")) if p.name != "language.py"}


def test_texts_say_every_sentence_through_the_catalogs() -> None:
    found = [f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}: "
             f"{ast.unparse(node)[:90]}"  # type: ignore[arg-type]
             for path, tree in _text_modules().items() for node in _unsaid(tree)]
    assert not found, ("sentences outside the catalogs (say them through _ or n_, or mark a "
                       "table's words with N_; docs/development.md):\n" + "\n".join(found))


def test_every_text_function_is_a_text() -> None:
    """A text function says what it says again in another language (``@text``)."""
    bare = [f"{path.relative_to(ROOT)}:{node.lineno}: {node.name}"
            for path, tree in _text_modules().items() for node in tree.body
            if isinstance(node, ast.FunctionDef) and isinstance(node.returns, ast.Name)
            and node.returns.id == "str" and not any(
                isinstance(d, ast.Name) and d.id == "text" for d in node.decorator_list)]
    assert not bare, "text functions without @text:\n" + "\n".join(bare)


def test_a_sentence_outside_the_catalogs_is_caught() -> None:
    sample = ast.parse(
        'TABLE = {"a": "an unmarked word", "b": N_("a marked one")}\n'
        'def said(n: int) -> str:\n'
        '    """A docstring says nothing."""\n'
        '    if n == "some key":\n'
        '        return _("Fine: {n}").format(n=n)\n'
        '    return "Hard-coded sentence."\n'
        'def pasted(x: str) -> str:\n'
        '    return f"{x} was {_(\'hidden\')}, and {x} is bare"\n'
        'def plural(n: int) -> str:\n'
        '    return n_("{n} thing", "{n} things", n).format(n=n) + TABLE.get("a", "")\n')
    found = sorted(getattr(n, "lineno", 0) for n in _unsaid(sample))
    assert found == [1, 6, 8, 8]
