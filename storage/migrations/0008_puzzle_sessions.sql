-- dama-bot schema version 8: the puzzle each solver has under way (README.md, "Puzzles"),
-- so that a restart, or another process serving the same solver, continues it where it
-- was. One row per solver: the puzzle (its id, variant and solution line as given, so a
-- bank regenerated since is noticed), the plies of the line played so far, whether the
-- attempt is rated, whether a wrong answer (then its rated loss is already recorded) or a
-- hint happened. `revision` changes at every write (a random number at the start, then
-- +1 a step): a step computed from an older read is refused, never applied twice.

CREATE TABLE puzzle_sessions (
    user_id     INTEGER NOT NULL PRIMARY KEY REFERENCES players (user_id),
    puzzle_id   TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    solution    TEXT    NOT NULL,
    plies       INTEGER NOT NULL CHECK (plies >= 0),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    failed      INTEGER NOT NULL CHECK (failed IN (0, 1)),
    hinted      INTEGER NOT NULL CHECK (hinted IN (0, 1)),
    revision    INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
