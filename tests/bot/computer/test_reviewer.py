"""The analyses' positions searched by the process pool (bot.computer.reviewer): the same
review as the engine gives in this process, and a review that `cancel(key)` stops."""

from __future__ import annotations

import asyncio

import pytest

from bot.computer import ComputerPlayer, PoolReviewer
from engine import Position, get_variant
from engine.analysis import review_position

PATIENCE = 30.0  # how long the tests wait for an answer a working pool gives at once


async def test_the_reviewer_gives_the_engines_review_of_the_position(
    computer: ComputerPlayer,
) -> None:
    variant = get_variant("italian")
    position = Position.from_fen("W:Wb1,c2,d3,f3:Bd5,f5,e8,g8,h7", variant)
    reviewed = await asyncio.wait_for(
        PoolReviewer(computer).review(
            position.to_fen(variant), "italian", history=(), no_progress_plies=0,
            nodes=3_000, key="analysis",
        ),
        PATIENCE,
    )
    assert reviewed == review_position(position, variant, nodes=3_000)


async def test_a_review_is_stopped_by_its_key(computer: ComputerPlayer) -> None:
    variant = get_variant("italian")
    fen = Position.start(variant).to_fen(variant)
    task = asyncio.create_task(PoolReviewer(computer).review(
        fen, "italian", history=(), no_progress_plies=0, nodes=10**9, key="analysis",
    ))
    async with asyncio.timeout(PATIENCE):
        while computer.load.running == 0:
            await asyncio.sleep(0)
    assert computer.cancel("analysis") == 1
    with pytest.raises(asyncio.CancelledError):
        await task
