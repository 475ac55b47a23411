"""The PostgreSQL backend: a connection pool through asyncpg, its migrations and errors.

Chosen when `DAMA_DATABASE` is a `postgresql://` (or `postgres://`) URL. The operator
runs PostgreSQL; dama-bot never starts it. Driver: asyncpg (docs/STORAGE.md,
"PostgreSQL's driver and concurrency": its queries use PostgreSQL's own `$1` placeholders,
which the repositories already write, and it returns rows readable by position and by
name, as `sqlite3.Row`).

- `PostgresDatabase.open(url)` connects (a pool), applies the pending migrations of
  `storage.migrations_postgresql` and refuses a database whose schema is newer than this
  code (`SchemaVersionError`) or that holds another program's tables
  (`DatabaseFileError`, `Cause.NOT_DAMA_BOT`). The schema version is kept in the table
  `schema_migrations` (one row per version applied), written in the same transaction as
  the migration; each migration runs in its own transaction under an advisory lock, so
  several processes starting at once migrate once.
- Every `transaction()` is READ COMMITTED on its own pooled connection: several
  coroutines and several processes write at once, and the database keeps them apart:
  conditional updates (`WHERE ply_count = ...`) and row locks (`storage.sql.lock_row`)
  where a repository reads before it writes. Nothing is serialised in the process.
- `read()` is a read-only REPEATABLE READ transaction: its statements see one snapshot.
"""

from __future__ import annotations

import logging
import re
import urllib.parse
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from storage.errors import (
    Cause,
    DatabaseFileError,
    MigrationError,
    SchemaVersionError,
    StorageUnavailableError,
    StorageWriteError,
)
from storage.migrate import APPLICATION_ID, POSTGRESQL_MIGRATIONS, load_migrations
from storage.sql import Row, SqlValue

SCHEMES = ("postgresql://", "postgres://")

DEFAULT_POOL_SIZE = 10
"""Connections a process keeps to PostgreSQL unless told otherwise (`DAMA_DATABASE_POOL_SIZE`,
docs/OPERATING.md, "Settings"): transactions of one process beyond this many wait for a
free connection."""

MAX_POOL_SIZE = 1000
"""The largest pool accepted: PostgreSQL's own `max_connections` is 100 by default, and
every process of the bot holds its pool (docs/OPERATING.md, "PostgreSQL")."""
VERSION_TABLE = "schema_migrations"

log = logging.getLogger(__name__)

_COUNT = re.compile(r"(\d+)$")
# SQLSTATE classes of a write refused for a reason outside dama-bot.
_DISK_FULL = "53100"
_READ_ONLY = "25006"


def is_postgresql(target: str) -> bool:
    """Whether a `DAMA_DATABASE` value names a PostgreSQL database (else an SQLite file)."""
    return target.strip().lower().startswith(SCHEMES)


def redact_url(url: str) -> str:
    """The URL without its password, for messages and logs. A URL that does not parse
    (e.g. a password with `/`, `#` or `?` not percent-encoded, which ends the host part
    early) is shown as its scheme only: where its password ends cannot be told."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError:
        return _MALFORMED
    if "@" in url.partition("://")[2] and "@" not in parts.netloc:
        return f"{parts.scheme}://***"
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    user = urllib.parse.quote(parts.username or "")
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


_MALFORMED = "postgresql://***"


def violated_constraint(error: BaseException) -> str | None:
    """The name of the unique index or constraint a PostgreSQL error says was violated
    (None for any other error)."""
    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        name: str | None = getattr(error, "constraint_name", None)
        return name
    return None


def database_secrets(target: str) -> list[str]:
    """The secrets a `DAMA_DATABASE` value holds, for the log's redaction: a PostgreSQL
    URL's password (none for a path)."""
    if not is_postgresql(target):
        return []
    try:
        parts = urllib.parse.urlsplit(target)
        password = parts.password
    except ValueError:  # e.g. an unclosed '[' in the host
        parts, password = None, None
    if parts is None or ("@" in target.partition("://")[2] and "@" not in parts.netloc):
        # A URL that does not parse: what is between the user's ':' and the last '@'.
        userinfo = target.partition("://")[2].rpartition("@")[0]
        password = userinfo.partition(":")[2] or None
    if not password:
        return []
    decoded = urllib.parse.unquote(password)  # as written in the URL, and as meant
    return [password] if decoded == password else [password, decoded]


class PostgresConnection:
    """The connection inside a `transaction()` or `read()` block (`storage.sql`)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, *params: SqlValue) -> int:
        status: str = await self._conn.execute(sql, *params)
        found = _COUNT.search(status)
        return int(found.group(1)) if found else -1

    async def executemany(self, sql: str, rows: Iterable[Sequence[SqlValue]]) -> None:
        batch = [tuple(row) for row in rows]
        if batch:
            await self._conn.executemany(sql, batch)

    async def fetch(self, sql: str, *params: SqlValue) -> list[Row]:
        rows: list[Row] = await self._conn.fetch(sql, *params)
        return rows

    async def fetchrow(self, sql: str, *params: SqlValue) -> Row | None:
        return await self._conn.fetchrow(sql, *params)

    async def fetchval(self, sql: str, *params: SqlValue) -> Any:
        return await self._conn.fetchval(sql, *params)

    @property
    def raw(self) -> Any:
        """The asyncpg connection (bulk copy, `storage.copy`)."""
        return self._conn


class PostgresDatabase:
    """An open dama-bot database on PostgreSQL. Build it with `await
    PostgresDatabase.open(url)`."""

    def __init__(self, pool: Any, url: str, *, read_only: bool = False) -> None:
        self._pool = pool
        self.url = url
        self.read_only = read_only
        self._closed = False

    @property
    def name(self) -> str:
        return redact_url(self.url)

    @property
    def path(self) -> str:
        """The same as `name` (SQLite's `Database.path`)."""
        return self.name

    @property
    def pool_size(self) -> int:
        """The most connections this database's pool holds (`open`'s `pool_size`)."""
        size: int = self._pool.get_max_size()
        return size

    @classmethod
    async def open(cls, url: str, *, read_only: bool = False,
                   pool_size: int = DEFAULT_POOL_SIZE) -> PostgresDatabase:
        """Connect to `url`, check the schema and apply the pending migrations.

        Raises `DatabaseFileError` (`Cause.UNREACHABLE`: no server there, refused, wrong
        password, no such database; `Cause.NOT_DAMA_BOT`: another program's tables),
        `SchemaVersionError` (newer than this code; with `read_only`, older too) or
        `MigrationError`. With `read_only`, nothing is written and `transaction()` raises
        `RuntimeError`. `pool_size` (1 to `MAX_POOL_SIZE`, else `ValueError`) bounds the
        pool: as many transactions of this process can run at once; the others wait for a
        connection.
        """
        if not 1 <= pool_size <= MAX_POOL_SIZE:
            raise ValueError(f"the pool size is 1 to {MAX_POOL_SIZE} connections, not {pool_size}")
        name = redact_url(url)
        pool = await _connect_pool(url, name, pool_size)
        db = cls(pool, url, read_only=read_only)
        try:
            if read_only:
                current = await db.schema_version()
                latest = len(load_migrations(POSTGRESQL_MIGRATIONS))
                if current != latest:
                    raise SchemaVersionError(name, current, latest)
            else:
                await db._migrate()
        except BaseException:
            await pool.close()
            raise
        return db

    async def schema_version(self) -> int:
        """The version of the schema (0: no dama-bot table yet). Raises `DatabaseFileError`
        if the database holds tables that are not dama-bot's."""
        async with self._pool.acquire() as conn:
            return await self._version(conn)

    async def _version(self, conn: Any) -> int:
        if await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", VERSION_TABLE):
            return int(await conn.fetchval(
                f"SELECT coalesce(max(version), 0) FROM {VERSION_TABLE}"))
        others = await conn.fetchval(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
        if others:
            raise DatabaseFileError(self.name, "it holds another program's tables, not "
                                    "dama-bot's", Cause.NOT_DAMA_BOT)
        return 0

    async def _migrate(self) -> None:
        migrations = load_migrations(POSTGRESQL_MIGRATIONS)
        latest = len(migrations)
        async with self._pool.acquire() as conn:
            for migration in migrations:
                async with conn.transaction():
                    # One process migrates at a time; the others then find it done.
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", APPLICATION_ID)
                    current = await self._version(conn)
                    if current > latest:
                        raise SchemaVersionError(self.name, current, latest)
                    if current >= migration.version:
                        continue
                    if current == 0:
                        await conn.execute(
                            f"CREATE TABLE {VERSION_TABLE} (version INTEGER PRIMARY KEY, "
                            "name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                        )
                    try:
                        await conn.execute(migration.sql)
                    except asyncpg.PostgresError as error:
                        raise MigrationError(
                            f"migration {migration.version:04d}_{migration.name}.sql for "
                            f"PostgreSQL failed and was rolled back: {error}"
                        ) from error
                    await conn.execute(
                        f"INSERT INTO {VERSION_TABLE} (version, name) VALUES ($1, $2)",
                        migration.version, migration.name,
                    )
            current = await self._version(conn)
            if current > latest:
                raise SchemaVersionError(self.name, current, latest)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresConnection]:
        """A READ COMMITTED write transaction on a connection of the pool: committed when
        the block ends, rolled back if it raises. Raises `StorageWriteError` when the
        server refuses writes (disk full, read-only) or the connection is lost: nothing
        of it was committed (for a lost connection during COMMIT, PostgreSQL may have
        committed it; the repositories' conditional updates make a retry safe)."""
        self._check_open()
        if self.read_only:
            raise RuntimeError(f"the database {self.name!r} was opened read-only")
        try:
            async with self._session() as conn:
                try:
                    async with conn.transaction():
                        yield PostgresConnection(conn)
                except asyncpg.InternalClientError as error:
                    _raise_if_lost(conn, error, self.name)
                    raise
        except _CONNECTION_ERRORS as error:
            failure = _write_failure(error, self.name)
            if failure is None:
                raise
            raise failure from error

    async def execute(self, sql: str, *params: SqlValue) -> int:
        """Run one statement on its own (PostgreSQL makes it a transaction by itself: all
        or nothing), in one round trip; returns the number of rows it changed. Raises as
        `transaction()`."""
        self._check_open()
        if self.read_only:
            raise RuntimeError(f"the database {self.name!r} was opened read-only")
        try:
            async with self._session() as conn:
                try:
                    return await PostgresConnection(conn).execute(sql, *params)
                except asyncpg.InternalClientError as error:
                    _raise_if_lost(conn, error, self.name)
                    raise
        except _CONNECTION_ERRORS as error:
            failure = _write_failure(error, self.name)
            if failure is None:
                raise
            raise failure from error

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PostgresConnection]:
        """A read-only REPEATABLE READ transaction on a connection of the pool. Raises
        `StorageUnavailableError` (`Cause.UNREACHABLE`) when the server cannot be reached
        or ends the session."""
        self._check_open()
        try:
            async with self._session() as conn:
                try:
                    async with conn.transaction(isolation="repeatable_read", readonly=True):
                        yield PostgresConnection(conn)
                except asyncpg.InternalClientError as error:
                    _raise_if_lost(conn, error, self.name, StorageUnavailableError)
                    raise
        except _CONNECTION_ERRORS as error:
            _raise_unreachable(error, self.name)
            raise

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[PostgresConnection]:
        """A connection of the pool outside any transaction (the caller opens them).
        Raises `StorageUnavailableError` as `read()`."""
        self._check_open()
        try:
            async with self._session() as conn:
                yield PostgresConnection(conn)
        except _CONNECTION_ERRORS as error:
            _raise_unreachable(error, self.name)
            raise

    @asynccontextmanager
    async def _session(self) -> AsyncIterator[Any]:
        """A connection of the pool, given back at the end of the block. A connection the
        server ended is dropped by the pool as it is given back (asyncpg's reset fails and
        it closes the connection); that failure is not raised: what ran on the connection
        has already succeeded (a committed transaction stays committed) or raised."""
        conn = await self._pool.acquire()
        try:
            yield conn
        finally:
            try:
                await self._pool.release(conn)
            except (*_CONNECTION_ERRORS, asyncpg.InternalClientError) as error:
                log.debug("dropped a connection the server ended: %s", error)

    async def close(self) -> None:
        """Close every connection of the pool (waits for those in use). Idempotent."""
        if self._closed:
            return
        self._closed = True
        await self._pool.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"the database {self.name!r} is closed")


async def _connect_pool(url: str, name: str, pool_size: int) -> Any:
    """A pool of at most `pool_size` connections to `url`, one of them made now (so an
    unreachable server is refused at start-up). Raises `DatabaseFileError` as
    `PostgresDatabase.open`.

    The pool keeps no floor of connections (`min_size=0`): with a floor, asyncpg's pool
    reconnects on its own while the server is down and logs a warning with a traceback
    at every attempt (`asyncpg.pool`, "Failed to restore the pool connection floor"). A
    connection is made when a transaction needs one and kept while it is used (closed
    after 300 s unused, asyncpg's `max_inactive_connection_lifetime`), so while the
    server is unreachable only the steps that need it fail, each once."""
    pool = None
    try:
        pool = await asyncpg.create_pool(url, min_size=0, max_size=pool_size)
        async with pool.acquire():
            pass
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        await _close_quietly(pool)
        raise DatabaseFileError(name, f"cannot connect ({error})",
                                Cause.UNREACHABLE) from error
    except ValueError:
        await _close_quietly(pool)
        # asyncpg's URL parser; its message may quote a piece of the password.
        raise DatabaseFileError(
            name, "the URL is malformed (write postgresql://user:password@host:port/"
            "database, with any '/', '#', '?', '@' or ':' in the password "
            "percent-encoded)", Cause.UNREACHABLE) from None
    return pool


async def _close_quietly(pool: Any) -> None:
    if pool is not None:
        pool.terminate()


_CONNECTION_ERRORS = (asyncpg.PostgresError, OSError, asyncpg.InterfaceError)
"""What asyncpg raises when a statement fails on the server or the connection is lost."""


def _raise_if_lost(conn: Any, error: BaseException, name: str,
                   kind: type[StorageUnavailableError] = StorageWriteError) -> None:
    """Raise `kind` (`Cause.UNREACHABLE`) for `error`, an asyncpg `InternalClientError`,
    if `conn` is closed: the server ended the session in the middle of a statement (its
    fast shutdown does so; asyncpg then reports that its protocol could not go on,
    "cannot switch to state ..."). Otherwise return: the error is asyncpg's own and is
    raised as it is."""
    if conn.is_closed():
        raise kind(name, Cause.UNREACHABLE, f"the connection was lost ({error})")


def _raise_unreachable(error: BaseException, name: str) -> None:
    """Raise `StorageUnavailableError` if `error` says the server is unreachable or
    ended the session (as `_write_failure` tells it); otherwise return."""
    failure = _write_failure(error, name)
    if failure is not None and failure.cause is Cause.UNREACHABLE:
        raise StorageUnavailableError(name, Cause.UNREACHABLE, failure.detail) from error


def _write_failure(error: BaseException, name: str) -> StorageWriteError | None:
    """The `StorageWriteError` for a write the server refused, else None."""
    state = getattr(error, "sqlstate", None)
    if state == _DISK_FULL:
        return StorageWriteError(name, Cause.DISK_FULL, str(error))
    if state == _READ_ONLY:
        return StorageWriteError(name, Cause.NOT_WRITABLE, str(error))
    if isinstance(error, OSError | asyncpg.InterfaceError) or (
        isinstance(state, str) and state.startswith(("08", "57P"))
    ):
        return StorageWriteError(name, Cause.UNREACHABLE, str(error))
    return None
