-- dama-bot schema version 12 on PostgreSQL (storage/migrations/0012_places.sql): a game's
-- place, 'channel' (the bot posts there) or 'interactions' (it only answers interactions).
ALTER TABLE games ADD COLUMN place TEXT NOT NULL DEFAULT 'channel'
    CONSTRAINT games_place CHECK (place IN ('channel', 'interactions'));
