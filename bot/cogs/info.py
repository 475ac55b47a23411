"""Information commands: /rating, /leaderboard, /history, /games, /export, /rules, /help.
They also work in direct messages (a leaderboard there is global). Each reads the
interaction, calls one `StatsService` method, and answers with what `bot.ui.info` builds
from the message catalog (`/export format:GIF`: what `bot.ui.replay` draws)."""

from __future__ import annotations

import enum
from typing import Any, assert_never

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.choices import DEFAULT_VARIANT, SCOPE_CHOICES, VARIANT_CHOICES
from bot.cogs.installs import anywhere
from bot.config import Config
from bot.messages import Msg
from bot.messages import command_text as t
from bot.services import StatsService
from bot.services.settings import PreferenceService
from bot.services.web_access import WebLinks
from bot.ui.answer import Answer
from bot.ui.games_list import games_embed
from bot.ui.info import (
    export_message,
    help_embed,
    history_embed,
    leaderboard_embed,
    ratings_embed,
    rules_embed,
)
from bot.ui.present import Presenter
from bot.ui.reading import locale_of, requester_of
from bot.ui.replay import replay_file, replay_text, replay_view
from bot.ui.web_links import (
    game_page,
    game_page_button,
    leaderboard_page,
    link_view,
    player_page,
)
from engine import get_variant

Interaction = discord.Interaction[Any]


class ExportFormat(enum.Enum):
    """What `/export` gives: the value is its `format` option's choice value."""

    PDN = "pdn"
    """The game's record as a PDN file (`StatsService.export`)."""
    GIF = "gif"
    """The game as an animated picture, move by move (`bot.ui.replay`)."""


FORMAT_CHOICES = [app_commands.Choice(name=t(f"choice.{f.value}"), value=f.value)
                  for f in ExportFormat]


class Info(commands.Cog):
    """Ratings, leaderboards, history, export, rules and help."""

    def __init__(self, *, stats: StatsService, presenter: Presenter, settings: Config,
                 preferences: PreferenceService | None = None,
                 links: WebLinks | None = None) -> None:
        self.stats = stats
        self.presenter = presenter
        self.settings = settings
        self.preferences = preferences
        """Each reader's board side and notation, for `/export format:GIF` (None: the
        defaults)."""
        self.links = links
        """The web face's links: `/history` and `/export` link to the game's page,
        `/rating` to the player's, `/leaderboard` (server scope) to the server's
        leaderboard page (None: no web face)."""

    async def _page_button(self, game_id: int, guild_id: int | None,
                           locale: str | None) -> discord.ui.View | None:
        """A view holding the "Game page" link button of the game, None when it has no
        page (`bot.ui.web_links`)."""
        url = await game_page(self.links, game_id, guild_id)
        if url is None:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(game_page_button(url, locale))
        return view

    @app_commands.command(name="rating", description=t("rating"))
    @anywhere
    @app_commands.describe(user=t("rating.user"), variant=t("rating.variant"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rating(self, interaction: Interaction, user: discord.User | None = None,
                     variant: str | None = None) -> None:
        who = user or interaction.user
        ratings = await self.stats.ratings(who.id, variant)
        locale = locale_of(interaction)
        known = self.links is not None and await self.stats.known(who.id)
        url = player_page(self.links, who.id) if known else None
        view = link_view(url, Msg.BUTTON_PLAYER_PAGE, locale)
        await Answer.of(interaction).send(embed=ratings_embed(
            who.id, ratings, variant, locale, name=who.display_name), view=view)

    @app_commands.command(name="leaderboard", description=t("leaderboard"))
    @anywhere
    @app_commands.describe(variant=t("leaderboard.variant"), scope=t("leaderboard.scope"))
    @app_commands.choices(variant=VARIANT_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(self, interaction: Interaction, variant: str = DEFAULT_VARIANT,
                          scope: str = "server") -> None:
        caller, locale = interaction.user, locale_of(interaction)
        guild_id = interaction.guild_id if scope == "server" else None
        board = await self.stats.leaderboard(variant, caller.id, name=caller.display_name,
                                             guild_id=guild_id)
        url = None if guild_id is None else await leaderboard_page(self.links, guild_id, variant)
        await Answer.of(interaction).send(embed=leaderboard_embed(board, locale),
                                          view=link_view(url, Msg.BUTTON_LEADERBOARD_PAGE, locale))

    @app_commands.command(name="history", description=t("history"))
    @anywhere
    @app_commands.describe(user=t("history.user"))
    async def history(self, interaction: Interaction, user: discord.User | None = None) -> None:
        who = user or interaction.user
        history = await self.stats.game_history(who.id, requester_of(interaction))
        locale = locale_of(interaction)
        newest = history.games[0] if history.games else None
        view = (None if newest is None
                else await self._page_button(newest.id, newest.guild_id, locale))
        await Answer.of(interaction).send(embed=history_embed(
            who.id, history.games, locale, name=who.display_name,
            hidden=history.hidden), view=view)

    @app_commands.command(name="games", description=t("games"))
    @anywhere
    async def games(self, interaction: Interaction) -> None:
        """The caller's games under way everywhere (`StatsService.games_under_way`),
        answered to the caller alone: it lists games of other servers and direct
        messages. A server is named when the bot is in it (discord.py's cache)."""
        listing = await self.stats.games_under_way(interaction.user.id)
        names = {}
        for game in listing.games:
            if game.guild_id is not None:
                guild = interaction.client.get_guild(game.guild_id)
                if guild is not None:
                    names[game.guild_id] = guild.name
        await Answer.of(interaction).send(
            embed=games_embed(listing, names, locale_of(interaction)), ephemeral=True)

    @app_commands.command(name="export", description=t("export"))
    @anywhere
    @app_commands.describe(game=t("export.game"), analysis=t("export.analysis"),
                           format=t("export.format"))
    @app_commands.choices(format=FORMAT_CHOICES)
    async def export(self, interaction: Interaction,
                     game: app_commands.Range[int, 1] | None = None,
                     analysis: bool = False, format: str = ExportFormat.PDN.value) -> None:
        """The game (chosen and refused as `StatsService.export` does) as a PDN file,
        with its stored analysis as comments when `analysis`; or, with `format` GIF, as
        an animated picture within Discord's upload limit (`bot.ui.replay`; the analysis
        is the PDN's only). Raises `PlayerError` as `StatsService.export`, and
        REPLAY_TOO_LONG when the picture cannot fit."""
        requester, locale = requester_of(interaction), locale_of(interaction)
        chosen = ExportFormat(format)
        match chosen:
            case ExportFormat.PDN:
                pdn = await self.stats.export(requester, game_id=game,
                                              channel_id=interaction.channel_id,
                                              analysis=analysis)
                content, file = export_message(pdn, locale)
                shown, guild_id = pdn.game_id, pdn.guild_id
            case ExportFormat.GIF:
                replay = await self.stats.replay(requester, game_id=game,
                                                 channel_id=interaction.channel_id)
                view = await replay_view(replay, self.preferences, interaction.user.id)
                file = await replay_file(replay, view, self.presenter.move_work)
                content = replay_text(replay, locale)
                shown, guild_id = replay.game_id, replay.guild_id
            case _:
                assert_never(chosen)
        await Answer.of(interaction).send(
            content, file=file, view=await self._page_button(shown, guild_id, locale))

    @app_commands.command(name="rules", description=t("rules"))
    @anywhere
    @app_commands.describe(variant=t("rules.variant"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: Interaction, variant: str = DEFAULT_VARIANT) -> None:
        file = await self.presenter.start_file(get_variant(variant))
        await Answer.of(interaction).send(embed=rules_embed(variant, locale_of(interaction)),
                                          file=file)

    @app_commands.command(name="help", description=t("help"))
    @anywhere
    async def help(self, interaction: Interaction) -> None:
        embed = help_embed(self.settings.inactivity_limit, locale_of(interaction))
        await Answer.of(interaction).send(embed=embed, ephemeral=interaction.guild_id is not None)
