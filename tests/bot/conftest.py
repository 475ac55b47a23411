"""Fixtures of the Discord-layer tests: the real `DamaBot`, logged in against `FakeDiscord`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.client import DamaBot
from bot.config import Settings
from storage import Eligibility
from tests.support.fake_discord import FakeDiscord
from tests.support.services import FakeClock

BOT_TASKS = ("CommandTree", "discord-ui", "discord.py", "dama-answer", "dama-background")


@dataclass
class Harness:
    bot: DamaBot
    discord: FakeDiscord
    clock: FakeClock

    async def dispatch(self, payload: dict[str, Any]) -> None:
        """Hand an INTERACTION_CREATE payload to discord.py and wait until the bot is done."""
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()

    async def settle(self) -> None:
        for _ in range(50):
            pending = [t for t in asyncio.all_tasks()
                       if not t.done() and t.get_name().startswith(BOT_TASKS)]
            if not pending:
                return
            await asyncio.wait(pending, timeout=5)
        names = [t.get_name() for t in asyncio.all_tasks() if not t.done()]
        raise AssertionError(f"the bot did not finish: {names}")


def settings_for(path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = dict(
        token="fake-token", database=str(path),
        eligibility=Eligibility(min_games=1, max_deviation=500.0),
    )
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    fake = FakeDiscord()
    clock = FakeClock()
    with fake.installed():
        bot = DamaBot(settings_for(tmp_path / "db.sqlite3"), clock=clock, run_scheduler=False)
        await bot.login("fake-token")
        try:
            yield Harness(bot, fake, clock)
        finally:
            await bot.close()
