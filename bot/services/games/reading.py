"""`GameReading`: what the channels' games look like (`current`, `/board`'s `show_board`,
the `/move` autocomplete's `suggestion_source`), a stored game by id (`game_of`), and what
a finished game leaves (`last_ended`, `rematch_of`)."""

from __future__ import annotations

import engine
from bot.messages import Msg
from bot.services.errors import ComputerRef, PlayerError, UserRef
from bot.services.games.core import GameCore
from bot.services.games.values import Announce, Rematch
from bot.services.models import (
    BoardState,
    GameUpdate,
    MoveChoice,
    UpdateKind,
    color_of,
    side_of,
)
from bot.services.move_text import MAX_CHOICES, suggest_moves
from bot.services.visibility import Requester, can_see
from engine import Move, Position, Variant
from engine.movegen import legal_moves
from storage import GameRecord, GameStatus


class GameReading:
    """Reads the games; only `show_board` changes something (the recorded board)."""

    def __init__(self, core: GameCore) -> None:
        self._core = core

    def current(self, channel_id: int) -> BoardState:
        """The channel's active game. Raises `PlayerError`: GAME_ENDED_HERE (with the
        `game_id` and the final `BoardState` as `result`) when the channel's last game ended
        since start-up, GAME_QUARANTINED (with its `game_id`) when the channel's game cannot
        continue (its stored moves no longer replay), else NO_GAME_HERE."""
        return self._core.table.state(self._core.table.require(channel_id))

    def _visible(self, channel_id: int, requester: Requester) -> BoardState:
        table = self._core.table
        live = table.require(channel_id, user_id=requester.user_id)
        if not can_see(requester, live.record):
            raise PlayerError(Msg.NO_GAME_HERE)
        return table.state(live)

    async def show_board(
        self, channel_id: int, requester: Requester, *, announce: Announce | None
    ) -> GameUpdate:
        """Show the channel's game again (`/board`) to `requester`: a SHOWN update is
        announced under the channel's lock and the new board message becomes the game's
        board (the previous one is named in the update, to lose its buttons). Raises
        `PlayerError` as `current`, and NO_GAME_HERE when the requester may not see the game
        (`bot.services.visibility.can_see`: asked from another guild)."""
        if not self._core.table.is_dormant(channel_id):
            self._visible(channel_id, requester)  # refuse before waiting for the lock
        async with self._core.table.hold(channel_id):
            state = self._visible(channel_id, requester)
            update = GameUpdate(UpdateKind.SHOWN, state, None, None, state.board_message_id)
            return await self._core.announce(update, announce)

    async def game_of(self, game_id: int) -> tuple[GameRecord, engine.Game]:
        """A stored game and its engine replay. Raises `PlayerError(UNKNOWN_GAME)`, and
        `engine.DamaError` when its stored moves no longer replay."""
        if await self._core.storage.games.get(game_id) is None:
            raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
        live = await self._core.load(game_id)
        return live.record, live.game

    def suggestion_source(
        self, channel_id: int, user_id: int
    ) -> tuple[Position, Variant, tuple[Move, ...]] | None:
        """What `bot.services.move_text.suggest_moves` needs for the caller (position,
        variant, legal moves: plain immutable values, safe to hand to a worker thread), or
        None when there is no game here, it is being advanced, or it is not the caller's
        turn."""
        live = self._core.table.get(channel_id)
        if live is None or live.advancing:
            return None
        game = live.game
        if live.record.seat(side_of(game.position.turn)).user_id != user_id:
            return None
        return game.position, game.variant, tuple(game.legal_moves())

    async def last_ended(self, channel_id: int, user_id: int) -> int | None:
        """The id of the channel's last game that ended (since start-up), else of
        `user_id`'s most recent ended game in the channel (from storage, e.g. after a
        restart); None if neither."""
        ended = self._core.table.last_ended(channel_id)
        if ended is not None:
            return ended.game_id
        recent = await self._core.storage.games.recent_for_user(user_id, limit=20,
                                                                include_aborted=True)
        return next((g.id for g in recent if g.channel_id == channel_id), None)

    async def rematch_of(self, game_id: int, user_id: int) -> Rematch:
        """The rematch of finished game `game_id` that `user_id` asks for: the same game
        with colours swapped. Raises `PlayerError`: UNKNOWN_GAME, REMATCH_NOT_PLAYER (not
        a player of it), ALREADY_PLAYING_HERE (it is not finished),
        REMATCH_TOURNAMENT_GAME (a tournament's game: the tournament pairs its players)."""
        record = await self._core.storage.games.get(game_id)
        if record is None:
            raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
        side = record.side_of(user_id)
        if side is None:
            white, black = (
                UserRef(seat.user_id) if seat.user_id is not None
                else ComputerRef(seat.computer_level or 0)
                for seat in (record.white, record.black)
            )
            raise PlayerError(Msg.REMATCH_NOT_PLAYER, game_id=game_id, white=white,
                              black=black)
        if record.status is GameStatus.ACTIVE:
            raise PlayerError(Msg.ALREADY_PLAYING_HERE)  # its board has no Rematch button
        if await self._core.storage.tournaments.by_game(game_id) is not None:
            raise PlayerError(Msg.REMATCH_TOURNAMENT_GAME, game_id=game_id)
        other = record.seat(side.opponent)
        return Rematch(game_id, record.variant, record.rated, record.move_seconds,
                       color_of(side).opponent, other.user_id, other.computer_level,
                       record.time_control)


def move_options(position: Position, variant: Variant,
                 numeric: bool = True) -> tuple[MoveChoice, ...]:
    """The legal moves of `position` as a board's move select lists them (as `/move`'s
    autocomplete: captures first, Italian in both notations, `numeric` first); empty when
    there are more than `MAX_CHOICES` (Discord's 25 options of a select) or none. Pure
    and possibly slow: callers run it through the move work."""
    moves = tuple(legal_moves(position, variant))
    if len(moves) > MAX_CHOICES:
        return ()
    return tuple(suggest_moves(position, variant, moves, "", numeric))
