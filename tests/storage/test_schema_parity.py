"""Both backends have one schema: the same migration versions, and at each version the
same tables with the same columns (order, type, NOT NULL), primary keys, foreign keys and
index names. A new SQLite migration NNNN fails this test until its PostgreSQL twin
`storage/migrations_postgresql/NNNN_*.sql` is dropped in; then `PostgresDatabase.open`
applies it like the others, and the versions, the refusal of a newer schema and of
another program's tables behave as on SQLite (tested here)."""

from __future__ import annotations

from typing import Any, cast

import asyncpg
import pytest

from storage import DatabaseFileError, SchemaVersionError, Storage
from storage.migrate import POSTGRESQL_MIGRATIONS, SQLITE_MIGRATIONS, load_migrations
from storage.postgres import VERSION_TABLE, PostgresDatabase
from storage.schema import expected_schema_objects
from tests.support.postgres import PostgresServer

# SQLite's declared type -> PostgreSQL's (docs: storage/migrations_postgresql/__init__.py).
TYPES = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision",
         "BOOLEAN": "boolean"}

Shape = dict[str, Any]


def sqlite_shape(version: int) -> Shape:
    """Tables -> (columns, primary key, foreign keys); indexes -> table, as SQLite has them
    after migrations 1..version, in PostgreSQL's terms."""
    tables: Shape = {}
    indexes: dict[str, str] = {}
    for name, found in expected_schema_objects(version).items():
        if found[0] == "index":
            indexes[name] = str(found[1])
            continue
        if found[0] != "table":
            continue  # triggers: PostgreSQL keeps some of those rules as CHECKs
        described = cast(tuple[tuple[str, str, int, int], ...], found[2])
        columns = tuple(
            (column, TYPES[declared], bool(not_null or key))
            for column, declared, not_null, key in described
        )
        key = tuple(column for column, _, _, position in sorted(
            described, key=lambda c: c[3]) if position)
        foreign = tuple(sorted(cast(tuple[tuple[str, str, str], ...], found[3])))
        tables[name] = (columns, key, foreign)
    return {"tables": tables, "indexes": indexes}


async def postgres_shape(url: str) -> Shape:
    conn = await asyncpg.connect(url)
    try:
        tables: Shape = {}
        names = [row[0] for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename <> $1", VERSION_TABLE)]
        for table in names:
            columns = tuple(
                (row[0], row[1], row[2] == "NO")
                for row in await conn.fetch(
                    "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = $1 "
                    "ORDER BY ordinal_position", table)
            )
            key = tuple(row[0] for row in await conn.fetch(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = "
                "i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass "
                "AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)", table))
            foreign = tuple(sorted(
                (row[0], row[1], row[2]) for row in await conn.fetch(
                    # Every column pair of every key (a key of several columns: one
                    # pair per column, as SQLite's pragma_foreign_key_list lists them).
                    "SELECT a.attname, c.confrelid::regclass::text, f.attname "
                    "FROM pg_constraint c "
                    "CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, ref) "
                    "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col "
                    "JOIN pg_attribute f ON f.attrelid = c.confrelid AND f.attnum = k.ref "
                    "WHERE c.contype = 'f' AND c.conrelid = $1::regclass", table)))
            tables[table] = (columns, key, foreign)
        indexes = {
            row[0]: row[1] for row in await conn.fetch(
                "SELECT i.indexname, i.tablename FROM pg_indexes i "
                "WHERE i.schemaname = current_schema() AND i.tablename <> $1 "
                "AND NOT EXISTS (SELECT 1 FROM pg_constraint c "
                "WHERE c.conname = i.indexname)", VERSION_TABLE)
        }
        return {"tables": tables, "indexes": indexes}
    finally:
        await conn.close()


def test_both_backends_have_the_same_migration_versions() -> None:
    sqlite_versions = [m.version for m in load_migrations(SQLITE_MIGRATIONS)]
    postgres_versions = [m.version for m in load_migrations(POSTGRESQL_MIGRATIONS)]
    missing = sorted(set(sqlite_versions) - set(postgres_versions))
    assert not missing, (
        f"SQLite migrations {missing} have no PostgreSQL twin: add "
        "storage/migrations_postgresql/NNNN_<name>.sql creating the same tables and columns"
    )
    assert postgres_versions == sqlite_versions


@pytest.mark.parametrize("version", range(1, len(load_migrations()) + 1))
async def test_schemas_match_table_by_table_column_by_column(
    postgres_server: PostgresServer, version: int
) -> None:
    url = postgres_server.new_database()
    try:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(
                f"CREATE TABLE {VERSION_TABLE} (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            for migration in load_migrations(POSTGRESQL_MIGRATIONS)[:version]:
                await conn.execute(migration.sql)
        finally:
            await conn.close()
        expected, found = sqlite_shape(version), await postgres_shape(url)
        assert sorted(found["tables"]) == sorted(expected["tables"])
        for table, shape in expected["tables"].items():
            assert found["tables"][table] == shape, table
        assert found["indexes"] == expected["indexes"]
    finally:
        postgres_server.drop_database(url)


async def test_migrations_are_recorded_and_applied_once(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    try:
        first = await PostgresDatabase.open(url)
        await first.close()
        again = await PostgresDatabase.open(url)  # nothing left to apply
        try:
            assert await again.schema_version() == len(load_migrations(POSTGRESQL_MIGRATIONS))
            async with again.read() as conn:
                rows = await conn.fetch(f"SELECT version, name FROM {VERSION_TABLE} "
                                        "ORDER BY version")
            assert [(row[0], row[1]) for row in rows] == [
                (m.version, m.name) for m in load_migrations(POSTGRESQL_MIGRATIONS)]
        finally:
            await again.close()
    finally:
        postgres_server.drop_database(url)


async def test_a_newer_schema_is_refused(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    try:
        await (await PostgresDatabase.open(url)).close()
        conn = await asyncpg.connect(url)
        await conn.execute(f"INSERT INTO {VERSION_TABLE} (version, name) VALUES (999, 'x')")
        await conn.close()
        with pytest.raises(SchemaVersionError, match="999"):
            await Storage.open(url)
    finally:
        postgres_server.drop_database(url)


async def test_another_programs_database_is_refused(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    try:
        conn = await asyncpg.connect(url)
        await conn.execute("CREATE TABLE invoices (id INTEGER)")
        await conn.close()
        with pytest.raises(DatabaseFileError, match="another program"):
            await Storage.open(url)
    finally:
        postgres_server.drop_database(url)


async def test_an_unreachable_server_is_one_clear_error(postgres_server: PostgresServer) -> None:
    url = postgres_server.url("no_such_database").replace("postgres@", "postgres:secret@")
    with pytest.raises(DatabaseFileError, match="cannot connect") as caught:
        await Storage.open(url)
    assert "secret" not in str(caught.value)
    assert "PostgreSQL" in caught.value.cause.advice


def test_sqlite_types_are_all_mapped() -> None:
    """Every declared type of SQLite's schema has its PostgreSQL type above."""
    declared = {
        column[1]
        for found in expected_schema_objects(len(load_migrations())).values()
        if found[0] == "table"
        for column in cast(tuple[tuple[str, str, int, int], ...], found[2])
    }
    assert declared <= set(TYPES)


async def test_read_only_reads_and_never_writes(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    try:
        with pytest.raises(SchemaVersionError):  # nothing migrated it yet
            await Storage.open(url, read_only=True)
        writer = await Storage.open(url)
        await writer.players.upsert(5, "Lina")
        await writer.close()
        reader = await Storage.open(url, read_only=True)
        try:
            player = await reader.players.get(5)
            assert player is not None and player.display_name == "Lina"
            with pytest.raises(RuntimeError, match="read-only"):
                await reader.players.upsert(6, "Omar")
        finally:
            await reader.close()
    finally:
        postgres_server.drop_database(url)
