"""Slash commands of a game: /challenge, /move, /board, /resign, /draw, /abort."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.choices import COLOR_CHOICES, MOVE_TIME_CHOICES, VARIANT_CHOICES
from bot.config import MoveTime
from bot.messages import command_text as t
from storage import ColorChoice

if TYPE_CHECKING:
    from bot.client import DamaBot

Interaction = discord.Interaction["DamaBot"]


class Play(commands.Cog):
    """Challenges and moves."""

    def __init__(self, bot: DamaBot) -> None:
        self.bot = bot

    @app_commands.command(name="challenge", description=t("challenge"))
    @app_commands.guild_only()
    @app_commands.describe(
        opponent=t("challenge.opponent"), variant=t("challenge.variant"),
        rated=t("challenge.rated"), color=t("challenge.color"),
        move_time=t("challenge.move_time"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, color=COLOR_CHOICES,
                          move_time=MOVE_TIME_CHOICES)
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.User,
        variant: str,
        rated: bool | None = None,
        color: str = ColorChoice.RANDOM.value,
        move_time: str | None = None,
    ) -> None:
        settings = self.bot.settings
        await self.bot.table.challenge(
            interaction, opponent, variant,
            rated=settings.default_rated if rated is None else rated,
            color=ColorChoice(color),
            move_time=settings.default_move_time if move_time is None else MoveTime(move_time),
        )

    @app_commands.command(name="move", description=t("move"))
    @app_commands.guild_only()
    @app_commands.describe(move=t("move.move"))
    async def move(self, interaction: Interaction, move: str) -> None:
        await self.bot.table.move(interaction, move)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        # discord.py only logs an autocomplete's exception and never answers it (the
        # player would see "Loading options failed"): answer with no choices instead.
        try:
            return await self.bot.table.suggestions(interaction, current)
        except Exception as error:
            self.bot.table.autocomplete_failed(interaction, error)
            return []

    @app_commands.command(name="board", description=t("board"))
    @app_commands.guild_only()
    async def board(self, interaction: Interaction) -> None:
        await self.bot.table.board(interaction)

    @app_commands.command(name="resign", description=t("resign"))
    @app_commands.guild_only()
    async def resign(self, interaction: Interaction) -> None:
        await self.bot.table.resign(interaction)

    @app_commands.command(name="draw", description=t("draw"))
    @app_commands.guild_only()
    async def draw(self, interaction: Interaction) -> None:
        await self.bot.table.draw(interaction)

    @app_commands.command(name="abort", description=t("abort"))
    @app_commands.guild_only()
    async def abort(self, interaction: Interaction) -> None:
        await self.bot.table.abort(interaction)


async def setup(bot: DamaBot) -> None:
    await bot.add_cog(Play(bot))
