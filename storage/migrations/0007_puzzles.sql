-- dama-bot schema version 7: puzzles (README.md, "Puzzles"). A player's puzzle rating per
-- variant with their streak, each puzzle's own rating (puzzles are rated like players, as
-- lichess rates its puzzles), every attempt, and the daily puzzle each server asked for.
-- Ratings are Glicko-2 on the Glicko scale (bot.ratings.glicko2).

CREATE TABLE puzzle_ratings (
    user_id      INTEGER NOT NULL REFERENCES players (user_id),
    variant      TEXT    NOT NULL,
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL CHECK (deviation > 0),
    volatility   REAL    NOT NULL CHECK (volatility > 0),
    attempts     INTEGER NOT NULL CHECK (attempts >= 0),
    solved       INTEGER NOT NULL CHECK (solved >= 0 AND solved <= attempts),
    streak       INTEGER NOT NULL CHECK (streak >= 0),
    best_streak  INTEGER NOT NULL CHECK (best_streak >= streak),
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (user_id, variant)
);

CREATE TABLE puzzle_stats (
    puzzle_id    TEXT    NOT NULL PRIMARY KEY,
    variant      TEXT    NOT NULL,
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL CHECK (deviation > 0),
    volatility   REAL    NOT NULL CHECK (volatility > 0),
    attempts     INTEGER NOT NULL CHECK (attempts >= 0),
    solved       INTEGER NOT NULL CHECK (solved >= 0 AND solved <= attempts),
    updated_at   INTEGER NOT NULL
);

CREATE TABLE puzzle_attempts (
    id                    INTEGER PRIMARY KEY,
    user_id               INTEGER NOT NULL REFERENCES players (user_id),
    puzzle_id             TEXT    NOT NULL,
    variant               TEXT    NOT NULL,
    solved                INTEGER NOT NULL CHECK (solved IN (0, 1)),
    hinted                INTEGER NOT NULL CHECK (hinted IN (0, 1)),
    revealed              INTEGER NOT NULL CHECK (revealed IN (0, 1)),
    rating_before         REAL    NOT NULL,
    rating_after          REAL    NOT NULL,
    puzzle_rating_before  REAL    NOT NULL,
    puzzle_rating_after   REAL    NOT NULL,
    created_at            INTEGER NOT NULL
);

CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, variant, puzzle_id);

CREATE TABLE daily_puzzles (
    guild_id     INTEGER NOT NULL PRIMARY KEY,
    channel_id   INTEGER NOT NULL,
    variant      TEXT,
    set_by       INTEGER NOT NULL,
    last_posted  TEXT,
    updated_at   INTEGER NOT NULL
);
