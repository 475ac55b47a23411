"""`Storage.open(path, read_only=True)`: a second program reads the bot's database while the
bot keeps writing it, and can neither change nor create the file."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from storage import (
    Database,
    DatabaseFileError,
    NewGame,
    SchemaVersionError,
    Seat,
    Storage,
)
from storage.migrate import Migration, load_migrations

pytestmark = pytest.mark.sqlite_only  # about SQLite itself: not run on PostgreSQL

FEN = "W:W21,22,23,24:B9,10,11,12"


def _game(channel: int) -> NewGame:
    return NewGame(variant="italian", channel_id=channel, guild_id=1, white=Seat.human(7),
                   black=Seat.human(8), start_fen=FEN)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_reader_sees_each_commit_of_the_writer(storage: Storage, db_path: Path) -> None:
    game = await storage.games.create(_game(5))
    async with await Storage.open(db_path, read_only=True) as reader:
        assert [g.id for g in await reader.games.active()] == [game.id]
        await storage.games.append_move(game.id, ply=1, text="22-18")  # after the reader opened
        record, moves = await reader.games.load(game.id)
        assert record.id == game.id and [m.text for m in moves] == ["22-18"]


async def test_reader_cannot_write(storage: Storage, db_path: Path) -> None:
    await storage.games.create(_game(5))
    await storage.close()
    digest = _digest(db_path)
    async with await Storage.open(db_path, read_only=True) as reader:
        with pytest.raises(RuntimeError, match="read-only"):
            await reader.games.create(_game(6))
        with pytest.raises(RuntimeError, match="read-only"):
            await reader.players.upsert(9, "nine")
    assert _digest(db_path) == digest
    assert len(_active_ids(db_path)) == 1


def _active_ids(path: Path) -> list[sqlite3.Row]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT id FROM games WHERE status = 'active'").fetchall()


async def test_missing_file_is_refused_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "data" / "none.sqlite3"
    with pytest.raises(DatabaseFileError, match="no such file"):
        await Storage.open(path, read_only=True)
    assert not path.parent.exists()


async def test_older_schema_is_refused_not_migrated(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database one migration behind this code (a newer migration is added here) is not
    migrated by a reader: it says to start the bot on it first, and the file is unchanged."""
    import storage.database as database_module

    db = await Database.open(db_path)
    await db.close()
    digest = _digest(db_path)
    shipped = load_migrations()
    newer = Migration(len(shipped) + 1, "newer", "CREATE TABLE extra (a INTEGER);\n")
    monkeypatch.setattr(database_module, "load_migrations", lambda: (*shipped, newer))
    with pytest.raises(SchemaVersionError) as caught:
        await Database.open(db_path, read_only=True)
    assert "start the bot on it once" in str(caught.value)
    assert (caught.value.found, caught.value.latest) == (len(shipped), len(shipped) + 1)
    assert _digest(db_path) == digest
