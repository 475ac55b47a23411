-- dama-bot schema version 13: turn notifications (docs/ARCHITECTURE.md, "Notifications").
-- `notifications_owed`: one row per notification owed to a player, a `turn` (it became
-- their move) or a `reminder` (less than a quarter of the move time left), about one game
-- at one ply, owed once (the unique key). `guild_id` is the game's server (NULL: a direct
-- message), for the shard that sends it. A sender claims a row (`claimed_at`) before it
-- sends, then marks it done (`done_at`, `outcome`: sent, or dropped when the game moved
-- on, ended or the player cannot be reached); a row claimed and not done after a restart
-- is released and sent again (at most one duplicate, never a loss).
-- `notification_users`: per player, the last time they used the bot (`seen_at`, written
-- at most once a minute), the last notification sent to them (the per-player pace), and
-- when their direct messages were found closed and when they were told.
CREATE TABLE notifications_owed (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('turn', 'reminder')),
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL CHECK (ply >= 0),
    guild_id    INTEGER,
    due_at      INTEGER NOT NULL,
    claimed_at  INTEGER,
    done_at     INTEGER,
    outcome     TEXT    CHECK (outcome IN ('sent', 'dropped')),
    UNIQUE (user_id, kind, game_id, ply)
);

CREATE INDEX notifications_owed_due ON notifications_owed (due_at) WHERE done_at IS NULL;

CREATE TABLE notification_users (
    user_id         INTEGER PRIMARY KEY,
    seen_at         INTEGER,
    last_sent_at    INTEGER,
    dms_closed_at   INTEGER,
    dms_told_at     INTEGER
);
