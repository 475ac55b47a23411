"""`ComputerTurns`: the one runner of the computer's moves, for `/play` seats and absent
players alike.

It listens to the game service's events (`listen(events)`): `TurnChanged` whose side to
move is a computer seat (a game started, a move was committed, or `restore` after a
restart), and `AbsentPlayerTurn` (a person's per-move time ran out). For each it starts one
background task per game (a turn that comes while the game's task still runs starts when
that task ends): the task takes a copy of the game (`GameService.computer_turn`),
asks the `MoveChooser` (the process pool of `bot.computer`) for a move without holding
the channel's lock, then commits it through `GameService.commit_computer_move`, which
checks under the lock that the game is still at the ply it searched; a move chosen for a
position the game has left (someone moved, resigned, aborted) is dropped. `GameEnded`
cancels the game's search. The event loop never waits for a search, and a command in the
channel never waits for the computer.

A computer seat's move is asked for with `Admission.WHEN_ROOM` (`bot.computer_queue`): when
the computer's queue is full the chooser refuses it with `ComputerBusyError` and its
estimated wait. The runner then tells the channel once (the `delayed` callback, the
catalog's COMPUTER_DELAYED), sleeps that estimate and asks again with `Admission.ALWAYS`,
which is never refused; the refusal is not counted as a failed attempt, and a game that
ends meanwhile cancels the sleep like a search. An absent player's move is always asked
for with `Admission.ALWAYS` (their clock already ran out).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

import engine
from bot.computer_queue import Admission, ComputerBusyError
from bot.services.events import AbsentPlayerTurn, EventBus, GameEnded, TurnChanged
from bot.services.games import Announce, ComputerTurn, GameService
from bot.services.games.clock import thinking_budget
from bot.services.models import BoardState
from engine import Move
from engine.search import get_level

log = logging.getLogger(__name__)

ATTEMPTS = 3
"""How often the computer tries to choose a move before giving up (a worker that died is
replaced by the pool; the game then waits for a move of a person, a restart, or the
inactivity limit)."""

RETRY_SECONDS = 1.0

CLOSE_GRACE = 2.0
"""Seconds `close` waits for a computer's move being committed (stored, then its board
posted and recorded) before cancelling it: short, since a stop has already waited for the
interactions (`bot.client.CLOSE_GRACE`) and `docker stop` kills after 10 s."""

Delayed = Callable[[int, timedelta], Awaitable[None]]
"""Tells channel `channel_id` that the computer's move there will come in about `wait`
(the Discord layer's `GameAnnouncer.computer_delayed`)."""


class MoveChooser(Protocol):
    """Chooses the computer's moves (`bot.computer.PoolMoveChooser` over the process
    pool; tests use simple fakes)."""

    async def choose_move(
        self,
        game: engine.Game,
        level: int,
        *,
        budget_seconds: float | None,
        key: Hashable,
        admission: Admission = Admission.ALWAYS,
    ) -> Move:
        """A legal move of the side to move in `game` (not modified) at `level` (1..5),
        thinking at most `budget_seconds` (None: the level's own); `key` names the search
        for `cancel`. Cancelling the awaiting task stops the search. Raises
        `ComputerBusyError` (with the estimated wait) when `admission` is
        `Admission.WHEN_ROOM` and the computer's queue is full."""
        ...

    def cancel(self, key: Hashable) -> int:
        """Stop the searches started with `key`; returns how many were stopped."""
        ...


@dataclass(frozen=True)
class Strength:
    """How the computer plays for an absent person: `level` (1..5) and thinking seconds
    per move (`budget_seconds`, None: the level's own)."""

    level: int = 5
    budget_seconds: float | None = 1.0


class ComputerTurns:
    """Plays the computer's turns in the background.

    games: the game service (its `computer_turn`, `commit_computer_move`). chooser: the
    move chooser. announce: how a computer's move is told to the channel (the Discord
    layer's `GameAnnouncer.announce`; None: not announced). delayed: how a refused
    computer seat's move is told to the channel with its estimated wait (None: not told).
    absent: the strength for
    absent players; seat_budget: thinking seconds of a computer seat's moves (None: each
    level's own). Call `listen(events)` once, before the game service's `restore()`.
    """

    def __init__(
        self,
        games: GameService,
        chooser: MoveChooser,
        *,
        announce: Announce | None = None,
        delayed: Delayed | None = None,
        absent: Strength = Strength(),
        seat_budget: float | None = None,
    ) -> None:
        self._games = games
        self._chooser = chooser
        self._announce = announce
        self._delayed = delayed
        self._absent = absent
        self._seat_budget = seat_budget
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: dict[int, int] = {}
        """Games (id -> channel id) whose turn changed while their task was running."""
        self._committing: set[int] = set()
        """Games whose task has chosen its move and is committing it."""
        self._closed = False

    def listen(self, events: EventBus) -> None:
        """Subscribe to the events that start and stop the computer's turns."""
        events.subscribe(TurnChanged, lambda event: self._start(event.state, absent=False))
        events.subscribe(AbsentPlayerTurn, lambda event: self._start(event.state, absent=True))
        events.subscribe(GameEnded, lambda event: self._stop(event.state))

    def _start(self, state: BoardState, *, absent: bool) -> None:
        if self._closed:
            return  # shutting down (`close`): no new search
        if state.is_over or (not absent and state.to_move.user_id is not None):
            return
        running = self._tasks.get(state.game_id)
        if running is not None and not running.done():
            # Thinking (or committing) for an earlier turn of this game: when that ends,
            # a new turn starts and looks at the game as it is then.
            self._again[state.game_id] = state.channel_id
            return
        self._run(state.channel_id, state.game_id)

    def _run(self, channel_id: int, game_id: int) -> None:
        task = asyncio.create_task(
            self._turn(channel_id, game_id), name=f"dama-computer-{game_id}"
        )
        self._tasks[game_id] = task
        task.add_done_callback(functools.partial(self._forget, game_id))

    def _stop(self, state: BoardState) -> None:
        self._again.pop(state.game_id, None)
        self._chooser.cancel(state.game_id)
        task = self._tasks.get(state.game_id)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]
        channel_id = self._again.pop(game_id, None)
        if channel_id is not None and not self._closed:
            self._run(channel_id, game_id)

    @property
    def thinking(self) -> int:
        """How many games the computer is thinking (or committing a move) in."""
        return sum(1 for task in self._tasks.values() if not task.done())

    async def idle(self) -> None:
        """Wait until no computer turn is running (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        """Stop every search and wait for the turns to end; start no more. A move already
        being committed is let finish (for at most `CLOSE_GRACE` seconds), so a stored move
        is also announced and its board recorded."""
        self._closed = True
        self._again.clear()
        committing = []
        for game_id, task in list(self._tasks.items()):
            self._chooser.cancel(game_id)
            if game_id in self._committing:
                committing.append(task)
            else:
                task.cancel()
        if committing:
            await asyncio.wait(committing, timeout=CLOSE_GRACE)
            for task in committing:
                task.cancel()
        await self.idle()

    async def _turn(self, channel_id: int, game_id: int) -> None:
        turn = await self._games.computer_turn(channel_id, game_id)
        if turn is None:
            return
        move = await self._choose(turn)
        if move is None:
            return
        self._committing.add(game_id)
        try:
            await self._games.commit_computer_move(turn, move, announce=self._announce)
        except Exception:
            log.exception("the computer's move in game %s could not be played", game_id)
        finally:
            self._committing.discard(game_id)

    async def _choose(self, turn: ComputerTurn) -> Move | None:
        if turn.level is None:
            level, budget = self._absent.level, self._absent.budget_seconds
            admission = Admission.ALWAYS
        else:
            level, budget = turn.level, self._seat_budget
            admission = Admission.WHEN_ROOM
        if turn.time_left is not None:  # within its clock (docs/PLAYING.md, "Clocks")
            own = get_level(level).time_budget if budget is None else budget
            budget = thinking_budget(own, turn.time_left)
        attempt = 1
        while attempt <= ATTEMPTS:
            try:
                return await self._chooser.choose_move(
                    turn.game, level, budget_seconds=budget, key=turn.game_id,
                    admission=admission,
                )
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
                return None  # the search was stopped: the game ended
            except ComputerBusyError as busy:
                if admission is Admission.ALWAYS:
                    raise RuntimeError("the move chooser refused an ALWAYS request") from busy
                # Refused once: say so, wait the estimate, then ask with no refusal (a
                # WHEN_ROOM request is refused before anything runs: not a failure).
                admission = Admission.ALWAYS
                await self._tell_delayed(turn, timedelta(seconds=busy.wait_seconds))
                await asyncio.sleep(busy.wait_seconds)
            except Exception:
                log.exception("the computer failed to choose a move in game %s (attempt %d "
                              "of %d)", turn.game_id, attempt, ATTEMPTS)
                attempt += 1
                await asyncio.sleep(RETRY_SECONDS)
        return None

    async def _tell_delayed(self, turn: ComputerTurn, wait: timedelta) -> None:
        if self._delayed is None:
            return
        try:
            await self._delayed(turn.channel_id, wait)
        except Exception:
            log.exception("telling channel %s that the computer's move in game %s is "
                          "delayed failed", turn.channel_id, turn.game_id)
