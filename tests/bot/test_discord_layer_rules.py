"""The Discord layer (`bot.client`, `bot.cogs`, `bot.ui`) never takes a channel's lock:
ordering is the services' job (docs/ARCHITECTURE.md, "Services and their events"). Read
with `ast`: no module of that layer touches a `locks` attribute (`ChannelLocks`). And no
cog reaches the database: a command calls one service method (docs/ARCHITECTURE.md,
"Where a change goes"), so no cog reads a `storage` attribute (`Services.storage`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
DISCORD_LAYER = sorted([BOT / "client.py", *(BOT / "cogs").glob("*.py"),
                        *(BOT / "ui").glob("*.py")])


COGS = sorted((BOT / "cogs").glob("*.py"))


def attribute_uses(source: str, name: str) -> list[int]:
    """The lines where `source` reads an attribute called `name`."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr == name]


def lock_uses(source: str) -> list[int]:
    """The lines where `source` reads an attribute named `locks`."""
    return attribute_uses(source, "locks")


def test_lock_uses_are_found() -> None:
    source = "async def board(games):\n    async with games.locks.hold(1):\n        pass\n"
    assert lock_uses(source) == [2]


@pytest.mark.parametrize("path", DISCORD_LAYER, ids=lambda p: p.name)
def test_the_discord_layer_takes_no_lock(path: Path) -> None:
    assert lock_uses(path.read_text(encoding="utf-8")) == [], path


def test_storage_uses_are_found() -> None:
    source = ("async def history(self, interaction):\n"
              "    games = await self.services.storage.games.recent(1)\n")
    assert attribute_uses(source, "storage") == [2]


@pytest.mark.parametrize("path", COGS, ids=lambda p: p.name)
def test_no_cog_reaches_the_database(path: Path) -> None:
    assert attribute_uses(path.read_text(encoding="utf-8"), "storage") == [], path
