"""The Discord side of analyses: the result message (embed, evaluation graph, a select
of the mistakes), the progress message with its Cancel button, the Analyze button of a
finished game's board, and a mistake shown as a board.

Persistent components (`bot.ui.components.Component`s), whose `custom_id` carries the
game:

- `dama:analyze:<game_id>`: Analyze, on a finished game's board;
- `dama:stopanalysis:<game_id>`: Cancel, on the progress message;
- `dama:mistake:<game_id>`: the select of the judged plies (values: ply numbers).

After a restart, `correct_interrupted` edits the progress messages of the analyses the
previous process left under way (killed mid-way) to say they were stopped by the restart,
without their Cancel.

A press becomes a `Press[AnalysisAction]` and goes through the client's component router
to the `Analysis` cog (`Analysis.press`).
"""

from __future__ import annotations

import asyncio
import enum
import io
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.messages import Msg, percent, text, variant_name
from bot.services.analysis import AnalysisService
from bot.services.game_words import JUDGEMENT_MARKS, JUDGEMENT_WORDS, move_number
from bot.ui.components import (
    Component,
    GameButton,
    Placement,
    Press,
    custom_id,
    picked_value,
)
from bot.ui.present import WHITE_VIEW, Perspective, color_name, render_board, shown_move
from engine import Color, Game, Position
from engine.analysis import GameAnalysis, Judgement, PlayerSummary, PlyAnalysis
from engine.variants import Variant, get_variant
from renderer.graph import render_graph_png
from storage import AnalysisUnderWay, GameRecord

log = logging.getLogger(__name__)

SEARCHED_MESSAGES = 25
"""The channel's newest messages searched for a progress message whose id was never
recorded (`correct_interrupted`)."""

GRAPH_FILE = "analysis.png"
MISTAKE_FILE = "mistake.png"
SHOWN_MISTAKES = 8
"""Judged plies listed in the embed; the select offers up to 25."""
SELECT_LIMIT = 25

class AnalysisAction(enum.Enum):
    """What an analysis component does; the value is the action part of its
    `custom_id`."""

    ANALYZE = "analyze"
    STOP = "stopanalysis"
    SHOW_MISTAKE = "mistake"


def player_names(record: GameRecord, locale: str | None = None) -> tuple[str, str]:
    """White's and Black's names for an analysis: a mention for a person, the computer
    and its level in `locale` (`Msg.COMPUTER`) for the computer."""
    names = []
    for seat in (record.white, record.black):
        names.append(text(Msg.COMPUTER, locale, level=seat.computer_level)
                     if seat.user_id is None else f"<@{seat.user_id}>")
    return names[0], names[1]


def judgement_word(judgement: Judgement, locale: str | None) -> str:
    return text(JUDGEMENT_WORDS[judgement], locale)


def _shown(move: str | None, variant: Variant, view: Perspective) -> str:
    """A move of the analysis (algebraic) as `view`'s reader reads it: Italian in the
    federation's numbers unless they chose algebraic (`bot.ui.present.shown_move`)."""
    return "—" if move is None else shown_move(move, variant, view)


def _line(ply: PlyAnalysis, variant: Variant, view: Perspective) -> str:
    return " ".join(_shown(m, variant, view) for m in ply.line) if ply.line else "—"


def _accuracy(summary: PlayerSummary, locale: str | None) -> str:
    if summary.accuracy is None:
        return text(Msg.ANALYSIS_NO_ACCURACY, locale)
    return percent(summary.accuracy, locale)


def analysis_embed(
    analysis: GameAnalysis, game_id: int, names: tuple[str, str], nodes: int,
    locale: str | None, view: Perspective = WHITE_VIEW,
) -> discord.Embed:
    """The result: per player accuracy and counts, the first judged plies with the move
    played, the better move and its line (in `view`'s notation: the reader who asked),
    the graph picture."""
    variant = get_variant(analysis.variant)
    lines = []
    for color, name in zip((Color.WHITE, Color.BLACK), names, strict=True):
        s = analysis.summary(color)
        lines.append(text(
            Msg.ANALYSIS_PLAYER, locale, player=name, color=color_name(color, locale),
            accuracy=_accuracy(s, locale), inaccuracies=s.inaccuracies, mistakes=s.mistakes,
            blunders=s.blunders,
        ))
    lines.append("")
    judged = analysis.judged()
    for ply in judged[:SHOWN_MISTAKES]:
        assert ply.judgement is not None
        lines.append(text(
            Msg.ANALYSIS_MISTAKE_LINE, locale,
            number=move_number(ply.ply, ply.color, variant),
            move=_shown(ply.move, variant, view) + JUDGEMENT_MARKS[ply.judgement],
            judgement=judgement_word(ply.judgement, locale),
            better=_shown(ply.better, variant, view), line=_line(ply, variant, view),
        ))
    if not judged:
        lines.append(text(Msg.ANALYSIS_NO_MISTAKES, locale))
    elif len(judged) > SHOWN_MISTAKES:
        lines.append(text(Msg.ANALYSIS_MORE, locale, count=len(judged) - SHOWN_MISTAKES))
    embed = discord.Embed(
        title=text(Msg.ANALYSIS_TITLE, locale, game_id=game_id,
                   variant=variant_name(variant.key, locale)),
        description="\n".join(lines), colour=discord.Colour(0x2060C8),
    )
    embed.set_image(url=f"attachment://{GRAPH_FILE}")
    embed.set_footer(text=text(Msg.ANALYSIS_FOOTER, locale, nodes=nodes))
    return embed


async def graph_file(analysis: GameAnalysis, locale: str | None) -> discord.File:
    """The evaluation graph as an attachment (drawn in a worker thread)."""
    labels = (judgement_word(Judgement.INACCURACY, locale),
              judgement_word(Judgement.MISTAKE, locale),
              judgement_word(Judgement.BLUNDER, locale))
    png = await asyncio.to_thread(render_graph_png, analysis, labels=labels)
    return discord.File(io.BytesIO(png), filename=GRAPH_FILE)


def result_view(game_id: int, analysis: GameAnalysis, locale: str | None,
                notation: Perspective = WHITE_VIEW) -> discord.ui.View | None:
    """The select of judged plies, labelled in `notation`'s (the asker's) notation (None
    when there is none)."""
    judged = analysis.judged()[:SELECT_LIMIT]
    if not judged:
        return None
    variant = get_variant(analysis.variant)
    view = discord.ui.View(timeout=None)
    select = MistakeSelect(game_id, locale)
    for ply in judged:
        assert ply.judgement is not None
        move = _shown(ply.move, variant, notation)
        better = _shown(ply.better, variant, notation)
        select.item.add_option(
            label=(f"{move_number(ply.ply, ply.color, variant)} "
                   f"{move}{JUDGEMENT_MARKS[ply.judgement]}"),
            description=f"{judgement_word(ply.judgement, locale)}: {better}"[:100],
            value=str(ply.ply),
        )
    view.add_item(select)
    return view


def progress_view(game_id: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(StopAnalysisButton(game_id, locale))
    return view


async def mistake_board(
    game: Game, ply: PlyAnalysis, game_id: int, player: str, locale: str | None,
    size: int = 512, view: Perspective = WHITE_VIEW,
) -> tuple[str, discord.File]:
    """Ply `ply` of `game` as a board: the position after the move, the move's path
    marked, drawn from `view`'s side (the reader's) with Italian squares numbered when
    they read numbers, and the text naming the better move and its line in their
    notation."""
    positions = game.positions()
    before: Position = positions[ply.ply - 1]
    move = game.moves[ply.ply - 1]
    png = await asyncio.to_thread(render_board, positions[ply.ply], game.variant,
                                  last_move=move, before=before, size=size, view=view)
    assert ply.judgement is not None
    content = text(
        Msg.ANALYSIS_MISTAKE_BOARD, locale, game_id=game_id,
        number=move_number(ply.ply, ply.color, game.variant),
        move=_shown(ply.move, game.variant, view),
        judgement=judgement_word(ply.judgement, locale), player=player,
        better=_shown(ply.better, game.variant, view), line=_line(ply, game.variant, view),
    )
    return content, discord.File(io.BytesIO(png), filename=MISTAKE_FILE)


# --- persistent components -----------------------------------------------------------


class AnalyzeButton(GameButton, template=r"dama:analyze:(?P<id>[0-9]+)"):
    """Analyze, on a finished game's board (in the game's channel)."""

    action = AnalysisAction.ANALYZE
    label_key = Msg.BUTTON_ANALYZE
    style = discord.ButtonStyle.primary


class StopAnalysisButton(GameButton, template=r"dama:stopanalysis:(?P<id>[0-9]+)"):
    """Cancel, on the progress message (wherever the analysis was asked for)."""

    action = AnalysisAction.STOP
    label_key = Msg.BUTTON_CANCEL_ANALYSIS
    placement = Placement.ANYWHERE


class MistakeSelect(Component[discord.ui.Select[Any]],
                    template=r"dama:mistake:(?P<id>[0-9]+)"):
    """The select of the judged plies, on the result (values: ply numbers)."""

    def __init__(self, game_id: int, locale: str | None = None,
                 picked: str | None = None) -> None:
        action = AnalysisAction.SHOW_MISTAKE
        super().__init__(
            discord.ui.Select(placeholder=text(Msg.ANALYSIS_PICK, locale),
                              custom_id=custom_id(action, game_id), min_values=1,
                              max_values=1),
            Press(action, game_id=game_id, placement=Placement.ANYWHERE, picked=picked))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> MistakeSelect:
        return cls(int(match["id"]), picked=picked_value(interaction))


COMPONENTS: tuple[type[Component[Any]], ...] = (
    AnalyzeButton, StopAnalysisButton, MistakeSelect,
)
"""The analysis components, registered by the client as dynamic items."""


# --- after a restart -----------------------------------------------------------------


async def correct_interrupted(client: discord.Client, analyses: AnalysisService,
                              interrupted: Sequence[AnalysisUnderWay]) -> int:
    """Edit the progress message of each analysis in `interrupted` (those the previous
    process left under way, `AnalysisService.interrupted`) to say that a restart stopped
    it and how to ask again (ANALYSIS_RESTARTED, in its requester's language), without
    its Cancel, and forget it; returns how many messages were edited. A message whose id
    was never recorded (the kill came between its post and that write) is looked for
    among its channel's `SEARCHED_MESSAGES` newest: the bot's own, with this game's
    Cancel. A recorded message that no longer carries that Cancel shows a final state
    (the result card, a cancel: the process stopped before recording the analysis as
    ended) and is left as it is. One that is gone or out of reach is forgotten; on any
    other failure of
    Discord's the analysis stays under way, for the next start. Raises nothing."""
    edited = 0
    for stopped in interrupted:
        try:
            edited += await _correct(client, stopped)
        except (discord.NotFound, discord.Forbidden):
            log.info("the progress message of the analysis of game %d is gone or out of "
                     "reach; it is left as it is", stopped.game_id)
        except Exception:
            log.exception("the progress message of the analysis of game %d could not be "
                          "corrected; the next start tries again", stopped.game_id)
            continue
        await analyses.forget(stopped.id)
    return edited


async def _correct(client: discord.Client, stopped: AnalysisUnderWay) -> int:
    """Edit `stopped`'s progress message (1), or 0 when it is not found or no longer
    shows progress (it lacks the game's Cancel: it became the result card, or says the
    analysis was cancelled or failed, before the process could record it as ended). A
    recorded message the bot may not read (no Read Message History) is edited unseen."""
    channel = client.get_partial_messageable(stopped.channel_id, guild_id=stopped.guild_id)
    content = text(Msg.ANALYSIS_RESTARTED, stopped.locale, game_id=stopped.game_id)
    cancel = custom_id(AnalysisAction.STOP, stopped.game_id)
    if stopped.message_id is not None:
        shown: discord.Message | discord.PartialMessage
        try:
            shown = await channel.fetch_message(stopped.message_id)
        except discord.Forbidden:  # no Read Message History: edited unseen, as its own
            shown = channel.get_partial_message(stopped.message_id)
        else:
            if not _has_component(shown, cancel):
                return 0
        await shown.edit(content=content, view=None)
        return 1
    bot = client.user
    async for message in channel.history(limit=SEARCHED_MESSAGES):
        if bot is None or message.author.id != bot.id:
            continue
        if _has_component(message, cancel):
            await message.edit(content=content, view=None)
            return 1
    return 0


def _has_component(message: discord.Message, wanted: str) -> bool:
    """Whether `message` carries a component whose `custom_id` is `wanted`."""
    return any(getattr(child, "custom_id", None) == wanted
               for row in message.components for child in getattr(row, "children", ()))
