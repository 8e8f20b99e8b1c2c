"""One-off: move the top-level definitions of a line range of a bot/texts module into a
new module, with the helpers they need, and re-export them from the old one (callers
keep importing the old module). Used when the catalogs' ``@text`` and ``.format`` lines
pushed modules past the 600-line limit (issue 40)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def defined(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)] + [
            e.id for t in node.targets if isinstance(t, ast.Tuple) for e in t.elts
            if isinstance(e, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None)
    return decorators[0].lineno if decorators else node.lineno


def main(path: str, start: int, end: int, new: str, doc: str) -> None:
    src = Path(path).read_text()
    lines = src.splitlines(keepends=True)
    tree = ast.parse(src)
    body = [n for n in tree.body if defined(n)]
    names = {name: n for n in body for name in defined(n)}
    used = {id(n): {x.id for x in ast.walk(n) if isinstance(x, ast.Name)} for n in body}
    moved = {id(n) for n in body if start <= first_line(n) <= end}
    grew = True
    while grew:  # the helpers the moved need, and theirs
        grew = False
        for n in body:
            if id(n) in moved:
                for name in used[id(n)] & set(names):
                    if id(names[name]) not in moved:
                        moved.add(id(names[name]))
                        grew = True
    imports_end = max(n.end_lineno for n in tree.body
                      if isinstance(n, ast.Import | ast.ImportFrom))
    header = "".join(lines[:imports_end])
    header = header.split("from __future__", 1)[1]
    chunks, keep = [], [True] * len(lines)
    for n in body:
        if id(n) in moved:
            a, b = first_line(n) - 1, n.end_lineno
            # the comment lines right above go along
            while a > 0 and lines[a - 1].startswith("#") and not lines[a - 1].startswith("# --") \
                    and not lines[a - 1].startswith("# =="):
                a -= 1
            chunks.append("".join(lines[a:b]))
            for i in range(a, b):
                keep[i] = False
    module = new.rsplit(".", 1)[-1]
    out = f'"""{doc}"""\n\nfrom __future__' + header + "\n\n" + "\n\n".join(chunks)
    Path(path).with_name(module + ".py").write_text(out)
    public = sorted(name for n in body if id(n) in moved for name in defined(n))
    rest = "".join(line for line, k in zip(lines, keep, strict=True) if k)
    imp = "".join(f"from {new} import {n} as {n}\n" for n in public)
    rest = rest.replace(header.splitlines(keepends=True)[-1],
                        header.splitlines(keepends=True)[-1] + imp, 1)
    Path(path).write_text(rest)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5])
