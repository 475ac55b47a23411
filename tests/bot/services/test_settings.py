"""`PreferenceService` (`bot/services/settings.py`) on a real database: defaults, stored
values read back, values it cannot use, and the side a player's boards are drawn from."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.language import AUTO
from bot.messages import fields
from bot.services.settings import (
    PREFERENCES,
    BoardSide,
    ChallengeLimits,
    GuildSettings,
    Kind,
    Notation,
    PlayerSettings,
    PreferenceService,
    Setter,
    WebVisibility,
    preferences_of,
)
from engine import Color
from storage import Storage
from tests.support.clock import FakeClock


async def test_defaults_changes_and_unusable_stored_values(tmp_path: Path) -> None:
    async with await Storage.open(tmp_path / "db.sqlite3", clock=FakeClock()) as storage:
        service = PreferenceService(storage.settings, ChallengeLimits(2, 4))
        assert await service.player(1) == PlayerSettings(BoardSide.AUTO, Notation.NUMERIC)
        changed = await service.update_player(1, notation=Notation.ALGEBRAIC)
        assert changed == PlayerSettings(BoardSide.AUTO, Notation.ALGEBRAIC)
        assert (await service.guild(9)).limits == ChallengeLimits(2, 4)
        assert (await service.guild(None)).limits == ChallengeLimits(2, 4)
        assert (await service.update_guild(9, per_opponent=7)).limits == ChallengeLimits(2, 7)
        with pytest.raises(ValueError, match=r"1\.\.25"):
            await service.update_guild(9, per_challenger=0)
        # Values written by hand (or by a later version) that this one cannot use: the
        # defaults, and the bot goes on.
        await storage.settings.set_player(2, {"board_side": "sideways", "notation": "x"})
        await storage.settings.set_guild(8, {"challenges_per_challenger": "99",
                                             "challenges_per_opponent": "many"})
        fresh = PreferenceService(storage.settings, ChallengeLimits(2, 4))
        assert await fresh.player(2) == PlayerSettings()
        assert (await fresh.guild(8)).limits == ChallengeLimits(2, 4)
        assert (await fresh.guild(9)).limits == ChallengeLimits(2, 7)
        assert await fresh.player(1) == changed


def test_the_side_of_a_players_boards() -> None:
    auto = PlayerSettings()
    assert auto.side(Color.BLACK, Color.WHITE) is Color.BLACK  # the side played
    assert auto.side(None, Color.BLACK) is Color.BLACK  # a spectator: the side to move
    assert PlayerSettings(BoardSide.WHITE).side(Color.BLACK, Color.BLACK) is Color.WHITE
    assert PlayerSettings(BoardSide.BLACK).side(Color.WHITE, Color.WHITE) is Color.BLACK


async def test_with_several_processes_a_players_preferences_are_read_again(
    tmp_path: Path,
) -> None:
    """Two bot processes (shards) on one database: a preference changed through one is
    seen by the other once its cached copy is `player_cache_seconds` old."""
    now = [0.0]
    async with await Storage.open(tmp_path / "db.sqlite3", clock=FakeClock()) as storage:
        here = PreferenceService(storage.settings, player_cache_seconds=30,
                               monotonic=lambda: now[0])
        there = PreferenceService(storage.settings, player_cache_seconds=30,
                                monotonic=lambda: now[0])
        assert (await there.player(1)).notation is Notation.NUMERIC
        await here.update_player(1, notation=Notation.ALGEBRAIC)
        now[0] = 29.0
        assert (await there.player(1)).notation is Notation.NUMERIC  # still its copy
        now[0] = 30.0
        assert (await there.player(1)).notation is Notation.ALGEBRAIC
        # One process alone keeps its copy (it makes every change itself).
        alone = PreferenceService(storage.settings, monotonic=lambda: now[0])
        assert (await alone.player(2)).board_side is BoardSide.AUTO
        await storage.settings.set_player(2, {"board_side": "black"})
        now[0] = 10_000.0
        assert (await alone.player(2)).board_side is BoardSide.AUTO


async def test_a_reader_of_servers_it_does_not_own_reads_their_settings_again(
    tmp_path: Path,
) -> None:
    """`dama-bot web` reads servers the bot processes change: their settings are read
    again once its copy is `guild_cache_seconds` old; without it the copy is kept."""
    now = [0.0]
    async with await Storage.open(tmp_path / "db.sqlite3", clock=FakeClock()) as storage:
        bot = PreferenceService(storage.settings, monotonic=lambda: now[0])
        web = PreferenceService(storage.settings, guild_cache_seconds=30,
                                monotonic=lambda: now[0])
        assert (await web.guild(7)).web is WebVisibility.LINK
        assert (await bot.guild(7)).web is WebVisibility.LINK
        await bot.update_guild(7, web="public")
        assert (await bot.guild(7)).web is WebVisibility.PUBLIC
        now[0] = 29.0
        assert (await web.guild(7)).web is WebVisibility.LINK  # still its copy
        now[0] = 30.0
        assert (await web.guild(7)).web is WebVisibility.PUBLIC
        await storage.settings.set_guild(7, {"web": "off"})
        now[0] = 10_000.0
        assert (await bot.guild(7)).web is WebVisibility.PUBLIC  # the owner keeps its own


async def test_changes_are_checked_by_their_declarations(tmp_path: Path) -> None:
    async with await Storage.open(tmp_path / "db.sqlite3", clock=FakeClock()) as storage:
        service = PreferenceService(storage.settings)
        with pytest.raises(ValueError, match="'per_opponent' is not a player preference"):
            await service.update_player(1, per_opponent=3)
        with pytest.raises(ValueError, match="'notation' is not a server preference"):
            await service.update_guild(9, notation="algebraic")
        with pytest.raises(ValueError, match="board_side must be one of"):
            await service.update_player(1, board_side="sideways")
        with pytest.raises(ValueError, match="language must be one of"):
            await service.update_player(1, language="de")
        assert await storage.settings.player(1) == {} and await storage.settings.guild(9) == {}
        chosen = await service.update_player(1, language="ar", board_side="white")
        assert (chosen.language, chosen.board_side) == ("ar", BoardSide.WHITE)
        assert (await service.update_player(1, language=AUTO)).language is None


def test_each_declared_preference_is_a_field_of_what_its_setter_reads() -> None:
    for preference in preferences_of(Setter.PLAYER):
        PlayerSettings().value(preference.name)
        assert "value" in fields(preference.line(Setter.PLAYER))
    for preference in preferences_of(Setter.SERVER):
        GuildSettings(ChallengeLimits()).value(preference.name)
        assert "value" in fields(preference.line(Setter.SERVER))
    for preference in PREFERENCES:
        if preference.kind is Kind.CHOICE:
            assert set(preference.words) == set(preference.choices()), preference.name
    stored = [preference.stored for preference in PREFERENCES]
    assert len(set(stored)) == len(stored)


def test_a_preference_not_set_by_a_setter_has_no_line_for_it() -> None:
    [board_side] = [p for p in PREFERENCES if p.name == "board_side"]
    with pytest.raises(ValueError, match="board_side is not set by server"):
        board_side.line(Setter.SERVER)
