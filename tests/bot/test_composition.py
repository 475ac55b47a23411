"""`bot.composition.compose`: the one construction of the bot's services, used by the
client and by the tests' `build_services`, on a real SQLite file; what it builds for each
way of playing the computer's turns, that the services are wired together as the bot runs
them, and that they close once and for all."""

from __future__ import annotations

from collections.abc import AsyncIterator, Hashable
from pathlib import Path
from typing import Any, Protocol

import pytest

import engine
from bot.composition import SETTINGS_CACHE_SECONDS, Services, compose
from bot.computer import ComputerPlayer
from bot.computer_queue import Admission
from bot.config import Config
from bot.messages import Msg
from bot.services import Person, PlayerError
from bot.services.analysis import ThreadReviewer
from bot.services.computer_turns import MoveChooser
from bot.services.settings import WebVisibility
from engine import Move
from tests.support.clock import FakeClock
from tests.support.services import ALICE, BOB, CAROL, CHANNEL, GUILD, Announcements, collected


class Compose(Protocol):
    """What the `composed` fixture gives: `compose` with configuration `config`
    (`bot.config.Config` fields) on the test's database."""

    async def __call__(self, *, config: dict[str, Any] | None = None,
                       chooser: MoveChooser | None = None,
                       computer_turns: bool = True) -> Services[Announcements]: ...


class NeverAsked:
    """A move chooser no test asks (no computer seat is to move)."""

    async def choose_move(self, game: engine.Game, level: int, *,
                          budget_seconds: float | None, key: Hashable,
                          admission: Admission = Admission.ALWAYS) -> Move:
        raise AssertionError("the computer was asked for a move")

    def cancel(self, key: Hashable) -> int:
        return 0


@pytest.fixture
async def composed(tmp_path: Path) -> AsyncIterator[Compose]:
    """`compose` on a database in the test's folder; every value it built is closed when
    the test ends."""
    built: list[Services[Announcements]] = []

    async def compose_(*, config: dict[str, Any] | None = None,
                       chooser: MoveChooser | None = None,
                       computer_turns: bool = True) -> Services[Announcements]:
        settings = Config(database=str(tmp_path / "db.sqlite3"), **(config or {}))
        services = await compose(settings, collected, clock=FakeClock(), chooser=chooser,
                                 computer_turns=computer_turns)
        built.append(services)
        return services

    try:
        yield compose_
    finally:
        for services in built:
            await services.close()


async def test_by_default_the_computer_is_a_process_pool(composed: Compose) -> None:
    services = await composed(config={"computer_queue_limit": 7})
    assert isinstance(services.computer, ComputerPlayer)
    assert services.computer.policy.limit == 7
    assert services.computer_turns is not None


async def test_a_given_chooser_replaces_the_pool(composed: Compose) -> None:
    services = await composed(chooser=NeverAsked())
    assert services.computer is None and services.computer_turns is not None
    # Analyses then run in a worker thread: there is no pool to run them in.
    assert isinstance(services.analyses._reviewer, ThreadReviewer)


async def test_without_the_computers_turns_no_one_plays_them(composed: Compose) -> None:
    services = await composed(computer_turns=False)
    assert services.computer is None and services.computer_turns is None


async def test_the_challenges_obey_the_servers_limits(composed: Compose) -> None:
    """The preferences are given to the challenges, as in the bot: a server's limit on
    pending challenges from one player holds."""
    services = await composed(computer_turns=False, config={"challenges_per_challenger": 3})
    await services.preferences.update_guild(GUILD, per_challenger=1)
    await services.challenges.create(challenger=Person(ALICE), opponent=Person(BOB),
                                     guild_id=GUILD, channel_id=CHANNEL, variant="turkish",
                                     rated=False)
    with pytest.raises(PlayerError) as refused:
        await services.challenges.create(challenger=Person(ALICE), opponent=Person(CAROL),
                                         guild_id=GUILD, channel_id=CHANNEL + 1,
                                         variant="turkish", rated=False)
    assert refused.value.key is Msg.CHALLENGE_LIMIT_CHALLENGER


async def test_the_services_close_once_and_for_all(composed: Compose) -> None:
    services = await composed()
    await services.close()
    await services.close()  # a second close changes nothing
    with pytest.raises(RuntimeError, match="is closed"):
        await services.storage.settings.player(ALICE)


async def test_a_process_owning_some_shards_reads_a_servers_settings_again(
        tmp_path: Path) -> None:
    """Its web face shows the games of every server, whose settings (`web`) the process
    owning each server changes: another process's change is seen once this process's copy
    is `SETTINGS_CACHE_SECONDS` old."""
    now = [0.0]
    built: list[Services[Announcements]] = []
    try:
        for shard in (0, 1):
            settings = Config(database=str(tmp_path / "db.sqlite3"), shard_count=2,
                              shard_ids=frozenset({shard}))
            built.append(await compose(settings, collected, clock=FakeClock(),
                                       computer_turns=False, monotonic=lambda: now[0]))
        serving, owner = built
        assert (await serving.preferences.guild(GUILD)).web is WebVisibility.LINK
        await owner.preferences.update_guild(GUILD, web=WebVisibility.OFF.value)
        now[0] = SETTINGS_CACHE_SECONDS
        assert (await serving.preferences.guild(GUILD)).web is WebVisibility.OFF
    finally:
        for services in built:
            await services.close()
