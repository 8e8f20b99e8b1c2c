"""The shape of the code: layers (see pyproject's import-linter contracts, run by
``make test``), no import cycles and modules of a readable length. The documentation
is checked against the commands by ``tests/test_docs.py``."""

from __future__ import annotations

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
