"""Slash command of a game against the computer: /play."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.choices import COLOR_CHOICES, MOVE_TIME_CHOICES, VARIANT_CHOICES
from bot.config import MoveTime
from bot.messages import command_text as t
from bot.services.computer_games import DEFAULT_LEVEL
from bot.ui.table import person
from storage import ColorChoice

if TYPE_CHECKING:
    from bot.client import DamaBot

Interaction = discord.Interaction["DamaBot"]


class Computer(commands.Cog):
    """Games against the computer."""

    def __init__(self, bot: DamaBot) -> None:
        self.bot = bot

    @app_commands.command(name="play", description=t("play"))
    @app_commands.guild_only()
    @app_commands.describe(
        variant=t("play.variant"), level=t("play.level"), color=t("play.color"),
        move_time=t("play.move_time"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, color=COLOR_CHOICES,
                          move_time=MOVE_TIME_CHOICES)
    async def play(
        self,
        interaction: Interaction,
        variant: str,
        level: app_commands.Range[int, 1, 5] = DEFAULT_LEVEL,
        color: str = ColorChoice.RANDOM.value,
        move_time: str | None = None,
    ) -> None:
        bot = self.bot
        channel_id = bot.table.channel_of(interaction)
        await bot.computer_games.start(
            player=person(interaction.user), guild_id=interaction.guild_id,
            channel_id=channel_id, variant=variant, level=level, color=ColorChoice(color),
            move_time=bot.settings.default_move_time if move_time is None
            else MoveTime(move_time),
            announce=bot.table.announcer(interaction),
        )


async def setup(bot: DamaBot) -> None:
    await bot.add_cog(Computer(bot))
