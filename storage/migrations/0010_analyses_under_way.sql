-- dama-bot schema version 10: the analyses under way and where their progress shows, so
-- that a bot started again after a crash can tell each progress message left behind that
-- its analysis stopped (docs/ARCHITECTURE.md, "Recovery at start-up"). One row per
-- analysis running, written when it starts, `message_id` once its progress message is
-- sent (NULL before), deleted once that message shows a final state (the result, a
-- cancel, a failure, a stop). `guild_id` is NULL in direct messages; `locale` is the
-- language the requester reads it in.
CREATE TABLE analyses_under_way (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    requester_id  INTEGER NOT NULL,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,
    locale        TEXT    NOT NULL CHECK (length(locale) > 0),
    started_at    INTEGER NOT NULL
);
