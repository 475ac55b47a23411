"""SettingsRepository: players' preferences and servers' defaults, by name, kept across
restarts (migration 0005)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage import Storage
from tests.support.clock import FakeClock


async def test_player_settings_are_stored_by_name_and_removed_with_none(
    storage: Storage,
) -> None:
    assert await storage.settings.player(7) == {}
    stored = await storage.settings.set_player(7, {"board_side": "black", "notation": "algebraic"})
    assert stored == {"board_side": "black", "notation": "algebraic"}
    assert await storage.settings.set_player(7, {"board_side": None, "notation": "numeric"}) == {
        "notation": "numeric"
    }
    # A name no migration knows (the language, later) is one more row.
    assert await storage.settings.set_player(7, {"language": "it"}) == {
        "language": "it", "notation": "numeric"
    }
    assert await storage.settings.player(8) == {}


async def test_guild_settings_are_apart_from_player_settings(storage: Storage) -> None:
    await storage.settings.set_guild(5, {"challenge_limit_per_challenger": "2"})
    assert await storage.settings.guild(5) == {"challenge_limit_per_challenger": "2"}
    assert await storage.settings.player(5) == {}
    assert await storage.settings.guild(6) == {}


async def test_settings_survive_a_restart(db_path: Path, clock: FakeClock) -> None:
    async with await Storage.open(db_path, clock=clock) as first:
        await first.settings.set_player(1, {"board_side": "white"})
        await first.settings.set_guild(2, {"challenge_limit_per_opponent": "4"})
    async with await Storage.open(db_path, clock=clock) as second:
        assert await second.settings.player(1) == {"board_side": "white"}
        assert await second.settings.guild(2) == {"challenge_limit_per_opponent": "4"}


async def test_an_overlong_value_is_refused_and_nothing_of_the_call_is_stored(
    storage: Storage,
) -> None:
    await storage.settings.set_player(3, {"notation": "numeric"})
    with pytest.raises((sqlite3.IntegrityError, asyncpg.CheckViolationError)):
        await storage.settings.set_player(3, {"board_side": "white", "notation": "x" * 101})
    assert await storage.settings.player(3) == {"notation": "numeric"}


async def test_the_bots_own_values_are_compared_and_set(storage: Storage) -> None:
    values = storage.settings
    assert await values.bot_values() == {}
    assert await values.replace_bot_value("schema", None, "a")  # absent: inserted
    assert not await values.replace_bot_value("schema", None, "b")  # present: refused
    assert not await values.replace_bot_value("schema", "x", "b")  # not "x": refused
    assert await values.bot_values() == {"schema": "a"}
    assert await values.replace_bot_value("schema", "a", "b")
    assert await values.bot_values() == {"schema": "b"}
    assert not await values.replace_bot_value("schema", "a", None)
    assert await values.replace_bot_value("schema", "b", None)
    assert await values.bot_values() == {}
    assert await values.replace_bot_value("schema", None, None)  # absent, stays absent


async def test_the_bots_own_values_are_apart_from_every_servers(storage: Storage) -> None:
    await storage.settings.set_guild(5, {"language": "it"})
    assert await storage.settings.replace_bot_value("language", None, "fr")
    assert await storage.settings.guild(5) == {"language": "it"}
    assert await storage.settings.bot_values() == {"language": "fr"}


async def test_of_processes_replacing_one_value_at_once_exactly_one_wins(
    target: str, clock: FakeClock,
) -> None:
    # Several connections (processes, on PostgreSQL) race to replace the same value:
    # the database lets exactly one through, whatever the interleaving.
    stores = [await Storage.open(target, clock=clock) for _ in range(4)]
    try:
        assert await stores[0].settings.replace_bot_value("schema", None, "old")
        won = await asyncio.gather(*(
            store.settings.replace_bot_value("schema", "old", f"new {i}")
            for i, store in enumerate(stores)))
        assert sum(won) == 1
        [winner] = [i for i, ok in enumerate(won) if ok]
        assert await stores[1].settings.bot_values() == {"schema": f"new {winner}"}
        # And from absent: one insert wins.
        assert await stores[0].settings.replace_bot_value("schema", f"new {winner}", None)
        won = await asyncio.gather(*(
            store.settings.replace_bot_value("schema", None, f"first {i}")
            for i, store in enumerate(stores)))
        assert sum(won) == 1
    finally:
        for store in stores:
            await store.close()
