"""The computer player's process pool: `ComputerPlayer` queues the searches of the bot's
event loop and hands them to worker processes (`bot.computer.worker`), so the loop never
waits on a search.

Plain values in and out: a FEN, a variant key, a level, a budget in seconds; the move
comes back as text in full notation (every landing square, e.g. ``d3xd5xf5``), which
`engine.parse_move` and `Game.play` accept.

Queue and load. Requests wait in the player's own queue and a search is handed to a
worker only when one is free, so its budget is decided when it starts. Under load the
rules of `bot.computer_queue` apply: budgets shrink to a fair share of the pool (never
below a minimum, 0.2 s by default), refusable requests (`Admission.WHEN_ROOM`, the
computer's own moves) are refused at once with `ComputerBusyError(wait_seconds)` when the
queue is full, and requests that may not be refused (`Admission.ALWAYS`, the default: an
absent player's move) are queued ahead of them and may only get a shorter budget.

Cancellation. Each running search gets a slot in a shared array of stop flags (a
`multiprocessing.RawArray` handed to every worker when it starts, so no Manager process
is needed). Cancelling the awaiting task (a game ends or is aborted), calling
`cancel(key)` for the game's key, or `close()` sets the slot's flag; the worker's search
reads it every 256 nodes (a few milliseconds) and returns, which frees the worker for the
next search. A search not yet started is simply dropped from the queue. The same flag
ends a search whose budget shrank (then its best move so far is the answer). The time
budget bounds every search in any case. A slot is reused only once its worker has
finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

from bot.computer import worker
from bot.computer.worker import ComputerMove
from bot.computer_queue import (
    Admission,
    MovingAverage,
    QueueLoad,
    QueuePolicy,
    background_workers,
)
from engine import GameOverError, Position, get_variant, legal_moves
from engine.analysis import PositionReview
from engine.search import get_level

DEFAULT_SLOTS = 64


@dataclass(frozen=True, slots=True)
class _ReviewJob:
    no_progress_plies: int
    nodes: int


@dataclass(eq=False)
class _Request:
    """One search request, from its arrival to its answer (event-loop side only)."""

    fen: str
    variant_key: str
    level: int
    seed: int
    history: tuple[str, ...]
    requested: float
    admission: Admission
    key: Hashable | None
    answer: asyncio.Future[Any]
    arrived: float = 0.0
    budget: float = 0.0
    slot: int = -1
    started: float = 0.0
    executor: ProcessPoolExecutor | None = None
    job: Future[Any] | None = None
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    review: _ReviewJob | None = None
    no_progress_plies: int = 0


def workers_per_process(configured: int | None, machine_processes: int = 1) -> int:
    """The search processes one bot process starts: `configured` when set, otherwise
    the machine's CPUs shared between the `machine_processes` bot processes on it
    (`DAMA_MACHINE_PROCESSES`), at least one. Several bot processes on one machine then
    share its cores instead of each starting one worker per core."""
    if configured is not None:
        return configured
    return max(1, (os.cpu_count() or 1) // max(1, machine_processes))


class ComputerPlayer:
    """Chooses moves in a process pool. Create it inside the running event loop's program
    (e.g. the bot's setup hook), use it from coroutines of that one loop, and `await
    close()` at the end (or use it as an async context manager).

    workers: worker processes (default: `os.cpu_count()`). slots: most searches that can
    be stopped individually at once (at least `workers` are always provided; only that
    many run at once). queue_limit: the default policy's limit (None: 16 waiting searches
    per worker; the `DAMA_COMPUTER_QUEUE_LIMIT` setting). policy: instead, the whole
    queue policy (default: `QueuePolicy.for_workers(workers, queue_limit)`, minimum
    budget 0.2 s; `QueuePolicy.unbounded()` gives every search its full budget and
    refuses nothing). Raises ValueError for fewer than one worker or slot, a negative
    queue limit, or both a queue limit and a policy.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        slots: int = DEFAULT_SLOTS,
        queue_limit: int | None = None,
        policy: QueuePolicy | None = None,
    ) -> None:
        self.workers = workers if workers is not None else max(1, os.cpu_count() or 1)
        if self.workers < 1 or slots < 1:
            raise ValueError("a computer player needs at least one worker and one slot")
        if policy is not None and queue_limit is not None:
            raise ValueError("give the computer player a queue limit or a policy, not both")
        self.policy = (
            policy if policy is not None
            else QueuePolicy.for_workers(self.workers, queue_limit)
        )
        self._context = multiprocessing.get_context("spawn")
        size = max(slots, self.workers)
        self._flags: Any = self._context.RawArray("b", size)
        self._free = list(range(size - 1, -1, -1))
        self._queue: deque[_Request] = deque()
        self._active: set[_Request] = set()
        self._average = MovingAverage()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=self._context,
            initializer=worker.start_worker, initargs=(self._flags, os.getpid()),
        )

    async def __aenter__(self) -> ComputerPlayer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the worker processes now rather than at the first move (optional)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(
            loop.run_in_executor(self._executor, worker.warm) for _ in range(self.workers)
        ))

    @property
    def busy(self) -> int:
        """How many searches are queued or running and still awaited (a cancelled search
        no longer counts, even in the few milliseconds its worker takes to stop)."""
        return sum(1 for r in (*self._queue, *self._active) if not r.answer.done())

    def _waiting(self) -> int:
        """Requests waiting, background work not counted."""
        return sum(1 for r in self._queue if r.admission is not Admission.BACKGROUND)

    @property
    def load(self) -> QueueLoad:
        """The current load: running and waiting searches, the policy and the measured
        seconds per second of budget (see `QueueLoad.estimated_wait`)."""
        return QueueLoad(
            self.workers, len(self._active), self._waiting(), self.policy,
            self._average.value,
        )

    def check_room(self, level: int = 5, budget_seconds: float | None = None) -> None:
        """Return quietly if a refusable request (`Admission.WHEN_ROOM`) at `level` with
        `budget_seconds` (default: the level's) would be queued now; else raise the
        `ComputerBusyError` it would get, with the estimated wait. For refusing a new game
        against the computer at once rather than after its first move. Raises ValueError
        for a level outside 1..5."""
        requested = get_level(level).time_budget if budget_seconds is None else budget_seconds
        load = self.load
        if load.full:
            raise load.busy_error(requested)

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
        admission: Admission = Admission.ALWAYS,
        playable: bool = False,
        no_progress_plies: int = 0,
    ) -> str:
        """The computer's move in `fen` (the side to move's), as full-notation text.

        variant_key: a variant key or alias. level: 1..5. budget_seconds: most seconds of
        thinking (default: the level's, level 5 about 2 s); under load the search may get
        less (see `bot.computer_queue`). history: FENs of the game's earlier positions,
        oldest first, so the computer knows what would repeat. seed: the random choice of
        levels 1..4 (default: a fresh random seed). key: any hashable naming the game,
        for `cancel(key)`. admission: `Admission.ALWAYS` (default; never refused, queued
        ahead) or `Admission.WHEN_ROOM` (refused when the queue is full). playable: the
        caller knows the side to move has a legal move (an engine game not over), so the
        position's moves are not generated here, on the event loop (a position can have
        tens of thousands of capture states); the worker finds them anyway.

        Raises UnknownVariantError, PositionError, ValueError (level, budget) for bad input;
        GameOverError when the side to move has no legal move; ComputerBusyError (with
        the estimated wait in seconds) for a `WHEN_ROOM` request while the queue is full;
        RuntimeError after `close()`. Cancelling the awaiting task stops the search in
        its worker (or drops it from the queue).
        """
        return (await self.think(
            fen, variant_key, level, budget_seconds, history=history, seed=seed, key=key,
            admission=admission, playable=playable, no_progress_plies=no_progress_plies,
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
        admission: Admission = Admission.ALWAYS,
        playable: bool = False,
        no_progress_plies: int = 0,
    ) -> ComputerMove:
        """Like `choose_move`, returning the move with its score, depth, nodes and the
        budget it was given. no_progress_plies: the game's count of plies with no capture
        and no man move, so the search scores a line reaching the limit as a draw."""
        if self._closed:
            raise RuntimeError("the computer player has been closed")
        variant = get_variant(variant_key)
        position = Position.from_fen(fen, variant)
        for text in history:
            Position.from_fen(text, variant)
        requested = get_level(level).time_budget if budget_seconds is None else budget_seconds
        if not requested >= 0:
            raise ValueError(
                f"the thinking budget must be 0 seconds or more, not {budget_seconds!r}"
            )
        if not playable and not legal_moves(position, variant):
            raise GameOverError("the side to move has no legal move; the game is over")
        if seed is None:
            seed = random.randrange(1 << 31)
        loop = asyncio.get_running_loop()
        self._loop = loop

        def request(admitted: Admission) -> _Request:
            return _Request(fen, variant.key, level, seed, tuple(history), requested,
                            admitted, key, loop.create_future(),
                            no_progress_plies=no_progress_plies)

        first = request(admission)
        try:
            move: ComputerMove = await self._submit(first)
            return move
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and try once more
            # (admitted already, so not refused now).
            if self._executor is first.executor:
                first.executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._new_executor()
            again: ComputerMove = await self._submit(request(Admission.ALWAYS))
            return again

    async def review(
        self,
        fen: str,
        variant_key: str,
        *,
        history: Sequence[str] = (),
        no_progress_plies: int = 0,
        nodes: int,
        key: Hashable | None = None,
    ) -> PositionReview:
        """`engine.analysis.review_position` of `fen` (history: the game's earlier
        positions as FENs, oldest first; no_progress_plies: the game's count there) with
        a budget of `nodes` positions, in a worker process as background work
        (`Admission.BACKGROUND`: after every game's move, never refused, never shrunk).
        key: for `cancel(key)`. Raises UnknownVariantError, PositionError for bad input,
        ValueError for a negative budget or count, RuntimeError after `close()`;
        cancelling the awaiting task stops the search in its worker."""
        if self._closed:
            raise RuntimeError("the computer player has been closed")
        if nodes < 0 or no_progress_plies < 0:
            raise ValueError("the node budget and the no-progress count must be 0 or more")
        variant = get_variant(variant_key)
        Position.from_fen(fen, variant)
        loop = asyncio.get_running_loop()
        self._loop = loop
        request = _Request(fen, variant.key, 5, 0, tuple(history), 0.0,
                           Admission.BACKGROUND, key, loop.create_future(),
                           review=_ReviewJob(no_progress_plies, nodes))
        try:
            reviewed: PositionReview = await self._submit(request)
        except BrokenProcessPool:
            if self._executor is request.executor:
                assert request.executor is not None
                request.executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._new_executor()
            request = replace(request, answer=loop.create_future(), job=None, slot=-1,
                              executor=None, timer=None)
            reviewed = await self._submit(request)
        return reviewed

    async def _submit(self, request: _Request) -> Any:
        if self._closed:
            raise RuntimeError("the computer player has been closed")
        if self.policy.refuses(
            request.admission, len(self._active), self._waiting(), self.workers
        ):
            raise self.load.busy_error(request.requested)
        request.arrived = time.monotonic()
        if request.admission is Admission.ALWAYS:
            ahead = sum(1 for r in self._queue if r.admission is Admission.ALWAYS)
            self._queue.insert(ahead, request)
        elif request.admission is Admission.WHEN_ROOM:
            self._queue.insert(self._waiting(), request)
        else:
            self._queue.append(request)
        self._dispatch()
        self._shrink_running()
        try:
            return await request.answer
        except asyncio.CancelledError:
            self._abandon(request)
            raise

    def _dispatch(self) -> None:
        """Hand waiting searches to free workers, first in the queue first; background
        work only while fewer than `background_workers` workers run background work."""
        while self._queue and len(self._active) < self.workers and not self._closed:
            if self._queue[0].admission is Admission.BACKGROUND:
                running = sum(1 for r in self._active if r.admission is Admission.BACKGROUND)
                if running >= background_workers(self.workers):
                    return
            self._start(self._queue.popleft())

    def _start(self, request: _Request) -> None:
        slot = self._free.pop() if self._free else -1
        if slot >= 0:
            self._flags[slot] = 0
        request.slot = slot
        request.started = time.monotonic()
        background = request.admission is Admission.BACKGROUND
        request.budget = request.requested if background else self.policy.budget(
            request.requested, self.workers, len(self._active) + 1 + self._waiting(),
            request.started - request.arrived,
        )
        request.executor = self._executor
        try:
            job: Future[Any]
            if request.review is not None:
                job = self._executor.submit(
                    worker.review, request.fen, request.variant_key, request.history,
                    request.review.no_progress_plies, request.review.nodes, slot,
                )
            else:
                job = self._executor.submit(
                    worker.think, request.fen, request.variant_key, request.level,
                    request.budget, slot, request.seed, request.history,
                    request.no_progress_plies,
                )
        except BaseException as error:  # a broken or shut-down pool
            self._release(slot)
            if not request.answer.done():
                request.answer.set_exception(error)
            return
        request.job = job
        self._active.add(request)
        loop = self._loop
        assert loop is not None
        job.add_done_callback(lambda _job: _call_soon(loop, self._finished, request))

    def _shrink_running(self) -> None:
        """Give running searches their (smaller) share now that the queue is longer:
        each is stopped at its start plus its new budget, never later than before."""
        loop = self._loop
        if loop is None:
            return
        in_system = len(self._active) + self._waiting()
        now = time.monotonic()
        for request in self._active:
            if request.admission is Admission.BACKGROUND:
                continue
            budget = self.policy.budget(
                request.requested, self.workers, in_system,
                request.started - request.arrived,
            )
            if budget >= request.budget or request.slot < 0:
                continue
            request.budget = budget
            if request.timer is not None:
                request.timer.cancel()
            delay = max(0.0, request.started + budget - now)
            request.timer = loop.call_later(delay, self._stop_early, request)

    def _stop_early(self, request: _Request) -> None:
        if request in self._active and request.slot >= 0:
            self._flags[request.slot] = 1  # the search answers with its best move so far

    def _finished(self, request: _Request) -> None:
        """A worker is done with `request` (answered, failed or stopped)."""
        self._active.discard(request)
        if request.timer is not None:
            request.timer.cancel()
        self._release(request.slot)
        job = request.job
        assert job is not None
        if not request.answer.done():
            if job.cancelled():
                request.answer.cancel()
            elif (error := job.exception()) is not None:
                request.answer.set_exception(error)
            else:
                result = job.result()
                if isinstance(result, PositionReview):
                    request.answer.set_result(result)
                    self._dispatch()
                    return
                if request.budget > 0:
                    self._average.add((time.monotonic() - request.started) / request.budget)
                request.answer.set_result(replace(result, budget=request.budget))
        self._dispatch()

    def _abandon(self, request: _Request) -> None:
        """The caller stopped waiting: drop the request or stop its search."""
        if request in self._queue:
            self._queue.remove(request)
        if request in self._active:
            if request.slot >= 0:
                self._flags[request.slot] = 1  # the worker stops at its next poll
            if request.job is not None:
                request.job.cancel()

    def _release(self, slot: int) -> None:
        if slot >= 0:
            self._free.append(slot)

    def cancel(self, key: Hashable) -> int:
        """Stop every search started with `key`, queued or running (their `choose_move`
        calls raise CancelledError). Returns how many were stopped."""
        found = [r for r in (*self._queue, *self._active)
                 if r.key == key and not r.answer.done()]
        for request in found:
            request.answer.cancel()
            self._abandon(request)
        return len(found)

    async def close(self) -> None:
        """Stop every search and end the worker processes (waits for them to exit).
        Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for i in range(len(self._flags)):
            self._flags[i] = 1
        for request in (*self._queue, *self._active):
            request.answer.cancel()
        self._queue.clear()
        executor = self._executor
        await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[..., object],
               *args: object) -> None:
    """Run `callback` on `loop` from a worker-result thread (ignored once the loop is
    closed: nothing waits for the answer any more)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, *args)
