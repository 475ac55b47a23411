"""Where the bot's move work runs: a worker thread for ordinary positions, a worker process
for positions whose capture search is heavy.

Parsing a move, writing it, playing it on the live game (which lists the next position's
moves), the `/move` autocomplete and the board picture (which checks the last move against
the position before) all list a position's legal moves. That costs little in nearly every
position, and such work runs in a worker thread (`asyncio.to_thread`) as before. A set-up
position can have tens of thousands of capture states (docs/RULES.md; about 70 ms of
Python for the worst known one): in a thread, that work shares the interpreter's lock
with the event loop and every other game waits for it. So each call first asks, in a
thread, whether one of the positions it touches has more than `STATE_BUDGET` capture
states (`engine.movegen.capture_states_over`, which stops at the budget: a few
milliseconds at most); if so the whole call runs in a process of its own (one worker,
started at the first heavy position; the computer's search pool is not used, so heavy
positions never take a worker from a computer move). The function and its arguments must
then be picklable (module-level functions, engine values). A worker process that dies (the
out-of-memory killer, a crash) is replaced: the call it was running, or the next one, runs
once more in a new process (move work only reads its arguments, so running it again is
safe); a call that kills a second process in a row raises `BrokenProcessPool`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from engine import Position, Variant
from engine.movegen import capture_states_over

T = TypeVar("T")

#: Most capture states a position may have for its move work to run in a worker thread
#: (about 5 ms of Python at 2.5 microseconds a state); past it, in the worker process.
STATE_BUDGET = 2_000


def heavy(positions: Sequence[tuple[Position, Variant]], budget: int = STATE_BUDGET) -> bool:
    """Whether one of `positions` has more than `budget` capture states."""
    return any(capture_states_over(position, variant, budget) for position, variant in positions)


def _unless_heavy(
    positions: Sequence[tuple[Position, Variant]], budget: int, fn: Callable[..., T],
    args: tuple[object, ...],
) -> tuple[bool, T | None]:
    """(True, `fn(*args)`), or (False, None) without calling it when one of `positions`
    has more than `budget` capture states: the weighing and the work in one hop to a
    worker thread."""
    if heavy(positions, budget):
        return False, None
    return True, fn(*args)


def _ready(parent: int) -> None:
    """Run in the new worker process: watch the bot process `parent` (its process id), so
    the worker ends when the bot is killed with no clean-up (SIGKILL, a crash) instead of
    staying behind (`bot.computer.worker.watch_parent`), and build
    the renderer's caches (the first picture of a process takes up to a second without
    them)."""
    from bot.computer.worker import watch_parent
    from renderer import warm_up

    watch_parent(parent)
    warm_up()


def _nothing() -> None:
    """A call that only waits for the worker process to be up (`MoveWork.warm`)."""


class MoveWork:
    """Runs move work off the event loop (see the module docstring). `budget`: the state
    budget for a worker thread. Call `close()` at the end."""

    def __init__(self, budget: int = STATE_BUDGET) -> None:
        self.budget = budget
        self._executor: ProcessPoolExecutor | None = None
        #: How many calls ran in the worker process (for tests and benchmarks).
        self.in_process_calls = 0
        #: Whether the worker process is up: a call in it has returned, and it has not
        #: died since (`warm` makes it so at start-up).
        self.ready = False

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_ready, initargs=(os.getpid(),),
            )
        return self._executor

    async def is_heavy(self, positions: Sequence[tuple[Position, Variant]]) -> bool:
        """Whether one of `positions` has more than `budget` capture states (asked in a
        worker thread)."""
        return await asyncio.to_thread(heavy, positions, self.budget)

    async def in_process(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(*args)` in the worker process (started at the first call; a dead one is
        replaced and the call run once more). Raises what `fn` raises, and
        `BrokenProcessPool` if the new process dies too."""
        self.in_process_calls += 1
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            result = await loop.run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            self._discard_broken(pool)
            result = await loop.run_in_executor(self._pool(), fn, *args)
        self.ready = True
        return result

    def _discard_broken(self, pool: ProcessPoolExecutor) -> None:
        """Forget `pool`, whose process died, so `_pool` starts a new one (unless a call
        that saw the same death already did; the shutdown does not wait: the dead
        process has nothing left to finish)."""
        if self._executor is pool:
            self._executor = None
            self.ready = False
            pool.shutdown(wait=False, cancel_futures=True)

    async def run(
        self, positions: Sequence[tuple[Position, Variant]], fn: Callable[..., T], *args: object
    ) -> T:
        """`fn(*args)`, which lists the moves of `positions` (and little else): in a worker
        thread, or in the worker process when one of `positions` is heavy. Raises what
        `fn` raises."""
        done, result = await asyncio.to_thread(_unless_heavy, positions, self.budget, fn, args)
        if done:
            return result  # type: ignore[return-value]
        return await self.in_process(fn, *args)

    async def warm(self) -> None:
        """Start the worker process now and wait until it is ready (the bot does this at
        start-up, so the first heavy position does not wait for it: about a second)."""
        await self.in_process(_nothing)
        self.in_process_calls -= 1  # not a call of move work

    async def close(self) -> None:
        """Stop the worker process, if it started."""
        executor, self._executor = self._executor, None
        self.ready = False
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
