"""The computer player as an async service: moves chosen by `engine.search` in a pool of
worker processes, so the bot's event loop never waits on a search.

Plain values in and out: a FEN, a variant key, a level, a budget in seconds; the move
comes back as text in full notation (every landing square, e.g. ``d3xd5xf5``), which
`engine.parse_move` and `Game.play` accept.

Cancellation. Each search gets a slot in a shared array of stop flags (a
`multiprocessing.RawArray` handed to every worker when it starts, so no Manager process
is needed). Cancelling the awaiting task (a game ends or is aborted), calling
`cancel(key)` for the game's key, or `close()` sets the slot's flag; the worker's search
reads it every 256 nodes (a few milliseconds) and returns, which frees the worker for the
next search. A search not yet started is simply dropped from the queue. The time budget
bounds every search in any case. A slot is reused only once its worker has finished.

Usage::

    async with ComputerPlayer() as computer:
        text = await computer.choose_move(fen, "italian", level=5, budget_seconds=2.0)
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Hashable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from engine import (
    Game,
    GameOverError,
    Move,
    Position,
    format_move,
    get_variant,
    legal_moves,
    parse_move,
)
from engine.search import get_level, search

DEFAULT_SLOTS = 64

# The stop flags of this worker process (set by `_init_worker`).
_FLAGS: Any = None


@dataclass(frozen=True, slots=True)
class ComputerMove:
    """A chosen move and how it was found.

    move: full notation (``d3xd5xf5``). score: the search's value for the side that moves
    (a man = 100). depth: plies searched completely. nodes: positions visited. elapsed:
    seconds of search in the worker. stopped: the budget or a stop ended the search early.
    """

    move: str
    score: int
    depth: int
    nodes: int
    elapsed: float
    stopped: bool


class _SlotStop:
    """The stop signal of one slot of the shared flags (read in the worker)."""

    def __init__(self, flags: Any, slot: int) -> None:
        self.flags = flags
        self.slot = slot

    def is_set(self) -> bool:
        return bool(self.flags[self.slot])


PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the bot process is still there."""


def _init_worker(flags: Any) -> None:
    global _FLAGS
    _FLAGS = flags
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True,
                     name="dama-watch-parent").start()


def _watch_parent(parent: int) -> None:
    """End this worker when the bot process is gone (killed with no clean-up: SIGKILL, a
    crash), so no orphaned search keeps a CPU busy."""
    while True:
        time.sleep(PARENT_CHECK_SECONDS)
        if os.getppid() != parent:
            os._exit(0)


def _warm() -> int:
    """Run in each worker at start: import the engine and return the process id."""
    return os.getpid()


def _think(
    fen: str,
    variant_key: str,
    level: int,
    budget: float | None,
    slot: int,
    seed: int,
    history: tuple[str, ...],
) -> ComputerMove:
    """The worker's job: search the position and return the move (full notation)."""
    variant = get_variant(variant_key)
    position = Position.from_fen(fen, variant)
    earlier = [Position.from_fen(text, variant) for text in history]
    stop = _SlotStop(_FLAGS, slot) if slot >= 0 and _FLAGS is not None else None
    result = search(
        position, variant, level=level, time_budget=budget, stop=stop, seed=seed,
        history=earlier,
    )
    if result.move is None:
        raise GameOverError("the side to move has no legal move; the game is over")
    return ComputerMove(
        format_move(result.move, position, variant, full=True),
        result.score, result.depth, result.nodes, result.elapsed, result.stopped,
    )


class ComputerPlayer:
    """Chooses moves in a process pool. Create it inside the running event loop's program
    (e.g. the bot's setup hook), use it from coroutines, and `await close()` at the end
    (or use it as an async context manager).

    workers: worker processes (default: `os.cpu_count()`). slots: most searches that can
    be stopped individually at once (more are still run, bounded by their budget only).
    """

    def __init__(self, workers: int | None = None, *, slots: int = DEFAULT_SLOTS) -> None:
        self.workers = workers if workers is not None else max(1, os.cpu_count() or 1)
        if self.workers < 1 or slots < 1:
            raise ValueError("a computer player needs at least one worker and one slot")
        self._context = multiprocessing.get_context("spawn")
        self._flags: Any = self._context.RawArray("b", slots)
        self._lock = threading.Lock()
        self._free = list(range(slots - 1, -1, -1))
        self._running: dict[int, tuple[Hashable | None, asyncio.Future[ComputerMove]]] = {}
        self._closed = False
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=self._context,
            initializer=_init_worker, initargs=(self._flags,),
        )

    async def __aenter__(self) -> ComputerPlayer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the worker processes now rather than at the first move (optional)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(
            loop.run_in_executor(self._executor, _warm) for _ in range(self.workers)
        ))

    @property
    def busy(self) -> int:
        """How many searches are queued or running."""
        with self._lock:
            return len(self._running)

    async def choose_move(
        self,
        fen: str,
        variant_key: str,
        level: int = 5,
        budget_seconds: float | None = None,
        *,
        history: Sequence[str] = (),
        seed: int | None = None,
        key: Hashable | None = None,
    ) -> str:
        """The computer's move in `fen` (the side to move's), as full-notation text.

        variant_key: a variant key or alias. level: 1..5. budget_seconds: most seconds of
        thinking (default: the level's, level 5 about 2 s). history: FENs of the game's
        earlier positions, oldest first, so the computer knows what would repeat. seed: the
        random choice of levels 1..4 (default: a fresh random seed). key: any hashable
        naming the game, for `cancel(key)`.

        Raises UnknownVariantError, PositionError, ValueError (level, budget) for bad input;
        GameOverError when the side to move has no legal move; RuntimeError after
        `close()`. Cancelling the awaiting task stops the search in its worker.
        """
        return (await self.think(
            fen, variant_key, level, budget_seconds, history=history, seed=seed, key=key
        )).move

    async def think(
        self,
        fen: str,
        variant_key: str,
        level: int = 5,
        budget_seconds: float | None = None,
        *,
        history: Sequence[str] = (),
        seed: int | None = None,
        key: Hashable | None = None,
    ) -> ComputerMove:
        """Like `choose_move`, returning the move with its score, depth and nodes."""
        if self._closed:
            raise RuntimeError("the computer player has been closed")
        variant = get_variant(variant_key)
        position = Position.from_fen(fen, variant)
        for text in history:
            Position.from_fen(text, variant)
        get_level(level)
        if budget_seconds is not None and not budget_seconds >= 0:
            raise ValueError(
                f"the thinking budget must be 0 seconds or more, not {budget_seconds!r}"
            )
        if not legal_moves(position, variant):
            raise GameOverError("the side to move has no legal move; the game is over")
        if seed is None:
            seed = random.randrange(1 << 31)
        args = (fen, variant.key, level, budget_seconds, seed, tuple(history))
        try:
            return await self._run(args, key)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and try once more.
            self._executor = self._new_executor()
            return await self._run(args, key)

    async def _run(self, args: tuple[Any, ...], key: Hashable | None) -> ComputerMove:
        fen, variant_key, level, budget, seed, history = args
        with self._lock:
            slot = self._free.pop() if self._free else -1
        if slot >= 0:
            self._flags[slot] = 0
        try:
            cf: Future[ComputerMove] = self._executor.submit(
                _think, fen, variant_key, level, budget, slot, seed, history
            )
        except BaseException:
            self._release(slot)
            raise
        waiter = asyncio.wrap_future(cf)
        if slot >= 0:
            with self._lock:
                self._running[slot] = (key, waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if slot >= 0:
                self._flags[slot] = 1  # the worker stops at its next poll
            cf.cancel()
            raise
        finally:
            if slot >= 0:
                with self._lock:
                    self._running.pop(slot, None)
            # Reuse the slot only once the worker is done with it.
            cf.add_done_callback(lambda _f: self._release(slot))

    def _release(self, slot: int) -> None:
        if slot >= 0:
            with self._lock:
                self._free.append(slot)

    def cancel(self, key: Hashable) -> int:
        """Stop every search started with `key` (their `choose_move` calls raise
        CancelledError). Returns how many were stopped."""
        with self._lock:
            found = [(slot, w) for slot, (k, w) in self._running.items() if k == key]
        for slot, waiter in found:
            self._flags[slot] = 1
            waiter.cancel()
        return len(found)

    async def close(self) -> None:
        """Stop every search and end the worker processes (waits for them to exit).
        Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            running = list(self._running.values())
        for i in range(len(self._flags)):
            self._flags[i] = 1
        for _, waiter in running:
            waiter.cancel()
        executor = self._executor
        await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


class PoolMoveChooser:
    """Chooses the computer's moves in games (for `/play` seats and absent players alike):
    the `MoveChooser` of `bot.services.computer_turns` on top of a `ComputerPlayer`.

    `choose_move(game, level, budget_seconds=..., key=...)` searches the game's current
    position with its earlier positions as history (so it avoids or seeks repetitions
    knowingly) and returns the legal `Move`; `game` is not modified. `cancel(key)` stops
    the searches of `key`. Raises GameOverError when the side to move has no legal move,
    ValueError for a level outside 1..5 or a negative budget.
    """

    def __init__(self, computer: ComputerPlayer) -> None:
        self.computer = computer

    async def choose_move(
        self, game: Game, level: int, *, budget_seconds: float | None, key: Hashable
    ) -> Move:
        """A legal move of the side to move in `game` at `level`."""
        variant = game.variant
        position = game.position
        history = [p.to_fen(variant) for p in game.positions()[:-1]]
        text = await self.computer.choose_move(
            position.to_fen(variant), variant.key, level, budget_seconds,
            history=history, key=key,
        )
        return parse_move(text, position, variant)

    def cancel(self, key: Hashable) -> int:
        """Stop every search started with `key`; returns how many were stopped."""
        return self.computer.cancel(key)
