"""SQL migration files, applied in order by `storage.migrate`.

Each file is `NNNN_description.sql`, numbered from 0001 without gaps; file N brings the
schema from version N-1 to version N. Files are never edited once released: a change is
a new file. Times are INTEGER milliseconds since the Unix epoch (UTC), booleans are
BOOLEAN (0/1 in SQLite), Discord ids INTEGER (64-bit). SQLite dialect: the triggers,
`WITHOUT ROWID`, `PRAGMA`s and the implicit rowid of `INTEGER PRIMARY KEY`; the queries in
the repositories are portable. Each file has its PostgreSQL twin, same number, in
`storage.migrations_postgresql` (a new file here needs one there: tests/storage/
test_schema_parity.py fails until it is added).
"""
