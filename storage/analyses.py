"""Analyses of finished games (table `analyses`, migration 0006; `AnalysisRepository`, on
either backend: `storage.sql`)."""

from __future__ import annotations

from storage.clock import Clock, from_ms, to_ms, utc_now
from storage.errors import GameNotFoundError
from storage.models import StoredAnalysis
from storage.sql import Row, SqlDatabase


def _from_row(row: Row) -> StoredAnalysis:
    return StoredAnalysis(
        game_id=row["game_id"], plies=row["plies"], nodes=row["nodes"], body=row["body"],
        created_at=from_ms(row["created_at"]),
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
            game = await conn.fetchrow("SELECT id FROM games WHERE id = $1", game_id)
            if game is None:
                raise GameNotFoundError(game_id)
            row = await conn.fetchrow(
                "INSERT INTO analyses (game_id, plies, nodes, body, created_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO UPDATE SET "
                "plies = excluded.plies, nodes = excluded.nodes, body = excluded.body, "
                "created_at = excluded.created_at RETURNING *",
                game_id, plies, nodes, body, now,
            )
        assert row is not None
        return _from_row(row)
