"""Fixtures of the service tests: the computer player's process pool (the services
themselves come from `open_services`, closed whatever the test's outcome)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bot.computer import ComputerPlayer


@pytest.fixture(scope="module")
def computer() -> Iterator[ComputerPlayer]:
    """The real computer player: two worker processes, shared by a module's tests."""
    player = ComputerPlayer(workers=2)
    yield player
    asyncio.run(player.close())
