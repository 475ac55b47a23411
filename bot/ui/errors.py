"""`ErrorReporter`: the one answer to a failed interaction (slash command, button press,
autocomplete).

A `PlayerError` (the player's mistake; nothing changed) becomes a short ephemeral answer
from the message catalog; a press refused because its message is out of date also loses
that message's buttons. Anything else is logged with the command, custom id, user,
channel and guild ids and answered with a generic ephemeral message. An autocomplete
that fails is answered with no choices.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands

from bot.messages import Msg, text
from bot.services import PlayerError
from bot.ui.announcer import GameAnnouncer
from bot.ui.answer import Answer
from bot.ui.reading import locale_of

log = logging.getLogger(__name__)

Inter = discord.Interaction[Any]

RETIRED = (Msg.STALE_BOARD, Msg.GAME_OVER, Msg.CHALLENGE_CLOSED, Msg.CHALLENGE_UNKNOWN)
"""Refusals of a button press meaning its message is out of date: its buttons go."""


class ErrorReporter:
    """Answers failed interactions (texts from the announcer's presenter)."""

    def __init__(self, announcer: GameAnnouncer) -> None:
        self.announcer = announcer

    def autocomplete_failed(self, interaction: Inter, error: BaseException) -> None:
        """Log a failed autocomplete with the command, user, channel and guild ids (the
        caller then answers it with no choices)."""
        command = interaction.command.qualified_name if interaction.command else None
        log.error("autocomplete failed: command=%s user=%s channel=%s guild=%s", command,
                  interaction.user.id, interaction.channel_id, interaction.guild_id,
                  exc_info=error)

    async def report(self, interaction: Inter, error: BaseException) -> None:
        """Answer a failed interaction: the player's mistake, or a generic apology (and a
        log line with the command, user and channel ids)."""
        original = error
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
        locale = locale_of(interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            self.autocomplete_failed(interaction, original)
            with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
                await interaction.response.autocomplete([])
            return
        if isinstance(original, PlayerError):
            message = self.announcer.presenter.error_text(original, locale)
            if original.key in RETIRED and interaction.message is not None:
                self.announcer.later(self.announcer.strip_buttons(interaction.message))
        elif isinstance(original, app_commands.NoPrivateMessage):
            message = text(Msg.GUILD_ONLY, locale)
        else:
            command = interaction.command.qualified_name if interaction.command else None
            data: dict[str, Any] = dict(interaction.data or {})
            custom_id = data.get("custom_id")
            log.error(
                "interaction failed: command=%s custom_id=%s user=%s channel=%s guild=%s",
                command, custom_id, interaction.user.id, interaction.channel_id,
                interaction.guild_id, exc_info=original,
            )
            message = text(Msg.UNEXPECTED, locale)
        try:
            await Answer.of(interaction, watch=False).send(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer interaction %s with an error message", interaction.id)
