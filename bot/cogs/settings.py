"""Preferences: `/settings` (the caller's own: board side, Italian notation, language) and
`/server-settings` (a server's defaults: the limits on pending challenges, the language;
shown in the
command list only to members with Manage Server, and checked again here, since a client
can send any interaction). Called without options, each shows the current values.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.language import AUTO, Language, from_locale
from bot.messages import Msg, text
from bot.messages import command_text as t
from bot.services import PlayerError
from bot.services.settings import (
    MAX_CHALLENGE_LIMIT,
    BoardSide,
    GuildSettings,
    Notation,
    PlayerSettings,
    SettingsService,
)
from bot.ui.answer import Answer
from bot.ui.languages import settle
from bot.ui.present import EMBED_COLOUR
from bot.ui.reading import channel_locale_of, locale_of

Interaction = discord.Interaction[Any]
anywhere = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)

SIDE_CHOICES = [
    app_commands.Choice(name=t(f"choice.{side.value}"), value=side.value) for side in BoardSide
]
NOTATION_CHOICES = [
    app_commands.Choice(name=t(f"choice.{notation.value}"), value=notation.value)
    for notation in Notation
]
_SIDE_WORDS = {BoardSide.AUTO: Msg.SIDE_AUTO, BoardSide.WHITE: Msg.COLOR_WHITE,
               BoardSide.BLACK: Msg.COLOR_BLACK}
_NOTATION_WORDS = {Notation.NUMERIC: Msg.NOTATION_NUMERIC,
                   Notation.ALGEBRAIC: Msg.NOTATION_ALGEBRAIC}

LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=t(f"choice.{language.value}"), value=language.value)
      for language in Language),
    app_commands.Choice(name=t("choice.language_auto"), value=AUTO),
]
"""The `language` option: each catalog's language by its own name, and automatic."""

Limit = app_commands.Range[int, 1, MAX_CHALLENGE_LIMIT]


def language_line(key: Msg, chosen: str | None, shown: str, locale: str | None) -> str:
    """The language line of a settings embed: the chosen language's own name, or
    automatic with the language it gives now (`shown`)."""
    now = from_locale(shown) or Language.ENGLISH
    name = Language.of(chosen).endonym if chosen else text(
        Msg.LANGUAGE_AUTOMATIC, locale, language=now.endonym)
    return text(key, locale, language=name)


def settings_embed(settings: PlayerSettings, locale: str,
                   saved: bool = False) -> discord.Embed:
    """The caller's preferences as an embed (`saved`: after a change), in `locale`, the
    language they read now."""
    body = text(Msg.SETTINGS_BODY, locale, side=text(_SIDE_WORDS[settings.board_side], locale),
                notation=text(_NOTATION_WORDS[settings.notation], locale))
    body += "\n" + language_line(Msg.SETTINGS_LANGUAGE, settings.language, locale, locale)
    if saved:
        body = text(Msg.SETTINGS_SAVED, locale) + "\n" + body
    return discord.Embed(title=text(Msg.SETTINGS_TITLE, locale), description=body,
                         colour=EMBED_COLOUR)


def server_settings_embed(settings: GuildSettings, defaults: GuildSettings,
                          locale: str | None, saved: bool = False,
                          channel_language: str = "en") -> discord.Embed:
    """A server's defaults as an embed, beside the environment's; `channel_language`: the
    language its channel posts get now."""
    body = text(Msg.SERVER_SETTINGS_BODY, locale,
                per_challenger=settings.limits.per_challenger,
                default_challenger=defaults.limits.per_challenger,
                per_opponent=settings.limits.per_opponent,
                default_opponent=defaults.limits.per_opponent)
    body += "\n" + language_line(Msg.SERVER_SETTINGS_LANGUAGE, settings.language,
                                 channel_language, locale)
    if saved:
        body = text(Msg.SETTINGS_SAVED, locale) + "\n" + body
    return discord.Embed(title=text(Msg.SERVER_SETTINGS_TITLE, locale), description=body,
                         colour=EMBED_COLOUR)


class Settings(commands.Cog):
    """`/settings` and `/server-settings`."""

    def __init__(self, *, settings: SettingsService) -> None:
        self.settings = settings

    @app_commands.command(name="settings", description=t("settings"))
    @anywhere
    @app_commands.describe(board_side=t("settings.board_side"),
                           notation=t("settings.notation"), language=t("settings.language"))
    @app_commands.choices(board_side=SIDE_CHOICES, notation=NOTATION_CHOICES,
                          language=LANGUAGE_CHOICES)
    async def player_settings(self, interaction: Interaction, board_side: str | None = None,
                              notation: str | None = None,
                              language: str | None = None) -> None:
        changing = board_side is not None or notation is not None or language is not None
        settings = await self.settings.update_player(
            interaction.user.id,
            board_side=None if board_side is None else BoardSide(board_side),
            notation=None if notation is None else Notation(notation),
            language=language,
        )
        content = None
        if language is not None:
            # Answered in the language just chosen (or the one automatic gives now).
            await settle(interaction, self.settings)
            content = text(Msg.LANGUAGE_AUTO if language == AUTO else Msg.LANGUAGE_SET,
                           locale_of(interaction))
        await Answer.of(interaction).send(
            content,
            embed=settings_embed(settings, locale_of(interaction), saved=changing),
            ephemeral=True,
        )

    @app_commands.command(name="server-settings", description=t("server-settings"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(per_challenger=t("server-settings.per_challenger"),
                           per_opponent=t("server-settings.per_opponent"),
                           language=t("server-settings.language"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def server_settings(self, interaction: Interaction,
                              per_challenger: Limit | None = None,
                              per_opponent: Limit | None = None,
                              language: str | None = None) -> None:
        guild_id = interaction.guild_id
        # default_permissions only hides the command; an admin may grant it to others in
        # the server's integration settings, and a client can send it anyway.
        if guild_id is None or not interaction.permissions.manage_guild:
            raise PlayerError(Msg.SETTINGS_ADMIN_ONLY)
        changing = per_challenger is not None or per_opponent is not None or language is not None
        settings = await self.settings.update_guild(
            guild_id, per_challenger=per_challenger, per_opponent=per_opponent,
            language=language,
        )
        defaults = await self.settings.guild(None)
        content = None
        if language is not None:
            await settle(interaction, self.settings)
            # The change announced in the server's new language; automatic: the admin's.
            content = (text(Msg.SERVER_LANGUAGE_AUTO, locale_of(interaction)) if language == AUTO
                       else text(Msg.SERVER_LANGUAGE_SET, language))
        await Answer.of(interaction).send(
            content,
            embed=server_settings_embed(settings, defaults, locale_of(interaction),
                                        saved=changing,
                                        channel_language=channel_locale_of(interaction)),
            ephemeral=True,
        )
