"""`ComputerGames`: games against the computer (`/play`) and the computer seats' moves.

Starting: `start` creates an unrated game with one human seat and one computer seat
(`Seat.computer(level)`) under the channel's lock and hands it to the `GameService`, so
the board, buttons and every game command work as in any game.

Moving: the service listens to the `GameService` hooks. When the side to move is a
computer seat (`turn_changed`: a game started, a move was committed, or `resume` after a
restart), it starts one background task for that game: the task copies the game, asks the
`SeatMover` (the process pool of `bot.computer`) for a move, without holding the channel's
lock, then commits it through `GameService.commit_computer_move`, which checks under the
lock that the game has not moved on. When a game ends or is aborted (`game_ended`), its
search is cancelled (`SeatMover.cancel(game_id)`). The event loop never waits for a
search; it only awaits its result.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Hashable
from datetime import timedelta
from typing import Protocol

import engine
from bot.config import MoveTime
from bot.messages import Msg
from bot.services.challenges import Person, variant_key
from bot.services.errors import PlayerError
from bot.services.games import Announce, GameService
from bot.services.models import BoardState, Event, GameUpdate
from engine import Move, Position, get_variant
from storage import ChannelBusyError, ColorChoice, NewGame, Seat, Storage, utc_now
from storage.clock import Clock

log = logging.getLogger(__name__)

LEVELS = range(1, 6)
"""The computer's levels: 1 (easiest) to 5 (strongest)."""

DEFAULT_LEVEL = 3

ATTEMPTS = 3
"""How often the computer tries to choose a move before giving up (a worker that died is
replaced by the pool; the game then waits for its deadline or a restart)."""

RETRY_SECONDS = 1.0


class SeatMover(Protocol):
    """Chooses the moves of computer seats (`bot.computer.ComputerSeats` over the pool)."""

    async def choose_move(self, game: engine.Game, level: int, *, key: Hashable) -> Move:
        """A legal move of the side to move in `game` at `level` (1..5); `key` names the
        search for `cancel`. Cancelling the awaiting task stops the search."""
        ...

    def cancel(self, key: Hashable) -> int:
        """Stop the searches started with `key`; returns how many were stopped."""
        ...


class ComputerGames:
    """Starts games against the computer and plays its seats' moves.

    `announce`: how a computer's move is told to the channel (the Discord layer sets it to
    its deadline listener's `game_update`; None: not announced). Call `attach()` once the
    `GameService` exists and `resume()` after its `restore()`.
    """

    def __init__(
        self,
        storage: Storage,
        games: GameService,
        mover: SeatMover,
        *,
        clock: Clock = utc_now,
        rng: random.Random | None = None,
    ) -> None:
        self._storage = storage
        self._games = games
        self._mover = mover
        self._clock = clock
        self._rng = rng if rng is not None else random.Random()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.announce: Announce | None = None

    # --- wiring -------------------------------------------------------------------------

    def attach(self) -> None:
        """Listen to the game service's turn and end hooks (chaining earlier listeners)."""
        turn_before = self._games.turn_changed
        ended_before = self._games.game_ended

        def turn_changed(state: BoardState) -> None:
            turn_before(state)
            self.turn_changed(state)

        def game_ended(state: BoardState) -> None:
            ended_before(state)
            self.game_ended(state)

        self._games.turn_changed = turn_changed
        self._games.game_ended = game_ended

    def resume(self) -> int:
        """Start thinking in every active game where a computer seat is to move (after a
        restart). Returns how many games that is."""
        started = 0
        for state in self._games.active_games():
            if self.turn_changed(state):
                started += 1
        return started

    def turn_changed(self, state: BoardState) -> bool:
        """Start the computer's turn if a computer seat is to move in `state`'s game and it
        is not already thinking there. Returns whether a turn was started."""
        if state.is_over or state.to_move.user_id is not None:
            return False
        running = self._tasks.get(state.game_id)
        if running is not None and not running.done():
            return False
        task = asyncio.create_task(
            self._turn(state.channel_id, state.game_id), name=f"dama-computer-{state.game_id}"
        )
        self._tasks[state.game_id] = task
        task.add_done_callback(functools.partial(self._forget, state.game_id))
        return True

    def game_ended(self, state: BoardState) -> None:
        """Stop the computer's search in a game that ended or was aborted."""
        self._mover.cancel(state.game_id)
        task = self._tasks.get(state.game_id)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]

    @property
    def thinking(self) -> int:
        """How many games the computer is thinking (or committing a move) in."""
        return sum(1 for task in self._tasks.values() if not task.done())

    async def idle(self) -> None:
        """Wait until no computer turn is running (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        """Cancel every running turn and wait for them."""
        for game_id, task in list(self._tasks.items()):
            self._mover.cancel(game_id)
            task.cancel()
        await self.idle()

    async def _turn(self, channel_id: int, game_id: int) -> None:
        found = self._games.computer_to_move(channel_id)
        if found is None or found[1] != game_id:
            return
        game, _, ply, level = found
        move: Move | None = None
        for attempt in range(1, ATTEMPTS + 1):
            try:
                move = await self._mover.choose_move(game, level, key=game_id)
                break
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
                return  # the search was stopped: the game ended
            except Exception:
                log.exception("the computer failed to choose a move in game %s (attempt %d "
                              "of %d)", game_id, attempt, ATTEMPTS)
                await asyncio.sleep(RETRY_SECONDS)
        if move is None:
            return
        try:
            await self._games.commit_computer_move(
                channel_id, game_id, ply, move, announce=self.announce
            )
        except Exception:
            log.exception("the computer's move in game %s could not be played", game_id)

    # --- starting -----------------------------------------------------------------------

    async def start(
        self,
        *,
        player: Person,
        guild_id: int | None,
        channel_id: int,
        variant: str,
        level: int = DEFAULT_LEVEL,
        color: ColorChoice = ColorChoice.RANDOM,
        move_time: MoveTime = MoveTime.NONE,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """Start an unrated game of `player` against the computer at `level` in the channel;
        `color` is the player's. `announce` (inside the channel's lock) gets the STARTED
        update; when the computer has White it starts thinking at once. Raises
        `PlayerError`: UNKNOWN_VARIANT, BAD_LEVEL, ALREADY_PLAYING_HERE, CHANNEL_BUSY."""
        key = variant_key(variant)
        if level not in LEVELS:
            raise PlayerError(Msg.BAD_LEVEL, level=level)
        async with self._games.locks.hold(channel_id):
            players = self._games.players_in(channel_id)
            if players is not None:
                if player.user_id in players:
                    raise PlayerError(Msg.ALREADY_PLAYING_HERE)
                raise PlayerError(Msg.CHANNEL_BUSY)
            if color is ColorChoice.RANDOM:
                human_white = self._rng.random() < 0.5
            else:
                human_white = color is ColorChoice.WHITE
            human, computer = Seat.human(player.user_id), Seat.computer(level)
            white, black = (human, computer) if human_white else (computer, human)
            v = get_variant(key)
            seconds = move_time.seconds
            deadline = None if seconds is None else self._clock() + timedelta(seconds=seconds)
            await self._storage.players.upsert(player.user_id, player.name)
            try:
                record = await self._storage.games.create(NewGame(
                    variant=key, channel_id=channel_id, guild_id=guild_id, white=white,
                    black=black, start_fen=Position.start(v).to_fen(v), rated=False,
                    move_seconds=seconds, deadline=deadline,
                ))
            except ChannelBusyError:
                raise PlayerError(Msg.CHANNEL_BUSY) from None
            state = await self._games.adopt(record)
            update = GameUpdate(Event.STARTED, state, player.user_id)
            if announce is not None:
                message_id = await announce(update)
                if message_id is not None:
                    await self._games.set_board_message_locked(record.id, message_id)
                    update = GameUpdate(
                        Event.STARTED, self._games.current(channel_id), player.user_id
                    )
            return update
