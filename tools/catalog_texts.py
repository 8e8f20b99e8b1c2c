"""One-off: put the sentences of bot/texts through the catalogs (``_``/``n_`` + ``@text``).

Run once by the conversion (issue 40); kept to show how it was done. It rewrites
f-strings and string literals in text functions into ``_("... {name} ...").format(...)``
and ``f"{n} x" if n == 1 else f"{n} xs"`` (or ``{'s' if n != 1 else ''}``) into ``n_``.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

WIDTH = 100
WRAPPERS = {"mention", "plain", "plains", "str", "int", "round", "abs", "len", "float",
            "capitalised", "live_time"}
SKIP_CALLS = {"get", "startswith", "endswith", "split", "replace", "getattr", "isinstance",
              "removesuffix", "removeprefix", "rstrip", "lstrip", "strip", "compile", "match",
              "group", "partition", "rsplit", "setdefault", "count", "index", "find", "pop",
              "setattr", "hasattr", "get_game"}
WORD = re.compile(r"[A-Za-z]{2,}")


def words(literal: str) -> bool:
    return bool(WORD.search(re.sub(r"\{[^{}]*\}", "", literal)))


def lit(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def chunks(s: str, width: int) -> list[str]:
    """``s`` cut after spaces into pieces of at most ``width`` characters (as literals)."""
    out, cur = [], ""
    for piece in re.findall(r"\S*\s*", s):
        if not piece:
            continue
        if cur and len(lit(cur + piece)) > width:
            out.append(cur)
            cur = piece
        else:
            cur += piece
    if cur or not out:
        out.append(cur)
    return [lit(c) for c in out]


class Names:
    def __init__(self) -> None:
        self.by_src: dict[str, str] = {}
        self.used: set[str] = set()

    def name(self, expr: ast.expr, src: str) -> str:
        if src in self.by_src:
            return self.by_src[src]
        base = guess(expr)
        name, k = base, 2
        while name in self.used:
            name, k = f"{base}{k}", k + 1
        self.used.add(name)
        self.by_src[src] = name
        return name


def guess(e: ast.expr) -> str:
    if isinstance(e, ast.Name):
        return e.id.lstrip("_") or "value"
    if isinstance(e, ast.Attribute):
        return e.attr.lstrip("_")
    if isinstance(e, ast.Call):
        f = e.func
        fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if fname in WRAPPERS and len(e.args) == 1:
            return guess(e.args[0])
        if fname == "get" and e.args:
            return guess(e.args[0])
        if fname == "join" and isinstance(f, ast.Attribute):
            return "listed"
        return fname.lstrip("_") or "value"
    if isinstance(e, ast.Subscript):
        if isinstance(e.slice, ast.Constant) and isinstance(e.slice.value, int):
            return guess(e.value).removesuffix("s") + str(e.slice.value + 1)
        return guess(e.value)
    if isinstance(e, ast.BinOp):
        return guess(e.left)
    return "value"


def count_of(test: ast.expr, src: str) -> tuple[str, bool] | None:
    """``n == 1`` -> (n's source, True when the body is the singular)."""
    if (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == 1):
        op = test.ops[0]
        n = ast.get_source_segment(src, test.left) or ast.unparse(test.left)
        if isinstance(op, ast.Eq):
            return n, True
        if isinstance(op, ast.NotEq | ast.Gt):
            return n, False
    if (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.In) and isinstance(test.comparators[0], ast.Tuple)):
        n = ast.get_source_segment(src, test.left) or ast.unparse(test.left)
        return n, True
    return None


def strlike(e: ast.expr) -> bool:
    return isinstance(e, ast.JoinedStr) or (isinstance(e, ast.Constant)
                                            and isinstance(e.value, str))


class Message:
    """One message being built: its text in each form and its placeholders."""

    def __init__(self, src: str, names: Names) -> None:
        self.src, self.names = src, names
        self.args: dict[str, str] = {}

    def text(self, node: ast.expr, singular: bool | None, count: str | None) -> str | None:
        if isinstance(node, ast.Constant):
            return node.value.replace("{", "{{").replace("}", "}}")
        assert isinstance(node, ast.JoinedStr)
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(v.value.replace("{", "{{").replace("}", "}}"))
                continue
            assert isinstance(v, ast.FormattedValue)
            e = v.value
            if (isinstance(e, ast.IfExp) and strlike(e.body) and strlike(e.orelse)
                    and isinstance(e.body, ast.Constant) and isinstance(e.orelse, ast.Constant)
                    and (c := count_of(e.test, self.src)) and c[0] == count
                    and singular is not None):
                out.append((e.body if c[1] == singular else e.orelse).value)
                continue
            esrc = ast.get_source_segment(self.src, e) or ast.unparse(e)
            if "\n" in esrc:
                esrc = ast.unparse(e)
            if (isinstance(e, ast.IfExp) and isinstance(e.body, ast.Constant)
                    and isinstance(e.orelse, ast.Constant)):
                def tr(c: ast.Constant) -> str:
                    return f"_({lit(c.value)})" if words(c.value) else lit(c.value)
                esrc = f"{tr(e.body)} if {ast.unparse(e.test)} else {tr(e.orelse)}"
            spec = ""
            if v.format_spec is not None:
                assert isinstance(v.format_spec, ast.JoinedStr)
                if not all(isinstance(x, ast.Constant) for x in v.format_spec.values):
                    return None
                spec = "".join(x.value for x in v.format_spec.values)
            if spec == ",":
                esrc, spec = f"numeral({esrc})", ""
            conv = "" if v.conversion == -1 else "!" + chr(v.conversion)
            name = self.names.name(e, esrc)
            self.args[name] = esrc
            out.append("{" + name + conv + (":" + spec if spec else "") + "}")
        return "".join(out)


def inner_count(node: ast.JoinedStr, src: str) -> str | None:
    counts = set()
    for v in node.values:
        if isinstance(v, ast.FormattedValue):
            e = v.value
            if (isinstance(e, ast.IfExp) and isinstance(e.body, ast.Constant)
                    and isinstance(e.orelse, ast.Constant) and (c := count_of(e.test, src))):
                counts.add(c[0])
    return counts.pop() if len(counts) == 1 else None


def render(call: str, parts: list[list[str]], args: dict[str, str], col: int,
           count: str | None = None) -> str:
    """``_(...)``/``n_(...)`` laid out from column ``col``."""
    inner = col + len(call) + 1
    lines: list[str] = []
    for i, part in enumerate(parts):
        sep = "," if i < len(parts) - 1 else ""
        for j, piece in enumerate(part):
            last = j == len(part) - 1
            lines.append(piece + (sep if last else ""))
    tail = ")" if count is None else f", {count})"
    body = ("\n" + " " * inner).join(lines)
    text = f"{call}({body}{tail}" if len(parts) == 1 else f"{call}({body}{tail}"
    if args:
        fmt = ", ".join(f"{k}={v}" if k != v else f"{k}={v}" for k, v in args.items())
        last_len = (inner if "\n" in text else col) + len(text.rsplit("\n", 1)[-1])
        if last_len + len(fmt) + 9 <= WIDTH - 2:
            text += f".format({fmt})"
        else:
            text += ".format(\n" + " " * (col + 4)
            row, cur = [], col + 4
            for k, v in args.items():
                piece = f"{k}={v}, "
                if row and cur + len(piece) > WIDTH - 2:
                    text += "".join(row).rstrip() + "\n" + " " * (col + 4)
                    row, cur = [], col + 4
                row.append(piece)
                cur += len(piece)
            text += "".join(row).rstrip().rstrip(",") + ")"
    return text


def convert(src: str, node: ast.expr, names: Names) -> str | None:
    col = node.col_offset
    width = max(40, WIDTH - col - 8)
    if isinstance(node, ast.IfExp):  # a plural: both branches strings, test n == 1
        c = count_of(node.test, src)
        assert c
        one, many = (node.body, node.orelse) if c[1] else (node.orelse, node.body)
        m = Message(src, Names())
        s, p = m.text(one, True, c[0]), m.text(many, False, c[0])
        if s is None or p is None:
            return None
        if c[0] not in m.args.values() and not c[0].startswith("len("):
            pass
        return render("n_", [chunks(s, width), chunks(p, width)], m.args, col, c[0])
    if isinstance(node, ast.JoinedStr):
        count = inner_count(node, src)
        m = Message(src, Names())
        if count:
            s, p = m.text(node, True, count), m.text(node, False, count)
            if s is None or p is None:
                return None
            if s != p:
                return render("n_", [chunks(s, width), chunks(p, width)], m.args, col, count)
        t = m.text(node, None, None)
        if t is None or not words(t):
            return None
        return render("_", [chunks(t, width)], m.args, col)
    assert isinstance(node, ast.Constant)
    if not words(node.value):
        return None
    t = node.value.replace("{", "{{").replace("}", "}}")
    if t != node.value:
        return render("_", [chunks(node.value, width)], {}, col).replace(
            "_(", "_(", 1)  # a literal with braces: no .format, so none doubled
    return render("_", [chunks(t, width)], {}, col)


def plural_ifexp(node: ast.expr, src: str) -> bool:
    return (isinstance(node, ast.IfExp) and strlike(node.body) and strlike(node.orelse)
            and count_of(node.test, src) is not None)


def candidates(fn: ast.FunctionDef, src: str) -> list[ast.expr]:
    found: list[ast.expr] = []
    skip: set[int] = set()
    if fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant):
        skip.add(id(fn.body[0].value))
    for d in [*fn.args.defaults, *fn.args.kw_defaults]:
        if d is not None:
            for x in ast.walk(d):
                skip.add(id(x))
    for node in ast.walk(fn):
        if isinstance(node, ast.Compare):
            for x in ast.walk(node):
                skip.add(id(x))
        elif isinstance(node, ast.Subscript):
            for x in ast.walk(node.slice):
                skip.add(id(x))
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                if k is not None:
                    for x in ast.walk(k):
                        skip.add(id(x))
        elif isinstance(node, ast.Call):
            f = node.func
            fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if fname in SKIP_CALLS:
                for a in [*node.args, *(k.value for k in node.keywords)]:
                    for x in ast.walk(a):
                        skip.add(id(x))
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Constant):
                skip.add(id(f.value))  # ", ".join: a separator
        elif isinstance(node, ast.JoinedStr):
            for v in node.values:
                for x in ast.walk(v):
                    if x is not v:
                        skip.add(id(x))
        elif isinstance(node, ast.IfExp) and plural_ifexp(node, src):
            for x in ast.walk(node):
                if x is not node:
                    skip.add(id(x))
    for node in ast.walk(fn):
        if id(node) in skip:
            continue
        if isinstance(node, ast.IfExp) and plural_ifexp(node, src):
            found.append(node)
        elif isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant)
                                                 and isinstance(node.value, str)):
            found.append(node)
    return found


def offsets(src: str) -> list[int]:
    starts, pos = [], 0
    for line in src.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    return starts


def rewrite(path: Path) -> None:
    src = path.read_text(encoding="utf-8")
    tree = ast.parse(src)
    starts = offsets(src)
    edits: list[tuple[int, int, str]] = []
    decorate: list[int] = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        names = Names()
        for node in candidates(fn, src):
            new = convert(src, node, names)
            if new is None:
                continue
            a = starts[node.lineno - 1] + len(
                src[starts[node.lineno - 1]:].encode()[:node.col_offset].decode())
            b = starts[node.end_lineno - 1] + len(
                src[starts[node.end_lineno - 1]:].encode()[:node.end_col_offset].decode())
            edits.append((a, b, new))
        if (isinstance(fn.returns, ast.Name) and fn.returns.id == "str"
                and not any(isinstance(d, ast.Name) and d.id == "text"
                            for d in fn.decorator_list)):
            decorate.append(fn.lineno if not fn.decorator_list else fn.decorator_list[0].lineno)
    for line in decorate:
        a = starts[line - 1]
        indent = len(src[a:]) - len(src[a:].lstrip(" "))
        edits.append((a, a, " " * indent + "@text\n"))
    edits.sort(key=lambda e: (e[0], e[1]), reverse=True)
    # nested candidates: keep only the outermost
    kept: list[tuple[int, int, str]] = []
    for e in sorted(edits, key=lambda e: (e[0], -e[1])):
        if kept and e[0] < kept[-1][1] and e[1] <= kept[-1][1] and e[0] != e[1]:
            continue
        kept.append(e)
    for a, b, new in sorted(kept, reverse=True):
        src = src[:a] + new + src[b:]
    used = {k for k in ("_", "n_") if re.search(rf"(?<![\w.]){k}\(", src)}
    used |= {"text"} if "@text" in src else set()
    if "numeral(" in src:
        used.add("numeral")
    if used:
        imp = f"from bot.texts.language import {', '.join(sorted(used))}\n"
        src = re.sub(r"(from __future__ import annotations\n\n)", r"\1" + imp, src, count=1)
    path.write_text(src, encoding="utf-8")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        rewrite(Path(arg))
