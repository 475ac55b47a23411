"""`/analyze` and the analysis components (the Analyze button of a finished board, Cancel
on the progress message, the select of mistakes). Each reads the interaction, calls the
`AnalysisService` and answers with what `bot.ui.analysis` builds.

The progress message is the interaction's own answer, edited as the computer goes ("ply
24 of 60"), at most once every `PROGRESS_INTERVAL` seconds (Discord limits edits), then
replaced by the result: the embed, the evaluation graph and the select of mistakes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.messages import Msg, text, variant_name
from bot.messages import command_text as t
from bot.services import PlayerError
from bot.services.analysis import AnalysisService, player_names
from bot.services.games import GameService
from bot.services.settings import SettingsService
from bot.ui.analysis import (
    analysis_embed,
    graph_file,
    mistake_board,
    progress_view,
    result_view,
)
from bot.ui.answer import Answer
from bot.ui.present import Viewpoint, reader_view
from bot.ui.reading import locale_of, viewer_of
from engine import Color
from engine.analysis import GameAnalysis
from storage import GameRecord, Storage

Interaction = discord.Interaction[Any]
anywhere = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
log = logging.getLogger(__name__)

PROGRESS_INTERVAL = 2.0
"""Fewest seconds between two edits of the progress message."""


class Analysis(commands.Cog):
    """The computer's review of finished games."""

    def __init__(self, *, analyses: AnalysisService, games: GameService,
                 storage: Storage, preferences: SettingsService | None = None) -> None:
        self.analyses = analyses
        self.games = games
        self.storage = storage
        self.preferences = preferences
        """Each reader's board side and notation (None: the defaults)."""

    async def _view(self, interaction: Interaction, record: GameRecord,
                    mover: Color = Color.WHITE) -> Viewpoint:
        """How the interaction's user reads game `record`'s analysis: in their notation,
        a board from their `/settings` side, else the side they played, else `mover`'s
        (the player whose ply is shown)."""
        user = interaction.user.id
        playing = (Color.WHITE if record.white.user_id == user
                   else Color.BLACK if record.black.user_id == user else None)
        return await reader_view(self.preferences, user, playing=playing, to_move=mover)

    @app_commands.command(name="analyze", description=t("analyze"))
    @anywhere
    @app_commands.describe(game=t("analyze.game"))
    async def analyze_command(self, interaction: Interaction,
                              game: app_commands.Range[int, 1] | None = None) -> None:
        record = await self.analyses.find(viewer_of(interaction), game_id=game,
                                          channel_id=interaction.channel_id)
        await self._analyze(interaction, record)

    # --- AnalysisPresses ---------------------------------------------------------------

    async def analyze(self, interaction: Interaction, game_id: int) -> None:
        record = await self.analyses.find(viewer_of(interaction), game_id=game_id)
        await self._analyze(interaction, record)

    async def stop(self, interaction: Interaction, game_id: int) -> None:
        # Nothing to cancel (the bot restarted since the message was posted, or the
        # analysis just ended): the message says so and how to start it again.
        key = (Msg.ANALYSIS_CANCELLED if self.analyses.cancel(game_id, interaction.user.id)
               else Msg.ANALYSIS_NOT_RUNNING)
        await Answer.of(interaction).update_message(
            text(key, locale_of(interaction), game_id=game_id), view=None
        )

    async def show_mistake(self, interaction: Interaction, game_id: int, ply: int) -> None:
        locale = locale_of(interaction)
        record = await self.analyses.find(viewer_of(interaction), game_id=game_id)
        analysis = await self.analyses.stored(record.id)
        found = None if analysis is None else next(
            (p for p in analysis.plies if p.ply == ply and p.judgement is not None), None
        )
        if found is None:
            raise PlayerError(Msg.ANALYSIS_MISSING, game_id=game_id)
        _, game = await self.games.game_of(record.id)
        names = player_names(record, locale)
        player = names[0] if found.color.value == "white" else names[1]
        view = await self._view(interaction, record, found.color)
        content, file = await mistake_board(game, found, record.id, player, locale,
                                            view=view)
        await Answer.of(interaction).send(content, file=file, ephemeral=True)

    # --- the work ----------------------------------------------------------------------

    async def _analyze(self, interaction: Interaction, record: GameRecord) -> None:
        locale = locale_of(interaction)
        answer = Answer.of(interaction)
        stored = await self.analyses.stored(record.id)
        # The card is written for the one who asked: their language, their notation.
        reader = await self._view(interaction, record)
        if stored is not None:
            await self._send_result(answer, record, stored, locale, reader)
            return
        variant = variant_name(record.variant, locale)
        plies = record.ply_count
        shown = {"ready": False, "last": 0.0}

        def progress_text(done: int) -> str:
            return text(Msg.ANALYSIS_PROGRESS, locale, game_id=record.id, variant=variant,
                        done=done, total=plies)

        async def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if not shown["ready"] or done >= total or now - shown["last"] < PROGRESS_INTERVAL:
                return
            shown["last"] = now
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(content=progress_text(done - 1))

        task = self.analyses.start(record.id, interaction.user.id, progress)
        await answer.send(progress_text(0), view=progress_view(record.id, locale))
        shown["ready"], shown["last"] = True, time.monotonic()
        try:
            analysis = await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    content=text(Msg.ANALYSIS_CANCELLED, locale, game_id=record.id), view=None
                )
            return
        except Exception:
            log.exception("the analysis of game %d failed", record.id)
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    content=text(Msg.ANALYSIS_FAILED, locale, game_id=record.id), view=None
                )
            return
        names = player_names(record, locale)
        file = await graph_file(analysis, locale)
        view = result_view(record.id, analysis, locale, reader)
        extra: dict[str, Any] = {"view": view}
        await interaction.edit_original_response(
            content=None, embed=analysis_embed(analysis, record.id, names, self.analyses.nodes,
                                               locale, reader),
            attachments=[file], **extra,
        )

    async def _send_result(self, answer: Answer, record: GameRecord, analysis: GameAnalysis,
                           locale: str, reader: Viewpoint) -> None:
        names = player_names(record, locale)
        stored = await self.storage.analyses.get(record.id)
        nodes = stored.nodes if stored is not None else self.analyses.nodes
        await answer.send(
            embed=analysis_embed(analysis, record.id, names, nodes, locale, reader),
            file=await graph_file(analysis, locale),
            view=result_view(record.id, analysis, locale, reader),
        )
