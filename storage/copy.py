"""Copying an SQLite database into PostgreSQL (`dama-bot db copy SOURCE TARGET`).

Every table of the source (games, moves, challenges, players, ratings, the leaderboard
counts, the rule, analyses, puzzle ratings, attempts, daily puzzles, puzzles under way,
tournaments with their entrants, rounds, pairings, byes and posts,
and any table a later migration adds) goes to the table of the same
name, column by column, in one PostgreSQL transaction, parents before children (foreign
keys). The copy is then checked inside that transaction, before it commits: per table, the
number of rows and a digest (the sum modulo 2**256 of each row's SHA-256, so it does not
depend on the order rows are read in) computed from the source's rows and from the rows
read back from PostgreSQL must agree. Any difference rolls everything back.

The source is opened read-only and must have this dama-bot's schema (an older file: start
the bot on it once, which migrates it). The target is migrated to the same version and
must be empty: a table with a row in it stops the copy before anything is written. The
row-refusing triggers are suspended for the copy (`DISABLE TRIGGER USER`, inside the
transaction): they guard how rows are appended one by one, and moves of finished games
are legitimately copied after their games. Identity sequences continue after the
highest id copied.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from storage.database import Database
from storage.errors import DATABASE_SETTING, DatabaseFileError, StorageError
from storage.migrate import POSTGRESQL_MIGRATIONS, load_migrations
from storage.postgres import VERSION_TABLE, PostgresDatabase, is_postgresql

BATCH = 5000
"""Rows read and written at a time; progress is reported after each batch."""

Progress = Callable[[str, int, int], None]
"""Called with (table, rows copied so far, rows in the table) after each batch."""

_MODULUS = 2**256


class CopyError(StorageError):
    """The copy cannot be made (bad source or target, non-empty target) or did not check
    out; nothing was written to the target."""


@dataclass(frozen=True)
class TableCopy:
    """One table copied: its rows and the digest both sides agreed on."""

    table: str
    rows: int
    digest: str


def _normalise(value: Any, kind: str) -> str:
    """One value as text, the same whichever backend it was read from (`kind`: the
    PostgreSQL column type)."""
    if value is None:
        return "\\N"
    if kind == "boolean":
        return str(int(bool(value)))
    if kind in ("double precision", "real"):
        return repr(float(value))
    if kind in ("bigint", "integer", "smallint"):
        return str(int(value))
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def row_hash(row: tuple[Any, ...], kinds: list[str]) -> int:
    text = "\x1f".join(_normalise(value, kind) for value, kind in zip(row, kinds, strict=True))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")


def _convert(value: Any, kind: str) -> Any:
    """A value read from SQLite as asyncpg must send it for a column of type `kind`."""
    if value is None:
        return None
    if kind == "boolean":
        return bool(value)
    if kind in ("double precision", "real"):
        return float(value)
    return value


def _table_order(conn: sqlite3.Connection) -> list[str]:
    """The source's tables, each after the tables its foreign keys point to."""
    tables = [str(row[0]) for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
        "ESCAPE '\\' ORDER BY name")]
    parents = {
        table: {str(row[0]) for row in conn.execute(
            'SELECT "table" FROM pragma_foreign_key_list(?)', (table,))} - {table}
        for table in tables
    }
    ordered: list[str] = []
    while len(ordered) < len(tables):
        ready = [t for t in tables if t not in ordered and parents[t] <= set(ordered)]
        if not ready:
            raise CopyError(f"the source's foreign keys form a cycle among {tables}")
        ordered.extend(ready)
    return ordered


def _batches(conn: sqlite3.Connection, table: str, columns: list[str]) -> Iterator[list[Any]]:
    cursor = conn.execute(f"SELECT {', '.join(columns)} FROM {table}")
    while rows := cursor.fetchmany(BATCH):
        yield rows


async def copy_database(source: str | Path, target: str,
                        progress: Progress | None = None) -> list[TableCopy]:
    """Copy the SQLite database `source` into the empty PostgreSQL database `target` (a
    `postgresql://` URL) and check the copy (module docstring). Returns each table's rows
    and digest. Raises `CopyError` (a URL as source, a path as target, a non-empty target,
    a table missing on either side, a count or digest that differs: then nothing was
    committed; a source that does not exist), `DatabaseFileError` or `SchemaVersionError`
    when either side cannot be opened (see `Database.open`, `PostgresDatabase.open`; its
    advice names the argument, `SOURCE` or `TARGET`)."""
    source_text = str(source)
    if is_postgresql(source_text):
        raise CopyError("the source must be an SQLite file (a path), not a URL")
    if not is_postgresql(target):
        raise CopyError("the target must be a PostgreSQL URL (postgresql://...)")
    if not Path(source_text).exists():
        raise CopyError(
            f"there is no SQLite database at {source_text!r}: give the bot's database file "
            f"as SOURCE (the file {DATABASE_SETTING} names; data/dama.sqlite3 in the folder "
            "the bot runs from when it is not set); nothing was written")
    # The checks of Database.open: a sound dama-bot file at this code's schema version.
    try:
        checked = await Database.open(source_text, read_only=True)
    except DatabaseFileError as error:
        raise error.naming("SOURCE") from None
    await checked.close()
    sqlite_version = len(load_migrations())
    if len(load_migrations(POSTGRESQL_MIGRATIONS)) != sqlite_version:
        raise CopyError("this dama-bot's PostgreSQL migrations do not reach the SQLite "
                        f"schema version {sqlite_version}")
    uri = "file:" + urllib.parse.quote(str(Path(source_text).resolve())) + "?mode=ro"
    lite = sqlite3.connect(uri, uri=True, check_same_thread=False)
    try:
        pg = await PostgresDatabase.open(target)
    except DatabaseFileError as error:
        lite.close()
        raise error.naming("TARGET") from None
    try:
        return await _copy(lite, pg, progress)
    finally:
        await pg.close()
        lite.close()


async def _copy(lite: sqlite3.Connection, pg: PostgresDatabase,
                progress: Progress | None) -> list[TableCopy]:
    tables = await asyncio.to_thread(_table_order, lite)
    async with pg.connection() as handle:
        conn = handle.raw
        present = {str(row[0]) for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename <> $1", VERSION_TABLE)}
        if missing := sorted(set(tables) - present):
            raise CopyError(f"the target has no table {', '.join(missing)}")
        if extra := sorted(present - set(tables)):
            raise CopyError(f"the source has no table {', '.join(extra)}")
        for table in tables:
            rows = await conn.fetchval(f"SELECT count(*) FROM {table}")
            if rows:
                raise CopyError(
                    f"the target is not empty (table {table} has {rows} "
                    f"{'row' if rows == 1 else 'rows'}): copy into "
                    "a new, empty database; nothing was written")
        copied: list[TableCopy] = []
        async with conn.transaction():
            for table in tables:
                await conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
                copied.append(await _copy_table(lite, conn, table, progress))
                await conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
            for table in tables:
                identity = await conn.fetch(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = $1 "
                    "AND is_identity = 'YES'", table)
                for row in identity:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence($1, $2), "
                        f"(SELECT coalesce(max({row[0]}), 0) + 1 FROM {table}), false)",
                        table, row[0])
    return copied


async def _copy_table(lite: sqlite3.Connection, conn: Any, table: str,
                      progress: Progress | None) -> TableCopy:
    columns = [str(row[1]) for row in await asyncio.to_thread(
        lambda: lite.execute(f"PRAGMA table_info({table})").fetchall())]
    kinds_by_name = {str(row[0]): str(row[1]) for row in await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1", table)}
    if missing := [column for column in columns if column not in kinds_by_name]:
        raise CopyError(f"the target's table {table} has no column {', '.join(missing)}")
    kinds = [kinds_by_name[column] for column in columns]
    total = int(await asyncio.to_thread(
        lambda: lite.execute(f"SELECT count(*) FROM {table}").fetchone()[0]))
    done, source_digest = 0, 0
    batches = _batches(lite, table, columns)
    while True:
        rows = await asyncio.to_thread(next, batches, None)
        if rows is None:
            break
        records = []
        for row in rows:
            source_digest = (source_digest + row_hash(tuple(row), kinds)) % _MODULUS
            records.append(tuple(_convert(value, kind) for value, kind in zip(row, kinds,
                                                                              strict=True)))
        await conn.copy_records_to_table(table, records=records, columns=columns)
        done += len(records)
        if progress is not None:
            progress(table, done, total)
    # Read the copy back (same transaction) and compare.
    target_rows, target_digest = 0, 0
    async for row in conn.cursor(f"SELECT {', '.join(columns)} FROM {table}", prefetch=BATCH):
        target_rows += 1
        target_digest = (target_digest + row_hash(tuple(row), kinds)) % _MODULUS
    if (target_rows, target_digest) != (total, source_digest) or done != total:
        raise CopyError(
            f"table {table}: the copy does not match the source ({total} rows read, "
            f"{target_rows} found in the target, digests {source_digest:064x} and "
            f"{target_digest:064x}); nothing was committed")
    return TableCopy(table, total, f"{source_digest:064x}")
