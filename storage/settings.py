"""Players' preferences and servers' defaults (migration 0005; `SettingsRepository`, on
either backend: `storage.sql`): one row per owner and name, text values."""

from __future__ import annotations

from collections.abc import Mapping

from storage.clock import Clock, to_ms, utc_now
from storage.sql import SqlConnection, SqlDatabase

_TABLES = {"player": ("player_settings", "user_id"), "guild": ("guild_settings", "guild_id")}


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
