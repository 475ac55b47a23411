-- dama-bot schema version 5: settings. A player's preferences (board side, notation, ...)
-- and a server's defaults (challenge limits, ...), one row per (owner, name), so a new
-- preference (e.g. the language) is one more name, never a new migration. Values are
-- text; the bot reads and checks them (bot.services.settings). A missing row means the
-- default.
CREATE TABLE player_settings (
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    value TEXT NOT NULL CHECK (length(value) <= 100),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, name)
) WITHOUT ROWID;

CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    value TEXT NOT NULL CHECK (length(value) <= 100),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, name)
) WITHOUT ROWID;
