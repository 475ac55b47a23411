-- dama-bot schema version 9 on PostgreSQL (storage/migrations/0009_clocks.sql): game
-- clocks with an increment, the players' remaining times with the game and each move.
ALTER TABLE games ADD COLUMN clock_base_seconds BIGINT CHECK (clock_base_seconds > 0);
ALTER TABLE games ADD COLUMN clock_increment_seconds BIGINT
    CHECK (clock_increment_seconds >= 0);
ALTER TABLE games ADD COLUMN white_clock_ms BIGINT;
ALTER TABLE games ADD COLUMN black_clock_ms BIGINT;
ALTER TABLE moves ADD COLUMN white_clock_ms BIGINT;
ALTER TABLE moves ADD COLUMN black_clock_ms BIGINT;
ALTER TABLE challenges ADD COLUMN clock_base_seconds BIGINT CHECK (clock_base_seconds > 0);
ALTER TABLE challenges ADD COLUMN clock_increment_seconds BIGINT
    CHECK (clock_increment_seconds >= 0);
