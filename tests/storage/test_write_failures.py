"""Writes SQLite refuses at run time raise `StorageWriteError` with the cause, and store
nothing: a full database (SQLite's `max_page_count`, which fails exactly as a full disk
does, with SQLITE_FULL) and a write lock held by another program. The real full disk is
in `test_open_failures.py` (a tmpfs in a namespace)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage import Cause, NewGame, Seat, Storage, StorageWriteError
from storage.database import Database
from storage.postgres import PostgresDatabase

pytestmark = pytest.mark.sqlite_only  # about SQLite itself: not run on PostgreSQL


def _game(channel: int) -> NewGame:
    return NewGame("italian", channel, 1, Seat.human(1), Seat.human(2), "W:W21,22:B11,12")


async def _fill_up(db: Database | PostgresDatabase) -> None:
    """No page may be added to the file any more (per connection, not stored)."""
    assert isinstance(db, Database)
    async with db.read() as conn:
        pages = int(await conn.fetchval("PRAGMA page_count"))
        await conn.fetchval(f"PRAGMA max_page_count = {pages}")


async def _padding(db: Database | PostgresDatabase, rows: int) -> None:
    assert isinstance(db, Database)
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS padding (data BLOB)")
        for _ in range(rows):
            await conn.execute("INSERT INTO padding VALUES (randomblob(3000))")


async def test_full_database_refuses_a_new_game(storage: Storage) -> None:
    await _fill_up(storage.db)
    created = 0
    with pytest.raises(StorageWriteError) as caught:
        for channel in range(200):  # the last page has room for a few games, not 200
            await storage.games.create(_game(channel))
            created += 1
    error = caught.value
    assert error.cause is Cause.DISK_FULL
    assert "not stored" in error.explanation and "df" in error.explanation
    assert str(error) == error.explanation and "\n" not in str(error)
    assert len(await storage.games.active()) == created  # the refused game is not there


async def test_full_database_refuses_moves_in_a_group_commit(storage: Storage) -> None:
    """Moves go through `Database.run` (group commit): every mover of the failed batch
    gets the error, and none of the moves is stored."""
    games = [await storage.games.create(_game(channel)) for channel in range(40)]
    await _fill_up(storage.db)
    results = await asyncio.gather(
        *(storage.games.append_move(game.id, ply=1, text="x" * 2000) for game in games),
        return_exceptions=True,
    )
    failures = [r for r in results if isinstance(r, BaseException)]
    assert failures, "the moves fit in the free pages: the test needs more"
    assert all(isinstance(r, StorageWriteError) and r.cause is Cause.DISK_FULL
               for r in failures), failures
    stored = {game.id: len(await storage.games.moves(game.id)) for game in games}
    succeeded = sum(1 for r in results if not isinstance(r, BaseException))
    assert sum(stored.values()) == succeeded


async def test_lock_held_past_the_busy_timeout(db_path: Path) -> None:
    db = await Database.open(db_path, busy_timeout_ms=50)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageWriteError) as caught:
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO players (user_id, created_at, updated_at) "
                                   "VALUES (1, 0, 0)")
        assert caught.value.cause is Cause.LOCKED
        assert "write lock" in str(caught.value)
        other.execute("ROLLBACK")
        async with db.transaction() as conn:  # usable again once the lock is released
            await conn.execute("INSERT INTO players (user_id, created_at, updated_at) "
                               "VALUES (1, 0, 0)")
    finally:
        other.close()
        await db.close()


async def test_space_freed_lets_writes_succeed_again(storage: Storage) -> None:
    await _padding(storage.db, 20)
    await _fill_up(storage.db)
    with pytest.raises(StorageWriteError):
        await _padding(storage.db, 20)
    async with storage.db.transaction() as conn:  # deleting frees pages inside the file
        await conn.execute("DELETE FROM padding")
    game = await storage.games.create(_game(500))
    assert (await storage.games.get(game.id)) is not None


def test_only_write_causes_make_a_write_error() -> None:
    with pytest.raises(ValueError):
        StorageWriteError("x.sqlite3", Cause.DAMAGED, "no")
