"""`GameCore`: what every part of the game service shares (storage, the `GameTable`, the
event bus, the clock, the move work, the shard scope) and the steps they all end with:
announcing a committed change and recording its board (`announce`), and ending a game
(`finish`, `close`). Also the checks every player's step makes (`player_color`,
`who_plays`, `check_board`).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

from bot.faults import FaultPoint, reach
from bot.messages import Msg
from bot.move_work import MoveWork
from bot.ratings.calculator import glicko2_calculator
from bot.services.errors import ComputerRef, PlayerError, StaleBoardError, UserRef
from bot.services.events import DeadlinesChanged, EventBus, GameEnded
from bot.services.games.loading import load_game
from bot.services.games.table import GameTable
from bot.services.games.values import Announce, BoardOwed, LiveGame, result_of
from bot.services.models import (
    BoardRef,
    BoardState,
    Ending,
    EndReason,
    GameUpdate,
    color_of,
    side_of,
    too_early_to_rate,
)
from bot.services.shards import ShardScope
from engine import Color
from storage import GameRecord, Storage, StorageWriteError
from storage.clock import Clock

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameCore:
    """The game service's collaborators, shared by its parts. `scope`: the guilds whose
    games this process restores, schedules and announces (`bot.services.shards`)."""

    storage: Storage
    table: GameTable
    events: EventBus
    clock: Clock
    move_work: MoveWork
    scope: ShardScope

    async def load(self, game_id: int) -> LiveGame:
        """Stored game `game_id` as a live game (`loading.load_game`)."""
        return await load_game(self.storage, self.move_work, game_id)

    async def announce(self, update: GameUpdate, announce: Announce | None) -> GameUpdate:
        """Call `announce` with `update` (the caller holds the channel's lock) and record
        the board message it posted as the game's board; returns the update with that id.
        The one place where a board's message id is recorded. The step was committed
        before: if recording the id fails (e.g. the disk became full), that is logged and
        the update returned without it, never raised. Without `announce` the board stays
        owed (`GameRecord.board_owed`, shown at the next start), and so it does when
        `announce` raises `BoardOwed`."""
        if announce is None:
            return update
        try:
            message_id = await announce(update)
        except BoardOwed:
            return update
        try:
            if message_id is None or not update.shows_board:
                # Told without a board message to record (a text instead of the board, or a
                # step told by a text: a draw offer).
                await self.storage.games.settle_board(update.state.game_id)
                return update
            await self.storage.games.set_board_message(update.state.game_id, message_id)
            reach(FaultPoint.BOARD_RECORDED)
        except Exception as error:
            # The step is committed and shown: a failure now must not reach the player as
            # an error (it would read as if the step had failed). Only the board's message
            # id is not recorded.
            explanation = error.explanation if isinstance(error, StorageWriteError) else None
            log.error("game %s: board message %s shown but not recorded: %s",
                      update.state.game_id, message_id, explanation or repr(error),
                      exc_info=None if explanation else error)
            return update
        live = self.table.get(update.state.channel_id, update.state.game_id)
        if live is not None:
            live.record = dataclasses.replace(live.record, board_message_id=message_id)
        state = dataclasses.replace(update.state, board_message_id=message_id)
        return dataclasses.replace(update, state=state)

    async def finish(
        self, live: LiveGame, reason: EndReason, winner: Color | None
    ) -> BoardState:
        """Store the result (and rating changes, in the same transaction) and drop the
        live game; returns the final state. A rated game ended before each side has made
        two moves of its own (the computer's for an absent player do not count) keeps its
        result unrated (`counts_for_rating`, docs/RULES.md "Early results"). Publishes
        `DeadlinesChanged`, `GameEnded`. Raises what storage raises (nothing changed)."""
        record = live.record
        result = result_of(winner)
        early = record.rated and await too_early_to_rate(
            self.storage.games, record, live.game.variant)
        rate = glicko2_calculator(result, self.clock()) if record.rated and not early else None
        reach(FaultPoint.STEP_COMMIT)
        ended = await self.storage.games.finish(
            record.id, result=result, termination=reason.value, rate=rate, unrated=early
        )
        reach(FaultPoint.STEP_COMMITTED)
        return self.close(live, ended, Ending(reason, winner, result, unrated_early=early))

    def close(self, live: LiveGame, ended: GameRecord, ending: Ending) -> BoardState:
        """After the game's end was committed (`ended`, its stored record): drop the live
        game, remember its final state for the channel; returns that state. Publishes
        `DeadlinesChanged`, `GameEnded`."""
        live.record = ended
        self.table.drop(ended.channel_id)
        self.table.set_absent(ended.id, False)
        self.events.publish(DeadlinesChanged())
        state = self.table.state(live, ending)
        self.table.remember_end(state)
        self.events.publish(GameEnded(state))
        return state


def who_plays(live: LiveGame, color: Color) -> UserRef | ComputerRef:
    """Who plays `color` in `live`: a person or the computer at its level."""
    seat = live.record.seat(side_of(color))
    if seat.user_id is not None:
        return UserRef(seat.user_id)
    return ComputerRef(seat.computer_level or 0)


def player_color(live: LiveGame, user_id: int) -> Color:
    """The colour `user_id` plays in `live` (playing oneself: the side to move). Raises
    `PlayerError(NOT_IN_GAME)` naming both players when they do not play in it."""
    record = live.record
    side = record.side_of(user_id)
    if side is None:
        raise PlayerError(Msg.NOT_IN_GAME, white=who_plays(live, Color.WHITE),
                          black=who_plays(live, Color.BLACK))
    if record.white.user_id == record.black.user_id == user_id:
        return live.game.position.turn
    return color_of(side)


def check_board(table: GameTable, live: LiveGame, board: BoardRef | None) -> None:
    """A press on `board` (None: a slash command) acts only on the ply it was drawn
    for; message ids play no part. Raises `StaleBoardError` (with the current board)
    for another ply, or a board whose buttons carry no ply."""
    if board is not None and (board.ply is None or board.ply != live.game.ply):
        raise StaleBoardError(table.state(live))
