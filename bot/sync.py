"""Registering the slash commands with Discord, only when needed, by one process.

With a development guild, the commands are copied to that guild and synced there at every
start (guild commands update instantly). Otherwise they are synced globally, and only when
their schema (names, descriptions, options, choices, contexts, and the localizations of
names, descriptions and choices) differs from what was last synced: a SHA-256 of the
schema is kept in the database, among the bot's own values (`SettingsRepository.
bot_values`, on SQLite and PostgreSQL alike), so a restart, another process or another
machine on the same database knows what Discord has.

`CommandTree.sync` replaces the application's whole global command list with one request
(discord.py: `bulk_upsert_global_commands`, Discord's "Bulk Overwrite Global Application
Commands"); a command it creates counts against Discord's daily limit on creations. Only
the process holding shard 0 calls `sync_commands` (`bot.client`), and even two such
processes (a replacement started before the old one stopped) sync once: the first to
replace the stored value by a claim (`syncing <hash> <ms>`, compare and set in the
database) syncs and then stores the hash; the other waits until the hash is stored and
syncs nothing. A failed sync puts the previous value back; a claim older than
`CLAIM_SECONDS` (its process died while syncing) is taken over, and so is a claim for
another schema (another version of the bot: each version registers its own commands).
The other processes never sync: they answer the commands from their own command tree,
which needs nothing from Discord.

Every process then learns the ids Discord gave the commands (`learn_command_ids`: one
request listing them), with which the texts mention commands (`bot.messages.mentions`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.messages.mentions import CommandIds
from storage import SettingsRepository
from storage.clock import Clock, to_ms, utc_now

log = logging.getLogger(__name__)

SCHEMA_HASH = "command_schema_sha256"
"""The name of the bot's own value holding the hash last synced (or a claim)."""

CLAIM_SECONDS = 120.0
"""How long a claim holds before another process may take it over: far beyond one sync
(a few seconds, discord.py waiting out a rate limit included)."""

POLL_SECONDS = 0.5
"""How often a process waiting for another's claim looks at the stored value again."""

_CLAIM = "syncing"


@dataclass(frozen=True)
class Claim:
    """A process's claim to sync the schema of `digest`, made at `since_ms`."""

    digest: str
    since_ms: int

    def text(self) -> str:
        return f"{_CLAIM} {self.digest} {self.since_ms}"

    @staticmethod
    def parse(stored: str | None) -> Claim | None:
        """The claim a stored value holds (None: a hash, or nothing)."""
        parts = (stored or "").split()
        if len(parts) != 3 or parts[0] != _CLAIM or not parts[2].isdigit():
            return None
        return Claim(parts[1], int(parts[2]))


def command_ids(commands: Sequence[app_commands.AppCommand]) -> CommandIds:
    """The ids of the chat-input (slash) commands among `commands`, by name."""
    return CommandIds.of({command.name: command.id for command in commands
                          if command.type is discord.AppCommandType.chat_input})


async def learn_command_ids(
    tree: app_commands.CommandTree[Any], *, dev_guild: int | None
) -> CommandIds:
    """The ids of the commands Discord has registered for the application: the development
    guild's commands with `dev_guild`, else the global ones (one request, discord.py's
    `CommandTree.fetch_commands`). A command keeps its id while its name stays, so ids
    learned before a sync that keeps the names stay right. Raises `discord.HTTPException`
    when Discord does not answer the list."""
    guild = None if dev_guild is None else discord.Object(id=dev_guild)
    return command_ids(await tree.fetch_commands(guild=guild))


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


async def sync_commands(
    tree: app_commands.CommandTree[Any],
    *,
    application_id: int | None,
    dev_guild: int | None,
    values: SettingsRepository,
    clock: Clock = utc_now,
    patience: float = CLAIM_SECONDS,
) -> str:
    """Sync as described above; returns "guild", "global", "unchanged" (nothing to sync,
    or another process synced this schema) or "waiting" (another process's claim on this
    schema still held after `patience` seconds of waiting: call again later, a claim
    older than `CLAIM_SECONDS` is taken over). Raises what `CommandTree.sync` raises (the
    stored value is then as before) and `storage.StorageError` when the database cannot
    be read or written."""
    if dev_guild is not None:
        guild = discord.Object(id=dev_guild)
        tree.copy_global_to(guild=guild)
        synced = await tree.sync(guild=guild)
        log.info("synced %d commands to development guild %s", len(synced), dev_guild)
        return "guild"
    digest = schema_hash(await command_schema(tree), application_id)
    claim_ms = CLAIM_SECONDS * 1000
    for _ in range(int(patience / POLL_SECONDS) + 1):
        stored = (await values.bot_values()).get(SCHEMA_HASH)
        if stored == digest:
            log.info("commands unchanged since the last global sync; not syncing")
            return "unchanged"
        now = to_ms(clock())
        other = Claim.parse(stored)
        if other is not None and other.digest == digest and now - other.since_ms < claim_ms:
            await asyncio.sleep(POLL_SECONDS)  # another process is syncing these commands
            continue
        mine = Claim(digest, now).text()
        if await values.replace_bot_value(SCHEMA_HASH, stored, mine):
            break
    else:
        log.info("another process claimed the command sync and has not finished it after "
                 "%.0f s of waiting", patience)
        return "waiting"
    try:
        synced = await tree.sync()
    except BaseException:
        with contextlib.suppress(Exception):
            await values.replace_bot_value(SCHEMA_HASH, mine, stored)
        raise
    log.info("synced %d global commands", len(synced))
    if not await values.replace_bot_value(SCHEMA_HASH, mine, digest):
        log.warning("another process took over the command sync claim while this one "
                    "synced; it will store its own hash")
    return "global"
