"""The computer player's process pool under load (bot.computer.player with the policy of
bot.computer_queue): real worker processes, small budgets. Behaviour only: who is refused,
what budget each search was given, which answer comes first, what cancelling drops. One
worker per pool, so the order in which searches start is the queue's order; a long search
(LONG) keeps that worker busy until the test cancels it."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio

from bot.computer import ComputerMove, ComputerPlayer
from bot.computer_queue import Admission, ComputerBusyError, QueuePolicy
from engine import Position, get_variant, legal_moves, parse_move

LONG = 120.0  # seconds: a search that only a cancel ends
PATIENCE = 60.0  # how long the tests wait for answers a working pool gives in seconds
VARIANT = get_variant("turkish")
START = Position.start(VARIANT).to_fen(VARIANT)


def legal(move: ComputerMove) -> bool:
    start = Position.start(VARIANT)
    return parse_move(move.move, start, VARIANT) in legal_moves(start, VARIANT)


async def until(condition: Callable[[], bool]) -> None:
    """Let the event loop run until `condition()` holds (requests enqueue on their first
    step, without any waiting on workers)."""
    async with asyncio.timeout(PATIENCE):
        while not condition():
            await asyncio.sleep(0)


@pytest_asyncio.fixture
async def pools() -> AsyncIterator[list[ComputerPlayer]]:
    """Single-worker pools made by a test with its own policy, all closed at the end."""
    made: list[ComputerPlayer] = []
    yield made
    for computer in made:
        await computer.close()


def pool(made: list[ComputerPlayer], policy: QueuePolicy) -> ComputerPlayer:
    computer = ComputerPlayer(1, policy=policy)
    made.append(computer)
    return computer


async def test_full_queue_refuses_at_once_with_an_estimated_wait(
    pools: list[ComputerPlayer],
) -> None:
    computer = pool(pools, QueuePolicy(limit=2, minimum_budget=0.05))
    long = asyncio.create_task(computer.think(START, "turkish", 5, LONG, key="long"))
    queued = [
        asyncio.create_task(
            computer.think(START, "turkish", 1, 0.1, admission=Admission.WHEN_ROOM)
        )
        for _ in range(2)
    ]
    await until(lambda: computer.load.waiting == 2)
    assert computer.load.full
    with pytest.raises(ComputerBusyError) as checked:
        computer.check_room(5, 1.0)  # what a new game's request would get
    assert checked.value.wait_seconds >= 1
    with pytest.raises(ComputerBusyError) as refused:
        await computer.think(START, "turkish", 5, 1.0, admission=Admission.WHEN_ROOM)
    assert refused.value.wait_seconds >= 1
    assert (refused.value.waiting, refused.value.limit) == (2, 2)
    assert computer.load.waiting == 2  # the refused request was not queued
    # Once the long search is stopped, the queued ones are served and room returns.
    assert computer.cancel("long") == 1
    with pytest.raises(asyncio.CancelledError):
        await long
    async with asyncio.timeout(PATIENCE):
        answers = await asyncio.gather(*queued)
        again = await computer.think(START, "turkish", 1, 0.1, admission=Admission.WHEN_ROOM)
    assert all(legal(a) for a in [*answers, again])
    assert not computer.load.full
    computer.check_room(5)  # room again: no error
    assert computer.load.seconds_per_budget is not None  # measured from those searches


async def test_budgets_shrink_under_load_but_never_below_the_minimum(
    pools: list[ComputerPlayer],
) -> None:
    computer = pool(pools, QueuePolicy(limit=None, minimum_budget=0.1))
    await computer.start()
    async with asyncio.timeout(PATIENCE):
        moves = await asyncio.gather(*(
            computer.think(START, "turkish", 5, 0.5, seed=i) for i in range(12)
        ))
    budgets = [m.budget for m in moves]
    assert all(legal(m) for m in moves)
    assert all(0.1 <= b < 0.5 for b in budgets)
    # The first search started alone with 0.5 s, then the eleven others arrived: its
    # share 0.5 / 12 is below the minimum, so it was stopped at 0.1 s.
    assert budgets[0] == pytest.approx(0.1)
    assert moves[0].stopped


async def test_the_old_policy_gives_every_search_its_full_budget(
    pools: list[ComputerPlayer],
) -> None:
    computer = pool(pools, QueuePolicy.unbounded())
    async with asyncio.timeout(PATIENCE):
        moves = await asyncio.gather(*(
            computer.think(START, "turkish", 2, 0.2, admission=Admission.WHEN_ROOM)
            for _ in range(4)
        ))
    assert [m.budget for m in moves] == [0.2] * 4


async def test_absent_player_requests_are_never_refused_and_go_first(
    pools: list[ComputerPlayer],
) -> None:
    computer = pool(pools, QueuePolicy(limit=1, minimum_budget=0.05))
    order: list[str] = []

    def request(name: str, admission: Admission, budget: float) -> asyncio.Task[ComputerMove]:
        task = asyncio.create_task(
            computer.think(START, "turkish", 3, budget, key=name, admission=admission)
        )
        task.add_done_callback(lambda _t: order.append(name))
        return task

    long = request("long", Admission.ALWAYS, LONG)
    play = request("play", Admission.WHEN_ROOM, 0.3)
    await until(lambda: computer.load.running == 1 and computer.load.waiting == 1)
    with pytest.raises(ComputerBusyError):  # the queue (limit 1) is full
        await computer.think(START, "turkish", 3, 0.3, admission=Admission.WHEN_ROOM)
    # Absent players' requests are queued all the same, ahead of the refusable one.
    absent = [request(f"absent {i}", Admission.ALWAYS, 0.3) for i in range(3)]
    await until(lambda: computer.load.waiting == 4)
    assert computer.cancel("long") == 1
    with pytest.raises(asyncio.CancelledError):
        await long
    async with asyncio.timeout(PATIENCE):
        answers = await asyncio.gather(*absent, play)
    assert order == ["long", "absent 0", "absent 1", "absent 2", "play"]
    assert all(legal(a) for a in answers)
    assert all(0.05 <= a.budget <= 0.3 for a in answers)  # shrunk at most


async def test_cancelling_queued_and_running_searches(pools: list[ComputerPlayer]) -> None:
    computer = pool(pools, QueuePolicy.for_workers(1))
    running = asyncio.create_task(computer.think(START, "turkish", 5, LONG, key="a"))
    queued_a = asyncio.create_task(computer.think(START, "turkish", 5, LONG, key="a"))
    queued_b = asyncio.create_task(computer.think(START, "turkish", 5, LONG, key="b"))
    dropped = asyncio.create_task(computer.think(START, "turkish", 1, 0.1, key="c"))
    await until(lambda: computer.load.waiting == 3)
    # Cancelling the awaiting task of a queued search drops it from the queue.
    dropped.cancel()
    with pytest.raises(asyncio.CancelledError):
        await dropped
    assert computer.load.waiting == 2
    # cancel(key) stops the running search and drops the queued one of that key.
    assert computer.cancel("a") == 2
    for task in (running, queued_a):
        with pytest.raises(asyncio.CancelledError):
            await task
    # The only worker is free again (the LONG search stopped), so game b's search runs;
    # stop it too, then a short one is answered.
    await until(lambda: computer.load.running == 1 and computer.load.waiting == 0)
    assert computer.cancel("b") == 1
    with pytest.raises(asyncio.CancelledError):
        await queued_b
    async with asyncio.timeout(PATIENCE):
        move = await computer.think(START, "turkish", 1, 0.1)
    assert legal(move)
    assert computer.busy == 0


async def test_close_cancels_the_queued_searches(pools: list[ComputerPlayer]) -> None:
    computer = pool(pools, QueuePolicy.for_workers(1))
    tasks = [asyncio.create_task(computer.think(START, "turkish", 5, LONG)) for _ in range(3)]
    await until(lambda: computer.load.waiting == 2)
    async with asyncio.timeout(PATIENCE):
        await computer.close()
    for task in tasks:
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_a_killed_worker_is_replaced_and_the_queued_searches_answered(
    pools: list[ComputerPlayer],
) -> None:
    others = set(multiprocessing.active_children())
    computer = pool(pools, QueuePolicy.for_workers(1))
    await computer.start()
    workers = set(multiprocessing.active_children()) - others
    assert len(workers) == 1
    tasks = [asyncio.create_task(computer.think(START, "turkish", 5, 1.0, seed=i))
             for i in range(3)]
    await until(lambda: computer.load.running == 1 and computer.load.waiting == 2)
    for process in workers:
        os.kill(process.pid or 0, signal.SIGKILL)
    async with asyncio.timeout(PATIENCE):
        answers = await asyncio.gather(*tasks)
    assert all(legal(a) for a in answers)
    assert computer.busy == 0


async def test_queue_limit_of_the_default_policy() -> None:
    async with ComputerPlayer(2, queue_limit=3) as computer:
        assert computer.policy == QueuePolicy(limit=3)
    async with ComputerPlayer(2) as computer:
        assert computer.policy == QueuePolicy.for_workers(2)
    with pytest.raises(ValueError, match="not both"):
        ComputerPlayer(1, queue_limit=3, policy=QueuePolicy.unbounded())
    with pytest.raises(ValueError, match="limit"):
        ComputerPlayer(1, queue_limit=-1)
