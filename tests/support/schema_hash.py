"""The synced command schema's hash as the bot keeps it in its database (`bot/sync.py`,
`SCHEMA_HASH` among the bot's values), read and written from outside a running bot."""

from __future__ import annotations

from pathlib import Path

from bot.sync import SCHEMA_HASH
from storage import Storage


async def stored_schema_hash(path: Path) -> str | None:
    """The value stored for the schema hash in the SQLite database at `path` (a hash, a
    claim `syncing <hash> <ms>`, or None)."""
    async with await Storage.open(path) as storage:
        return (await storage.settings.bot_values()).get(SCHEMA_HASH)


async def store_schema_hash(path: Path, expected: str | None, value: str | None) -> None:
    """Replace the stored schema hash `expected` by `value` (None: none); fails the test
    when the stored value was not `expected`."""
    async with await Storage.open(path) as storage:
        assert await storage.settings.replace_bot_value(SCHEMA_HASH, expected, value)
