"""The components of a game's board message: a finished game's (Rematch, Replay,
Analyze), or the board in play's (Resign, Offer draw; in an INTERACTIONS place the move
select first, docs/ARCHITECTURE.md "Places"); both end with the "Game page" link button
when the game has a page on the web (`bot.ui.web_links`)."""

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
from bot.ui.web_links import game_page_button
from storage import PlaceKind

log = logging.getLogger(__name__)


async def board_components(state: BoardState, locale: str | None, view: Perspective,
                           move_work: MoveWork | None, page: str | None = None,
                           ) -> discord.ui.View:
    """The components of `state`'s board, in `locale`, the move select's moves written
    for `view`; its moves are listed by `move_work` (None: a worker thread). `page`: the
    URL of the game's page on the web (None: no link button)."""
    buttons = await _game_components(state, locale, view, move_work)
    if page is not None:
        buttons.add_item(game_page_button(page, locale))
    return buttons


async def _game_components(state: BoardState, locale: str | None, view: Perspective,
                           move_work: MoveWork | None) -> discord.ui.View:
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
