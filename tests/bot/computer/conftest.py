"""The computer's tests share one kind of pool: a single worker process, started before
the test and closed after it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.computer import ComputerPlayer


@pytest_asyncio.fixture
async def computer() -> AsyncIterator[ComputerPlayer]:
    player = ComputerPlayer(workers=1)
    await player.start()
    yield player
    await player.close()
