"""The computer player's process pool (bot.computer.player): moves from worker processes,
cancellation, bad input, shutdown, analyses as background work. Each test gets one
single-worker pool (the `computer` fixture), so a search that did not stop when cancelled
would hold up the test's next move."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.computer import ComputerPlayer, workers_per_process
from engine import (
    VARIANTS,
    GameOverError,
    Position,
    PositionError,
    UnknownVariantError,
    format_move,
    get_variant,
    legal_moves,
    parse_move,
)

# A long budget: a search that ignored its stop flag would keep the only worker this long.
LONG = 120.0
# How long the tests wait for an answer that a working pool gives in well under a second.
PATIENCE = 30.0


@pytest.mark.parametrize("key", list(VARIANTS))
async def test_choose_move_returns_a_legal_move_in_full_notation(
    computer: ComputerPlayer, key: str
) -> None:
    variant = get_variant(key)
    position = Position.start(variant)
    text = await asyncio.wait_for(
        computer.choose_move(position.to_fen(variant), key, level=1, budget_seconds=5.0),
        PATIENCE,
    )
    move = parse_move(text, position, variant)
    assert move in legal_moves(position, variant)
    assert text == format_move(move, position, variant, full=True)


async def test_a_capture_comes_back_with_every_landing_square(computer: ComputerPlayer) -> None:
    variant = get_variant("italian")
    fen = "W:Wd3:Bc4,c6,e4,e6"  # two captures: d3xb5xd7 and d3xf5xd7
    text = await asyncio.wait_for(computer.choose_move(fen, "italian", level=5), PATIENCE)
    assert text in {"d3xb5xd7", "d3xf5xd7"}
    assert parse_move(text, Position.from_fen(fen, variant), variant)


async def test_cancelling_the_task_stops_the_search_in_its_worker(
    computer: ComputerPlayer,
) -> None:
    variant = get_variant("turkish")
    fen = Position.start(variant).to_fen(variant)
    task = asyncio.create_task(computer.choose_move(fen, "turkish", 5, LONG))
    await asyncio.sleep(0.5)  # let the worker start it
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The only worker must be free again long before LONG seconds.
    text = await asyncio.wait_for(
        computer.choose_move(fen, "turkish", level=1, budget_seconds=5.0), PATIENCE
    )
    assert parse_move(text, Position.start(variant), variant)


async def test_cancel_by_key_stops_that_games_search_only(computer: ComputerPlayer) -> None:
    variant = get_variant("moroccan")
    fen = Position.start(variant).to_fen(variant)
    task = asyncio.create_task(computer.choose_move(fen, "moroccan", 5, LONG, key="game-1"))
    await asyncio.sleep(0.5)
    assert computer.cancel("game-2") == 0
    assert computer.cancel("game-1") == 1
    with pytest.raises(asyncio.CancelledError):
        await task
    text = await asyncio.wait_for(
        computer.choose_move(fen, "moroccan", level=1, budget_seconds=5.0), PATIENCE
    )
    assert parse_move(text, Position.start(variant), variant)


async def test_bad_input_is_refused_before_any_search(computer: ComputerPlayer) -> None:
    start = Position.start(get_variant("italian")).to_fen(get_variant("italian"))
    with pytest.raises(UnknownVariantError, match="choose one of"):
        await computer.choose_move(start, "chess")
    with pytest.raises(PositionError):
        await computer.choose_move("W:Wz9:Ba1", "italian")
    with pytest.raises(ValueError, match="level"):
        await computer.choose_move(start, "italian", level=9)
    with pytest.raises(ValueError, match="budget"):
        await computer.choose_move(start, "italian", 5, -1.0)
    # Black to move with its only man blocked: no legal move, the game is over.
    with pytest.raises(GameOverError):
        await computer.choose_move("B:Wb1,d1:Bc2", "italian")


async def test_closed_player_refuses_moves_and_closes_twice() -> None:
    player = ComputerPlayer(workers=1)
    await player.close()
    await player.close()
    with pytest.raises(RuntimeError, match="closed"):
        await player.choose_move("W:Wb1:Bc8", "italian")


def test_search_workers_are_counted_per_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot processes on one machine share its cores (DAMA_MACHINE_PROCESSES): each starts
    CPUs / processes search workers, at least one; a set DAMA_COMPUTER_WORKERS wins."""
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert workers_per_process(None) == 8
    assert workers_per_process(None, 2) == 4
    assert workers_per_process(None, 3) == 2
    assert workers_per_process(None, 16) == 1
    assert workers_per_process(5, 4) == 5
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert workers_per_process(None, 2) == 1


# --- analyses: background work -------------------------------------------------------


async def test_review_matches_the_engine_in_this_process(computer: ComputerPlayer) -> None:
    from engine.analysis import review_position

    variant = get_variant("italian")
    position = Position.from_fen("W:Wb1,c2,d3,f3:Bd5,f5,e8,g8,h7", variant)
    here = review_position(position, variant, nodes=3_000)
    there = await asyncio.wait_for(
        computer.review(position.to_fen(variant), "italian", nodes=3_000), PATIENCE
    )
    assert there == here
    assert there.best == "d3-e4"


async def test_a_game_move_goes_before_queued_analyses(computer: ComputerPlayer) -> None:
    variant = get_variant("italian")
    fen = Position.start(variant).to_fen(variant)
    finished: list[str] = []

    async def review(name: str) -> None:
        await computer.review(fen, "italian", nodes=40_000, key="analysis")
        finished.append(name)

    async def move() -> None:
        await computer.choose_move(fen, "italian", level=1, budget_seconds=0.2)
        finished.append("move")

    first = asyncio.create_task(review("review 1"))
    await asyncio.sleep(0.05)
    second = asyncio.create_task(review("review 2"))
    await asyncio.sleep(0.05)
    assert computer.load.waiting == 0  # background work is not counted as waiting
    live = asyncio.create_task(move())
    await asyncio.wait_for(asyncio.gather(first, second, live), PATIENCE * 2)
    assert finished.index("move") < finished.index("review 2")


async def test_cancel_stops_an_analysis(computer: ComputerPlayer) -> None:
    variant = get_variant("italian")
    fen = Position.start(variant).to_fen(variant)
    task = asyncio.create_task(computer.review(fen, "italian", nodes=10**9, key="a"))
    await asyncio.sleep(0.3)
    assert computer.cancel("a") == 1
    with pytest.raises(asyncio.CancelledError):
        await task
    # The worker is free again at once.
    text = await asyncio.wait_for(
        computer.choose_move(fen, "italian", level=1, budget_seconds=0.2), PATIENCE
    )
    assert text
