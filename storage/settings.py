"""Players' preferences and servers' defaults (migration 0005; `SettingsRepository`, on
either backend: `storage.sql`): one row per owner and name, text values.

The bot's own values (the hash of the slash commands last registered, say) are the
settings of server `BOT_OWNER` (0): no Discord id is 0, and `storage.ratings` keeps the
global leaderboard's counts under guild 0 the same way. They are written by compare and
set (`replace_bot_value`), so several bot processes on one database agree on one writer.
"""

from __future__ import annotations

from collections.abc import Mapping

from storage.clock import Clock, to_ms, utc_now
from storage.sql import SqlConnection, SqlDatabase

_TABLES = {"player": ("player_settings", "user_id"), "guild": ("guild_settings", "guild_id")}

BOT_OWNER = 0
"""The `guild_settings` owner whose rows are the bot's own values, not a server's."""


async def _read(conn: SqlConnection, kind: str, owner: int) -> dict[str, str]:
    table, column = _TABLES[kind]
    rows = await conn.fetch(
        f"SELECT name, value FROM {table} WHERE {column} = $1 ORDER BY name", owner
    )
    return {str(row["name"]): str(row["value"]) for row in rows}


class SqlSettingsRepository:
    """`SettingsRepository` on either backend."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock

    async def _get(self, kind: str, owner: int) -> dict[str, str]:
        async with self._db.read() as conn:
            return await _read(conn, kind, owner)

    async def _set(self, kind: str, owner: int,
                   values: Mapping[str, str | None]) -> dict[str, str]:
        table, column = _TABLES[kind]
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            for name, value in values.items():
                if value is None:
                    await conn.execute(
                        f"DELETE FROM {table} WHERE {column} = $1 AND name = $2", owner, name
                    )
                else:
                    await conn.execute(
                        f"INSERT INTO {table} ({column}, name, value, updated_at) "
                        "VALUES ($1, $2, $3, $4) ON CONFLICT ("
                        f"{column}, name) DO UPDATE SET value = excluded.value, "
                        "updated_at = excluded.updated_at",
                        owner, name, value, now,
                    )
            return await _read(conn, kind, owner)

    async def player(self, user_id: int) -> dict[str, str]:
        return await self._get("player", user_id)

    async def set_player(self, user_id: int, values: Mapping[str, str | None]) -> dict[str, str]:
        return await self._set("player", user_id, values)

    async def guild(self, guild_id: int) -> dict[str, str]:
        return await self._get("guild", guild_id)

    async def set_guild(self, guild_id: int, values: Mapping[str, str | None]) -> dict[str, str]:
        return await self._set("guild", guild_id, values)

    async def bot_values(self) -> dict[str, str]:
        return await self._get("guild", BOT_OWNER)

    async def replace_bot_value(self, name: str, expected: str | None,
                                value: str | None) -> bool:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            # One statement each, so the comparison and the write are one step on both
            # backends: SQLite's transaction holds the only write lock; PostgreSQL
            # re-checks an UPDATE's or DELETE's condition on the row a concurrent
            # transaction committed, and a conflicting INSERT does nothing.
            if expected is None and value is None:
                return await conn.fetchrow(
                    "SELECT name FROM guild_settings WHERE guild_id = $1 AND name = $2",
                    BOT_OWNER, name) is None
            if expected is None:
                row = await conn.fetchrow(
                    "INSERT INTO guild_settings (guild_id, name, value, updated_at) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, name) DO NOTHING "
                    "RETURNING name", BOT_OWNER, name, value, now)
            elif value is None:
                row = await conn.fetchrow(
                    "DELETE FROM guild_settings WHERE guild_id = $1 AND name = $2 "
                    "AND value = $3 RETURNING name", BOT_OWNER, name, expected)
            else:
                row = await conn.fetchrow(
                    "UPDATE guild_settings SET value = $4, updated_at = $5 "
                    "WHERE guild_id = $1 AND name = $2 AND value = $3 RETURNING name",
                    BOT_OWNER, name, expected, value, now)
            return row is not None
