"""`ErrorReporter`: the one answer to a failed interaction (slash command, button press,
autocomplete).

A `PlayerError` (the player's mistake; nothing changed) becomes a short ephemeral answer
from the message catalog; a press refused because its message is out of date also loses
that message's buttons; a press on a board drawn for another ply (`StaleBoardError`) is
answered with the current board. A `StorageUnavailableError` (the database refused the step's one
transaction, a `StorageWriteError`: nothing of it was stored; or could not answer a read,
as when PostgreSQL is unreachable) tells the player the server cannot save moves right now,
so this was not done, and nothing of theirs was lost, and logs the error's explanation
(disk full, read-only, locked, unreachable...). Anything else is
logged with the command, custom id, user, channel and guild ids and answered with a
generic ephemeral message that claims nothing about what was stored (the error may have
come after a commit). An autocomplete that fails is answered with no choices.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands

from bot.messages import Msg, text
from bot.services import PlayerError, StaleBoardError
from bot.ui.announcer import GameAnnouncer
from bot.ui.answer import Answer
from bot.ui.reading import locale_of
from storage import StorageUnavailableError

log = logging.getLogger(__name__)

Inter = discord.Interaction[Any]

RETIRED = (Msg.STALE_BOARD, Msg.GAME_OVER, Msg.CHALLENGE_CLOSED, Msg.CHALLENGE_EXPIRED_AFTER)
"""Refusals of a button press meaning its message is out of date: its buttons go. A press
naming what does not exist or what the presser may not see (UNKNOWN_GAME,
GAME_ELSEWHERE, CHALLENGE_UNKNOWN, NOT_THIS_BOARDS: a `custom_id` no message of ours
carries here, refused by the component router) changes no message, nor does a stale
press on the game's current board."""


def _what(interaction: Inter) -> tuple[str | None, Any]:
    """The interaction's command name and custom id (either may be None), for the log."""
    command = interaction.command.qualified_name if interaction.command else None
    data: dict[str, Any] = dict(interaction.data or {})
    return command, data.get("custom_id")


def _out_of_date(message: discord.Message | None, error: PlayerError) -> bool:
    """Whether the pressed `message` loses its buttons after `error`: not when it is the
    current board of the game (a press naming an earlier ply, forged or made before the
    board was posted)."""
    if message is None:
        return False
    return not (isinstance(error, StaleBoardError)
                and error.current.board_message_id == message.id)


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
            if original.key in RETIRED and _out_of_date(interaction.message, original):
                assert interaction.message is not None
                self.announcer.later(self.announcer.strip_buttons(interaction.message))
            if isinstance(original, StaleBoardError):
                try:
                    await self.announcer.stale_board(interaction, original.current, message)
                    return
                except Exception:
                    log.exception("showing the current board of game %s after a stale press "
                                  "failed", original.current.game_id)
        elif isinstance(original, app_commands.NoPrivateMessage):
            message = text(Msg.GUILD_ONLY, locale)
        elif isinstance(original, StorageUnavailableError):
            command, custom_id = _what(interaction)
            log.error(
                "interaction not saved: command=%s custom_id=%s user=%s channel=%s guild=%s: %s",
                command, custom_id, interaction.user.id, interaction.channel_id,
                interaction.guild_id, original.explanation,
            )
            message = text(Msg.STORAGE_UNAVAILABLE, locale)
        else:
            command, custom_id = _what(interaction)
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
