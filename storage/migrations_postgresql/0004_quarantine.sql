-- dama-bot schema version 4 on PostgreSQL (storage/migrations/0004_quarantine.sql):
-- quarantined games, whose stored moves no longer replay.
ALTER TABLE games ADD COLUMN quarantined BIGINT NOT NULL DEFAULT 0
    CONSTRAINT games_quarantined CHECK (quarantined IN (0, 1));
