"""The test tree's own rules (docs/ARCHITECTURE.md, "Packages"): tests mirror the packages,
and shared fakes and harnesses live in `tests/support`, so no test module imports another
test module or a `conftest` (pytest loads those itself; importing them runs them twice)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


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
