"""No import cycles between the project's modules, type-only ones included
(docs/ARCHITECTURE.md, "Import directions").

Every module of the project's packages is read with `ast` (nothing is imported): each
`import` and `from ... import` anywhere in it counts, inside `if TYPE_CHECKING:` blocks and
functions too, relative imports resolved against the module's package. `from p import n`
is an import of the module `p.n` when that module exists, else of `p`. The implicit import
of a module's parent packages is not counted (every submodule would otherwise form a
cycle with a package `__init__` that imports it). The resulting graph must have no cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = tuple(
    name for name in ("engine", "renderer", "storage", "bot", "standin", "localplay", "puzzles",
                 "tournaments")
    if (ROOT / name / "__init__.py").is_file()
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name `from ... import` reads from in `module`."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of `name` that is a project module (None: not the project's)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `module` imports anywhere in its source."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, path.name == "__init__.py", node)
            targets = [f"{source}.{alias.name}" for alias in node.names] or [source]
        for target in targets:
            known = _known(target, modules)
            if known is not None and known != module:
                found.add(known)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    counter = 0  # an explicit work stack instead of recursion (no recursion limit)
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(sorted(graph[root]))))
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_is_read() -> None:
    """The reader sees imports of every kind (a guard against a test that cannot fail)."""
    graph = import_graph()
    assert "bot.client" in graph and "engine" in graph
    assert "bot.services.games" in graph["bot.client"] or "bot.services" in graph["bot.client"]
    assert "engine" in graph["renderer"] or any(
        target.startswith("engine") for name, targets in graph.items()
        if name.startswith("renderer") for target in targets
    )


def test_cycles_are_found() -> None:
    """The cycle finder itself: a type-only cycle and a relative one are reported."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_type_checking_and_relative_imports_count(tmp_path: Path) -> None:
    modules = {"p": tmp_path / "p/__init__.py", "p.a": tmp_path / "p/a.py",
               "p.b": tmp_path / "p/b.py"}
    for path in modules.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    modules["p"].write_text("")
    modules["p.a"].write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.b import B\n"
    )
    modules["p.b"].write_text("from . import a\nfrom .a import thing\n")
    assert imports_of("p.a", modules["p.a"], modules) == {"p.b"}
    assert imports_of("p.b", modules["p.b"], modules) == {"p.a"}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package: str) -> None:
    graph = import_graph()
    found = [c for c in cycles(graph) if any(m.split(".")[0] == package for m in c)]
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)
