-- dama-bot schema version 8 on PostgreSQL (storage/migrations/0008_puzzle_sessions.sql):
-- the puzzle each solver has under way, one row per solver.
CREATE TABLE puzzle_sessions (
    user_id     BIGINT  NOT NULL PRIMARY KEY REFERENCES players (user_id),
    puzzle_id   TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    solution    TEXT    NOT NULL,
    plies       BIGINT  NOT NULL CHECK (plies >= 0),
    rated       BIGINT  NOT NULL CHECK (rated IN (0, 1)),
    failed      BIGINT  NOT NULL CHECK (failed IN (0, 1)),
    hinted      BIGINT  NOT NULL CHECK (hinted IN (0, 1)),
    revision    BIGINT  NOT NULL,
    started_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
