-- dama-bot schema version 7: analyses of finished games. One row per game, written once
-- when the computer has reviewed every ply; `body` is the analysis as the bot wrote it
-- (JSON text: storage knows nothing of the rules), `nodes` the search budget per
-- position it was computed with, `plies` the game's length then.
CREATE TABLE analyses (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    plies       INTEGER NOT NULL CHECK (plies >= 0),
    nodes       INTEGER NOT NULL CHECK (nodes > 0),
    body        TEXT    NOT NULL CHECK (length(body) > 0),
    created_at  INTEGER NOT NULL
);
