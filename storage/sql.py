"""What the repositories need of a database, whichever backend holds it.

The repositories (`storage.players`, `.games`, `.challenges`, `.ratings`) write portable
SQL with `$1, $2, ...` placeholders and run it through these two protocols. SQLite's
`storage.database.Database` and PostgreSQL's `storage.postgres.PostgresDatabase`
implement them. Concurrency is the database's: a `transaction()` on SQLite is `BEGIN
IMMEDIATE` (one writer at a time); on PostgreSQL it is READ COMMITTED, and a repository
that reads a row to decide a write locks it first (see `lock_row`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

SqlValue = int | float | str | bytes | None
"""A value bound to a placeholder (bool is an int)."""

Row = Any
"""One result row: `sqlite3.Row` or `asyncpg.Record`; both read a column by position
(`row[0]`) and by name (`row["id"]`)."""


class SqlConnection(Protocol):
    """The connection inside a `transaction()` or `read()` block."""

    async def execute(self, sql: str, *params: SqlValue) -> int:
        """Run one statement; the number of rows it changed (-1 when it says none)."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[SqlValue]]) -> None:
        ...

    async def fetch(self, sql: str, *params: SqlValue) -> Sequence[Row]:
        ...

    async def fetchrow(self, sql: str, *params: SqlValue) -> Row | None:
        ...

    async def fetchval(self, sql: str, *params: SqlValue) -> Any:
        ...


class SqlDatabase(Protocol):
    """An open database: transactions and reads. `name` names it in messages (a path,
    or a URL without its password)."""

    @property
    def name(self) -> str:
        ...

    def transaction(self) -> AbstractAsyncContextManager[SqlConnection]:
        """A write transaction, committed when the block ends, rolled back if it raises."""
        ...

    def read(self) -> AbstractAsyncContextManager[SqlConnection]:
        """Reads that see one committed state of the database."""
        ...

    async def close(self) -> None:
        ...


async def lock_row(conn: SqlConnection, table: str, key: str, value: int) -> Row | None:
    """Inside a write transaction: lock the row of `table` whose `key` is `value` and
    return it as it is now (None if there is none).

    A no-op update, portable where `SELECT ... FOR UPDATE` is not (SQLite has no row
    locks; its `BEGIN IMMEDIATE` already holds the only write lock). On PostgreSQL it
    waits for a concurrent transaction holding the row and then reads the row that
    transaction committed, so check-then-write loses no update.
    """
    return await conn.fetchrow(
        f"UPDATE {table} SET {key} = {key} WHERE {key} = $1 RETURNING *", value
    )
