"""The database facade: one SQLite file through aiosqlite, its settings and transactions.

`Database.open(path)` checks an existing file read-only first (SQLite header, damage,
owner program, schema version and objects) and refuses it with `DatabaseFileError` or
`SchemaVersionError` before anything is written; then it opens it read-write with

- `journal_mode = WAL`: readers never block the writer, a commit is one append to the
  write-ahead log;
- `foreign_keys = ON`;
- `busy_timeout` (default 5 s) so another process's write makes us wait, not fail;
- `synchronous` from `Durability` (see there: NORMAL by default, which keeps every
  acknowledged commit through a kill of the process);

applies the pending migrations (`storage.migrate`) and commits one write (the write
probe). Whatever goes wrong comes out as one `DatabaseFileError` naming its `Cause`
(`storage.diagnosis` asks the operating system why SQLite could not write). At run time,
a write SQLite refuses (disk full, read-only, locked) raises `StorageWriteError`.
`Database.open(path,
read_only=True)` is for a second program that only reads a database the bot keeps (local
play, tests): SQLite's read-only mode, no migration, nothing ever written.

All SQL runs on one connection, owned by one aiosqlite worker thread; an `asyncio.Lock`
gives each `transaction()` or `read()` block the connection to itself, so coroutines of
one event loop never interleave their statements and never see "database is locked".
SQL text uses `$1, $2, ...` placeholders (PostgreSQL style, rewritten to SQLite's `?1`)
so that the repositories' queries stay portable.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import os
import re
import sqlite3
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.diagnosis import (
    SQLITE_BUSY,
    SQLITE_CANTOPEN,
    SQLITE_FULL,
    SQLITE_IOERR,
    SQLITE_LOCKED,
    SQLITE_PERM,
    SQLITE_READONLY,
    diagnose_filesystem,
    open_failure,
    primary_code,
    write_failure,
)
from storage.errors import Cause, DatabaseFileError, MigrationError, SchemaVersionError
from storage.migrate import APPLICATION_ID, load_migrations
from storage.schema import schema_differences, schema_objects
from storage.sql import SqlValue

ENV_VAR = "DAMA_DATABASE"
DEFAULT_PATH = "data/dama.sqlite3"
MEMORY = ":memory:"


T = TypeVar("T")

log = logging.getLogger(__name__)

_SQLITE_HEADER = b"SQLite format 3\x00"
_PLACEHOLDER = re.compile(r"\$(\d+)")
_WRITE_REFUSALS = frozenset({SQLITE_BUSY, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_IOERR,
                             SQLITE_LOCKED, SQLITE_PERM, SQLITE_READONLY})


class Durability(enum.Enum):
    """How far an acknowledged commit is guaranteed to survive (SQLite `synchronous`).

    In WAL mode a commit appends the transaction to the `-wal` file with `write()` before
    `COMMIT` returns. The operating system keeps those bytes even if our process is killed
    (SIGKILL, OOM killer, a crash) the next instant, and the next open replays them: so
    `NORMAL` already keeps every acknowledged move when the *process* dies. It does not
    call `fsync()` at each commit, so a power loss or kernel panic can lose the last
    commits (never corrupt the file: the log is checksummed). `FULL` also `fsync()`s the
    log at every commit, which survives power loss too, at half the commit rate of NORMAL
    on this machine when its disk is quiet and a tenth when it is busy (docs/BENCHMARKS.md,
    "Storage"); group commit narrows the gap when many games move at once.

    The bot runs with `PROCESS_CRASH` (NORMAL): its goal is that a killed process loses no
    acknowledged move (docs/ARCHITECTURE.md, "Targets"), which NORMAL gives at full
    speed; a host that must survive power cuts picks `POWER_LOSS`.
    """

    PROCESS_CRASH = "NORMAL"
    POWER_LOSS = "FULL"


def database_path(environ: Mapping[str, str] | None = None) -> str:
    """The configured database path: `DAMA_DATABASE`, else `data/dama.sqlite3`.

    A relative path is relative to the working directory. `:memory:` gives a database
    that lives only as long as the process (tests).
    """
    env = os.environ if environ is None else environ
    value = env.get(ENV_VAR, "").strip()
    return value or DEFAULT_PATH


@lru_cache(maxsize=512)
def _to_sqlite(sql: str) -> str:
    return _PLACEHOLDER.sub(r"?\1", sql)


class Connection:
    """The connection as seen inside a `transaction()` or `read()` block.

    Placeholders are `$1, $2, ...`, bound positionally from `params`.
    """

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *params: SqlValue) -> int:
        """Run one statement; returns the number of rows it changed (-1 for DDL/PRAGMA)."""
        cursor = await self._conn.execute(_to_sqlite(sql), params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[SqlValue]]) -> None:
        """Run one statement once per parameter row."""
        await self._conn.executemany(_to_sqlite(sql), rows)

    async def fetch(self, sql: str, *params: SqlValue) -> list[sqlite3.Row]:
        """All rows of a query (or of an `INSERT ... RETURNING`)."""
        rows = await self._conn.execute_fetchall(_to_sqlite(sql), params)
        return list(rows)

    async def fetchrow(self, sql: str, *params: SqlValue) -> sqlite3.Row | None:
        """The first row of a query, None if there is none."""
        rows = await self.fetch(sql, *params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *params: SqlValue) -> Any:
        """The first column of the first row, None if there is no row."""
        row = await self.fetchrow(sql, *params)
        return None if row is None else row[0]


class SyncConnection:
    """The connection as seen by a function given to `Database.run`, in the database's
    worker thread: the same methods as `Connection`, not coroutines."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, *params: SqlValue) -> int:
        return self._conn.execute(_to_sqlite(sql), params).rowcount

    def fetch(self, sql: str, *params: SqlValue) -> list[sqlite3.Row]:
        return self._conn.execute(_to_sqlite(sql), params).fetchall()

    def fetchrow(self, sql: str, *params: SqlValue) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._conn.execute(_to_sqlite(sql), params).fetchone()
        return row


Outcome = tuple[bool, Any]
"""(True, value returned) or (False, exception raised) for one function of a batch."""


def _run_batch(
    conn: sqlite3.Connection, functions: Sequence[Callable[[SyncConnection], Any]]
) -> list[Outcome]:
    """Run `functions` in one transaction, each inside its own savepoint: a function that
    raises an `Exception` has its own changes rolled back and its exception reported, the
    others still commit. Runs in the database's worker thread."""
    outcomes: list[Outcome] = []
    handle = SyncConnection(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        for function in functions:
            conn.execute("SAVEPOINT write")
            try:
                value = function(handle)
            except Exception as error:
                if _refuses_writes(error) or not conn.in_transaction:
                    raise  # the whole transaction fails: SQLite may have rolled it back
                conn.execute("ROLLBACK TO write")
                conn.execute("RELEASE write")
                outcomes.append((False, error))
            else:
                conn.execute("RELEASE write")
                outcomes.append((True, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _refuses_writes(error: Exception) -> bool:
    """SQLite refused to write (full, read-only, locked, input/output error, cannot open a
    side file): no later statement of the transaction can be trusted to succeed."""
    return isinstance(error, sqlite3.Error) and primary_code(error) in _WRITE_REFUSALS


class Database:
    """An open dama-bot database. Build it with `await Database.open(path)`."""

    def __init__(self, conn: aiosqlite.Connection, path: str, durability: Durability,
                 *, read_only: bool = False) -> None:
        self._conn = conn
        self._handle = Connection(conn)
        self._lock = asyncio.Lock()
        self._queued: list[tuple[Callable[[SyncConnection], Any], asyncio.Future[Any]]] = []
        self._committer: asyncio.Task[None] | None = None
        self.path = path
        self.durability = durability
        self.read_only = read_only
        self._closed = False

    @property
    def name(self) -> str:
        """The file's path, as given (`storage.sql.SqlDatabase`)."""
        return self.path

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        durability: Durability = Durability.PROCESS_CRASH,
        busy_timeout_ms: int = 5000,
        verify: bool = True,
        read_only: bool = False,
    ) -> Database:
        """Open (creating if needed), check, migrate and write-probe the database at `path`.

        `path` defaults to `database_path()` (`DAMA_DATABASE`); its folder is created if
        missing. An existing file is checked read-only first: its header, its owner
        program, its schema version, that every table, index and trigger the migrations
        create is there as they create it (`storage.schema`) and, with `verify`, `PRAGMA
        quick_check` (reads the whole file once). After the migrations one small write is
        committed (the write probe), so a file, folder or disk that cannot take writes
        stops the start here rather than at the first move.

        Every failure is raised as a `DatabaseFileError` whose `cause` (`storage.Cause`)
        and one-line message say why and what to do: not writable (the file, its folder),
        read-only filesystem, disk full, locked by another program, input/output error,
        unreadable, a folder, damaged (bad pages, text that is not UTF-8, a missing table),
        not a dama-bot database, or `SchemaVersionError` (written by a newer dama-bot); a
        shipped migration that is itself wrong raises `MigrationError`. No other exception
        type leaves this function (but `BaseException`s such as a cancellation). A file
        refused as damaged, foreign or newer was not written to.

        With `read_only`, the file must exist already and is opened in SQLite's read-only
        mode: nothing is created, migrated or written (`transaction`, `run` and `close`'s
        `PRAGMA optimize` are not available), while another connection may keep writing
        (WAL lets readers see each commit). Raises `DatabaseFileError` also when there is
        no such file, and `SchemaVersionError` when its schema is older or newer than this
        dama-bot's (an older one is migrated by opening it for writing, as the bot does).
        """
        text = os.fspath(path) if path is not None else database_path()
        try:
            return await cls._open(text, durability, busy_timeout_ms, verify, read_only)
        except Exception as error:
            explained = open_failure(error, text)
            if explained is error:
                raise
            raise explained from error

    @classmethod
    async def _open(cls, text: str, durability: Durability, busy_timeout_ms: int,
                    verify: bool, read_only: bool) -> Database:
        if read_only and (text == MEMORY or not Path(text).exists()):
            raise DatabaseFileError(text, "there is no such file to read", Cause.UNREADABLE)
        if text != MEMORY:
            await asyncio.to_thread(_check_existing_file, Path(text), verify)
        if read_only:
            conn = await aiosqlite.connect(_read_only_uri(Path(text)), uri=True,
                                           isolation_level=None)
        else:
            conn = await aiosqlite.connect(text, isolation_level=None)
        conn.row_factory = sqlite3.Row
        db = cls(conn, text, durability, read_only=read_only)
        try:
            await db._configure(busy_timeout_ms)
            await (db._check_schema() if read_only else db._migrate())
            if not read_only:
                await db._probe_write()
        except BaseException:
            await conn.close()
            raise
        return db

    async def _configure(self, busy_timeout_ms: int) -> None:
        conn = self._conn
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if self.read_only:
            return  # journal mode and durability are the writer's; a reader changes neither
        mode = (await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone() or ["?"])[0]
        if self.path != MEMORY and str(mode).lower() != "wal":
            # SQLite keeps the old mode, without an error, when it cannot write the file.
            found = diagnose_filesystem(self.path)
            raise DatabaseFileError(
                self.path, f"it cannot be switched to WAL (mode {mode})"
                + (f": {found.what}" if found else ""),
                found.cause if found else Cause.NOT_WRITABLE,
            )
        await conn.execute(f"PRAGMA synchronous = {self.durability.value}")
        await conn.execute("PRAGMA foreign_keys = ON")

    async def _check_schema(self) -> None:
        """A read-only database must have this dama-bot's schema exactly."""
        latest = len(load_migrations())
        current = int(await self._handle.fetchval("PRAGMA user_version"))
        if current != latest:
            raise SchemaVersionError(self.path, current, latest)

    async def _probe_write(self) -> None:
        """Commit one small write (the schema version, rewritten unchanged: one page to
        the write-ahead log), so that a file, folder or disk that cannot take writes is
        found at start-up, not at the first move."""
        version = int(await self._handle.fetchval("PRAGMA user_version"))
        async with self.transaction() as conn:
            await conn.execute(f"PRAGMA user_version = {version}")

    async def _migrate(self) -> None:
        migrations = load_migrations()
        latest = len(migrations)
        current = int(await self._handle.fetchval("PRAGMA user_version"))
        if current > latest:
            raise SchemaVersionError(self.path, current, latest)
        for migration in migrations[current:]:
            async with self.transaction():
                # Another process may have migrated between our check and our lock.
                version = int(await self._handle.fetchval("PRAGMA user_version"))
                if version >= migration.version:
                    continue
                for statement in migration.statements():
                    try:
                        await self._conn.execute(statement)
                    except sqlite3.Error as error:
                        raise MigrationError(
                            f"migration {migration.version:04d}_{migration.name}.sql failed "
                            f"and was rolled back: {error}\n{statement}"
                        ) from error
                await self._conn.execute(f"PRAGMA user_version = {migration.version}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A write transaction (`BEGIN IMMEDIATE`): committed when the block ends, rolled
        back if it raises (or is cancelled). The commit has happened when the block exits.

        Raises `StorageWriteError` (from the block's statements, `BEGIN` or `COMMIT`) when
        SQLite refuses to write for a reason outside dama-bot: a full disk, a file, folder
        or filesystem that became read-only, a write lock held elsewhere past the busy
        timeout, an input/output error. The transaction is then not committed."""
        try:
            async with self._transaction() as conn:
                yield conn
        except sqlite3.Error as error:
            failure = write_failure(error, self.path)
            if failure is None:
                raise
            raise failure from error

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        async with self._lock:
            self._check_open()
            self._check_writable()
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._handle
            except BaseException:
                if self._conn.in_transaction:
                    await asyncio.shield(self._conn.execute("ROLLBACK"))
                raise
            commit = asyncio.ensure_future(self._conn.execute("COMMIT"))
            try:
                await asyncio.shield(commit)
            except asyncio.CancelledError:
                # The COMMIT is already queued in the database thread and will run: wait
                # for it, so a cancelled caller neither sends a ROLLBACK after a commit that
                # succeeded ("no transaction is active") nor leaves one half-known.
                await asyncio.wait({commit})
                if commit.exception() is not None and self._conn.in_transaction:
                    await asyncio.shield(self._conn.execute("ROLLBACK"))
                raise
            except BaseException:
                if self._conn.in_transaction:
                    await asyncio.shield(self._conn.execute("ROLLBACK"))
                raise

    async def run(self, function: Callable[[SyncConnection], T]) -> T:
        """Run `function` in the database's worker thread inside a write transaction and
        return its result once that transaction has committed; if it raises an
        `Exception`, its changes are rolled back and the exception is raised here.

        Group commit: the functions queued while a commit is under way are run together,
        one after the other (each in its own savepoint, so one failure undoes only its own
        changes) in the next transaction, at the cost of one round trip to the worker thread
        (about 0.1 ms here) and one commit. `function` must be quick and must not touch the
        event loop. If the caller is cancelled, its function still runs, or not, in whole.

        When SQLite refuses to write (full, read-only, locked, input/output error; see
        `transaction`), nothing of the batch is committed and every caller in it gets a
        `StorageWriteError`.
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._check_open()
        self._check_writable()
        self._queued.append((function, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_queued())
        return await future

    async def _commit_queued(self) -> None:
        while self._queued:
            batch, self._queued = self._queued, []
            try:
                async with self._lock:
                    self._check_open()
                    raw = self._conn._conn  # used only in its own thread, by _run_batch
                    # aiosqlite has no public "run this function in the connection's
                    # thread"; `_execute` is that (the same from aiosqlite 0.9 to 0.22,
                    # pinned < 1 in pyproject; the storage tests fail if it changes).
                    outcomes = await self._conn._execute(  # type: ignore[no-untyped-call]
                        _run_batch, raw, [function for function, _ in batch]
                    )
            except BaseException as error:  # the transaction as a whole failed
                failure = write_failure(error, self.path)
                if failure is not None and failure is not error:
                    failure.__cause__ = error
                    error = failure
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                if not isinstance(error, Exception):
                    raise
                continue
            for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """Exclusive use of the connection for reads, without a transaction: each statement
        sees the latest committed data."""
        async with self._lock:
            self._check_open()
            yield self._handle

    async def schema_version(self) -> int:
        async with self.read() as conn:
            return int(await conn.fetchval("PRAGMA user_version"))

    async def integrity_check(self) -> list[str]:
        """`PRAGMA integrity_check`: `["ok"]` for a sound database, else the problems."""
        async with self.read() as conn:
            return [str(row[0]) for row in await conn.fetch("PRAGMA integrity_check")]

    async def close(self) -> None:
        """Wait for queued writes, run `PRAGMA optimize` (refreshes the planner's statistics;
        not when read-only; skipped with a warning in the log when the disk refuses it)
        and close. Idempotent."""
        while self._committer is not None and not self._committer.done():
            await asyncio.wait([self._committer])
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                if not self.read_only:
                    await self._conn.execute("PRAGMA optimize")
            except sqlite3.Error as error:
                # Only statistics for the query planner: a full or read-only disk must
                # not turn a clean stop into a failure.
                log.warning("closing %s without PRAGMA optimize: %s", self.path,
                            write_failure(error, self.path) or error)
            finally:
                await self._conn.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"the database {self.path!r} is closed")

    def _check_writable(self) -> None:
        if self.read_only:
            raise RuntimeError(f"the database {self.path!r} was opened read-only")


def _read_only_uri(path: Path) -> str:
    """SQLite's URI for opening `path` read-only."""
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"


def _check_existing_file(path: Path, verify: bool) -> None:
    """Create the parent folder; check an existing file read-only. Raises as `open` says."""
    name = str(path)
    if path.is_dir():
        raise DatabaseFileError(name, "it is a folder, not a file", Cause.NOT_A_FILE)
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            found = diagnose_filesystem(str(path.parent))  # asks about its parent folder
            raise DatabaseFileError(name, f"its folder cannot be created ({error})",
                                    found.cause if found else Cause.NOT_WRITABLE) from error
        return
    try:
        with path.open("rb") as file:
            header = file.read(len(_SQLITE_HEADER))
    except OSError as error:
        raise open_failure(error, name) from error
    if not header:
        return  # an empty file is an empty database
    if header != _SQLITE_HEADER:
        raise DatabaseFileError(
            name, "it is not an SQLite database (its first 16 bytes are not SQLite's header; "
            "if it was dama-bot's database, it is damaged)", Cause.NOT_DAMA_BOT,
        )
    # A read-only connection to a WAL database creates empty `-wal` and `-shm` files when
    # they are missing; if the file is then refused, those are removed again.
    side_files = [Path(f"{path}-wal"), Path(f"{path}-shm")]
    existed = [side.exists() for side in side_files]
    try:
        _check_sqlite_file(path, verify)
    except BaseException:
        wal, shm = side_files
        if not existed[0] and wal.exists() and wal.stat().st_size == 0:
            wal.unlink()
            if not existed[1]:
                shm.unlink(missing_ok=True)
        raise


def _check_sqlite_file(path: Path, verify: bool) -> None:
    name = str(path)
    uri = _read_only_uri(path)
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            application_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = int(conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
            problems = (
                [str(row[0]) for row in conn.execute("PRAGMA quick_check(5)")]
                if verify else ["ok"]
            )
            found = schema_objects(conn) if problems == ["ok"] else None
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise open_failure(error, name) from error
    if problems != ["ok"]:
        raise DatabaseFileError(name, "it is damaged: " + "; ".join(problems), Cause.DAMAGED)
    if application_id not in (0, APPLICATION_ID):
        raise DatabaseFileError(
            name, f"it belongs to another program (SQLite application id {application_id})",
            Cause.NOT_DAMA_BOT,
        )
    if version == 0 and tables > 0:
        raise DatabaseFileError(name, "it holds another program's tables, not dama-bot's",
                                Cause.NOT_DAMA_BOT)
    latest = len(load_migrations())
    if version > latest:
        raise SchemaVersionError(name, version, latest)
    assert found is not None
    differences = schema_differences(version, found)
    if differences:
        shown = "; ".join(differences[:4]) + ("; ..." if len(differences) > 4 else "")
        raise DatabaseFileError(
            name, f"it is damaged: its schema is not dama-bot's version {version} ({shown})",
            Cause.DAMAGED,
        )
