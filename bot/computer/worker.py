"""The worker side of the computer player: what runs in each search process of the pool
(`bot.computer.player`), and nothing of the event loop.

A worker starts with `start_worker(flags, parent)`: it keeps the shared stop flags (one
slot per running search, set by the bot process to stop that search) and watches the bot
process `parent`, so a worker of a bot process killed without clean-up ends itself. Its
jobs take and return plain values that cross the process boundary by pickling: `think` (a
move for a game) and `review` (an analysis of one position).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any

from engine import GameOverError, Position, format_move, get_variant
from engine.analysis import PositionReview, review_position
from engine.search import search

PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the bot process is still there."""

# The stop flags of this worker process (set by `start_worker`).
_FLAGS: Any = None


@dataclass(frozen=True, slots=True)
class ComputerMove:
    """A chosen move and how it was found.

    move: full notation (``d3xd5xf5``). score: the search's value for the side that moves
    (a man = 100). depth: plies searched completely. nodes: positions visited. elapsed:
    seconds of search in the worker. stopped: the budget or a stop ended the search early.
    budget: the seconds of thinking the search was finally given (less than asked for
    when the queue was long; see `bot.computer_queue`).
    """

    move: str
    score: int
    depth: int
    nodes: int
    elapsed: float
    stopped: bool
    budget: float


class _SlotStop:
    """The stop signal of one slot of the shared flags (read in the worker)."""

    def __init__(self, flags: Any, slot: int) -> None:
        self.flags = flags
        self.slot = slot

    def is_set(self) -> bool:
        return bool(self.flags[self.slot])


def _stop_of(slot: int) -> _SlotStop | None:
    """The stop signal of `slot`, or None for a search that cannot be stopped (no slot
    was free, or the job runs outside a worker started by `start_worker`)."""
    return _SlotStop(_FLAGS, slot) if slot >= 0 and _FLAGS is not None else None


def start_worker(flags: Any, parent: int) -> None:
    """The pool's initializer: keep `flags` (a `multiprocessing.RawArray` of stop flags,
    one per slot) and start watching the bot process `parent` (`watch_parent`)."""
    global _FLAGS
    _FLAGS = flags
    watch_parent(parent)


def watch_parent(parent: int) -> None:
    """Start watching the bot process from a worker process (a daemon thread): the worker
    ends within `PARENT_CHECK_SECONDS` once its parent is no longer `parent`, the process
    id of the bot that started it (given by the bot, `os.getpid()` there, in the pool's
    `initargs`). Called by each worker pool's initializer (this pool's, and
    `bot.move_work`'s).

    The id comes from the bot rather than from `os.getppid()` in the worker: a bot killed
    while the worker was still starting (a spawned worker imports for up to a second)
    has already left it to the init process when the initializer runs, and a worker that
    took that for its parent would wait for work forever."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="dama-watch-parent").start()


def _watch_parent(parent: int) -> None:
    """End this worker when the bot process `parent` is gone (killed with no clean-up:
    SIGKILL, a crash), so no orphaned worker keeps a CPU or its memory."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def warm() -> int:
    """Run in each worker at start: import the engine and return the process id."""
    return os.getpid()


def think(
    fen: str,
    variant_key: str,
    level: int,
    budget: float,
    slot: int,
    seed: int,
    history: tuple[str, ...],
    no_progress_plies: int = 0,
) -> ComputerMove:
    """The worker's job for a game: `engine.search.search` of `fen` at `level` for at most
    `budget` seconds (history: the game's earlier positions as FENs, oldest first; slot:
    the stop flag's slot, -1 for none; seed: the random choice of levels 1..4), the move
    returned in full notation. Raises GameOverError when the side to move has no legal
    move, and the engine's errors for bad input."""
    variant = get_variant(variant_key)
    position = Position.from_fen(fen, variant)
    earlier = [Position.from_fen(text, variant) for text in history]
    result = search(
        position, variant, level=level, time_budget=budget, stop=_stop_of(slot), seed=seed,
        history=earlier, no_progress_plies=no_progress_plies,
    )
    if result.move is None:
        raise GameOverError("the side to move has no legal move; the game is over")
    return ComputerMove(
        format_move(result.move, position, variant, full=True),
        result.score, result.depth, result.nodes, result.elapsed, result.stopped, budget,
    )


def review(
    fen: str, variant_key: str, history: tuple[str, ...], no_progress_plies: int,
    nodes: int, slot: int,
) -> PositionReview:
    """The worker's job for an analysis: `engine.analysis.review_position` of one
    position with a budget of `nodes` positions. A stop (cancel, close) ends it early with
    the best line found so far. Raises the engine's errors for bad input."""
    variant = get_variant(variant_key)
    position = Position.from_fen(fen, variant)
    earlier = [Position.from_fen(text, variant) for text in history]
    return review_position(position, variant, history=earlier,
                           no_progress_plies=no_progress_plies, nodes=nodes,
                           stop=_stop_of(slot))
