"""Slash command of a game against the computer: /play. It reads the interaction, calls
`ComputerGames.start` with the `GameAnnouncer`'s answer, which shows the first board."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.choices import (
    CLOCK_CHOICES,
    COLOR_CHOICES,
    COMPUTER_MOVE_TIME_CHOICES,
    VARIANT_CHOICES,
    computer_default,
    game_timing,
)
from bot.cogs.installs import anywhere
from bot.config import Config
from bot.messages import command_text as t
from bot.services.computer_games import DEFAULT_LEVEL, ComputerGames
from bot.ui.announcer import GameAnnouncer
from bot.ui.reading import channel_of, game_place_of, person
from storage import ColorChoice

Interaction = discord.Interaction[Any]


class Computer(commands.Cog):
    """Games against the computer."""

    def __init__(
        self, *, computer_games: ComputerGames, announcer: GameAnnouncer, settings: Config
    ) -> None:
        self.computer_games = computer_games
        self.announcer = announcer
        self.settings = settings

    @app_commands.command(name="play", description=t("play"))
    @anywhere
    @app_commands.describe(
        variant=t("play.variant"), level=t("play.level"), color=t("play.color"),
        move_time=t("play.move_time"), clock=t("play.clock"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, color=COLOR_CHOICES,
                          move_time=COMPUTER_MOVE_TIME_CHOICES, clock=CLOCK_CHOICES)
    async def play(
        self,
        interaction: Interaction,
        variant: str,
        level: app_commands.Range[int, 1, 5] = DEFAULT_LEVEL,
        color: str = ColorChoice.RANDOM.value,
        move_time: str | None = None,
        clock: str | None = None,
    ) -> None:
        per_move, control = game_timing(computer_default(self.settings.default_move_time),
                                        move_time, clock)
        await self.computer_games.start(
            player=person(interaction.user), guild_id=interaction.guild_id,
            channel_id=channel_of(interaction), variant=variant, level=level,
            color=ColorChoice(color), move_time=per_move, time_control=control,
            announce=self.announcer.answering(interaction), place=game_place_of(interaction),
        )
