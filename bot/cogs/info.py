"""Information commands: /rating, /leaderboard, /history, /export, /rules, /help. They
also work in direct messages (a leaderboard there is global)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.choices import DEFAULT_VARIANT, SCOPE_CHOICES, VARIANT_CHOICES
from bot.messages import Msg, text
from bot.messages import command_text as t
from bot.ui.answer import Answer
from bot.ui.info import help_embed, history_embed, leaderboard_embed, ratings_embed, rules_embed
from bot.ui.present import BOARD_FILE
from bot.ui.table import locale_of
from engine import get_variant

if TYPE_CHECKING:
    from bot.client import DamaBot

Interaction = discord.Interaction["DamaBot"]
anywhere = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)


class Info(commands.Cog):
    """Ratings, leaderboards, history, export, rules and help."""

    def __init__(self, bot: DamaBot) -> None:
        self.bot = bot

    async def _remember(self, user: discord.abc.User) -> None:
        await self.bot.stats.remember(user.id, user.display_name)

    @app_commands.command(name="rating", description=t("rating"))
    @anywhere
    @app_commands.describe(user=t("rating.user"), variant=t("rating.variant"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rating(self, interaction: Interaction, user: discord.User | None = None,
                     variant: str | None = None) -> None:
        who = user or interaction.user
        ratings = await self.bot.stats.ratings(who.id, variant)
        embed = ratings_embed(who.id, ratings, variant, locale_of(interaction))
        embed.title = text(Msg.RATING_TITLE, locale_of(interaction), user=who.display_name)
        await Answer.of(interaction).send(embed=embed)

    @app_commands.command(name="leaderboard", description=t("leaderboard"))
    @anywhere
    @app_commands.describe(variant=t("leaderboard.variant"), scope=t("leaderboard.scope"))
    @app_commands.choices(variant=VARIANT_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(self, interaction: Interaction, variant: str = DEFAULT_VARIANT,
                          scope: str = "server") -> None:
        await self._remember(interaction.user)
        guild_id = interaction.guild_id if scope == "server" else None
        board = await self.bot.stats.leaderboard(variant, interaction.user.id, guild_id=guild_id)
        await Answer.of(interaction).send(embed=leaderboard_embed(board, locale_of(interaction)))

    @app_commands.command(name="history", description=t("history"))
    @anywhere
    @app_commands.describe(user=t("history.user"))
    async def history(self, interaction: Interaction, user: discord.User | None = None) -> None:
        who = user or interaction.user
        games = await self.bot.stats.history(who.id)
        embed = history_embed(who.id, games, locale_of(interaction))
        embed.title = text(Msg.HISTORY_TITLE, locale_of(interaction), user=who.display_name)
        await Answer.of(interaction).send(embed=embed)

    @app_commands.command(name="export", description=t("export"))
    @anywhere
    @app_commands.describe(game=t("export.game"))
    async def export(self, interaction: Interaction,
                     game: app_commands.Range[int, 1] | None = None) -> None:
        pdn = await self.bot.stats.export(interaction.user.id, game_id=game,
                                          channel_id=interaction.channel_id,
                                          direct=interaction.guild_id is None)
        file = discord.File(io.BytesIO(pdn.text.encode("utf-8")), filename=pdn.filename)
        locale = locale_of(interaction)
        name = text(Msg.EXPORT_DONE, locale, game_id=pdn.game_id,
                    variant=get_variant(pdn.variant).name)
        if pdn.chosen is not None:
            name += " " + text(pdn.chosen, locale)
        if pdn.in_progress:
            name += "\n" + text(Msg.EXPORT_OTHERS, locale, count=len(pdn.in_progress),
                                 games=", ".join(f"#{i}" for i in pdn.in_progress))
        await Answer.of(interaction).send(name, file=file)

    @app_commands.command(name="rules", description=t("rules"))
    @anywhere
    @app_commands.describe(variant=t("rules.variant"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: Interaction, variant: str = DEFAULT_VARIANT) -> None:
        png = await self.bot.presenter.start_png(get_variant(variant))
        file = discord.File(io.BytesIO(png), filename=BOARD_FILE)
        await Answer.of(interaction).send(embed=rules_embed(variant, locale_of(interaction)),
                                          file=file)

    @app_commands.command(name="help", description=t("help"))
    @anywhere
    async def help(self, interaction: Interaction) -> None:
        embed = help_embed(self.bot.settings.inactivity_limit, locale_of(interaction))
        await Answer.of(interaction).send(embed=embed, ephemeral=interaction.guild_id is not None)


async def setup(bot: DamaBot) -> None:
    await bot.add_cog(Info(bot))


