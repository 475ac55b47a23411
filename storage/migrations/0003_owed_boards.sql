-- dama-bot schema version 3: owed announcements. The transaction that stores a game step
-- (a new game, a move, the game's end, an abort) sets board_owed = 1; recording the
-- message that shows the step's board sets it back to 0. At start-up every game with
-- board_owed = 1 has its board posted (docs/ARCHITECTURE.md, "Recovery at start-up").
ALTER TABLE games ADD COLUMN board_owed INTEGER NOT NULL DEFAULT 0;

-- board_owed is 0 or 1. A trigger, as in 0002, not a CHECK on the added column: SQLite's
-- PRAGMA optimize then rewrites the file at every close, and a start that changes nothing
-- would no longer leave the file as it was.
CREATE TRIGGER games_board_owed_on_insert BEFORE INSERT ON games
WHEN NEW.board_owed NOT IN (0, 1)
BEGIN
    SELECT RAISE(ABORT, 'board_owed is 0 or 1');
END;

CREATE TRIGGER games_board_owed_on_update BEFORE UPDATE OF board_owed ON games
WHEN NEW.board_owed NOT IN (0, 1)
BEGIN
    SELECT RAISE(ABORT, 'board_owed is 0 or 1');
END;
