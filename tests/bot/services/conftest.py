"""Fixtures of the service tests: the computer player's process pool, and the `/play`
service, closed whatever the test's outcome."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.computer import ComputerPlayer
from bot.services.computer_games import ComputerGames, SeatMover
from tests.support.clock import FakeClock
from tests.support.services import OpenComputerGames, OpenServices, Services


@pytest.fixture(scope="module")
def computer() -> Iterator[ComputerPlayer]:
    """The real computer player: two worker processes, shared by a module's tests."""
    player = ComputerPlayer(workers=2)
    yield player
    asyncio.run(player.close())


@pytest.fixture
async def open_computer_games(
    open_services: OpenServices,
) -> AsyncIterator[OpenComputerGames]:
    """Makes `ComputerGames` services (see `OpenComputerGames`) and closes them at the end,
    before the databases they use (hence the dependency on `open_services`)."""
    made: list[ComputerGames] = []

    def open_(
        services: Services,
        mover: SeatMover,
        *,
        clock: FakeClock | None = None,
        rng: random.Random | None = None,
    ) -> ComputerGames:
        games = (ComputerGames(services.storage, services.games, mover, rng=rng)
                 if clock is None else
                 ComputerGames(services.storage, services.games, mover, clock=clock, rng=rng))
        made.append(games)
        return games

    try:
        yield open_
    finally:
        for games in made:
            await games.close()
