"""`/analyze` and the analysis components (the Analyze button of a finished board, Cancel
on the progress message, the select of mistakes, routed to `Analysis.press`). Each reads
the interaction, calls the `AnalysisService` and answers with what `bot.ui.analysis`
builds.

The progress message is the interaction's own answer (`bot.ui.progress.ProgressMessage`),
edited as the computer goes ("ply 24 of 60"), then replaced by the result: the embed, the
evaluation graph and the select of mistakes. Cancel on the progress of an analysis that
no longer runs (the bot restarted since, or it ended) answers privately and edits that
message to say the analysis stopped and can be asked for again. While it runs, the
analysis is stored as under way with its progress message, until that message shows a
final state, so that after a crash the next start corrects it (docs/ARCHITECTURE.md,
"Recovery at start-up").
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, assert_never

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.installs import anywhere
from bot.messages import Msg, text, variant_name
from bot.messages import command_text as t
from bot.services import PlayerError
from bot.services.analysis import AnalysisService, ProgressPlace
from bot.services.games import GameService
from bot.services.settings import PreferenceService
from bot.services.web_access import WebLinks
from bot.ui.analysis import (
    AnalysisAction,
    analysis_embed,
    graph_file,
    mistake_board,
    player_names,
    progress_view,
    result_view,
)
from bot.ui.answer import Answer
from bot.ui.components import Press
from bot.ui.present import Perspective, reader_view
from bot.ui.progress import ProgressMessage
from bot.ui.reading import locale_of, requester_of
from bot.ui.web_links import game_page, game_page_button
from engine import Color
from engine.analysis import GameAnalysis
from storage import GameRecord

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)


def progress_place(interaction: Interaction, locale: str) -> ProgressPlace | None:
    """Where the interaction's answer, an analysis's progress, shows (None: in no channel
    Discord named)."""
    if interaction.channel_id is None:
        return None
    return ProgressPlace(interaction.guild_id, interaction.channel_id, locale)


class Analysis(commands.Cog):
    """The computer's review of finished games."""

    def __init__(self, *, analyses: AnalysisService, games: GameService,
                 preferences: PreferenceService | None = None,
                 links: WebLinks | None = None) -> None:
        self.analyses = analyses
        self.games = games
        self.preferences = preferences
        """Each reader's board side and notation (None: the defaults)."""
        self.links = links
        """The web face's links: a result card links to the game's page, which shows the
        analysis (None: no web face)."""

    async def _result_view(self, record: GameRecord, analysis: GameAnalysis,
                           locale: str, reader: Perspective) -> discord.ui.View | None:
        """The result card's components: the select of judged plies
        (`bot.ui.analysis.result_view`) and the "Game page" link button when the game has
        a page (`bot.ui.web_links`); None when neither."""
        view = result_view(record.id, analysis, locale, reader)
        url = await game_page(self.links, record.id, record.guild_id)
        if url is None:
            return view
        view = view or discord.ui.View(timeout=None)
        view.add_item(game_page_button(url, locale))
        return view

    async def _view(self, interaction: Interaction, record: GameRecord,
                    mover: Color = Color.WHITE) -> Perspective:
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
        record = await self.analyses.find(requester_of(interaction), game_id=game,
                                          channel_id=interaction.channel_id)
        await self._analyze(interaction, record)

    # --- components (bot.ui.analysis) ---------------------------------------------------

    async def press(self, interaction: Interaction, press: Press[AnalysisAction]) -> None:
        """An analysis component of game `press.game_id` (the router checked the presser
        may see it, `bot.ui.components`)."""
        game_id = press.game_id
        if game_id is None:
            raise ValueError("an analysis component carries its game id")
        match press.action:
            case AnalysisAction.ANALYZE:
                record = await self.analyses.find(requester_of(interaction), game_id=game_id)
                await self._analyze(interaction, record)
            case AnalysisAction.STOP:
                await self.stop(interaction, game_id)
            case AnalysisAction.SHOW_MISTAKE:
                picked = press.picked
                ply = int(picked) if picked is not None and picked.isdigit() else 0
                await self.show_mistake(interaction, game_id, ply)
            case _:
                assert_never(press.action)

    async def stop(self, interaction: Interaction, game_id: int) -> None:
        """Cancel on the progress of game `game_id`'s analysis: cancels it (its progress
        message then says so). When none runs (the bot restarted since the message was
        posted, or it just ended), the pressed progress message is edited to say the
        analysis stopped, and the presser is told privately how to ask again. A message
        that is no progress (it has an embed or a picture) is never edited. Raises
        `PlayerError(ANALYSIS_NOT_STARTER)` when another user asked for it."""
        locale = locale_of(interaction)
        answer = Answer.of(interaction)
        message = interaction.message
        # A progress message is plain text (`ProgressMessage`): one with an embed or a
        # picture is another message, the Cancel a forged `custom_id`; it stays as it is.
        progress = message is not None and not (message.embeds or message.attachments)
        if self.analyses.cancel(game_id, interaction.user.id):
            note = text(Msg.ANALYSIS_CANCELLED, locale, game_id=game_id)
            if progress:
                await answer.update_message(note, view=None)
            else:
                await answer.send(note, ephemeral=True)
            return
        if progress:
            await answer.update_message(text(Msg.ANALYSIS_STOPPED, locale, game_id=game_id),
                                        view=None)
        await answer.send(text(Msg.ANALYSIS_NOT_RUNNING, locale, game_id=game_id),
                          ephemeral=True)

    async def show_mistake(self, interaction: Interaction, game_id: int, ply: int) -> None:
        locale = locale_of(interaction)
        record = await self.analyses.find(requester_of(interaction), game_id=game_id)
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
        # The card is written for the one who asked: their language, their notation.
        reader = await self._view(interaction, record)
        stored = await self.analyses.result(record.id)
        if stored is not None:
            await answer.send(
                embed=analysis_embed(stored.analysis, record.id, player_names(record, locale),
                                     stored.nodes, locale, reader),
                file=await graph_file(stored.analysis, locale),
                view=await self._result_view(record, stored.analysis, locale, reader),
            )
            return
        variant = variant_name(record.variant, locale)
        shown = ProgressMessage(interaction)

        def progress_text(done: int) -> str:
            return text(Msg.ANALYSIS_PROGRESS, locale, game_id=record.id, variant=variant,
                        done=done, total=record.ply_count)

        async def progress(done: int, total: int) -> None:
            if done < total:
                await shown.update(progress_text(done - 1))

        # Stored as under way with where its progress shows, so that after a crash the
        # next start can say on that message that it stopped
        # (`AnalysisService.interrupted`, `bot.ui.analysis.correct_interrupted`).
        running = await self.analyses.start(record.id, interaction.user.id, progress,
                                            progress_place(interaction, locale))
        try:
            message_id = await shown.start(progress_text(0),
                                           view=progress_view(record.id, locale))
        except BaseException:
            running.task.cancel()
            await self.analyses.ended(running)
            raise
        await self.analyses.shown(running, message_id)
        try:
            analysis = await running.task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise
            # Cancelled by its requester, or stopped by a shutdown (its progress message
            # must not keep a Cancel button that nothing answers any more).
            key = Msg.ANALYSIS_STOPPED if self.analyses.closing else Msg.ANALYSIS_CANCELLED
            await shown.stop(text(key, locale, game_id=record.id))
            await self.analyses.ended(running)
            return
        except Exception:
            log.exception("the analysis of game %d failed", record.id)
            await shown.stop(text(Msg.ANALYSIS_FAILED, locale, game_id=record.id))
            await self.analyses.ended(running)
            return
        try:
            await self._finish(shown, record, analysis, locale, reader)
        finally:
            await self.analyses.ended(running)

    async def _finish(self, shown: ProgressMessage, record: GameRecord,
                      analysis: GameAnalysis, locale: str, reader: Perspective) -> None:
        """Replace the progress with the result card."""
        names = player_names(record, locale)
        await shown.finish(
            embed=analysis_embed(analysis, record.id, names, self.analyses.nodes, locale,
                                 reader),
            attachments=[await graph_file(analysis, locale)],
            view=await self._result_view(record, analysis, locale, reader),
        )
