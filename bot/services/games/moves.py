"""`GameMoves`: moves and their commits, a player's (`play`) and the computer's
(`computer_turn`, then `commit_computer_move`).

Under the channel's lock a move is read (`bot.services.move_text`), played on the live game
off the event loop (`_advance`), stored in one transaction (`_store`: the move alone, or
the move that ends the game with its end and the rating changes), and the live game
updated; then its board is announced (`GameCore.announce`). If the step is not committed,
the move is taken back from the live game, so memory and database agree. While a live
game is being advanced (`LiveGame.advancing`), readers that take no lock
(`computer_turn`, the autocomplete's `suggestion_source`) leave it alone.
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta

import engine
from bot.faults import FaultPoint, reach
from bot.messages import Msg
from bot.ratings.calculator import glicko2_calculator
from bot.services.errors import PlayerError
from bot.services.events import DeadlinesChanged, TurnChanged
from bot.services.games.clock import after_move, flag_fell, remaining
from bot.services.games.core import GameCore, check_board, player_color, who_plays
from bot.services.games.loading import played, replayed
from bot.services.games.values import Announce, ComputerTurn, LiveGame, result_of
from bot.services.models import BoardRef, Ending, EndReason, GameUpdate, UpdateKind, side_of
from bot.services.move_text import move_texts, parse_player_move
from engine import Color, Move
from engine.movegen import play_unchecked
from engine.squares_board import move_name
from storage import (
    ClockState,
    GameNotActiveError,
    GameRecord,
    MoveRecord,
    StaleMoveError,
)


@dataclass(frozen=True)
class _Step:
    """A move about to be stored: its ply, its text in full, the clock after it (and, for
    the computer's move for an absent person, how many such moves in a row of how many
    allowed), whether it lapses the mover's own draw offer."""

    ply: int
    text: str
    clock: ClockState
    absent: tuple[int, int] | None
    clear_offer: bool


class GameMoves:
    """Plays moves on the live games."""

    def __init__(self, core: GameCore) -> None:
        self._core = core

    async def play(
        self, channel_id: int, user_id: int, text: str, *, announce: Announce | None = None,
        board: BoardRef | None = None,
    ) -> GameUpdate:
        """`user_id` plays move `text` in the channel's game; from a board's move select,
        only at the ply of that `board` (None: a slash command). The move is committed
        before `announce` is called. Raises `StaleBoardError` (with the current board) when
        the game is no longer at `board`'s ply; `PlayerError`: as `GameTable.require`,
        NOT_IN_GAME,
        NOT_YOUR_TURN, OUT_OF_TIME (the player's clock reached zero: the game is being
        lost on time), a refused move (`problem_error`), MOVE_AMBIGUOUS, MOVE_RACE (another
        process moved first), GAME_OVER (it ended meanwhile)."""
        core = self._core
        async with core.table.hold(channel_id):
            live = core.table.require(channel_id, user_id=user_id)
            color = player_color(live, user_id)
            check_board(core.table, live, board)
            position = live.game.position
            if position.turn is not color:
                raise PlayerError(Msg.NOT_YOUR_TURN, player=who_plays(live, position.turn),
                                  color=position.turn)
            if flag_fell(live.record.clock, core.clock()):
                raise PlayerError(Msg.OUT_OF_TIME)
            variant = live.game.variant
            move = await core.move_work.run(
                [(position, variant)], parse_player_move, text, position, variant
            )
            return await self._commit(live, move, actor=user_id, by_computer=False,
                                      announce=announce)

    async def computer_turn(self, channel_id: int, game_id: int) -> ComputerTurn | None:
        """The turn the computer is to play in game `game_id` of the channel: a computer
        seat is to move, or the person to move ran out of time (`AbsentPlayerTurn`), with a
        copy of the game (made off the loop; the game may move on meanwhile, which
        `commit_computer_move` notices). None when neither holds (the game ended, someone
        moved or is moving: the `TurnChanged` after that move starts the next turn)."""
        core = self._core
        live = core.table.get(channel_id, game_id)
        if live is None or live.advancing:
            return None
        seat = live.record.seat(side_of(live.game.position.turn))
        if seat.computer_level is None and not core.table.is_absent(game_id):
            return None
        game = live.game
        weigh = [(game.start, game.variant), (game.position, game.variant)]
        copy = await core.move_work.run(weigh, replayed, game, game.ply)
        turn = copy.position.turn
        left = remaining(live.record.clock, turn, turn, core.clock())
        return ComputerTurn(channel_id, game_id, copy.ply, copy, seat.computer_level, left)

    async def commit_computer_move(
        self, turn: ComputerTurn, move: Move, *, announce: Announce | None = None
    ) -> GameUpdate | None:
        """Play `move`, chosen by the computer for `turn`: validated, committed
        (`by_computer`), then announced, under the channel's lock, only if the game is
        still where the computer searched (same game, same ply, still the computer's turn,
        its clock not run out). None (nothing changed) otherwise: the game ended, someone
        moved or resigned meanwhile, or its clock ran out (the deadlines end the game).
        Raises `PlayerError(MOVE_NOT_LEGAL)` for a move that is not legal there (a
        programming error of the move chooser)."""
        table = self._core.table
        async with table.hold(turn.channel_id):
            live = table.get(turn.channel_id, turn.game_id)
            if live is None or live.game.ply != turn.ply:
                return None
            if not table.computer_seat_to_move(live) and not table.is_absent(turn.game_id):
                return None
            if flag_fell(live.record.clock, self._core.clock()):
                return None  # its clock ran out: the deadlines end the game on time
            if move not in live.game.legal_moves():
                raise PlayerError(Msg.MOVE_NOT_LEGAL,
                                  text=move_name(move, live.game.variant.board_size))
            return await self._commit(live, move, actor=None, by_computer=True,
                                      announce=announce)

    async def _commit(
        self, live: LiveGame, move: Move, *, actor: int | None, by_computer: bool,
        announce: Announce | None,
    ) -> GameUpdate:
        """Play `move` on `live`, store it and announce it (the caller holds the lock).
        Raises `PlayerError` MOVE_RACE or GAME_OVER when storage refuses the step, and what
        storage raises otherwise; the live game is as before then."""
        record, game = live.record, live.game
        position, variant = game.position, game.variant
        short, full = await self._core.move_work.run(
            [(position, variant)], move_texts, move, position, variant
        )
        now = self._core.clock()
        step = self._step(record, position.turn, full, game.ply + 1, by_computer, now)
        await self._advance(live, move)  # taken back by `_store` if not committed
        stored, ended = await self._store(live, game, step, by_computer, now)
        return await self._committed(live, step, stored, ended, short,
                                     actor=actor, by_computer=by_computer, announce=announce)

    def _step(
        self, record: GameRecord, color: Color, text: str, ply: int, by_computer: bool,
        now: datetime,
    ) -> _Step:
        """The step of a move by `color` (docs/RULES.md, "Project-wide game rules", Time):
        a new per-move deadline, or the clocks after the move (`clock.after_move`: the
        mover's increment added, the opponent's clock running), and the count of the
        computer's moves in a row for an absent person (reset by their own move)."""
        counts = {
            Color.WHITE: record.clock.white_computer_moves,
            Color.BLACK: record.clock.black_computer_moves,
        }
        side = side_of(color)
        for_absent = by_computer and not record.seat(side).is_computer
        counts[color] = counts[color] + 1 if for_absent else 0
        limit = self._core.table.rules.computer_moves_before_forfeit
        seconds = record.move_seconds
        deadline = None if seconds is None else now + timedelta(seconds=seconds)
        clock = ClockState(deadline, counts[Color.WHITE], counts[Color.BLACK])
        if record.time_control is not None:
            clock = after_move(
                dataclasses.replace(record.clock, white_computer_moves=counts[Color.WHITE],
                                    black_computer_moves=counts[Color.BLACK]),
                record.time_control, color, now,
            )
        return _Step(
            ply=ply, text=text, clock=clock,
            absent=(counts[color], limit) if for_absent else None,
            clear_offer=record.draw_offer_by is side,
        )

    async def _store(
        self, live: LiveGame, before: engine.Game, step: _Step, by_computer: bool,
        now: datetime,
    ) -> tuple[MoveRecord, GameRecord | None]:
        """Store `step` (`live.game` already has its move; `before`: the game before it)
        in one transaction: the move alone, or, when it ends the game, the move, the end
        and both rating changes, so no crash can leave the game active in an ended
        position. Returns the stored move and the ended record (None: the game goes on).
        If nothing was stored, the move is taken back from `live` first."""
        core, record, game = self._core, live.record, live.game
        outcome = game.outcome
        try:
            reach(FaultPoint.STEP_COMMIT)
            if outcome is None:
                stored = await core.storage.games.append_move(
                    record.id, ply=step.ply, text=step.text, by_computer=by_computer,
                    clock=step.clock, clear_draw_offer=step.clear_offer,
                )
                ended = None
            else:
                result = result_of(outcome.winner)
                stored, ended = await core.storage.games.append_final_move(
                    record.id, ply=step.ply, text=step.text, by_computer=by_computer,
                    clock=step.clock, clear_draw_offer=step.clear_offer, result=result,
                    termination=EndReason.of(outcome.termination).value,
                    rate=glicko2_calculator(result, now) if record.rated else None,
                )
        except StaleMoveError:
            # Another process changed the game: reload it and let the player look again.
            core.table.put(await core.load(record.id))
            raise PlayerError(Msg.MOVE_RACE) from None
        except GameNotActiveError:
            core.table.drop(record.channel_id)
            raise PlayerError(Msg.GAME_OVER) from None
        except BaseException:
            live.game = before if game is not before else replayed(game, step.ply - 1)
            raise
        reach(FaultPoint.STEP_COMMITTED)
        return stored, ended

    async def _committed(
        self, live: LiveGame, step: _Step, stored: MoveRecord, ended: GameRecord | None,
        short: str, *, actor: int | None, by_computer: bool, announce: Announce | None,
    ) -> GameUpdate:
        """After the step was stored: update the live game, close it when the move ended
        it (`GameEnded`), else publish `DeadlinesChanged` and `TurnChanged`; then announce
        the move."""
        core, record, game = self._core, live.record, live.game
        core.table.set_absent(record.id, False)
        previous_board = record.board_message_id
        live.record = dataclasses.replace(
            record, ply_count=game.ply, clock=step.clock, updated_at=stored.played_at,
            draw_offer_by=None if step.clear_offer else record.draw_offer_by,
        )
        live.last_activity = stored.played_at
        live.last_move_text = short
        event = UpdateKind.COMPUTER_MOVED if by_computer else UpdateKind.MOVED
        outcome = game.outcome
        if outcome is not None and ended is not None:
            reason = EndReason.of(outcome.termination)
            state = core.close(live, ended, Ending(reason, outcome.winner, ended.result))
            event = UpdateKind.ENDED
        else:
            state = core.table.state(live)
            core.events.publish(DeadlinesChanged())
            core.events.publish(TurnChanged(state))
        update = GameUpdate(event, state, actor, short, previous_board, step.absent)
        return await core.announce(update, announce)

    async def _advance(self, live: LiveGame, move: Move) -> None:
        """Play `move` on the live game in a worker thread (listing the next position's
        moves may take long); readers without the lock leave the game alone meanwhile
        (`LiveGame.advancing`). Raises what `Game.play` raises. If the caller is cancelled
        meanwhile, the thread is let finish and the move taken back before the
        cancellation goes on, so the game never changes behind the caller's back. When
        the next position has very many capture states (`bot.move_work`), a copy of the
        game plays the move in the worker process and replaces `live.game` (the game
        before is left as it was)."""
        game = live.game
        live.advancing = True
        work: asyncio.Future[Move] | None = None
        try:
            after = play_unchecked(game.position, move, game.variant)
            if await self._core.move_work.is_heavy([(after, game.variant)]):
                live.game = await self._core.move_work.in_process(played, game, move)
                return
            work = asyncio.ensure_future(asyncio.to_thread(game.play, move))
            await asyncio.shield(work)
        except asyncio.CancelledError:
            if work is None:
                raise  # the live game was not touched
            await asyncio.wait([work])
            if not work.cancelled() and work.exception() is None:
                live.game = replayed(game, game.ply - 1)
            raise
        finally:
            live.advancing = False
