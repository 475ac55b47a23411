"""`GameEndings`: a player ends the game or asks to: resign (after `resign_question`),
offer or accept a draw, abort. Each runs under the channel's lock and is announced as
any step (`GameCore.announce`)."""

from __future__ import annotations

import dataclasses

from bot.faults import FaultPoint, reach
from bot.messages import Msg
from bot.services.errors import PlayerError
from bot.services.games.core import GameCore, check_board, player_color, who_plays
from bot.services.games.values import Announce, ResignQuestion
from bot.services.models import BoardRef, Ending, EndReason, GameUpdate, UpdateKind, side_of


class GameEndings:
    """Resign, draw, abort."""

    def __init__(self, core: GameCore) -> None:
        self._core = core

    def resign_question(
        self, channel_id: int, user_id: int, *, board: BoardRef | None = None
    ) -> ResignQuestion:
        """What to ask `user_id` before they resign the channel's game (by `/resign`, or
        the Resign button of `board`): changes nothing. Raises `PlayerError` as `resign`."""
        table = self._core.table
        live = table.require(channel_id, None if board is None else board.game_id, user_id)
        check_board(table, live, board)
        color = player_color(live, user_id)
        return ResignQuestion(live.record.id, live.game.ply, who_plays(live, color.opponent))

    async def resign(
        self, channel_id: int, user_id: int, *, board: BoardRef | None = None,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`user_id` resigns the channel's game (with `board`: pressed on that board, which
        must show the game's current ply). Raises `PlayerError`: as `GameTable.require`
        (NO_GAME_HERE, GAME_OVER: the board's game is over...), STALE_BOARD
        (`StaleBoardError`), NOT_IN_GAME."""
        core = self._core
        async with core.table.hold(channel_id):
            live = core.table.require(channel_id, None if board is None else board.game_id,
                                      user_id)
            check_board(core.table, live, board)
            color = player_color(live, user_id)
            previous = live.record.board_message_id
            state = await core.finish(live, EndReason.RESIGNATION, color.opponent)
            update = GameUpdate(UpdateKind.ENDED, state, user_id, None, previous)
            return await core.announce(update, announce)

    async def draw(
        self, channel_id: int, user_id: int, *, board: BoardRef | None = None,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`user_id` offers a draw, or accepts the opponent's standing offer (the game ends
        drawn). An offer lapses when the offerer moves. Raises `PlayerError`: as `resign`,
        DRAW_ALREADY_OFFERED, and COMPUTER_NO_DRAW (the computer plays every game out)."""
        core = self._core
        async with core.table.hold(channel_id):
            live = core.table.require(channel_id, None if board is None else board.game_id,
                                      user_id)
            check_board(core.table, live, board)
            color = player_color(live, user_id)
            record = live.record
            if record.seat(side_of(color.opponent)).is_computer:
                raise PlayerError(Msg.COMPUTER_NO_DRAW)
            offer = record.draw_offer_by
            previous = record.board_message_id
            if offer is not None and offer is not side_of(color):
                state = await core.finish(live, EndReason.AGREEMENT, None)
                update = GameUpdate(UpdateKind.ENDED, state, user_id, None, previous)
                return await core.announce(update, announce)
            if offer is side_of(color) and record.white.user_id != record.black.user_id:
                raise PlayerError(Msg.DRAW_ALREADY_OFFERED,
                                  opponent=who_plays(live, color.opponent))
            reach(FaultPoint.STEP_COMMIT)
            await core.storage.games.set_draw_offer(record.id, side_of(color))
            reach(FaultPoint.STEP_COMMITTED)
            live.record = dataclasses.replace(record, draw_offer_by=side_of(color))
            update = GameUpdate(UpdateKind.DRAW_OFFERED, core.table.state(live), user_id)
            return await core.announce(update, announce)

    async def abort(
        self, channel_id: int, user_id: int, *, may_manage: bool = False,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """End the channel's game without result: by a player before each side has moved,
        or at any time by a member who may manage messages (`may_manage`). Raises
        `PlayerError`: as `GameTable.require`, NOT_IN_GAME, ABORT_TOO_LATE."""
        core = self._core
        async with core.table.hold(channel_id):
            live = core.table.require(channel_id, user_id=user_id)
            record = live.record
            if not may_manage:
                player_color(live, user_id)
                if live.game.ply >= 2:
                    raise PlayerError(Msg.ABORT_TOO_LATE)
            previous = record.board_message_id
            reach(FaultPoint.STEP_COMMIT)
            ended = await core.storage.games.abort(
                record.id, termination=EndReason.ABORTED.value
            )
            reach(FaultPoint.STEP_COMMITTED)
            state = core.close(live, ended, Ending(EndReason.ABORTED, None, None, user_id))
            update = GameUpdate(UpdateKind.ENDED, state, user_id, None, previous)
            return await core.announce(update, announce)
