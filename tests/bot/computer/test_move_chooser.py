"""The computer's moves in games (bot.computer.move_chooser): a legal move of the game's
side to move from a real single-worker pool, the game untouched, refusals."""

from __future__ import annotations

import asyncio

import pytest

from bot.computer import ComputerPlayer, PoolMoveChooser
from bot.computer_queue import ComputerBusyError, QueuePolicy
from engine import Game, GameOverError, Position, get_variant

LONG = 120.0  # seconds: a search that only a cancel ends
PATIENCE = 30.0  # how long the tests wait for an answer a working pool gives at once


async def test_the_move_chooser_plays_a_legal_move_for_the_game(
    computer: ComputerPlayer,
) -> None:
    game = Game(get_variant("arab"))
    for text in ("c3-c4", "f6-f5", "c4-c5"):
        game.play(text)
    chooser = PoolMoveChooser(computer)
    move = await asyncio.wait_for(
        chooser.choose_move(game, 2, budget_seconds=5.0, key="game"), PATIENCE
    )
    assert move in game.legal_moves()
    assert game.ply == 3  # the game itself is not touched


async def test_a_game_whose_side_to_move_is_blocked_is_refused(
    computer: ComputerPlayer,
) -> None:
    variant = get_variant("italian")
    game = Game(variant, Position.from_fen("B:Wb1,d1:Bc2", variant))
    with pytest.raises(GameOverError):
        await PoolMoveChooser(computer).choose_move(game, 1, budget_seconds=1.0, key="g")


async def test_check_room_refuses_a_computer_seat_when_the_queue_is_full() -> None:
    async with ComputerPlayer(1, policy=QueuePolicy(limit=0, minimum_budget=0.05)) as pool:
        chooser = PoolMoveChooser(pool)
        chooser.check_room(5, 1.0)  # a free worker: room
        game = Game(get_variant("turkish"))
        busy = asyncio.create_task(
            chooser.choose_move(game, 5, budget_seconds=LONG, key="busy")
        )
        async with asyncio.timeout(PATIENCE):
            while pool.load.running == 0:
                await asyncio.sleep(0)
        with pytest.raises(ComputerBusyError):
            chooser.check_room(5, 1.0)
        assert chooser.cancel("busy") == 1
        with pytest.raises(asyncio.CancelledError):
            await busy
