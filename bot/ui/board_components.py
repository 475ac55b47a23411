"""The components of a game's board message: a finished game's (Rematch, Replay,
Analyze), or the board in play's (Resign, Offer draw; in an INTERACTIONS place the move
select first, docs/ARCHITECTURE.md "Places")."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.move_work import MoveWork
from bot.services import BoardState, MoveChoice
from bot.services.games import move_options
from bot.ui.analysis import AnalyzeButton
from bot.ui.buttons import board_view, finished_view
from bot.ui.present import Perspective
from storage import PlaceKind

log = logging.getLogger(__name__)


async def board_components(state: BoardState, locale: str | None, view: Perspective,
                           move_work: MoveWork | None) -> discord.ui.View:
    """The components of `state`'s board, in `locale`, the move select's moves written
    for `view`; its moves are listed by `move_work` (None: a worker thread)."""
    if state.is_over:
        buttons = finished_view(state.game_id, locale)
        if state.ply > 0:
            buttons.add_item(AnalyzeButton(state.game_id, locale))
        return buttons
    people = state.white.user_id is not None and state.black.user_id is not None
    moves = None
    if state.place is PlaceKind.INTERACTIONS:
        moves = await _move_options(state, view, move_work)
    return board_view(state.game_id, state.ply, locale, draw=people,
                      draw_offered=state.draw_offer_by is not None, moves=moves)


async def _move_options(state: BoardState, view: Perspective,
                        move_work: MoveWork | None) -> tuple[MoveChoice, ...] | None:
    """The legal moves of `state` for its move select, listed off the event loop; None
    (no select) when that fails, which is logged."""
    numeric = view.numbers(state.variant)
    try:
        if move_work is None:
            return await asyncio.to_thread(move_options, state.position, state.variant,
                                           numeric)
        return await move_work.run([(state.position, state.variant)], move_options,
                                   state.position, state.variant, numeric)
    except Exception:
        log.exception("game %s: listing the moves of its board failed", state.game_id)
        return None
