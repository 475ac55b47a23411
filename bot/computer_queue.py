"""How the computer player shares its workers when many searches wait: the queue's
policy, its admission rule, the budget each search gets under load, and the estimated
wait told to a player who is refused.

Plain values and arithmetic only (no processes, no event loop); `bot.computer.player` applies
them. The rules, with W worker processes, R searches running and Q waiting:

- Budget under load. A search asked to think B seconds that waited w seconds in the
  queue, while n searches (running and waiting, itself included) share W processes,
  gets ``min(B, max(minimum, min(B - w, share)))`` where ``share = B * W / n`` when
  n > W, else B: its fair share of the pool, and what is left of B once its wait is
  counted, so its answer comes about B seconds after the request whenever the load
  allows. Never below `minimum` (default 0.2 s), unless B itself is smaller. The budget
  is set when a worker takes the search and shrunk again whenever another request joins
  the queue; a running search's budget only ever shrinks (it is stopped at its start plus
  its new budget and answers with the best move found so far). So a request that finds
  n searches ahead of it waits about ``max(B, n * minimum / W)`` instead of ``n * B / W``.
- Admission. A request that may be refused (the computer's own moves) is refused at once
  with `ComputerBusyError` when `limit` searches already wait; a request that may not be
  refused (a move for a player whose time ran out) is always queued, ahead of the
  refusable ones, and may only get a shorter budget.
- Background work (`Admission.BACKGROUND`: the analyses of finished games) comes after
  every game's move: it is queued behind all other requests, never refused, never
  shrunk (it has its own node budget), not counted in the queue's limit, its budgets or
  its estimates, and it runs only while no other request waits and, with two workers or
  more, on all workers but one, so a game's move never waits for an analysis (with one
  worker, for one position's search at most).
- Estimated wait of a request made now: ``(R + Q + 1) / W`` searches, each taking the
  budget the policy would give it times the measured seconds per second of budget (a
  moving average over recent searches of wall time, from the moment a worker took the
  search to its answer, divided by the budget it was given; 1 before any search
  finished). So the estimate follows the machine's real speed and overheads.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

MINIMUM_BUDGET_SECONDS = 0.2
"""The least thinking time a search is shrunk to under load (unless it asked for less).
At 0.2 s a level-5 search still completes a few plies in every variant."""

QUEUE_LIMIT_PER_WORKER = 16
"""Default queue limit: this many waiting searches per worker process (32 on two
workers). With the minimum budget, the last of them waits about 16 * 0.2 = 3.2 s."""

AVERAGE_WEIGHT = 0.25
"""Weight of the newest search in the moving average of search times (exponential
moving average: about the last eight searches count)."""


class Admission(enum.Enum):
    """Whether a search request may be refused when the queue is full."""

    ALWAYS = "always"
    """Never refused; queued ahead of `WHEN_ROOM` requests; its budget may only shrink.
    For moves that cannot wait for a retry: an absent player's move (a clock ran out)."""

    WHEN_ROOM = "when room"
    """Refused with `ComputerBusyError` when the queue is full: the computer's own moves,
    whose player can be told how long the computer will take."""

    BACKGROUND = "background"
    """After every other request, never refused nor shrunk, on all workers but one (see
    `background_workers`): the analyses of finished games."""


def background_workers(workers: int) -> int:
    """How many of `workers` processes may run background work at once: all but one
    (kept for the games' moves), at least one."""
    return max(1, workers - 1)


class ComputerBusyError(Exception):
    """A search request refused because `limit` searches already wait.

    wait_seconds: the estimated seconds until a request made now would be answered (see
    `QueueLoad.estimated_wait`), at least 1, rounded up. waiting: the searches waiting
    when it was refused. limit: the queue's limit.
    """

    def __init__(self, wait_seconds: int, waiting: int, limit: int) -> None:
        self.wait_seconds = wait_seconds
        self.waiting = waiting
        self.limit = limit
        super().__init__(
            f"the computer is busy: {waiting} searches wait (limit {limit}); "
            f"an answer would take about {wait_seconds} s"
        )


@dataclass(frozen=True, slots=True)
class QueuePolicy:
    """How the queue behaves under load.

    limit: the most searches that may wait (not counting those running) before refusable
    requests are refused; 0: refused unless a worker is free; None: no limit.
    minimum_budget: the least seconds a search is shrunk to; None: budgets never shrink.
    `QueuePolicy.unbounded()` is the behaviour before budgets shrank and the queue had a
    limit (first come, first served, every search its full budget), kept for comparison
    in `benchmarks/computer_queue.py`.

    Raises ValueError for a negative limit or a minimum budget that is not positive.
    """

    limit: int | None
    minimum_budget: float | None = MINIMUM_BUDGET_SECONDS

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 0:
            raise ValueError(f"the queue limit must be 0 or more, not {self.limit}")
        if self.minimum_budget is not None and not self.minimum_budget > 0:
            raise ValueError(
                f"the minimum budget must be more than 0 seconds, not {self.minimum_budget}"
            )

    @classmethod
    def for_workers(cls, workers: int, limit: int | None = None) -> QueuePolicy:
        """The default policy for `workers` processes: `limit` (default
        QUEUE_LIMIT_PER_WORKER per worker) and MINIMUM_BUDGET_SECONDS."""
        return cls(QUEUE_LIMIT_PER_WORKER * workers if limit is None else limit)

    @classmethod
    def unbounded(cls) -> QueuePolicy:
        """No limit, no shrinking: every request queued, every search its full budget."""
        return cls(None, None)

    def budget(
        self, requested: float, workers: int, in_system: int, waited: float = 0.0
    ) -> float:
        """Seconds a search asked to think `requested` seconds gets after waiting `waited`
        seconds in the queue, while `in_system` searches (running and waiting, itself
        included) share `workers` processes (the rule in the module docstring)."""
        if self.minimum_budget is None:
            return requested
        allowed = requested - waited
        if in_system > workers:
            allowed = min(allowed, requested * workers / in_system)
        return min(requested, max(self.minimum_budget, allowed))

    def refuses(self, admission: Admission, running: int, waiting: int, workers: int) -> bool:
        """Whether a request of `admission` is refused while `running` searches run and
        `waiting` wait for `workers` processes: a `WHEN_ROOM` request when `limit`
        searches already wait and no worker is free (so limit 0: refused unless a worker
        is free)."""
        return (
            admission is Admission.WHEN_ROOM and self.limit is not None
            and waiting >= self.limit and running + waiting >= workers
        )


class MovingAverage:
    """An exponential moving average (weight AVERAGE_WEIGHT for the newest value), here
    of recent searches' seconds per second of budget. `value` is None until the first
    `add`."""

    def __init__(self, weight: float = AVERAGE_WEIGHT) -> None:
        if not 0 < weight <= 1:
            raise ValueError(f"the weight must be in (0, 1], not {weight}")
        self.weight = weight
        self.value: float | None = None

    def add(self, value: float) -> None:
        """Count one more value."""
        if self.value is None:
            self.value = value
        else:
            self.value += self.weight * (value - self.value)


@dataclass(frozen=True, slots=True)
class QueueLoad:
    """A snapshot of the computer's load.

    workers: worker processes. running: searches in a worker. waiting: searches queued.
    policy: the queue's policy. seconds_per_budget: the moving average of recent searches'
    wall time per second of budget given (None before the first search finished).
    """

    workers: int
    running: int
    waiting: int
    policy: QueuePolicy
    seconds_per_budget: float | None

    @property
    def full(self) -> bool:
        """Whether a refusable request would be refused now."""
        return self.policy.refuses(
            Admission.WHEN_ROOM, self.running, self.waiting, self.workers
        )

    def estimated_wait(self, requested: float) -> float:
        """Seconds until a request made now, asking for `requested` seconds of thinking,
        would be answered: ``(running + waiting + 1) / workers`` searches, each of the
        budget the policy gives at this load times the measured seconds per second of
        budget (1 before any search finished)."""
        in_system = self.running + self.waiting + 1
        budget = self.policy.budget(requested, self.workers, in_system)
        ratio = 1.0 if self.seconds_per_budget is None else self.seconds_per_budget
        return in_system / self.workers * budget * ratio

    def busy_error(self, requested: float) -> ComputerBusyError:
        """The `ComputerBusyError` for a request refused now (wait rounded up to whole
        seconds, at least 1)."""
        seconds = max(1, math.ceil(self.estimated_wait(requested)))
        return ComputerBusyError(seconds, self.waiting, self.policy.limit or 0)
