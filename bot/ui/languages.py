"""The two languages of one interaction, settled once as it arrives.

The reader's language (their choice, their client's locale, the server's choice...:
`bot.language.resolve`) is for what only they read or asked for: private answers,
errors, the information commands. The channel's language (`bot.language.for_channel`:
the server's choice, else its preferred locale, else English) is for what the game posts
for everyone: boards after a move, challenges, the computer's and the clock's notices.
Outside a server (a direct message, a group chat) there is no server to choose: what is
posted for everyone is in the language of whoever made the interaction, as the other
players there are their friends, not a server's members.
Both are kept in `interaction.extras` (discord.py's per-interaction storage), where
`bot.ui.reading.locale_of` and `channel_locale_of` read them.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from bot.language import for_channel, resolve

log = logging.getLogger(__name__)

READER = "dama.reader_language"
CHANNEL = "dama.channel_language"


class LanguageChoices(Protocol):
    """Where the stored choices come from (`bot.services.settings.PreferenceService`)."""

    async def player_language(self, user_id: int) -> str | None:
        """The language the user chose (`/settings language`), None for automatic."""
        ...

    async def guild_language(self, guild_id: int) -> str | None:
        """The language the server's admins chose, None for automatic."""
        ...


async def settle(interaction: discord.Interaction[Any], choices: LanguageChoices | None) -> None:
    """Resolve and keep the interaction's two languages. A failure to read the stored
    choices is logged and the interaction goes on without them (client and server
    locales still apply)."""
    chosen: str | None = None
    server: str | None = None
    if choices is not None:
        try:
            chosen = await choices.player_language(interaction.user.id)
            if interaction.guild_id is not None:
                server = await choices.guild_language(interaction.guild_id)
        except Exception:
            log.exception("reading the language choices of user %s in guild %s failed",
                          interaction.user.id, interaction.guild_id)
    guild_locale = str(interaction.guild_locale) if interaction.guild_locale else None
    reader = resolve(
        chosen=chosen, client_locale=str(interaction.locale), server_choice=server,
        guild_locale=guild_locale,
    ).value
    interaction.extras[READER] = reader
    interaction.extras[CHANNEL] = (
        reader if interaction.guild_id is None
        else for_channel(server_choice=server, guild_locale=guild_locale).value)


async def channel_language(
    client: discord.Client, choices: LanguageChoices | None, channel_id: int
) -> str:
    """The language of a post to `channel_id` that no interaction asked for (the computer's
    move, a time-out, a board owed after a restart): its server's choice, else the
    server's preferred locale, else English. A channel the client does not know (not
    cached), or a failure to read the choice, gives what is known."""
    channel = client.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    if not isinstance(guild, discord.Guild):
        return for_channel(server_choice=None, guild_locale=None).value
    server: str | None = None
    if choices is not None:
        try:
            server = await choices.guild_language(guild.id)
        except Exception:
            log.exception("reading the language of guild %s failed", guild.id)
    return for_channel(server_choice=server, guild_locale=str(guild.preferred_locale)).value


async def guild_language(
    client: discord.Client, choices: LanguageChoices | None, guild_id: int
) -> str:
    """The language of a post to a server that no interaction asked for, by the server's
    id (the daily puzzle): its choice, else its preferred locale (when the client has the
    server cached), else English. A failure to read the choice gives what is known."""
    server: str | None = None
    if choices is not None:
        try:
            server = await choices.guild_language(guild_id)
        except Exception:
            log.exception("reading the language of guild %s failed", guild_id)
    guild = client.get_guild(guild_id)
    locale = str(guild.preferred_locale) if guild is not None else None
    return for_channel(server_choice=server, guild_locale=locale).value
