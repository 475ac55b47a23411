"""The deadline scheduler (`bot/services/scheduler.py`): it wakes for the next deadline and
stops quietly."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from datetime import timedelta
from typing import Any

import pytest

from bot.services import DeadlineScheduler, GameUpdate
from storage import Challenge
from tests.support.clock import FakeClock
from tests.support.discord_harness import Harness
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, start_game


async def test_stopping_the_scheduler_mid_transaction_ends_it_quietly(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Seen in the real process: a SIGTERM stop cancelled `expire_due` inside a database
    # transaction, the rollback failed, and the loop logged a traceback and went on.
    h = harness
    entered = asyncio.Event()

    async def interrupted(now: Any = None) -> Any:
        entered.set()
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            raise sqlite3.OperationalError("cannot rollback - no transaction is active") from None

    monkeypatch.setattr(h.bot.services.challenges, "expire_due", interrupted)
    h.bot.services.deadlines.start()
    await asyncio.wait_for(entered.wait(), timeout=5)
    with caplog.at_level(logging.ERROR):
        await asyncio.wait_for(h.bot.services.deadlines.stop(), timeout=5)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


class Listener:
    def __init__(self) -> None:
        self.expired: list[Challenge] = []
        self.updates: list[GameUpdate] = []

    async def challenge_expired(self, challenge: Challenge) -> None:
        self.expired.append(challenge)

    async def announce(self, update: GameUpdate) -> int | None:
        self.updates.append(update)
        return None


async def test_scheduler_wakes_for_deadlines(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    listener = Listener()
    scheduler = DeadlineScheduler(s.games, s.challenges, listener, clock=clock,
                                  poll=timedelta(seconds=30))
    await start_game(s, "turkish", white=ALICE, black=BOB)
    assert scheduler.seconds_to_next() == 30.0
    scheduler.start()
    try:
        clock.advance(timedelta(days=3))
        scheduler.poke()
        for _ in range(100):
            if listener.updates:
                break
            await asyncio.sleep(0.01)
    finally:
        await scheduler.stop()
    [update] = listener.updates
    assert update.state.ending is not None and update.state.channel_id == CHANNEL


class GatedListener(Listener):
    """A listener whose `announce` waits for `release`; `posting` is set when it starts."""

    def __init__(self) -> None:
        super().__init__()
        self.posting = asyncio.Event()
        self.release = asyncio.Event()

    async def announce(self, update: GameUpdate) -> int | None:
        self.posting.set()
        await self.release.wait()
        return await super().announce(update)


async def test_a_stop_lets_a_game_ended_by_its_deadline_be_announced(
    open_services: OpenServices,
) -> None:
    """A stop while a game that the inactivity limit just ended is being announced: the
    result is stored, so the announcement finishes before the scheduler stops (otherwise
    the channel would never hear that the game ended)."""
    clock = FakeClock()
    s = await open_services(clock=clock)
    listener = GatedListener()
    scheduler = DeadlineScheduler(s.games, s.challenges, listener, clock=clock)
    record = await start_game(s, "turkish", white=ALICE, black=BOB)
    clock.advance(timedelta(days=3))
    scheduler.start()
    try:
        await asyncio.wait_for(listener.posting.wait(), timeout=5)
        stopping = asyncio.create_task(scheduler.stop())
        await asyncio.sleep(0)
        listener.release.set()
        await asyncio.wait_for(stopping, timeout=5)
    finally:
        await scheduler.stop()
    [update] = listener.updates
    assert update.state.game_id == record.id and update.state.ending is not None
