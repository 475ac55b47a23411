-- dama-bot schema version 5 on PostgreSQL (storage/migrations/0005_settings.sql):
-- players' preferences and servers' defaults, one row per (owner, name), text values.
CREATE TABLE player_settings (
    user_id BIGINT NOT NULL,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    value TEXT NOT NULL CHECK (length(value) <= 100),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, name)
);

CREATE TABLE guild_settings (
    guild_id BIGINT NOT NULL,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    value TEXT NOT NULL CHECK (length(value) <= 100),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, name)
);
