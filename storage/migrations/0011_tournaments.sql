-- dama-bot schema version 11: tournaments (arena, Swiss, round robin; docs/RULES.md,
-- "Tournaments"; docs/STORAGE.md, "Tournaments"). A tournament's games are ordinary rows
-- of `games`, each linked from its pairing (`tournament_pairings.game_id`): the result of
-- a played game is read from the game, never stored twice; only a forfeit (a game never
-- played, or aborted) is stored on the pairing. `revision` counts the writes of the
-- tournament, its entrants and its rounds: a conditional write names the revision it was
-- computed from. Times: INTEGER milliseconds since 1970-01-01 UTC.
CREATE TABLE tournaments (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    post_message_id   INTEGER,
    thread_id         INTEGER,
    event_id          INTEGER,
    organiser_id      INTEGER NOT NULL,
    name              TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    format            TEXT    NOT NULL CHECK (format IN ('arena', 'swiss', 'round robin')),
    variant           TEXT    NOT NULL CHECK (length(variant) > 0),
    rounds            INTEGER CHECK (rounds IS NULL OR rounds >= 1),
    duration_seconds  INTEGER CHECK (duration_seconds IS NULL OR duration_seconds > 0),
    move_seconds      INTEGER NOT NULL CHECK (move_seconds > 0),
    rated             BOOLEAN NOT NULL,
    starts_at         INTEGER,
    player_limit      INTEGER CHECK (player_limit IS NULL OR player_limit >= 2),
    role_id           INTEGER,
    status            TEXT    NOT NULL DEFAULT 'signup'
                      CHECK (status IN ('signup', 'running', 'paused', 'finished',
                                        'cancelled')),
    started_at        INTEGER,
    ends_at           INTEGER,
    paused_at         INTEGER,
    finished_at       INTEGER,
    seed              INTEGER NOT NULL,
    revision          INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0),
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    -- An arena lasts a duration; Swiss plays a number of rounds, round robin 1 or 2 cycles.
    CHECK ((format = 'arena') = (duration_seconds IS NOT NULL)),
    CHECK ((format = 'arena') = (rounds IS NULL)),
    CHECK (format <> 'round robin' OR rounds IN (1, 2)),
    CHECK (status <> 'signup' OR started_at IS NULL),
    CHECK (status NOT IN ('running', 'paused', 'finished') OR started_at IS NOT NULL),
    CHECK ((status = 'paused') = (paused_at IS NOT NULL)),
    CHECK ((status IN ('finished', 'cancelled')) = (finished_at IS NOT NULL))
);

-- A server's tournaments by status, newest first (lists and history).
CREATE INDEX tournaments_guild ON tournaments (guild_id, status, created_at);
-- One tournament in sign-up or under way per channel.
CREATE UNIQUE INDEX tournaments_open_channel ON tournaments (channel_id)
    WHERE status IN ('signup', 'running', 'paused');

-- The players who joined. One row per player: leaving and joining again before the start
-- re-activates it. `rating` and `number` (the pairing number) are written at the start.
CREATE TABLE tournament_entrants (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    user_id        INTEGER NOT NULL REFERENCES players (user_id),
    joined_at      INTEGER NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'left', 'removed')),
    left_at        INTEGER,
    rating         INTEGER,
    number         INTEGER CHECK (number IS NULL OR number >= 1),
    PRIMARY KEY (tournament_id, user_id),
    CHECK ((status = 'active') = (left_at IS NULL))
);

CREATE UNIQUE INDEX tournament_entrants_number ON tournament_entrants (tournament_id, number);

-- A round: one pairing batch (Swiss and round robin: the round; arena: the players free
-- at that moment). The primary key refuses a second pairing of the same round.
CREATE TABLE tournament_rounds (
    tournament_id         INTEGER NOT NULL REFERENCES tournaments (id),
    number                INTEGER NOT NULL CHECK (number >= 1),
    paired_at             INTEGER NOT NULL,
    finished_at           INTEGER,
    pairings_message_id   INTEGER,
    results_message_id    INTEGER,
    PRIMARY KEY (tournament_id, number)
);

-- A board of a round: its players, its game's thread and game once created, or a
-- forfeit (never together with a played game's result: the repository refuses it).
CREATE TABLE tournament_pairings (
    tournament_id   INTEGER NOT NULL,
    round           INTEGER NOT NULL,
    board           INTEGER NOT NULL CHECK (board >= 1),
    white_user_id   INTEGER NOT NULL,
    black_user_id   INTEGER NOT NULL,
    thread_id       INTEGER,
    game_id         INTEGER REFERENCES games (id),
    forfeit         TEXT    CHECK (forfeit IN ('+/-', '-/+', '-/-')),
    PRIMARY KEY (tournament_id, round, board),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, number),
    FOREIGN KEY (tournament_id, white_user_id)
        REFERENCES tournament_entrants (tournament_id, user_id),
    FOREIGN KEY (tournament_id, black_user_id)
        REFERENCES tournament_entrants (tournament_id, user_id),
    CHECK (white_user_id <> black_user_id)
);

-- A game belongs to one pairing at most (and a game's end finds its pairing).
CREATE UNIQUE INDEX tournament_pairings_game ON tournament_pairings (game_id);

-- The players a round did not pair: 'U' a pairing-allocated bye, 'Z' not paired.
CREATE TABLE tournament_byes (
    tournament_id  INTEGER NOT NULL,
    round          INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    kind           TEXT    NOT NULL CHECK (kind IN ('U', 'Z')),
    PRIMARY KEY (tournament_id, round, user_id),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, number),
    FOREIGN KEY (tournament_id, user_id)
        REFERENCES tournament_entrants (tournament_id, user_id)
);

-- The ledger of what a tournament posts: a post is claimed (inserted) before it is sent
-- and its message recorded after, so a post is sent once (docs/STORAGE.md).
CREATE TABLE tournament_posts (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    kind           TEXT    NOT NULL CHECK (length(kind) > 0),
    key            TEXT    NOT NULL,
    message_id     INTEGER,
    created_at     INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, kind, key)
);
