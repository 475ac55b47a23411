"""Preferences: `/settings` (the caller's own: board side, Italian notation) and
`/server-settings` (a server's defaults: the limits on pending challenges; shown in the
command list only to members with Manage Server, and checked again here, since a client
can send any interaction). Called without options, each shows the current values.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

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
from bot.ui.present import EMBED_COLOUR
from bot.ui.reading import locale_of

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

Limit = app_commands.Range[int, 1, MAX_CHALLENGE_LIMIT]


def settings_embed(settings: PlayerSettings, locale: str | None,
                   saved: bool = False) -> discord.Embed:
    """The caller's preferences as an embed (`saved`: after a change)."""
    body = text(Msg.SETTINGS_BODY, locale, side=text(_SIDE_WORDS[settings.board_side], locale),
                notation=text(_NOTATION_WORDS[settings.notation], locale))
    if saved:
        body = text(Msg.SETTINGS_SAVED, locale) + "\n" + body
    return discord.Embed(title=text(Msg.SETTINGS_TITLE, locale), description=body,
                         colour=EMBED_COLOUR)


def server_settings_embed(settings: GuildSettings, defaults: GuildSettings,
                          locale: str | None, saved: bool = False) -> discord.Embed:
    """A server's defaults as an embed, beside the environment's."""
    body = text(Msg.SERVER_SETTINGS_BODY, locale,
                per_challenger=settings.limits.per_challenger,
                default_challenger=defaults.limits.per_challenger,
                per_opponent=settings.limits.per_opponent,
                default_opponent=defaults.limits.per_opponent)
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
                           notation=t("settings.notation"))
    @app_commands.choices(board_side=SIDE_CHOICES, notation=NOTATION_CHOICES)
    async def player_settings(self, interaction: Interaction, board_side: str | None = None,
                              notation: str | None = None) -> None:
        changing = board_side is not None or notation is not None
        settings = await self.settings.update_player(
            interaction.user.id,
            board_side=None if board_side is None else BoardSide(board_side),
            notation=None if notation is None else Notation(notation),
        )
        await Answer.of(interaction).send(
            embed=settings_embed(settings, locale_of(interaction), saved=changing),
            ephemeral=True,
        )

    @app_commands.command(name="server-settings", description=t("server-settings"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(per_challenger=t("server-settings.per_challenger"),
                           per_opponent=t("server-settings.per_opponent"))
    async def server_settings(self, interaction: Interaction,
                              per_challenger: Limit | None = None,
                              per_opponent: Limit | None = None) -> None:
        guild_id = interaction.guild_id
        # default_permissions only hides the command; an admin may grant it to others in
        # the server's integration settings, and a client can send it anyway.
        if guild_id is None or not interaction.permissions.manage_guild:
            raise PlayerError(Msg.SETTINGS_ADMIN_ONLY)
        changing = per_challenger is not None or per_opponent is not None
        settings = await self.settings.update_guild(
            guild_id, per_challenger=per_challenger, per_opponent=per_opponent
        )
        defaults = await self.settings.guild(None)
        await Answer.of(interaction).send(
            embed=server_settings_embed(settings, defaults, locale_of(interaction),
                                        saved=changing),
            ephemeral=True,
        )
