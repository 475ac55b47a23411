"""Where each slash command can be used: the install kinds it is offered for and the
contexts Discord shows it in, set explicitly on every command (Discord's defaults leave
some out). The decision for each command is the table of docs/PLAYING.md, "Where the
commands work".

- `anywhere`: installed to a server or to a user's account, and usable in servers, the
  bot's direct messages and private channels (DMs and group DMs between users).
- `servers_only`: installed to a server, usable in servers only (what configures or
  belongs to a server: its settings, its daily puzzle, its tournaments).
"""

from __future__ import annotations

from typing import TypeVar

from discord import app_commands

T = TypeVar("T")

SERVER_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=False,
                                                 private_channel=False)
"""A server only (a group's `allowed_contexts`, which takes a value, not a decorator)."""
SERVER_INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
"""Installed to a server only (a group's `allowed_installs`)."""


def anywhere(command: T) -> T:
    """Offer `command` (a command or its callback) for both install kinds in every
    context: servers, the bot's DMs and private channels. Returns `command`."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def servers_only(command: T) -> T:
    """Offer `command` (a command or its callback) in servers that installed the bot,
    and nowhere else. Returns `command`."""
    command = app_commands.allowed_installs(guilds=True, users=False)(command)
    return app_commands.allowed_contexts(guilds=True, dms=False,
                                         private_channels=False)(command)
