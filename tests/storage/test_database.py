"""The database file: settings, migrations, and refusal of files it must not touch."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import (
    Database,
    DatabaseFileError,
    Durability,
    SchemaVersionError,
    Storage,
    database_path,
    latest_version,
)
from storage.migrate import APPLICATION_ID, Migration, load_migrations

pytestmark = pytest.mark.sqlite_only  # about SQLite itself: not run on PostgreSQL


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _digest_but_commit_counters(path: Path) -> str:
    """`_digest` without the two header fields every commit bumps (SQLite file format,
    "The database header": the file change counter at offset 24 and the version-valid-for
    number at 92, 4 bytes each): the start's write probe commits one unchanged page on
    purpose, so only those may differ after a start that changes nothing."""
    data = bytearray(path.read_bytes())
    data[24:28] = data[92:96] = bytes(4)
    return hashlib.sha256(bytes(data)).hexdigest()


def _schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    return [tuple(row) for row in rows]


def test_database_path_from_environment() -> None:
    assert database_path({}) == "data/dama.sqlite3"
    assert database_path({"DAMA_DATABASE": "  "}) == "data/dama.sqlite3"
    assert database_path({"DAMA_DATABASE": "/srv/dama/db.sqlite3"}) == "/srv/dama/db.sqlite3"


async def test_default_path_creates_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DAMA_DATABASE", raising=False)
    db = await Database.open()
    await db.close()
    assert (tmp_path / "data" / "dama.sqlite3").is_file()


async def test_path_from_env_with_missing_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "a" / "b" / "bot.db"
    monkeypatch.setenv("DAMA_DATABASE", str(target))
    db = await Database.open()
    await db.close()
    assert target.is_file()


@pytest.mark.parametrize(("durability", "level"), [
    (Durability.PROCESS_CRASH, 1), (Durability.POWER_LOSS, 2),
])
async def test_connection_settings(db_path: Path, durability: Durability, level: int) -> None:
    db = await Database.open(db_path, durability=durability, busy_timeout_ms=1234)
    try:
        async with db.read() as conn:
            assert await conn.fetchval("PRAGMA journal_mode") == "wal"
            assert await conn.fetchval("PRAGMA foreign_keys") == 1
            assert await conn.fetchval("PRAGMA busy_timeout") == 1234
            assert await conn.fetchval("PRAGMA synchronous") == level  # 1 NORMAL, 2 FULL
            assert await conn.fetchval("PRAGMA application_id") == APPLICATION_ID
    finally:
        await db.close()


async def test_empty_database_migrated_to_latest(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        assert await db.schema_version() == latest_version() == len(load_migrations())
        assert await db.integrity_check() == ["ok"]
    finally:
        await db.close()
    names = {name for _, name, _ in _schema(db_path)}
    assert {"players", "games", "moves", "challenges", "ratings", "guild_rated_players"} <= names


async def test_empty_file_is_a_new_database(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.touch()
    db = await Database.open(db_path)
    assert await db.schema_version() == latest_version()
    await db.close()


async def test_migrating_twice_changes_nothing(db_path: Path) -> None:
    first = await Database.open(db_path)
    await first.close()
    schema, digest = _schema(db_path), _digest_but_commit_counters(db_path)
    second = await Database.open(db_path)
    assert await second.schema_version() == latest_version()
    await second.close()
    assert _schema(db_path) == schema
    assert _digest_but_commit_counters(db_path) == digest


async def test_newer_database_refused_untouched(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    digest = _digest(db_path)
    with pytest.raises(SchemaVersionError) as caught:
        await Database.open(db_path)
    message = str(caught.value)
    assert str(db_path) in message and "newer dama-bot" in message
    assert caught.value.found == latest_version() + 1
    assert _digest(db_path) == digest


async def test_newer_in_memory_database_refused() -> None:
    # The check also runs on the live connection (no file to pre-check): a database
    # migrated by a newer version in between is refused there too.
    db = await Database.open(":memory:")
    async with db.transaction() as conn:
        await conn.execute(f"PRAGMA user_version = {latest_version() + 5}")
    with pytest.raises(SchemaVersionError):
        await db._migrate()
    await db.close()


def _assert_refused_untouched(path: Path, excinfo: pytest.ExceptionInfo[DatabaseFileError],
                              digest: str, words: str) -> None:
    message = str(excinfo.value)
    assert str(path) in message, message
    assert words in message, message
    assert _digest(path) == digest
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-journal").exists()


async def test_text_file_refused_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_text("these are my notes, not a database\n" * 50)
    digest = _digest(db_path)
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(db_path)
    _assert_refused_untouched(db_path, caught, digest, "not an SQLite database")


async def test_damaged_database_refused_untouched(db_path: Path) -> None:
    store = await Storage.open(db_path)
    from storage import NewGame, Seat

    for channel in range(300):
        await store.games.create(NewGame("turkish", channel, 1, Seat.human(channel + 1),
                                         Seat.human(channel + 1000), "W:Wa2:Ba7"))
    await store.close()
    data = bytearray(db_path.read_bytes())
    assert len(data) > 8 * 4096
    page_size = int.from_bytes(data[16:18], "big")
    for page in (2, 3, 4):  # garbage over a few b-tree pages, header intact
        start = page * page_size
        data[start:start + page_size] = bytes([0xA5]) * page_size
    db_path.write_bytes(bytes(data))
    digest = _digest(db_path)
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(db_path)
    _assert_refused_untouched(db_path, caught, digest, "damaged")


async def test_truncated_database_refused_untouched(db_path: Path) -> None:
    store = await Storage.open(db_path)
    await store.players.upsert(1, "a")
    await store.close()
    data = db_path.read_bytes()
    db_path.write_bytes(data[:100 + 50])  # header plus a piece of the first page
    digest = _digest(db_path)
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(db_path)
    _assert_refused_untouched(db_path, caught, digest, str(db_path))


async def test_other_programs_database_refused_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
    digest = _digest(db_path)
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(db_path)
    _assert_refused_untouched(db_path, caught, digest, "another program")
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA application_id = 42")
    digest = _digest(db_path)
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(db_path)
    _assert_refused_untouched(db_path, caught, digest, "application id 42")


async def test_folder_at_path_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseFileError, match="folder"):
        await Database.open(tmp_path)


def test_migration_files_split_into_statements() -> None:
    migration = Migration(9, "demo", (
        "-- a comment\nCREATE TABLE t (a INTEGER);\n"
        "CREATE TRIGGER t_no_delete BEFORE DELETE ON t\nBEGIN\n"
        "    SELECT RAISE(ABORT, 'no');\nEND;\n\n-- trailing comment\n"
    ))
    statements = migration.statements()
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_shipped_migrations_are_numbered_from_one() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert all(m.statements() for m in migrations)


async def test_failed_migration_rolls_back(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration that fails half-way leaves neither its tables nor its version behind."""
    import storage.database as database_module

    good = load_migrations()
    broken = Migration(len(good) + 1, "broken", "CREATE TABLE extra (a INTEGER);\nNOT SQL;\n")
    monkeypatch.setattr(database_module, "load_migrations", lambda: (*good, broken))
    from storage import MigrationError

    with pytest.raises(MigrationError, match="broken"):
        await Database.open(db_path)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(good)
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "extra" not in tables and "games" in tables


async def test_closed_database_refuses_use(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    await db.close()
    with pytest.raises(RuntimeError, match="closed"):
        await db.schema_version()


async def test_run_commits_each_function_or_rolls_it_back(db_path: Path) -> None:
    """`Database.run` (group commit): queued functions share a transaction, each in its own
    savepoint; one that raises is undone alone and its error reaches its caller."""
    import asyncio

    from storage.database import SyncConnection

    db = await Database.open(db_path)
    try:
        def insert(user: int, fail: bool = False) -> Callable[[SyncConnection], int]:
            def work(conn: SyncConnection) -> int:
                conn.execute("INSERT INTO players (user_id, created_at, updated_at) "
                             "VALUES ($1, 0, 0)", user)
                if fail:
                    raise LookupError(f"user {user}")
                return user
            return work

        results = await asyncio.gather(
            *(db.run(insert(user, fail=user % 3 == 0)) for user in range(1, 31)),
            return_exceptions=True,
        )
        for user, result in zip(range(1, 31), results, strict=True):
            if user % 3 == 0:
                assert isinstance(result, LookupError) and str(result) == f"user {user}"
            else:
                assert result == user
        async with db.read() as conn:
            stored = [row[0] for row in await conn.fetch(
                "SELECT user_id FROM players ORDER BY user_id")]
        assert stored == [user for user in range(1, 31) if user % 3]
    finally:
        await db.close()
    with pytest.raises(RuntimeError, match="closed"):
        await db.run(lambda conn: None)


async def test_cancelled_during_commit_keeps_the_commit(db_path: Path) -> None:
    """A caller cancelled while its COMMIT is under way: the transaction stays committed,
    no ROLLBACK is sent after it (that failed with "no transaction is active"), and the
    caller sees its cancellation."""
    import asyncio

    db = await Database.open(db_path)
    try:
        conn = db._conn  # the aiosqlite connection whose COMMIT we hold back
        real_execute = conn.execute
        commit_started = asyncio.Event()
        release = asyncio.Event()

        async def held_execute(sql: str, *args: object) -> object:
            if sql == "COMMIT":
                commit_started.set()
                await release.wait()
            return await real_execute(sql, *args)

        conn.execute = held_execute  # type: ignore[method-assign, assignment]

        async def write() -> None:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO players (user_id, created_at, updated_at) "
                                 "VALUES ($1, 0, 0)", 7)

        task = asyncio.create_task(write())
        await commit_started.wait()
        task.cancel()
        await asyncio.sleep(0)
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        conn.execute = real_execute  # type: ignore[method-assign]
        async with db.read() as reader:
            assert await reader.fetchval("SELECT count(*) FROM players WHERE user_id = 7") == 1
        async with db.transaction() as tx:  # the connection is usable afterwards
            await tx.execute("INSERT INTO players (user_id, created_at, updated_at) "
                             "VALUES ($1, 0, 0)", 8)
    finally:
        await db.close()
