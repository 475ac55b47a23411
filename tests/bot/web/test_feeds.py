"""The live feeds (`bot.web.feeds`): games played through the services on a real SQLite
file; `BusFeed` hears the process's event bus, `PollingFeed` reads what a second
`Storage` on the same file (another process's writes) committed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Collection
from contextlib import aclosing
from pathlib import Path
from typing import cast

import pytest

from bot.web.feeds import WAKE_BATCH, BusFeed, PollingFeed, Watchers
from storage import GameProgress, GameRepository, Storage, StorageUnavailableError
from storage.errors import Cause
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, start_game

WITHIN = 2.0
"""Seconds a change may take to reach a watcher in these tests (the target is one)."""


async def next_ply(watch: AsyncGenerator[int, None]) -> int:
    return await asyncio.wait_for(anext(watch), WITHIN)


async def test_bus_feed_yields_the_stored_ply_then_each_move_then_the_end(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    feed = BusFeed(s.composed.events, s.storage.games)
    record = await start_game(s, "turkish")
    async with aclosing(feed.watch(record.id)) as watch:
        assert await next_ply(watch) == 0
        await s.games.play(CHANNEL, ALICE, "a3-a4")
        assert await next_ply(watch) == 1
        await s.games.play(CHANNEL, BOB, "a6-a5")
        assert await next_ply(watch) == 2
        await s.games.resign(CHANNEL, ALICE)
        assert await next_ply(watch) == 2
        with pytest.raises(StopAsyncIteration):
            await next_ply(watch)
    assert feed.watchers.count() == 0
    await feed.close()


async def test_a_slow_watcher_skips_to_the_newest_ply(open_services: OpenServices) -> None:
    s = await open_services()
    feed = BusFeed(s.composed.events, s.storage.games)
    record = await start_game(s, "turkish")
    async with aclosing(feed.watch(record.id)) as watch:
        assert await next_ply(watch) == 0
        await s.games.play(CHANNEL, ALICE, "a3-a4")
        await s.games.play(CHANNEL, BOB, "h6-h5")
        await s.games.play(CHANNEL, ALICE, "b3-b4")
        assert await next_ply(watch) == 3


async def test_watching_an_ended_game_yields_its_last_ply_and_ends(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    await s.games.resign(CHANNEL, BOB)
    for feed in (BusFeed(s.composed.events, s.storage.games), PollingFeed(s.storage.games)):
        assert [ply async for ply in feed.watch(record.id)] == [1]
        assert [ply async for ply in feed.watch(record.id + 100)] == []
        await feed.close()


async def test_polling_feed_sees_another_storages_moves(
    open_services: OpenServices, tmp_path: Path,
) -> None:
    s = await open_services(tmp_path / "shared.sqlite3")
    record = await start_game(s, "turkish")
    other = await Storage.open(tmp_path / "shared.sqlite3")
    feed = PollingFeed(other.games, interval=0.05)
    try:
        async with aclosing(feed.watch(record.id)) as watch:
            assert await next_ply(watch) == 0
            await s.games.play(CHANNEL, ALICE, "a3-a4")
            assert await next_ply(watch) == 1
            await s.games.abort(CHANNEL, ALICE)
            assert await next_ply(watch) == 1
            with pytest.raises(StopAsyncIteration):
                await next_ply(watch)
    finally:
        await feed.close()
        await other.close()


async def test_polling_feed_reads_once_per_interval_for_every_watched_game_and_not_idle(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    first = await start_game(s, "turkish", channel=1)
    second = await start_game(s, "turkish", channel=2)
    feed = PollingFeed(s.storage.games, interval=0.05)
    watches = [feed.watch(game_id) for game_id in (first.id, first.id, second.id)]
    for watch in watches:
        assert await next_ply(watch) == 0
    before = feed.polls
    await asyncio.sleep(0.5)
    polled = feed.polls - before
    assert 5 <= polled <= 11  # one query a tick for the three watches, not three
    for watch in watches:
        await watch.aclose()
    assert feed.watchers.count() == 0
    idle = feed.polls
    await asyncio.sleep(0.3)
    assert feed.polls == idle
    await feed.close()


async def test_closing_a_feed_ends_its_watches(open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    for feed in (BusFeed(s.composed.events, s.storage.games), PollingFeed(s.storage.games)):
        watch = feed.watch(record.id)
        assert await next_ply(watch) == 0
        waiting = asyncio.ensure_future(anext(watch))
        await asyncio.sleep(0.01)
        await feed.close()
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(waiting, WITHIN)
        assert feed.watchers.count() == 0
        assert [ply async for ply in feed.watch(record.id)] == []


async def test_a_thousand_cancelled_watches_leave_no_waiter(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    feed = BusFeed(s.composed.events, s.storage.games)

    async def follow(started: asyncio.Event) -> None:
        async with aclosing(feed.watch(record.id)) as watch:
            async for _ in watch:
                started.set()

    for cycle in range(1000):
        started = asyncio.Event()
        task = asyncio.create_task(follow(started))
        if cycle % 2:  # cancelled while it waits for a move, else while it reads the game
            await asyncio.wait_for(started.wait(), WITHIN)
            assert feed.watchers.count() == 1
        else:
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert feed.watchers.count() == 0
    await feed.close()


class FailingOnce:
    """A game repository whose second `progress` read (a poller's first, after the
    watch's own) raises `error`; the others read `games`."""

    def __init__(self, games: GameRepository, error: Exception) -> None:
        self.games = games
        self.error = error
        self.calls = 0

    async def progress(self, game_ids: Collection[int]) -> dict[int, GameProgress]:
        self.calls += 1
        if self.calls == 2:
            raise self.error
        return await self.games.progress(game_ids)


@pytest.mark.parametrize("error", [
    StorageUnavailableError("test.sqlite3", Cause.UNREACHABLE, "away"),
    RuntimeError("a bug in a read"),
])
async def test_polling_goes_on_after_a_failed_read(open_services: OpenServices,
                                                    error: Exception) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    flaky = FailingOnce(s.storage.games, error)
    feed = PollingFeed(cast(GameRepository, flaky), interval=0.05)
    async with aclosing(feed.watch(record.id)) as watch:
        assert await next_ply(watch) == 0
        await s.games.play(CHANNEL, ALICE, "a3-a4")
        assert await next_ply(watch) == 1
        assert flaky.calls >= 3  # the failed read, then one that saw the move
    await feed.close()


async def test_a_crowd_is_woken_a_batch_per_turn_of_the_loop() -> None:
    watchers = Watchers()
    crowd = [watchers.add(7) for _ in range(3 * WAKE_BATCH)]
    watchers.tell(7, 1, False)
    woken = [sum(waiter.changed.is_set() for waiter in crowd)]
    for _ in range(3):
        await asyncio.sleep(0)
        woken.append(sum(waiter.changed.is_set() for waiter in crowd))
    assert woken == [WAKE_BATCH, 2 * WAKE_BATCH, 3 * WAKE_BATCH, 3 * WAKE_BATCH]
    assert all(waiter.plies == 1 for waiter in crowd)
