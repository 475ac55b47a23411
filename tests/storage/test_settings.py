"""SettingsRepository: players' preferences and servers' defaults, by name, kept across
restarts (migration 0005)."""

from __future__ import annotations

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
