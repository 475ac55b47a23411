"""Schema migrations: ordered SQL files, the version kept in the database.

The files live in the `storage.migrations` package for SQLite and
`storage.migrations_postgresql` for PostgreSQL (`NNNN_description.sql`, from 0001 without
gaps; adding a version is dropping a file in each). On PostgreSQL the version is kept in
the `schema_migrations` table (`storage.postgres`). On SQLite it is `PRAGMA
user_version`, which is written in the database header as part of the same transaction
as the schema change, so a migration and its version number commit or roll back
together. Each migration runs in its own `BEGIN IMMEDIATE` transaction (which also keeps
two processes from migrating at once).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from importlib import resources

from storage.errors import MigrationError

APPLICATION_ID = 1145130305
"""`PRAGMA application_id` of a dama-bot database ("DAMA" in ASCII), set by migration 1."""

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    """One migration file: `version` it brings the schema to, its `name`, its SQL text."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file split into complete SQL statements (triggers stay whole), in order.

        Raises `MigrationError` if the file ends in an incomplete statement.
        """
        statements: list[str] = []
        buffer = ""
        for line in self.sql.splitlines(keepends=True):
            buffer += line
            if sqlite3.complete_statement(buffer):
                statement = buffer.strip()
                if _strip_comments(statement):
                    statements.append(statement)
                buffer = ""
        if _strip_comments(buffer):
            raise MigrationError(
                f"migration {self.version:04d}_{self.name}.sql ends in an incomplete statement"
            )
        return statements


def _strip_comments(sql: str) -> str:
    return "\n".join(
        line for line in sql.splitlines() if line.strip() and not line.strip().startswith("--")
    ).strip()


SQLITE_MIGRATIONS = "storage.migrations"
POSTGRESQL_MIGRATIONS = "storage.migrations_postgresql"
"""The packages holding each backend's migration files: the same versions, the same
tables and columns (checked by tests/storage/test_schema_parity.py)."""


@cache
def load_migrations(package: str = SQLITE_MIGRATIONS) -> tuple[Migration, ...]:
    """Every migration shipped in `package` (SQLite's by default), ordered by version.

    Raises `MigrationError` if a `.sql` file is misnamed, or versions repeat or skip.
    """
    found: list[Migration] = []
    folder = resources.files(package)
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(
                f"migration file {entry.name!r} is not named NNNN_description.sql"
            )
        found.append(Migration(int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    found.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migration versions must be 1, 2, 3, ... without gaps: {versions}")
    return tuple(found)


def latest_version(package: str = SQLITE_MIGRATIONS) -> int:
    """The schema version this code brings a database to."""
    return len(load_migrations(package))
