"""Fixtures of the bot tests. Every resource (database, bot, computer pool) belongs to a
fixture that closes it whatever the test's outcome, so a failing test fails and never
leaves a worker thread that keeps pytest from exiting."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.client import DamaBot
from bot.config import Config
from bot.services import GameRules
from bot.services.computer_turns import MoveChooser, Strength
from bot.services.shards import EVERY_SHARD, ShardScope
from tests.support.clock import FakeClock
from tests.support.discord_harness import Harness, OpenBot, settings_for
from tests.support.fake_discord import FakeDiscord
from tests.support.services import (
    NotificationCollector,
    OpenServices,
    Services,
    TournamentCollector,
    build_services,
)


@asynccontextmanager
async def _logged_in(settings: Config) -> AsyncIterator[Harness]:
    fake = FakeDiscord()
    clock = FakeClock()
    with fake.installed():
        bot = DamaBot(settings, clock=clock, run_scheduler=False)
        await bot.login("fake-token")
        try:
            yield Harness(bot, fake, clock)
        finally:
            await bot.close()


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    """The real bot logged in against `FakeDiscord`, its scheduler not running."""
    async with _logged_in(settings_for(tmp_path / "db.sqlite3")) as h:
        yield h


@pytest.fixture
async def computer_harness(tmp_path: Path) -> AsyncIterator[Harness]:
    """As `harness`, with a computer player of one worker process thinking 0.05 s a move
    (for `/play` seats and absent players, level 1)."""
    settings = settings_for(tmp_path / "db.sqlite3", computer_budget=0.05, computer_workers=1,
                            absent_player_level=1, absent_player_budget=0.05)
    async with _logged_in(settings) as h:
        yield h


@pytest.fixture
async def open_bot() -> AsyncIterator[OpenBot]:
    """Opens real bots against one `FakeDiscord` (see `OpenBot`); closes every bot it opened
    (and so its database) when the test ends, passed or failed."""
    fake = FakeDiscord()
    opened: list[DamaBot] = []

    async def open_(
        settings: Config, *, clock: FakeClock | None = None, **options: Any
    ) -> Harness:
        clock = clock or FakeClock()
        options.setdefault("run_scheduler", False)
        bot = DamaBot(settings, clock=clock, **options)
        opened.append(bot)
        await bot.login("fake-token")
        return Harness(bot, fake, clock)

    with fake.installed():
        try:
            yield open_
        finally:
            for bot in opened:
                await bot.close()


@pytest.fixture
async def open_services(tmp_path: Path) -> AsyncIterator[OpenServices]:
    """Opens the services on a real SQLite file (see `OpenServices`); closes every database
    it opened when the test ends, passed or failed."""
    opened: list[Services] = []

    async def open_(
        path: Path | None = None,
        clock: FakeClock | None = None,
        *,
        chooser: MoveChooser | None = None,
        absent: Strength | None = None,
        seat_budget: float | None = 0.05,
        rules: GameRules | None = None,
        seed: int = 1,
        scope: ShardScope = EVERY_SHARD,
        tournament_outlet: TournamentCollector | None = None,
        notification_outlet: NotificationCollector | None = None,
    ) -> Services:
        services = await build_services(path or tmp_path / "db.sqlite3", clock or FakeClock(),
                                        chooser=chooser, absent=absent,
                                        seat_budget=seat_budget, rules=rules, seed=seed,
                                        scope=scope, tournament_outlet=tournament_outlet,
                                        notification_outlet=notification_outlet)
        opened.append(services)
        return services

    try:
        yield open_
    finally:
        for services in opened:
            await services.close()
