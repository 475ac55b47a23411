"""The layout rules of the tree (docs/ARCHITECTURE.md, "Packages").

- Tests mirror the packages, and shared fakes and harnesses live in `tests/support`, so no
  test module imports another test module or a `conftest` (pytest loads those itself;
  importing them runs them twice).
- Small modules with one job each: no product file over `MAX_FILE_LINES` lines and no
  function over `MAX_FUNCTION_LINES` (its `def` line to its last), apart from the
  allow-lists below, each entry with its reason. An entry that has come within the limits
  fails too, so the lists only shrink.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PRODUCT = ("engine", "renderer", "storage", "bot", "puzzles", "localplay", "standin",
           "tournaments")
"""The packages held to the size limits (tests and benchmarks are not)."""

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80

LONG_FILES = {
    # Kept whole for speed: the move generator's inner loops share its locals, and a call
    # costs in CPython (benchmarks/movegen.py measures it).
    "engine/movegen_core.py",
}
"""Product files allowed over `MAX_FILE_LINES` (paths from the repository root)."""

LONG_FUNCTIONS = {
    # Inner loops of move generation, kept whole for speed: a function call costs in
    # CPython (benchmarks/movegen.py, benchmarks/perft.py measure them).
    ("engine/movegen_core.py", "Generator.solve_piece"),
    ("engine/movegen_core.py", "Generator.solve_piece.node"),
    ("engine/movegen_core.py", "Generator.solve_forward"),
    ("engine/movegen_core.py", "Generator._routes"),
    # The search's inner loops, kept whole for the same reason (benchmarks/strength.py
    # measures its speed).
    ("engine/search.py", "search"),
    ("engine/search.py", "_Searcher.node"),
}
"""Functions allowed over `MAX_FUNCTION_LINES`: (file, qualified name)."""


def _imported_modules(path: Path) -> set[str]:
    """Every absolute module name `path` imports, at any depth of its code."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _is_test_module(name: str) -> bool:
    last = name.rpartition(".")[2]
    return name.startswith("tests.") and (last.startswith("test_") or last == "conftest")


def test_no_test_module_imports_another_test_module_or_a_conftest() -> None:
    offenders = {
        f"{path.relative_to(TESTS)} imports {name}"
        for path in TESTS.rglob("*.py")
        for name in _imported_modules(path)
        if _is_test_module(name)
    }
    assert not offenders, sorted(offenders)


def test_the_check_sees_an_import_of_a_test_module(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from tests.bot.conftest import x\nimport tests.engine.test_game\n")
    assert {name for name in _imported_modules(probe) if _is_test_module(name)} == {
        "tests.bot.conftest", "tests.engine.test_game",
    }


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """Every function under `tree`, methods and nested functions included, as (qualified
    name, lines from its `def` to its last line)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = f"{prefix}{node.name}"
            if not isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                yield name, node.end_lineno - node.lineno + 1
            yield from _functions(node, f"{name}.")
        else:
            yield from _functions(node, prefix)


def _oversized(root: Path, packages: tuple[str, ...]) -> tuple[set[str], set[tuple[str, str]]]:
    """The files over `MAX_FILE_LINES` and the (file, function) over `MAX_FUNCTION_LINES`
    in `packages` under `root`, paths relative to `root`."""
    files: set[str] = set()
    functions: set[tuple[str, str]] = set()
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8")
            if len(text.splitlines()) > MAX_FILE_LINES:
                files.add(name)
            functions.update(
                (name, function)
                for function, lines in _functions(ast.parse(text))
                if lines > MAX_FUNCTION_LINES
            )
    return files, functions


def test_no_product_file_or_function_is_over_the_size_limits() -> None:
    files, functions = _oversized(ROOT, PRODUCT)
    assert not files - LONG_FILES, f"over {MAX_FILE_LINES} lines: {sorted(files - LONG_FILES)}"
    assert not functions - LONG_FUNCTIONS, (
        f"over {MAX_FUNCTION_LINES} lines: {sorted(functions - LONG_FUNCTIONS)}"
    )


def test_the_allow_lists_name_only_what_is_still_over_the_limits() -> None:
    files, functions = _oversized(ROOT, PRODUCT)
    assert not LONG_FILES - files, f"within the limits now: {sorted(LONG_FILES - files)}"
    assert not LONG_FUNCTIONS - functions, (
        f"within the limits now: {sorted(LONG_FUNCTIONS - functions)}"
    )


def _statements(indent: int, count: int) -> str:
    return "".join(f"{' ' * indent}x{i} = {i}\n" for i in range(count))


def test_the_size_check_sees_long_files_methods_and_nested_functions(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    # Each long function is its def line and MAX_FUNCTION_LINES statements: one too many.
    (package / "long.py").write_text(
        "class Box:\n    def method(self) -> None:\n"
        + _statements(8, MAX_FUNCTION_LINES)
        + "def outer() -> None:\n    def inner() -> None:\n"
        + _statements(8, MAX_FUNCTION_LINES)
        + "\n" * MAX_FILE_LINES
    )
    # Exactly at the limits: a function of MAX_FUNCTION_LINES lines in a short file.
    (package / "short.py").write_text(
        "def fits() -> None:\n" + _statements(4, MAX_FUNCTION_LINES - 1)
    )
    files, functions = _oversized(tmp_path, ("package",))
    assert files == {"package/long.py"}
    assert functions == {
        ("package/long.py", "Box.method"),
        ("package/long.py", "outer"),
        ("package/long.py", "outer.inner"),
    }
