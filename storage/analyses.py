"""Analyses of finished games (table `analyses`, migration 0006) and the analyses under
way (table `analyses_under_way`, migration 0010): `AnalysisRepository`, on either backend
(`storage.sql`)."""

from __future__ import annotations

from storage.clock import Clock, from_ms, to_ms, utc_now
from storage.errors import GameNotFoundError
from storage.models import AnalysisUnderWay, StoredAnalysis
from storage.sql import Row, SqlConnection, SqlDatabase


def _from_row(row: Row) -> StoredAnalysis:
    return StoredAnalysis(
        game_id=row["game_id"], plies=row["plies"], nodes=row["nodes"], body=row["body"],
        created_at=from_ms(row["created_at"]),
    )


def _under_way_from_row(row: Row) -> AnalysisUnderWay:
    return AnalysisUnderWay(
        id=row["id"], game_id=row["game_id"], requester_id=row["requester_id"],
        guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
        locale=row["locale"], started_at=from_ms(row["started_at"]),
    )


class SqlAnalysisRepository:
    """`AnalysisRepository` on either backend."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock

    async def get(self, game_id: int) -> StoredAnalysis | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow("SELECT * FROM analyses WHERE game_id = $1", game_id)
        return None if row is None else _from_row(row)

    async def save(self, game_id: int, *, plies: int, nodes: int, body: str) -> StoredAnalysis:
        if plies < 0 or nodes <= 0 or not body:
            raise ValueError(
                "an analysis needs 0 or more plies, a positive node budget and a body"
            )
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            await _require_game(conn, game_id)
            row = await conn.fetchrow(
                "INSERT INTO analyses (game_id, plies, nodes, body, created_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO UPDATE SET "
                "plies = excluded.plies, nodes = excluded.nodes, body = excluded.body, "
                "created_at = excluded.created_at RETURNING *",
                game_id, plies, nodes, body, now,
            )
        assert row is not None
        return _from_row(row)

    async def begin(self, game_id: int, *, requester_id: int, guild_id: int | None,
                    channel_id: int, locale: str) -> AnalysisUnderWay:
        if not locale:
            raise ValueError("an analysis under way needs its requester's locale")
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            await _require_game(conn, game_id)
            row = await conn.fetchrow(
                "INSERT INTO analyses_under_way (game_id, requester_id, guild_id, channel_id, "
                "message_id, locale, started_at) VALUES ($1, $2, $3, $4, NULL, $5, $6) "
                "RETURNING *",
                game_id, requester_id, guild_id, channel_id, locale, now,
            )
        assert row is not None
        return _under_way_from_row(row)

    async def shown(self, under_way_id: int, message_id: int) -> None:
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE analyses_under_way SET message_id = $1 WHERE id = $2",
                               message_id, under_way_id)

    async def end(self, under_way_id: int) -> None:
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM analyses_under_way WHERE id = $1", under_way_id)

    async def under_way(self) -> list[AnalysisUnderWay]:
        async with self._db.read() as conn:
            rows = await conn.fetch("SELECT * FROM analyses_under_way ORDER BY id")
        return [_under_way_from_row(row) for row in rows]


async def _require_game(conn: SqlConnection, game_id: int) -> None:
    """Raises `GameNotFoundError` when no game `game_id` is stored (inside a transaction)."""
    if await conn.fetchrow("SELECT id FROM games WHERE id = $1", game_id) is None:
        raise GameNotFoundError(game_id)
