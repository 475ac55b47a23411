"""Players: Discord user ids and last known display names (`PlayerRepository`)."""

from __future__ import annotations

from collections.abc import Iterable

from storage.clock import Clock, from_ms, to_ms, utc_now
from storage.models import Player
from storage.sql import Row, SqlConnection, SqlDatabase


async def ensure_players(conn: SqlConnection, user_ids: Iterable[int | None], now_ms: int) -> None:
    """Insert a row for each user id not yet known (display name unknown)."""
    for user_id in {uid for uid in user_ids if uid is not None}:
        await conn.execute(
            "INSERT INTO players (user_id, display_name, created_at, updated_at) "
            "VALUES ($1, NULL, $2, $2) ON CONFLICT (user_id) DO NOTHING",
            user_id, now_ms,
        )


def player_from_row(row: Row) -> Player:
    return Player(
        user_id=row["user_id"],
        display_name=row["display_name"],
        created_at=from_ms(row["created_at"]),
        updated_at=from_ms(row["updated_at"]),
    )


class SqlPlayerRepository:
    """`PlayerRepository` on either backend (`storage.sql`)."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock

    async def upsert(self, user_id: int, display_name: str | None) -> Player:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "INSERT INTO players (user_id, display_name, created_at, updated_at) "
                "VALUES ($1, $2, $3, $3) ON CONFLICT (user_id) DO UPDATE SET "
                "display_name = COALESCE(excluded.display_name, players.display_name), "
                "updated_at = excluded.updated_at "
                "RETURNING *",
                user_id, display_name, now,
            )
        assert row is not None
        return player_from_row(row)

    async def get(self, user_id: int) -> Player | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow("SELECT * FROM players WHERE user_id = $1", user_id)
        return None if row is None else player_from_row(row)
