-- dama-bot schema version 3: owed announcements. The transaction that stores a game step
-- (a move, the game's end, an abort) sets board_owed = 1; recording the message that shows
-- the step's board sets it back to 0. At start-up every game with board_owed = 1 has its
-- board posted (docs/ARCHITECTURE.md, "Recovery").
ALTER TABLE games ADD COLUMN board_owed INTEGER NOT NULL DEFAULT 0
    CHECK (board_owed IN (0, 1));
