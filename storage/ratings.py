"""Ratings and leaderboards on SQLite (`RatingRepository`), and the rating half of
finishing a rated game.

Leaderboard order: rating high to low, ties by user id (lower first). A rank is computed
exactly by counting the eligible players ahead, along the `ratings_leaderboard` index,
which carries the eligibility columns, so no table row is read.
"""

from __future__ import annotations

import math
import sqlite3

from storage.clock import Clock, opt_from_ms, opt_to_ms, utc_now
from storage.database import Connection, Database, SqlValue
from storage.models import (
    Eligibility,
    GameResult,
    LeaderboardEntry,
    Rating,
    RatingChange,
    RatingValue,
    Side,
)
from storage.players import ensure_players
from storage.repositories import RatingCalculator


def rating_from_row(row: sqlite3.Row) -> Rating:
    return Rating(
        user_id=row["user_id"],
        variant=row["variant"],
        rating=row["rating"],
        deviation=row["deviation"],
        volatility=row["volatility"],
        rated_games=row["rated_games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        last_rated_at=opt_from_ms(row["last_rated_at"]),
    )


def _check_value(value: RatingValue) -> None:
    finite = all(map(math.isfinite, (value.rating, value.deviation, value.volatility)))
    if not (finite and value.deviation > 0 and value.volatility > 0):
        raise ValueError(f"a rating calculator returned an impossible rating: {value}")


async def apply_rated_result(
    conn: Connection,
    variant: str,
    guild_id: int | None,
    players: tuple[int, int],
    result: GameResult,
    rate: RatingCalculator,
    now_ms: int,
) -> tuple[RatingChange, RatingChange]:
    """Inside the caller's write transaction: read both players' ratings in `variant`, call
    `rate`, store the new ratings with the game counted, and record both players as rated
    players of `guild_id` (if any). Returns (White's change, Black's change).

    A player without a rating row is passed to `rate` as None. The "before" values stored
    with the game are those `rate` reports it started from. Raises `ValueError` if `rate`
    returns a deviation or volatility that is not positive, or a NaN rating.
    """
    white_id, black_id = players
    await ensure_players(conn, players, now_ms)
    before: list[Rating | None] = []
    for user_id in players:
        row = await conn.fetchrow(
            "SELECT * FROM ratings WHERE user_id = $1 AND variant = $2", user_id, variant
        )
        before.append(None if row is None else rating_from_row(row))
    white_update, black_update = rate(before[0], before[1])
    changes: list[RatingChange] = []
    for side, user_id, update in (
        (Side.WHITE, white_id, white_update),
        (Side.BLACK, black_id, black_update),
    ):
        new = update.after
        _check_value(new)
        _check_value(update.before)
        score = result.score_of(side)
        win, loss, draw = int(score == 1.0), int(score == 0.0), int(score == 0.5)
        await conn.execute(
            "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, "
            "rated_games, wins, losses, draws, last_rated_at) "
            "VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9) "
            "ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, "
            "deviation = excluded.deviation, volatility = excluded.volatility, "
            "rated_games = ratings.rated_games + 1, wins = ratings.wins + excluded.wins, "
            "losses = ratings.losses + excluded.losses, draws = ratings.draws + excluded.draws, "
            "last_rated_at = excluded.last_rated_at",
            user_id, variant, new.rating, new.deviation, new.volatility, win, loss, draw, now_ms,
        )
        if guild_id is not None:
            await conn.execute(
                "INSERT INTO guild_rated_players (guild_id, variant, user_id, last_rated_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, variant, user_id) "
                "DO UPDATE SET last_rated_at = excluded.last_rated_at",
                guild_id, variant, user_id, now_ms,
            )
        changes.append(
            RatingChange(
                rating_before=update.before.rating,
                deviation_before=update.before.deviation,
                rating_after=new.rating,
                deviation_after=new.deviation,
            )
        )
    return changes[0], changes[1]


def _eligible_sql(eligibility: Eligibility, params: list[SqlValue], alias: str = "r") -> str:
    """SQL conditions for `eligibility` on ratings alias `alias`, appending their params."""
    if eligibility.min_games < 0:
        raise ValueError("the minimum number of rated games cannot be negative")
    params += [eligibility.min_games, eligibility.max_deviation]
    sql = (
        f"{alias}.rated_games >= ${len(params) - 1} AND {alias}.deviation < ${len(params)}"
    )
    if eligibility.active_since is not None:
        params.append(opt_to_ms(eligibility.active_since))
        sql += f" AND {alias}.last_rated_at >= ${len(params)}"
    return sql


def _guild_sql(guild_id: int | None, params: list[SqlValue], alias: str = "r") -> str:
    if guild_id is None:
        return ""
    params.append(guild_id)
    return (
        " AND EXISTS (SELECT 1 FROM guild_rated_players g WHERE g.guild_id = "
        f"${len(params)} AND g.variant = {alias}.variant AND g.user_id = {alias}.user_id)"
    )


class SqliteRatingRepository:
    """`RatingRepository` on SQLite."""

    def __init__(self, db: Database, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock

    async def get(self, user_id: int, variant: str) -> Rating | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow(
                "SELECT * FROM ratings WHERE user_id = $1 AND variant = $2", user_id, variant
            )
        return None if row is None else rating_from_row(row)

    async def for_user(self, user_id: int) -> list[Rating]:
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT * FROM ratings WHERE user_id = $1 ORDER BY variant", user_id
            )
        return [rating_from_row(row) for row in rows]

    async def leaderboard(
        self,
        variant: str,
        *,
        eligibility: Eligibility,
        guild_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderboardEntry]:
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset cannot be negative")
        params: list[SqlValue] = [variant]
        where = _eligible_sql(eligibility, params) + _guild_sql(guild_id, params)
        params += [limit, offset]
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT r.*, p.display_name FROM ratings r "
                "JOIN players p ON p.user_id = r.user_id "
                f"WHERE r.variant = $1 AND {where} "
                f"ORDER BY r.rating DESC, r.user_id LIMIT ${len(params) - 1} "
                f"OFFSET ${len(params)}",
                *params,
            )
        return [
            LeaderboardEntry(rank=offset + index + 1, rating=rating_from_row(row),
                             display_name=row["display_name"])
            for index, row in enumerate(rows)
        ]

    async def rank(
        self, user_id: int, variant: str, *, eligibility: Eligibility,
        guild_id: int | None = None,
    ) -> int | None:
        own: list[SqlValue] = [user_id, variant]
        own_sql = (
            "SELECT r.rating FROM ratings r WHERE r.user_id = $1 AND r.variant = $2 AND "
            + _eligible_sql(eligibility, own) + _guild_sql(guild_id, own)
        )
        async with self._db.read() as conn:
            row = await conn.fetchrow(own_sql, *own)
            if row is None:
                return None
            rating = row[0]
            ahead = 0
            for condition, extra in (
                ("r.rating > $2", [rating]),
                ("r.rating = $2 AND r.user_id < $3", [rating, user_id]),
            ):
                params: list[SqlValue] = [variant, *extra]
                where = _eligible_sql(eligibility, params) + _guild_sql(guild_id, params)
                ahead += int(await conn.fetchval(
                    f"SELECT count(*) FROM ratings r WHERE r.variant = $1 AND {condition} "
                    f"AND {where}",
                    *params,
                ))
        return ahead + 1

    async def count(
        self, variant: str, *, eligibility: Eligibility, guild_id: int | None = None
    ) -> int:
        params: list[SqlValue] = [variant]
        where = _eligible_sql(eligibility, params) + _guild_sql(guild_id, params)
        async with self._db.read() as conn:
            return int(await conn.fetchval(
                f"SELECT count(*) FROM ratings r WHERE r.variant = $1 AND {where}", *params
            ))
