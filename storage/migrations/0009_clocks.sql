-- dama-bot schema version 9: game clocks with an increment (docs/PLAYING.md, "Clocks";
-- docs/RULES.md, "Project-wide game rules", Time). A game or a challenge with a clock
-- has its time control: each player's starting time (`clock_base_seconds`) and the
-- increment added after each of their moves (`clock_increment_seconds`); both or
-- neither. A game keeps each player's remaining time as of its last step
-- (`white_clock_ms`, `black_clock_ms`), and each move the players' remaining times after
-- it, written by the move's own transaction; the running clock is `deadline_at`.
ALTER TABLE games ADD COLUMN clock_base_seconds INTEGER CHECK (clock_base_seconds > 0);
ALTER TABLE games ADD COLUMN clock_increment_seconds INTEGER
    CHECK (clock_increment_seconds >= 0);
ALTER TABLE games ADD COLUMN white_clock_ms INTEGER;
ALTER TABLE games ADD COLUMN black_clock_ms INTEGER;
ALTER TABLE moves ADD COLUMN white_clock_ms INTEGER;
ALTER TABLE moves ADD COLUMN black_clock_ms INTEGER;
ALTER TABLE challenges ADD COLUMN clock_base_seconds INTEGER CHECK (clock_base_seconds > 0);
ALTER TABLE challenges ADD COLUMN clock_increment_seconds INTEGER
    CHECK (clock_increment_seconds >= 0);
