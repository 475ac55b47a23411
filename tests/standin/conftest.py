"""Fixtures: a running stand-in with one guild, and a guard that discord.py's addresses
(class attributes) are Discord's again after every test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from bot.discord_endpoint import current_endpoint
from standin import GuildInfo, StandIn
from standin.openapi import OpenApiCheck
from tests.support.discord_spec import checked_by_spec


@pytest.fixture(autouse=True)
def discord_addresses_restored() -> Iterator[None]:
    """Fail a test that leaves discord.py pointed somewhere else."""
    before = current_endpoint()
    assert before.is_discord, "an earlier test left discord.py pointed away from Discord"
    yield
    assert current_endpoint() == before, "discord.py's REST base or gateway was not restored"


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    """Every stand-in made in the test answers as Discord's specification says, refusals
    included (its requests are not checked: these tests send invalid ones on purpose;
    `test_with_discord_py.py` checks discord.py's requests too)."""
    yield from checked_by_spec(requests=False)


@pytest_asyncio.fixture
async def standin() -> AsyncIterator[StandIn]:
    """A started stand-in with the guild "Dama Club" (channels #general and #games)."""
    async with StandIn() as server:
        await server.add_guild("Dama Club", channels=("general", "games"))
        yield server


@pytest.fixture
def guild(standin: StandIn) -> GuildInfo:
    """The stand-in's guild."""
    return standin.guild("Dama Club")
