"""The import directions of docs/ARCHITECTURE.md: each package imports only what its layer
may, when it is imported.

- `engine` imports nothing outside the standard library; `renderer` the engine and Pillow;
  `storage` aiosqlite and asyncpg.
- `bot.ratings` and `bot.services` import nothing of Discord (discord.py or its HTTP stack),
  nor the renderer or the settings loader (services: engine, storage and its drivers, and
  Babel through the message catalog `bot.messages`):
  the game flow runs, and is tested, on plain values.
- `bot.web`, the web face, imports nothing of Discord (discord.py, its voice stack): it
  serves pages with aiohttp and Jinja2 from the same services and storage.
- `bot`, every module of it and its entry point `bot.__main__` included, imports neither
  `standin` nor `localplay`: the bot runs where those development tools are not installed.
- `standin` (the Discord stand-in) imports nothing of the project: only aiohttp and the
  standard library.
- `localplay` may import everything except the bot's services (it starts the stand-in and
  runs the real bot as a process, reads the bot's database through `storage` and replays
  games with the engine), and nothing imports it.

Each package is imported in a fresh interpreter, with every module under it (the modules
named `__main__` only where listed), and the top-level names in `sys.modules` afterwards
are compared with what the package may import.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROJECT = {"engine", "renderer", "storage", "bot", "standin", "localplay", "puzzles",
           "tournaments"}

AIOHTTP = {
    "aiohttp", "yarl", "multidict", "frozenlist", "aiosignal", "attr", "propcache",
    "aiohappyeyeballs", "idna", "typing_extensions", "cython_runtime",
}
"""aiohttp and what it pulls in (`cython_runtime`: its compiled modules' runtime)."""

DISCORD = {"discord", "_cffi_backend", "audioop", "audioop_lts", "nacl"} | AIOHTTP
"""discord.py and what it pulls in."""

DISCORD_TOP_LEVEL = {"discord", "aiohttp", "nacl"}
"""The names that mean "Discord code": the library and its HTTP and voice stacks."""

# What each package may pull in (transitively) beyond the standard library; None: anything.
# asyncpg, PostgreSQL's driver; its compiled (Cython) modules load `cython_runtime`.
ASYNCPG = {"asyncpg", "cython_runtime"}

ALLOWED: dict[str, set[str] | None] = {
    "engine": set(),
    "puzzles": {"engine"},
    # caissify_pairings pairs Swiss rounds; it loads networkx (pure Python) when a round is paired
    "tournaments": {"caissify_pairings", "networkx"},
    "renderer": {"engine", "PIL"},
    "storage": {"aiosqlite"} | ASYNCPG,
    "bot.ratings": {"bot", "storage", "aiosqlite"} | ASYNCPG,
    "bot.services": {"bot", "engine", "storage", "aiosqlite", "babel", "puzzles",
                     "tournaments", "caissify_pairings"} | ASYNCPG,
    "bot": {"bot", "engine", "puzzles", "renderer", "storage", "PIL", "aiosqlite", "dotenv",
            "babel", "tournaments", "caissify_pairings", "jinja2", "markupsafe"}
    | ASYNCPG
    | DISCORD,
    "bot.web": {"bot", "engine", "puzzles", "renderer", "storage", "PIL", "aiosqlite",
                "dotenv", "babel", "jinja2", "markupsafe", "tournaments",
                "caissify_pairings"} | ASYNCPG | AIOHTTP,
    "standin": AIOHTTP,
    "localplay": None,
}

ENTRY_POINTS = {"bot": ["bot.__main__"]}
"""`__main__` modules imported with their package (the others run their command when
imported)."""

PROBE = """
import importlib, json, pkgutil, sys
before = set(sys.modules)
package = importlib.import_module({package!r})
modules = [package.__name__]
path = getattr(package, "__path__", [])  # empty for a module
for info in pkgutil.walk_packages(path, package.__name__ + "."):
    if info.name.rpartition(".")[2] != "__main__":
        importlib.import_module(info.name)
        modules.append(info.name)
for name in {entry_points!r}:
    importlib.import_module(name)
    modules.append(name)
new = set(sys.modules) - before
loaded = sorted({{name.split('.')[0] for name in new}})
print(json.dumps({{"loaded": loaded, "modules": modules, "every_loaded": sorted(new),
                   "stdlib": sorted(sys.stdlib_module_names)}}))
"""


def _probe(package: str) -> dict[str, list[str]]:
    """The probe's findings for `package`, run in a fresh interpreter."""
    code = PROBE.format(package=package, entry_points=ENTRY_POINTS.get(package, []))
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
    )
    data: dict[str, list[str]] = json.loads(result.stdout)
    return data


def _loaded_by(package: str) -> tuple[set[str], list[str], set[str]]:
    """The top-level modules loaded by importing `package` and every module under it, the
    modules imported, and the standard library's names."""
    data = _probe(package)
    return set(data["loaded"]), data["modules"], set(data["stdlib"])


def _foreign(package: str) -> set[str]:
    """What importing `package` loads beyond the standard library and itself."""
    loaded, _, stdlib = _loaded_by(package)
    # The project's own packages are checked by name, underscore or not.
    return {
        name for name in loaded
        if name != package
        and (name in PROJECT or (name not in stdlib and not name.startswith("_")))
    }


@pytest.mark.parametrize("package", sorted(p for p, rule in ALLOWED.items() if rule is not None))
def test_package_imports_only_what_its_layer_may(package: str) -> None:
    allowed = ALLOWED[package]
    assert allowed is not None
    foreign = _foreign(package)
    assert foreign <= allowed, f"{package} imports {sorted(foreign - allowed)}"


@pytest.mark.parametrize("package", ["bot.ratings", "bot.services"])
def test_game_logic_imports_nothing_of_discord(package: str) -> None:
    assert not _foreign(package) & DISCORD_TOP_LEVEL


def test_the_web_face_imports_nothing_of_discord() -> None:
    """The web face is a second face beside the Discord layer: aiohttp, never discord."""
    assert not _foreign("bot.web") & (DISCORD_TOP_LEVEL - {"aiohttp"})


@pytest.mark.parametrize(
    "package", ["engine", "renderer", "storage", "puzzles", "tournaments", "bot"])
def test_the_product_imports_no_development_tool(package: str) -> None:
    assert not _foreign(package) & {"standin", "localplay"}


def test_the_standin_imports_nothing_of_the_project() -> None:
    assert not _foreign("standin") & (PROJECT - {"standin"})


def test_local_play_imports_none_of_the_bot_s_services() -> None:
    """Local play uses the product only through its process, storage and the engine."""
    loaded = _probe("localplay")["every_loaded"]
    assert "localplay.session" in loaded  # the probe saw local play's modules
    services = [n for n in loaded if n == "bot.services" or n.startswith("bot.services.")]
    assert services == []


def test_probe_imports_every_module_and_the_entry_point() -> None:
    """The probe walks the package: `bot.__main__`, a module `bot/__init__.py` does not
    import (`bot.app`) and a subpackage's module are among those imported."""
    _, modules, _ = _loaded_by("bot")
    assert {"bot.__main__", "bot.app", "bot.services.games"} <= set(modules)


def test_probe_sees_transitive_imports() -> None:
    """The probe itself works: a module imported by the probed one shows up as loaded."""
    loaded, _, _ = _loaded_by("xml.dom.minidom")
    assert {"xml", "copy"} <= loaded
