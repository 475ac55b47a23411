"""SQL migration files, applied in order by `storage.migrate`.

Each file is `NNNN_description.sql`, numbered from 0001 without gaps; file N brings the
schema from version N-1 to version N. Files are never edited once released: a change is
a new file. Times are INTEGER milliseconds since the Unix epoch (UTC), booleans are
BOOLEAN (0/1 in SQLite), Discord ids INTEGER (64-bit); only triggers and the implicit
rowid of `INTEGER PRIMARY KEY` are SQLite dialect (PostgreSQL: BIGINT identity columns).
"""
