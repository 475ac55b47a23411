-- dama-bot schema version 2 on PostgreSQL (storage/migrations/0002_constraints.sql): rules
-- the first schema left to the code. What one row decides is a CHECK constraint; what
-- depends on other rows is a trigger.

CREATE FUNCTION moves_in_ply_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.ply <> 1 + coalesce((SELECT max(ply) FROM moves WHERE game_id = NEW.game_id), 0)
    THEN
        RAISE EXCEPTION 'moves are appended in ply order, without gaps'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER moves_in_ply_order BEFORE INSERT ON moves
FOR EACH ROW EXECUTE FUNCTION moves_in_ply_order();

CREATE FUNCTION moves_only_in_active_games() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT status FROM games WHERE id = NEW.game_id) <> 'active' THEN
        RAISE EXCEPTION 'moves are only added to an active game'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER moves_only_in_active_games BEFORE INSERT ON moves
FOR EACH ROW EXECUTE FUNCTION moves_only_in_active_games();

ALTER TABLE games ADD CONSTRAINT games_termination
    CHECK ((status = 'active') = (termination IS NULL));

ALTER TABLE challenges ADD CONSTRAINT challenges_game
    CHECK ((status = 'accepted') = (game_id IS NOT NULL));
