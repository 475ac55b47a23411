-- dama-bot schema version 1: players, games, moves, challenges, ratings.
-- Times: INTEGER milliseconds since 1970-01-01 UTC. Booleans: BOOLEAN (0/1 in SQLite).

-- Marks the file as a dama-bot database ("DAMA" in ASCII).
PRAGMA application_id = 1145130305;

CREATE TABLE players (
    user_id       INTEGER NOT NULL PRIMARY KEY,
    display_name  TEXT,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

CREATE TABLE games (
    id                      INTEGER PRIMARY KEY,
    variant                 TEXT    NOT NULL,
    guild_id                INTEGER,
    channel_id              INTEGER NOT NULL,
    white_user_id           INTEGER REFERENCES players (user_id),
    white_computer_level    INTEGER,
    black_user_id           INTEGER REFERENCES players (user_id),
    black_computer_level    INTEGER,
    rated                   BOOLEAN NOT NULL,
    move_seconds            INTEGER CHECK (move_seconds IS NULL OR move_seconds > 0),
    start_fen               TEXT    NOT NULL,
    status                  TEXT    NOT NULL DEFAULT 'active'
                            CHECK (status IN ('active', 'finished', 'aborted')),
    result                  TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    termination             TEXT,
    ply_count               INTEGER NOT NULL DEFAULT 0 CHECK (ply_count >= 0),
    board_message_id        INTEGER,
    draw_offer_by           TEXT    CHECK (draw_offer_by IN ('white', 'black')),
    deadline_at             INTEGER,
    white_computer_moves    INTEGER NOT NULL DEFAULT 0 CHECK (white_computer_moves >= 0),
    black_computer_moves    INTEGER NOT NULL DEFAULT 0 CHECK (black_computer_moves >= 0),
    created_at              INTEGER NOT NULL,
    updated_at              INTEGER NOT NULL,
    finished_at             INTEGER,
    white_rating_before     REAL,
    white_deviation_before  REAL,
    white_rating_after      REAL,
    white_deviation_after   REAL,
    black_rating_before     REAL,
    black_deviation_before  REAL,
    black_rating_after      REAL,
    black_deviation_after   REAL,
    CHECK ((white_user_id IS NULL) <> (white_computer_level IS NULL)),
    CHECK ((black_user_id IS NULL) <> (black_computer_level IS NULL)),
    CHECK (NOT rated OR (white_user_id IS NOT NULL AND black_user_id IS NOT NULL
                         AND white_user_id <> black_user_id)),
    CHECK ((status = 'finished') = (result IS NOT NULL)),
    CHECK ((status = 'active') = (finished_at IS NULL))
);

-- One active game per channel (a thread is a channel).
CREATE UNIQUE INDEX games_active_channel ON games (channel_id) WHERE status = 'active';
-- All active games (restore sessions at start-up), oldest first.
CREATE INDEX games_active ON games (created_at) WHERE status = 'active';
-- Clocks: active games whose per-move deadline has passed.
CREATE INDEX games_active_deadline ON games (deadline_at) WHERE status = 'active';
-- A user's active games and recent games, as White and as Black.
CREATE INDEX games_white_user ON games (white_user_id, status, created_at);
CREATE INDEX games_black_user ON games (black_user_id, status, created_at);

CREATE TABLE moves (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    ply          INTEGER NOT NULL CHECK (ply >= 1),
    text         TEXT    NOT NULL,
    played_at    INTEGER NOT NULL,
    by_computer  BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;  -- stored in (game_id, ply) order: one b-tree to write per move, not two

-- Moves are append-only.
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

CREATE TABLE challenges (
    id             INTEGER PRIMARY KEY,
    challenger_id  INTEGER NOT NULL REFERENCES players (user_id),
    challenged_id  INTEGER REFERENCES players (user_id),
    guild_id       INTEGER,
    channel_id     INTEGER NOT NULL,
    variant        TEXT    NOT NULL,
    rated          BOOLEAN NOT NULL,
    color          TEXT    NOT NULL CHECK (color IN ('white', 'black', 'random')),
    move_seconds   INTEGER CHECK (move_seconds IS NULL OR move_seconds > 0),
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    message_id     INTEGER,
    status         TEXT    NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id        INTEGER REFERENCES games (id),
    updated_at     INTEGER NOT NULL,
    CHECK (challenged_id IS NULL OR challenged_id <> challenger_id)
);

CREATE INDEX challenges_pending_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_channel ON challenges (channel_id, status);
CREATE INDEX challenges_challenger ON challenges (challenger_id, status);
CREATE INDEX challenges_challenged ON challenges (challenged_id, status);
CREATE INDEX challenges_message ON challenges (message_id);

CREATE TABLE ratings (
    user_id        INTEGER NOT NULL REFERENCES players (user_id),
    variant        TEXT    NOT NULL,
    rating         REAL    NOT NULL,
    deviation      REAL    NOT NULL CHECK (deviation > 0),
    volatility     REAL    NOT NULL CHECK (volatility > 0),
    rated_games    INTEGER NOT NULL DEFAULT 0 CHECK (rated_games >= 0),
    wins           INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses         INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws          INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    last_rated_at  INTEGER,
    -- On the leaderboards: meets the eligibility rule stored in leaderboard_rule.
    ranked         BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (user_id, variant),
    CHECK (wins + losses + draws = rated_games)
);

-- Leaderboards read this index in order: ranked players of a variant, rating high to low,
-- ties by user id.
CREATE INDEX ratings_leaderboard ON ratings (variant, ranked, rating DESC, user_id);

-- Who played a rated game of a variant in a guild (per-server leaderboards).
CREATE TABLE guild_rated_players (
    guild_id       INTEGER NOT NULL,
    variant        TEXT    NOT NULL,
    user_id        INTEGER NOT NULL REFERENCES players (user_id),
    last_rated_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, variant, user_id)
);

CREATE INDEX guild_rated_players_user ON guild_rated_players (user_id, variant);

-- How many ranked players each leaderboard has per whole rating point (bucket = floor of
-- the rating); guild_id 0 is the global board. A rank is the sum of the buckets above a
-- player's plus the few players ahead in their own bucket, so it costs the same for
-- 100 players as for 100,000.
CREATE TABLE rank_buckets (
    guild_id  INTEGER NOT NULL,
    variant   TEXT    NOT NULL,
    bucket    INTEGER NOT NULL,
    players   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, variant, bucket)
);

-- The eligibility rule that ratings.ranked and rank_buckets were computed with (one row).
-- When dama-bot starts with another rule, both are recomputed.
CREATE TABLE leaderboard_rule (
    id             INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    min_games      INTEGER NOT NULL,
    max_deviation  REAL    NOT NULL
);
