"""Start-up tells the causes apart: each way a database can be unusable gives one line
naming the file, the cause and the right advice, never a traceback; only a damaged file
is sent to its backups. Every case is a real file refused by the real operating system
(permissions without capabilities, a read-only mount, a full tmpfs in a namespace of
their own) or by SQLite."""

from __future__ import annotations

import hashlib
import random
import shlex
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from storage import (
    Cause,
    Database,
    DatabaseFileError,
    NewGame,
    SchemaVersionError,
    Seat,
    Storage,
    latest_version,
)
from tests.support.restricted import open_in_namespace, open_unprivileged

pytestmark = pytest.mark.sqlite_only  # about SQLite itself: not run on PostgreSQL

ENVIRONMENT = {Cause.NOT_WRITABLE, Cause.READ_ONLY_FILESYSTEM, Cause.DISK_FULL, Cause.LOCKED,
               Cause.UNREADABLE}


async def _make_database(path: Path, games: int = 3) -> None:
    async with await Storage.open(path) as store:
        for channel in range(games):
            game = await store.games.create(NewGame("italian", channel, 1, Seat.human(1),
                                                    Seat.human(2), "W:W21,22:B11,12"))
            await store.games.append_move(game.id, ply=1, text="22-18")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _assert_line(report: dict[str, Any], path: Path, cause: Cause) -> None:
    assert report.get("traceback") is False, report
    assert report["cause"] == cause.value, report
    message = report["message"]
    assert "\n" not in message and str(path) in message, message
    assert cause.advice in message, message
    if cause in ENVIRONMENT:
        assert "backup" not in message, message


def _report(error: DatabaseFileError) -> dict[str, Any]:
    return {"traceback": False, "cause": error.cause.value, "message": str(error)}


# -- not writable: permissions (applied to root too: the child has no capabilities) --------


async def test_file_without_write_permission(db_path: Path) -> None:
    await _make_database(db_path)
    db_path.chmod(0o444)
    digest = _digest(db_path)
    _assert_line(open_unprivileged("open", str(db_path)), db_path, Cause.NOT_WRITABLE)
    assert _digest(db_path) == digest


async def test_folder_without_write_permission(db_path: Path) -> None:
    await _make_database(db_path)
    db_path.parent.chmod(0o555)
    try:
        report = open_unprivileged("open", str(db_path))
    finally:
        db_path.parent.chmod(0o755)
    _assert_line(report, db_path, Cause.NOT_WRITABLE)


def test_new_database_in_a_folder_without_write_permission(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.parent.chmod(0o555)
    try:
        report = open_unprivileged("open", str(db_path))
    finally:
        db_path.parent.chmod(0o755)
    _assert_line(report, db_path, Cause.NOT_WRITABLE)
    assert not db_path.exists()


async def test_file_without_read_permission(db_path: Path) -> None:
    await _make_database(db_path)
    db_path.chmod(0o000)
    try:
        report = open_unprivileged("open", str(db_path))
    finally:
        db_path.chmod(0o644)
    _assert_line(report, db_path, Cause.UNREADABLE)
    assert "Permission denied" in report["message"]


def test_writable_database_opens_without_privileges(db_path: Path) -> None:
    # The same child, given a usable file, succeeds: the refusals above are the file's.
    assert open_unprivileged("open", str(db_path)) == {"ok": True}


# -- read-only and full filesystems (a mount namespace of the test's own) -----------------


async def test_read_only_filesystem(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    await _make_database(folder / "dama.sqlite3")
    mount = shlex_quote(folder)
    report = open_in_namespace(
        f"mount --bind {mount} {mount} && mount -o remount,ro,bind {mount}",
        "open", str(folder / "dama.sqlite3"),
    )
    _assert_line(report, folder / "dama.sqlite3", Cause.READ_ONLY_FILESYSTEM)


async def test_full_disk_at_start(tmp_path: Path) -> None:
    source = tmp_path / "source.sqlite3"
    await _make_database(source)
    folder = tmp_path / "small"
    folder.mkdir()
    mount = shlex_quote(folder)
    copy = shlex_quote(folder / "dama.sqlite3")
    report = open_in_namespace(
        f"mount -t tmpfs -o size=1m tmpfs {mount} && cp {shlex_quote(source)} {copy} && "
        f"(dd if=/dev/zero of={mount}/filler bs=4k 2>/dev/null || true)",
        "open", str(folder / "dama.sqlite3"),
    )
    _assert_line(report, folder / "dama.sqlite3", Cause.DISK_FULL)


async def test_disk_filling_up_while_running(tmp_path: Path) -> None:
    """At run time a full disk gives the run-time error type, with its cause."""
    folder = tmp_path / "small"
    folder.mkdir()
    mount = shlex_quote(folder)
    report = open_in_namespace(
        f"mount -t tmpfs -o size=2m tmpfs {mount}",
        "fill", str(folder / "dama.sqlite3"), str(folder / "filler"),
    )
    assert report["error"] == "StorageWriteError" and report["cause"] == "disk full", report
    assert "not stored" in report["message"] and "backup" not in report["message"]


def shlex_quote(path: Path) -> str:
    return shlex.quote(str(path))


# -- another program holds the lock -----------------------------------------------------


async def test_write_lock_held_by_another_program(db_path: Path) -> None:
    await _make_database(db_path)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseFileError) as caught:
            opened = await Database.open(db_path, busy_timeout_ms=50)
            await opened.close()  # (only if it wrongly opened: its thread would hang pytest)
    finally:
        other.close()
    _assert_line(_report(caught.value), db_path, Cause.LOCKED)


# -- damaged, foreign, newer ------------------------------------------------------------


@pytest.mark.parametrize(("sql", "missing"), [
    ("DROP TABLE moves", "table moves is missing"),
    ("DROP TRIGGER moves_no_delete", "trigger moves_no_delete is missing"),
    ("DROP INDEX games_active_channel", "index games_active_channel is missing"),
    ("ALTER TABLE players DROP COLUMN display_name", "table players has other columns"),
])
async def test_dropped_schema_object_is_damage(db_path: Path, sql: str, missing: str) -> None:
    await _make_database(db_path)
    with sqlite3.connect(db_path) as conn:
        conn.execute(sql)
    digest = _digest(db_path)
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(db_path)
    _assert_line(_report(caught.value), db_path, Cause.DAMAGED)
    assert missing in str(caught.value)
    assert "backup" in str(caught.value)
    assert _digest(db_path) == digest


async def test_moves_without_their_foreign_key_is_damage(db_path: Path) -> None:
    await _make_database(db_path)
    with sqlite3.connect(db_path) as conn:
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'moves'").fetchone()[0]
        assert "REFERENCES games (id)" in sql
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute("UPDATE sqlite_master SET sql = $1 WHERE name = 'moves'",
                     (sql.replace("REFERENCES games (id)", ""),))
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(db_path)
    assert caught.value.cause is Cause.DAMAGED
    assert "table moves has other foreign keys" in str(caught.value)


async def test_random_byte_flips_never_raise_anything_else(db_path: Path) -> None:
    """200 copies of a database, each with 1 to 8 bytes changed at random places (seeded):
    each either opens (the bytes were in free space) or is refused with a
    `DatabaseFileError`; no `UnicodeDecodeError` or other exception escapes."""
    await _make_database(db_path, games=40)
    original = db_path.read_bytes()
    rng = random.Random(20261201)
    refused = opened = 0
    for trial in range(200):
        data = bytearray(original)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        target = db_path.parent / f"flip-{trial}.sqlite3"
        target.write_bytes(bytes(data))
        try:
            store = await Storage.open(target)
        except DatabaseFileError as error:
            assert "\n" not in str(error) and str(target) in str(error)
            refused += 1
        else:
            await store.close()
            opened += 1
        for side in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
            side.unlink(missing_ok=True)
    assert refused > 50 and opened + refused == 200


async def test_text_in_sqlite_master_that_is_not_utf8(db_path: Path) -> None:
    """A flipped byte in the schema's text once raised `UnicodeDecodeError` at start-up."""
    await _make_database(db_path)
    data = bytearray(db_path.read_bytes())
    at = data.find(b"CREATE TABLE moves")
    assert at > 0
    data[at + 7] = 0xFF  # "CREATE \xffABLE moves"
    db_path.write_bytes(bytes(data))
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(db_path)
    _assert_line(_report(caught.value), db_path, Cause.DAMAGED)


async def test_other_program_and_newer_schema_have_their_own_causes(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    foreign = db_path.parent / "invoices.sqlite3"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(DatabaseFileError) as caught:
        await Storage.open(foreign)
    _assert_line(_report(caught.value), foreign, Cause.NOT_DAMA_BOT)
    assert "backup" not in str(caught.value)

    await _make_database(db_path)
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    with pytest.raises(SchemaVersionError) as newer:
        await Storage.open(db_path)
    _assert_line(_report(newer.value), db_path, Cause.NEWER_SCHEMA)
    assert "upgrade dama-bot" in str(newer.value)


async def test_write_probe_commits_at_start(db_path: Path) -> None:
    """Opening an existing database writes once (the probe) so that a disk that cannot
    take writes is found at start-up: the write-ahead log grows by a frame."""
    await _make_database(db_path)
    wal = Path(f"{db_path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed at close
    store = await Storage.open(db_path)
    try:
        assert wal.stat().st_size > 0
    finally:
        await store.close()
