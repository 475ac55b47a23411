"""The import directions of DESIGN.md: each package imports only what its layer may.

Each package is imported in a fresh interpreter and the top-level names in `sys.modules`
are compared with what the package may import.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROJECT = {"engine", "renderer", "storage", "bot"}

# Third-party top-level modules each package may pull in (transitively), beyond the stdlib.
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "renderer": {"engine", "PIL"},
    "storage": {"aiosqlite"},
    "bot": {
        "engine", "renderer", "storage", "PIL", "aiosqlite", "discord", "dotenv", "aiohttp",
        "yarl", "multidict", "frozenlist", "aiosignal", "attr", "propcache", "aiohappyeyeballs",
        "idna", "typing_extensions", "_cffi_backend", "audioop", "audioop_lts", "nacl",
    },
}

PROBE = """
import json, sys
before = set(sys.modules)
import {package}
loaded = sorted({{name.split('.')[0] for name in set(sys.modules) - before}})
print(json.dumps({{"loaded": loaded, "stdlib": sorted(sys.stdlib_module_names)}}))
"""


def _loaded_by(package: str) -> tuple[set[str], set[str]]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(package=package)],
        capture_output=True, text=True, check=True,
    )
    data = json.loads(result.stdout)
    return set(data["loaded"]), set(data["stdlib"])


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_its_layer_may(package: str) -> None:
    loaded, stdlib = _loaded_by(package)
    foreign = {
        name for name in loaded
        if name != package and name not in stdlib and not name.startswith("_")
    }
    assert foreign <= ALLOWED[package], f"{package} imports {sorted(foreign - ALLOWED[package])}"
    # The project's own packages are checked by name, underscore or not.
    assert (loaded & PROJECT) - {package} <= ALLOWED[package]


def test_probe_sees_transitive_imports() -> None:
    """The probe itself works: a module imported by the probed one shows up as loaded."""
    loaded, _ = _loaded_by("xml.dom.minidom")
    assert {"xml", "copy"} <= loaded
