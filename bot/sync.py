"""Registering the slash commands with Discord, only when needed.

With a development guild, the commands are copied to that guild and synced there at every
start (guild commands update instantly). Otherwise they are synced globally, and only when
their schema (names, descriptions, options, choices, contexts, and the localizations of
names, descriptions and choices) differs from what was last
synced: a SHA-256 of the schema is kept in a file beside the database.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from storage import is_postgresql

log = logging.getLogger(__name__)


async def command_schema(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The global commands as Discord receives them (JSON-ready), sorted by name: with the
    tree's translator, their name, description and choice localizations too (the payload
    `CommandTree.sync` sends), so a changed translation changes the hash."""
    translator = tree.translator
    if translator is None:
        commands = [command.to_dict(tree) for command in tree.get_commands()]
    else:
        commands = [await command.get_translated_payload(tree, translator)
                    for command in tree.get_commands()]
    return sorted(commands, key=lambda c: str(c["name"]))


def schema_hash(schema: list[dict[str, Any]], application_id: int | None) -> str:
    """SHA-256 (hex) of the schema and the application it is registered for."""
    blob = json.dumps({"application": application_id, "commands": schema}, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def hash_file_for(database: str) -> Path | None:
    """Where the last synced schema hash is kept: beside the database file (None for an
    in-memory database or a PostgreSQL URL: always sync)."""
    if database == ":memory:" or is_postgresql(database):
        return None
    path = Path(database)
    return path.with_name(path.name + ".commands.sha256")


async def sync_commands(
    tree: app_commands.CommandTree[Any],
    *,
    application_id: int | None,
    dev_guild: int | None,
    hash_file: Path | None,
) -> str:
    """Sync as described above; returns "guild", "global" or "unchanged"."""
    if dev_guild is not None:
        guild = discord.Object(id=dev_guild)
        tree.copy_global_to(guild=guild)
        synced = await tree.sync(guild=guild)
        log.info("synced %d commands to development guild %s", len(synced), dev_guild)
        return "guild"
    digest = schema_hash(await command_schema(tree), application_id)
    if hash_file is not None and hash_file.is_file() and hash_file.read_text().strip() == digest:
        log.info("commands unchanged since the last global sync; not syncing")
        return "unchanged"
    synced = await tree.sync()
    log.info("synced %d global commands", len(synced))
    if hash_file is not None:
        hash_file.parent.mkdir(parents=True, exist_ok=True)
        hash_file.write_text(digest + "\n")
    return "global"
