"""The real bot on PostgreSQL (`DAMA_DATABASE` a `postgresql://` URL): a rated game
challenged, accepted and played through discord.py's code paths, the bot restarted in the
middle (a new bot on the same database: the game restored from PostgreSQL and played on).
The storage contract suite (`tests/storage`) covers each repository on both backends;
this shows the bot's composition root takes a URL as it takes a path."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage import PostgresDatabase
from tests.support.discord_harness import (
    Harness,
    OpenBot,
    challenge_and_accept,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import option
from tests.support.postgres import PostgresServer
from tests.support.services import ALICE, BOB, CHANNEL


@pytest.fixture
def database(postgres_server: PostgresServer) -> Iterator[str]:
    """A new, empty PostgreSQL database (the bot creates its tables)."""
    url = postgres_server.new_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


async def _move(h: Harness, text: str, user: int) -> str:
    [answer, *_] = await run(h, slash(h, "move", [option("move", text)], user=user))
    assert not answer.ephemeral, answer.content
    return answer.content


async def test_a_game_on_postgresql_survives_a_restart(open_bot: OpenBot, database: str,
                                                       tmp_path: Path) -> None:
    settings = settings_for(tmp_path, database=database)
    first = await open_bot(settings)
    assert isinstance(first.bot.services.storage.db, PostgresDatabase)
    await challenge_and_accept(first)
    assert "a3-a4" in await _move(first, "a3-a4", ALICE)
    game_id = first.bot.services.games.current(CHANNEL).game_id
    await first.bot.close()
    again = await open_bot(settings)
    assert again.bot.services.games.current(CHANNEL).game_id == game_id
    assert "a6-a5" in await _move(again, "a6-a5", BOB)
    _, moves = await again.bot.services.storage.games.load(game_id)
    assert [(move.ply, move.text) for move in moves] == [(1, "a3-a4"), (2, "a6-a5")]


async def test_commands_are_synced_once_across_restarts_and_processes(
    open_bot: OpenBot, database: str, tmp_path: Path
) -> None:
    # The schema's hash is kept in PostgreSQL: a restart, or a second process on the
    # same database, finds it there and does not sync again.
    settings = settings_for(tmp_path, database=database)
    first = await open_bot(settings)
    assert first.bot.sync_result == "global"
    await first.bot.close()
    again, other = await asyncio.gather(open_bot(settings), open_bot(settings))
    assert (again.bot.sync_result, other.bot.sync_result) == ("unchanged", "unchanged")
    assert sum(c.method == "PUT" for c in first.discord.calls) == 1


async def test_the_bot_opens_its_pool_with_the_configured_size(
    open_bot: OpenBot, database: str, tmp_path: Path
) -> None:
    settings = dataclasses.replace(settings_for(tmp_path, database=database),
                                   database_pool_size=3)
    opened = await open_bot(settings)
    db = opened.bot.services.storage.db
    assert isinstance(db, PostgresDatabase) and db.pool_size == 3
