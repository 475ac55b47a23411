-- dama-bot schema version 3 on PostgreSQL (storage/migrations/0003_owed_boards.sql): owed
-- announcements; board_owed is 1 from the transaction that stores a game step until the
-- message showing its board is recorded.
ALTER TABLE games ADD COLUMN board_owed BIGINT NOT NULL DEFAULT 0
    CONSTRAINT games_board_owed CHECK (board_owed IN (0, 1));
