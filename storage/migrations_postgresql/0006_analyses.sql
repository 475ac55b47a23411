-- dama-bot schema version 6 on PostgreSQL (storage/migrations/0006_analyses.sql): analyses
-- of finished games, one row per game, written once the computer has reviewed every ply.
CREATE TABLE analyses (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    plies       BIGINT NOT NULL CHECK (plies >= 0),
    nodes       BIGINT NOT NULL CHECK (nodes > 0),
    body        TEXT   NOT NULL CHECK (length(body) > 0),
    created_at  BIGINT NOT NULL
);
