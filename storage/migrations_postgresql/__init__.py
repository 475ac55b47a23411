"""PostgreSQL's migration files, applied in order by `storage.postgres`.

The same versions as `storage.migrations` (SQLite's), each file creating the same tables
with the same columns in the same order, the same primary and foreign keys and the same
index names (tests/storage/test_schema_parity.py compares them); a new SQLite migration
NNNN gets its PostgreSQL twin here under the same number. Types: SQLite's INTEGER is
BIGINT (Discord ids are 64-bit), REAL is DOUBLE PRECISION, TEXT and BOOLEAN stay; an
`INTEGER PRIMARY KEY` row id is a BIGINT identity column. Rules SQLite keeps with
triggers are CHECK constraints here where a row alone decides them, triggers (PL/pgSQL)
where other rows do. Each file runs as one statement batch in its own transaction.
"""
