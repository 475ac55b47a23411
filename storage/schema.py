"""The shape of a dama-bot schema, to tell a sound database from a damaged one.

`PRAGMA quick_check` finds damaged pages, not a table, index or trigger that was dropped
or replaced: a database without its `moves` table, or whose `moves` lost its foreign key
to `games`, passes it. So the objects of a database at schema version N are compared
with those the first N migrations create in an empty in-memory database: every table
with its columns (name, declared type, NOT NULL, key position) and foreign keys, every
index and trigger by name and table. Objects the migrations do not create (an index an
operator added, SQLite's own `sqlite_*` tables) are ignored.
"""

from __future__ import annotations

import sqlite3
from functools import cache

from storage.migrate import load_migrations

SchemaObjects = dict[str, tuple[object, ...]]
"""Object name -> (type, table, then for a table its columns and foreign keys)."""


def schema_objects(conn: sqlite3.Connection) -> SchemaObjects:
    """The tables, indexes and triggers of the database `conn` reads (read-only)."""
    objects: SchemaObjects = {}
    rows = conn.execute(
        "SELECT type, name, tbl_name FROM sqlite_master "
        "WHERE type IN ('table', 'index', 'trigger') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).fetchall()
    for kind, name, table in rows:
        if kind != "table":
            objects[str(name)] = (str(kind), str(table))
            continue
        columns = tuple(
            (str(column), str(declared).upper(), int(not_null), int(key))
            for column, declared, not_null, key in conn.execute(
                'SELECT name, type, "notnull", pk FROM pragma_table_xinfo(?) ORDER BY cid',
                (name,),
            )
        )
        foreign_keys = tuple(sorted(
            (str(source), str(target), str(target_column))
            for source, target, target_column in conn.execute(
                'SELECT "from", "table", coalesce("to", \'\') FROM pragma_foreign_key_list(?)',
                (name,),
            )
        ))
        objects[str(name)] = ("table", str(table), columns, foreign_keys)
    return objects


@cache
def expected_schema_objects(version: int) -> SchemaObjects:
    """The objects that migrations 1..`version` create, built in an in-memory database."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for migration in load_migrations()[:version]:
            for statement in migration.statements():
                conn.execute(statement)
        return schema_objects(conn)
    finally:
        conn.close()


def schema_differences(version: int, found: SchemaObjects) -> list[str]:
    """What `found` lacks or has changed compared with schema `version`, one phrase each
    ("table moves is missing", "table moves differs: foreign keys ..."); empty if none."""
    problems: list[str] = []
    for name, expected in expected_schema_objects(version).items():
        kind = str(expected[0])
        actual = found.get(name)
        if actual is None:
            problems.append(f"{kind} {name} is missing")
        elif actual[:2] != expected[:2]:
            problems.append(f"{name} is a {actual[0]} on {actual[1]}, "
                            f"not a {kind} on {expected[1]}")
        elif kind == "table" and actual[2] != expected[2]:
            problems.append(f"table {name} has other columns")
        elif kind == "table" and actual[3] != expected[3]:
            problems.append(f"table {name} has other foreign keys")
    return problems
