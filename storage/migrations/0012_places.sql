-- dama-bot schema version 12: a game's place (`storage.PlaceKind`; docs/ARCHITECTURE.md,
-- "Places"): 'channel', where the bot posts messages (a server channel or thread where it
-- is installed, or its own DM with a player), or 'interactions', where it only answers
-- interactions (a DM or group DM between users, a server where only a player installed
-- the app). Every game before this version was played in a server channel.
ALTER TABLE games ADD COLUMN place TEXT NOT NULL DEFAULT 'channel';

-- place is one of the kinds (triggers, not a CHECK on the added column: see 0003).
CREATE TRIGGER games_place_on_insert BEFORE INSERT ON games
WHEN NEW.place NOT IN ('channel', 'interactions')
BEGIN
    SELECT RAISE(ABORT, 'place is channel or interactions');
END;

CREATE TRIGGER games_place_on_update BEFORE UPDATE OF place ON games
WHEN NEW.place NOT IN ('channel', 'interactions')
BEGIN
    SELECT RAISE(ABORT, 'place is channel or interactions');
END;
