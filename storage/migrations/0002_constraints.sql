-- dama-bot schema version 2: rules the first schema left to the code, now kept by the
-- database too. SQLite cannot add a CHECK to an existing table, so they are triggers
-- (BEFORE INSERT and BEFORE UPDATE); each refuses with a message naming the rule.

-- A game's moves are appended in ply order without gaps: ply 1, 2, 3, ...
CREATE TRIGGER moves_in_ply_order BEFORE INSERT ON moves
WHEN NEW.ply <> 1 + coalesce((SELECT max(ply) FROM moves WHERE game_id = NEW.game_id), 0)
BEGIN
    SELECT RAISE(ABORT, 'moves are appended in ply order, without gaps');
END;

-- A finished or aborted game takes no more moves (a game that does not exist is left to
-- the foreign key).
CREATE TRIGGER moves_only_in_active_games BEFORE INSERT ON moves
WHEN (SELECT status FROM games WHERE id = NEW.game_id) <> 'active'
BEGIN
    SELECT RAISE(ABORT, 'moves are only added to an active game');
END;

-- A finished or aborted game says how it ended (termination); an active game does not.
CREATE TRIGGER games_termination_on_insert BEFORE INSERT ON games
WHEN (NEW.status = 'active') = (NEW.termination IS NOT NULL)
BEGIN
    SELECT RAISE(ABORT, 'a finished or aborted game has a termination, an active game none');
END;

CREATE TRIGGER games_termination_on_update BEFORE UPDATE OF status, termination ON games
WHEN (NEW.status = 'active') = (NEW.termination IS NOT NULL)
BEGIN
    SELECT RAISE(ABORT, 'a finished or aborted game has a termination, an active game none');
END;

-- An accepted challenge names the game it started; no other challenge names one.
CREATE TRIGGER challenges_game_on_insert BEFORE INSERT ON challenges
WHEN (NEW.status = 'accepted') <> (NEW.game_id IS NOT NULL)
BEGIN
    SELECT RAISE(ABORT, 'an accepted challenge names its game, no other challenge does');
END;

CREATE TRIGGER challenges_game_on_update BEFORE UPDATE OF status, game_id ON challenges
WHEN (NEW.status = 'accepted') <> (NEW.game_id IS NOT NULL)
BEGIN
    SELECT RAISE(ABORT, 'an accepted challenge names its game, no other challenge does');
END;

-- Deliberately not here: a CHECK on rank_buckets.players. A miscount must never block
-- ending a game; `Storage.rebuild_rankings` repairs the counts.
