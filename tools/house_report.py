"""Report the shape of the house: files and lines per package, imports of private modules across
packages, module-level import cycles, and source files over the size cap.

    python tools/house_report.py            # a table on stdout
    python tools/house_report.py --json     # the same numbers as JSON

Imports are read from the source (``ast``), so nothing is imported or run. An import inside a
function is "lazy" (it runs on first use) and is counted separately from module-level imports,
which are the ones that can form a cycle at import time. ``paddle_compat._core.seams`` is the
core's declared seam for ``parallel``, ``quant`` and ``serving`` (see DESIGN.md, "Seams"), so
importing it does not count as importing a private module.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("paddle_compat", "parallel", "quant", "serving", "paddle")
MAX_LINES = 800
SEAMS = frozenset({"paddle_compat._core.seams"})  # private by path, declared for other packages


def modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _resolve(mod: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = mod.split(".")
    if not is_pkg:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(mods: dict[str, Path]):
    """(importer, imported module, lazy?) for every import of a project module."""
    out = []
    for mod, path in mods.items():
        tree = ast.parse(path.read_text())
        is_pkg = path.name == "__init__.py"
        top_level = set(map(id, tree.body))
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(mod, is_pkg, node)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names
                ]
            if _under_type_checking(tree, node):
                continue  # not imported at run time
            lazy = id(node) not in top_level and not _under_toplevel_try(tree, node)
            for t in targets:
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != mod:
                    out.append((mod, t, lazy))
    return out


def _under_type_checking(tree: ast.Module, node) -> bool:
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.If)
            and "TYPE_CHECKING" in ast.unparse(stmt.test)
            and any(n is node for n in ast.walk(stmt))
        ):
            return True
    return False


def _under_toplevel_try(tree: ast.Module, node) -> bool:
    for stmt in tree.body:
        if isinstance(stmt, ast.Try | ast.If) and any(n is node for n in ast.walk(stmt)):
            return True
    return False


def _is_private(mod: str) -> bool:
    return mod not in SEAMS and any(p.startswith("_") for p in mod.split(".")[1:])


def private_cross(edges) -> list[tuple[str, str]]:
    """Imports of another top-level package's private modules (``parallel`` -> ``_core``)."""
    return sorted(
        {(a, b) for a, b, _ in edges if a.split(".")[0] != b.split(".")[0] and _is_private(b)}
    )


def cycles(edges) -> list[list[str]]:
    """Strongly connected components (size > 1) of the module-level import graph."""
    graph: dict[str, set[str]] = {}
    for a, b, lazy in edges:
        if not lazy:
            graph.setdefault(a, set()).add(b)
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def report() -> dict:
    mods = modules()
    edges = imports(mods)
    per_pkg = {}
    for mod, path in mods.items():
        p = per_pkg.setdefault(mod.split(".")[0], {"files": 0, "lines": 0})
        p["files"] += 1
        p["lines"] += len(path.read_text().splitlines())
    over = sorted(
        (str(p.relative_to(ROOT)), n)
        for p in mods.values()
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    )
    cross = private_cross(edges)
    return {
        "packages": per_pkg,
        "files": sum(p["files"] for p in per_pkg.values()),
        "lines": sum(p["lines"] for p in per_pkg.values()),
        "private_cross_imports": len(cross),
        "private_cross_import_list": [f"{a} -> {b}" for a, b in cross],
        "import_cycles": cycles(edges),
        "files_over_cap": over,
    }


def main(argv: list[str]) -> int:
    r = report()
    if "--json" in argv:
        print(json.dumps(r, indent=1))
        return 0
    for pkg, p in sorted(r["packages"].items()):
        print(f"{pkg:14s} {p['files']:4d} files {p['lines']:6d} lines")
    print(f"{'total':14s} {r['files']:4d} files {r['lines']:6d} lines")
    print(f"imports of another package's private modules: {r['private_cross_imports']}")
    for line in r["private_cross_import_list"]:
        print("   ", line)
    print(f"module-level import cycles: {len(r['import_cycles'])}")
    for c in r["import_cycles"]:
        print(f"    ({len(c)} modules) " + ", ".join(c[:8]) + (" ..." if len(c) > 8 else ""))
    print(f"files over {MAX_LINES} lines: {len(r['files_over_cap'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
