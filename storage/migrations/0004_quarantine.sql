-- dama-bot schema version 4: quarantined games. A game whose stored moves no longer replay
-- (changed by hand, damaged, or a rule changed since) is kept as it is and marked here at
-- start-up instead of stopping the bot; it takes no more steps (docs/ARCHITECTURE.md,
-- "Recovery at start-up").
ALTER TABLE games ADD COLUMN quarantined INTEGER NOT NULL DEFAULT 0;

-- quarantined is 0 or 1 (triggers, not a CHECK on the added column: see 0003).
CREATE TRIGGER games_quarantined_on_insert BEFORE INSERT ON games
WHEN NEW.quarantined NOT IN (0, 1)
BEGIN
    SELECT RAISE(ABORT, 'quarantined is 0 or 1');
END;

CREATE TRIGGER games_quarantined_on_update BEFORE UPDATE OF quarantined ON games
WHEN NEW.quarantined NOT IN (0, 1)
BEGIN
    SELECT RAISE(ABORT, 'quarantined is 0 or 1');
END;
