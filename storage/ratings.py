"""Ratings and leaderboards (`RatingRepository`, on either backend: `storage.sql`), and
the rating half of finishing a rated game.

Leaderboard order: rating high to low, ties by user id (lower first). Who is on a board is
decided by one `Eligibility` rule per database: `ratings.ranked` holds its verdict per
row, updated with every rating. A rank is exact: the ranked players in the buckets above
(`rank_buckets`, one count per whole rating point and board) plus those ahead inside the
player's own bucket, so it does not slow down as a board grows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from storage.clock import Clock, opt_from_ms, opt_to_ms, to_ms, utc_now
from storage.models import (
    DEFAULT_ELIGIBILITY,
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
from storage.sql import Row, SqlConnection, SqlDatabase, SqlValue


def rating_from_row(row: Row) -> Rating:
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
        raise ValueError(
            f"impossible rating {value}: all values must be finite, deviation and volatility "
            "positive"
        )


GLOBAL = 0
"""The `guild_id` of the global board in `rank_buckets`."""

_SKIP_FROM = 100
_WALK_LIMIT = 1500
"""A page from offset `_SKIP_FROM` on whose query would walk more than about `_WALK_LIMIT`
index rows before its first row starts from its bucket instead (finding the bucket costs
about as much as walking 1,500 rows; see `leaderboard`)."""

_FLOOR = "(CAST(rating AS INTEGER) - CASE WHEN rating < CAST(rating AS INTEGER) THEN 1 ELSE 0 END)"
"""floor(rating) in portable SQL (CAST truncates toward zero); equals `math.floor`."""


def bucket_of(rating: float) -> int:
    """The `rank_buckets` bucket of a rating: its floor."""
    return math.floor(rating)


async def _move_out_of_buckets(conn: SqlConnection, variant: str, user_id: int,
                               bucket: int) -> None:
    """Take one ranked player out of the global board and every board of their guilds."""
    await conn.execute(
        "UPDATE rank_buckets SET players = players - 1 WHERE variant = $1 AND bucket = $2 "
        "AND (guild_id = $3 OR guild_id IN (SELECT guild_id FROM guild_rated_players "
        "WHERE variant = $1 AND user_id = $4))",
        variant, bucket, GLOBAL, user_id,
    )


async def _move_into_buckets(conn: SqlConnection, variant: str, user_id: int,
                             bucket: int) -> None:
    """Count one ranked player on the global board and every board of their guilds."""
    await conn.execute(
        "INSERT INTO rank_buckets (guild_id, variant, bucket, players) "
        "SELECT scope, $1, $2, 1 FROM (SELECT $3 AS scope UNION ALL "
        "SELECT guild_id FROM guild_rated_players WHERE variant = $1 AND user_id = $4) AS scopes "
        "WHERE TRUE "
        "ON CONFLICT (guild_id, variant, bucket) DO UPDATE SET players = rank_buckets.players + 1",
        variant, bucket, GLOBAL, user_id,
    )


async def lock_rankings(conn: SqlConnection) -> None:
    """Inside a write transaction: take the rankings' lock (the one `leaderboard_rule` row)
    until it ends. Every change of ratings and leaderboard counts takes it first, so on
    PostgreSQL two games of one player ending at once in two processes are rated one
    after the other (the second reads the rating the first wrote: no lost update), and
    the bucket counts of two concurrent ends never deadlock. Rated game ends are rare
    next to moves, which never take it. (SQLite: a no-op, `BEGIN IMMEDIATE` already
    serialises writers.)"""
    await conn.execute("UPDATE leaderboard_rule SET id = id WHERE id = 1")


async def apply_rated_result(
    conn: SqlConnection,
    variant: str,
    guild_id: int | None,
    players: tuple[int, int],
    result: GameResult,
    rate: RatingCalculator,
    now_ms: int,
    rule: Eligibility,
) -> tuple[RatingChange, RatingChange]:
    """Inside the caller's write transaction: read both players' ratings in `variant`, call
    `rate`, store the new ratings with the game counted, record both players as rated
    players of `guild_id` (if any), and move them on the leaderboards (`rule` decides who
    is ranked). Returns (White's change, Black's change).

    A player without a rating row is passed to `rate` as None. The "before" values stored
    with the game are those `rate` reports it started from. Raises `ValueError` if `rate`
    returns a deviation or volatility that is not positive, or a value that is not finite.
    """
    white_id, black_id = players
    await lock_rankings(conn)
    await ensure_players(conn, players, now_ms)
    before: list[Rating | None] = []
    ranked_before: list[bool] = []
    for user_id in players:
        row = await conn.fetchrow(
            "SELECT * FROM ratings WHERE user_id = $1 AND variant = $2", user_id, variant
        )
        before.append(None if row is None else rating_from_row(row))
        ranked_before.append(bool(row is not None and row["ranked"]))
    white_update, black_update = rate(before[0], before[1])
    changes: list[RatingChange] = []
    for side, user_id, update, old, was_ranked in (
        (Side.WHITE, white_id, white_update, before[0], ranked_before[0]),
        (Side.BLACK, black_id, black_update, before[1], ranked_before[1]),
    ):
        new = update.after
        _check_value(new)
        _check_value(update.before)
        score = result.score_of(side)
        win, loss, draw = int(score == 1.0), int(score == 0.0), int(score == 0.5)
        games = (old.rated_games if old is not None else 0) + 1
        ranked = rule.admits(games, new.deviation)
        if was_ranked and old is not None:
            await _move_out_of_buckets(conn, variant, user_id, bucket_of(old.rating))
        await conn.execute(
            "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, "
            "rated_games, wins, losses, draws, last_rated_at, ranked) "
            "VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10) "
            "ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, "
            "deviation = excluded.deviation, volatility = excluded.volatility, "
            "rated_games = ratings.rated_games + 1, wins = ratings.wins + excluded.wins, "
            "losses = ratings.losses + excluded.losses, draws = ratings.draws + excluded.draws, "
            "last_rated_at = excluded.last_rated_at, ranked = excluded.ranked",
            user_id, variant, new.rating, new.deviation, new.volatility, win, loss, draw,
            now_ms, ranked,
        )
        if guild_id is not None:
            await conn.execute(
                "INSERT INTO guild_rated_players (guild_id, variant, user_id, last_rated_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, variant, user_id) "
                "DO UPDATE SET last_rated_at = excluded.last_rated_at",
                guild_id, variant, user_id, now_ms,
            )
        if ranked:
            await _move_into_buckets(conn, variant, user_id, bucket_of(new.rating))
        changes.append(
            RatingChange(
                rating_before=update.before.rating,
                deviation_before=update.before.deviation,
                rating_after=new.rating,
                deviation_after=new.deviation,
            )
        )
    return changes[0], changes[1]


async def rebuild_rankings(conn: SqlConnection, rule: Eligibility) -> None:
    """Inside the caller's write transaction: recompute who is ranked under `rule` and every
    leaderboard's bucket counts from the ratings and guild memberships, and store `rule`."""
    await lock_rankings(conn)
    await conn.execute(
        "UPDATE ratings SET ranked = (rated_games >= $1 AND deviation < $2)",
        rule.min_games, rule.max_deviation,
    )
    await conn.execute("DELETE FROM rank_buckets")
    await conn.execute(
        "INSERT INTO rank_buckets (guild_id, variant, bucket, players) "
        f"SELECT $1, variant, {_FLOOR}, count(*) FROM ratings WHERE ranked = $2 "
        f"GROUP BY variant, {_FLOOR}",
        GLOBAL, True,
    )
    await conn.execute(
        "INSERT INTO rank_buckets (guild_id, variant, bucket, players) "
        f"SELECT g.guild_id, r.variant, {_FLOOR.replace('rating', 'r.rating')}, count(*) "
        "FROM ratings r JOIN guild_rated_players g "
        "ON g.user_id = r.user_id AND g.variant = r.variant WHERE r.ranked = $1 "
        f"GROUP BY g.guild_id, r.variant, {_FLOOR.replace('rating', 'r.rating')}",
        True,
    )
    await conn.execute(
        "INSERT INTO leaderboard_rule (id, min_games, max_deviation) VALUES (1, $1, $2) "
        "ON CONFLICT (id) DO UPDATE SET min_games = excluded.min_games, "
        "max_deviation = excluded.max_deviation",
        rule.min_games, rule.max_deviation,
    )


class SqlRatingRepository:
    """`RatingRepository` on either backend; `rule` decides who is on the leaderboards."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now,
                 rule: Eligibility = DEFAULT_ELIGIBILITY) -> None:
        self._db = db
        self._clock = clock
        self.rule = rule

    async def apply_rule(self) -> bool:
        """Make the stored rankings follow `rule` (recomputing them if the database was
        ranked under another rule). Returns True if they were recomputed."""
        async with self._db.transaction() as conn:
            await lock_rankings(conn)
            row = await conn.fetchrow("SELECT min_games, max_deviation FROM leaderboard_rule")
            if row is not None and (row[0], row[1]) == (self.rule.min_games,
                                                        self.rule.max_deviation):
                return False
            await rebuild_rankings(conn, self.rule)
            return True

    async def rebuild(self) -> None:
        """Recompute every ranking from the ratings (after a bulk import or a manual edit)."""
        async with self._db.transaction() as conn:
            await rebuild_rankings(conn, self.rule)

    async def import_ratings(
        self,
        ratings: Iterable[Rating],
        *,
        guild_players: Iterable[tuple[int, str, int]] = (),
        display_names: Mapping[int, str] | None = None,
    ) -> None:
        """Store ratings in bulk (from another bot, a backup) in one transaction, replacing
        a user's rating in a variant if present; `guild_players` are (guild id, variant,
        user id) to list on that guild's board; then recompute the rankings.
        Raises `ValueError` for an impossible rating (as `finish`)."""
        names = display_names or {}
        rows = []
        for rating in ratings:
            _check_value(rating.value)
            if rating.wins + rating.losses + rating.draws != rating.rated_games:
                raise ValueError(f"wins, losses and draws must add up to rated games: {rating}")
            rows.append((
                rating.user_id, rating.variant, rating.rating, rating.deviation,
                rating.volatility, rating.rated_games, rating.wins, rating.losses,
                rating.draws, opt_to_ms(rating.last_rated_at),
            ))
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            await lock_rankings(conn)
            users = {row[0] for row in rows}
            await conn.executemany(
                "INSERT INTO players (user_id, display_name, created_at, updated_at) "
                "VALUES ($1, $2, $3, $3) ON CONFLICT (user_id) DO UPDATE SET "
                "display_name = COALESCE(excluded.display_name, players.display_name)",
                [(user, names.get(user), now) for user in sorted(users | set(names))],
            )
            await conn.executemany(
                "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, "
                "rated_games, wins, losses, draws, last_rated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
                "ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, "
                "deviation = excluded.deviation, volatility = excluded.volatility, "
                "rated_games = excluded.rated_games, wins = excluded.wins, "
                "losses = excluded.losses, draws = excluded.draws, "
                "last_rated_at = excluded.last_rated_at",
                rows,
            )
            await conn.executemany(
                "INSERT INTO guild_rated_players (guild_id, variant, user_id, last_rated_at) "
                "VALUES ($1, $2, $3, 0) ON CONFLICT (guild_id, variant, user_id) DO NOTHING",
                list(guild_players),
            )
            await rebuild_rankings(conn, self.rule)

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
        guild_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
        eligibility: Eligibility | None = None,
    ) -> list[LeaderboardEntry]:
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset cannot be negative")
        if eligibility is not None and eligibility != self.rule:
            return await self._scan_leaderboard(variant, guild_id, limit, offset, eligibility)
        async with self._db.read() as conn:
            # Rows the page query reads before its first row, walking the ratings index.
            walk = offset + limit
            guild_top: int | None = None
            if guild_id is None:
                tables = "ratings r"
            else:
                # Walk the ratings index in board order and keep the guild's players while
                # they are common enough to fill the page soon; for a small guild, read its
                # players and sort them. (CROSS JOIN fixes SQLite's join order; elsewhere it
                # is a plain join, the same rows.)
                sizes = await conn.fetchrow(
                    "SELECT (SELECT COALESCE(SUM(players), 0) FROM rank_buckets "
                    "WHERE guild_id = $1 AND variant = $2), "
                    "(SELECT COALESCE(SUM(players), 0) FROM rank_buckets "
                    "WHERE guild_id = $3 AND variant = $2), "
                    "(SELECT MAX(bucket) FROM rank_buckets "
                    "WHERE guild_id = $1 AND variant = $2 AND players > 0)",
                    guild_id, variant, GLOBAL,
                )
                assert sizes is not None
                in_guild, everyone = int(sizes[0]), int(sizes[1])
                # The walk starts at the guild's best player, not at the top of the board.
                guild_top = None if sizes[2] is None else int(sizes[2]) + 1
                if in_guild <= offset:
                    return []
                # Each row walked costs a membership probe too: about four times a row of
                # the global walk.
                walk = 4 * (offset + limit) * everyone // in_guild
                walk_index = (min(offset, _SKIP_FROM) + limit) * everyone <= 4 * in_guild**2
                tables = ("ratings r CROSS JOIN guild_rated_players g" if walk_index
                          else "guild_rated_players g CROSS JOIN ratings r")
            # A page deep enough to walk far starts at the bucket holding its first row:
            # the rows above that bucket are counted in rank_buckets, not read.
            below, skip = (None if guild_id is None else guild_top), offset
            if offset >= _SKIP_FROM and walk > _WALK_LIMIT:
                start = await conn.fetchrow(
                    "SELECT bucket, running - players FROM (SELECT bucket, players, "
                    "SUM(players) OVER (ORDER BY bucket DESC ROWS UNBOUNDED PRECEDING) "
                    "AS running FROM rank_buckets WHERE guild_id = $1 AND variant = $2) AS buckets "
                    "WHERE running > $3 ORDER BY bucket DESC LIMIT 1",
                    GLOBAL if guild_id is None else guild_id, variant, offset,
                )
                if start is None:
                    return []
                below, skip = int(start[0]) + 1, offset - int(start[1])
            member = (
                "" if guild_id is None else
                " AND g.guild_id = $6 AND g.variant = r.variant AND g.user_id = r.user_id"
            )
            rows = await conn.fetch(
                f"SELECT r.*, p.display_name FROM {tables} "
                "JOIN players p ON p.user_id = r.user_id "
                f"WHERE r.variant = $1 AND r.ranked = $2 AND r.rating < $5{member} "
                "ORDER BY r.rating DESC, r.user_id LIMIT $3 OFFSET $4",
                variant, True, limit, skip, math.inf if below is None else float(below),
                *(() if guild_id is None else (guild_id,)),
            )
        return [
            LeaderboardEntry(rank=offset + index + 1, rating=rating_from_row(row),
                             display_name=row["display_name"])
            for index, row in enumerate(rows)
        ]

    async def rank(
        self, user_id: int, variant: str, *, guild_id: int | None = None,
        eligibility: Eligibility | None = None,
    ) -> int | None:
        if eligibility is not None and eligibility != self.rule:
            return await self._scan_rank(user_id, variant, guild_id, eligibility)
        scope = GLOBAL if guild_id is None else guild_id
        member = (
            "" if guild_id is None else
            " AND EXISTS (SELECT 1 FROM guild_rated_players g WHERE g.guild_id = $3 "
            "AND g.variant = r.variant AND g.user_id = r.user_id)"
        )
        async with self._db.read() as conn:
            own = await conn.fetchrow(
                "SELECT r.rating FROM ratings r WHERE r.user_id = $1 AND r.variant = $2 "
                "AND r.ranked = $3" + member.replace("$3", "$4"),
                user_id, variant, True, *(() if guild_id is None else (guild_id,)),
            )
            if own is None:
                return None
            rating: float = own[0]
            bucket = bucket_of(rating)
            ahead = await conn.fetchval(
                "SELECT (SELECT COALESCE(SUM(players), 0) FROM rank_buckets "
                "WHERE guild_id = $3 AND variant = $2 AND bucket > $5) + "
                "(SELECT count(*) FROM ratings r WHERE r.variant = $2 AND r.ranked = $4 "
                "AND r.rating >= $5 AND r.rating < $6 "
                "AND (r.rating > $7 OR (r.rating = $7 AND r.user_id < $1))" + member + ")",
                user_id, variant, scope, True, bucket, bucket + 1, rating,
            )
        return int(ahead) + 1

    async def count(
        self, variant: str, *, guild_id: int | None = None,
        eligibility: Eligibility | None = None,
    ) -> int:
        if eligibility is not None and eligibility != self.rule:
            return await self._scan_count(variant, guild_id, eligibility)
        async with self._db.read() as conn:
            total = await conn.fetchval(
                "SELECT COALESCE(SUM(players), 0) FROM rank_buckets "
                "WHERE guild_id = $1 AND variant = $2",
                GLOBAL if guild_id is None else guild_id, variant,
            )
        return int(total)

    # A rule other than the database's: the same answers by scanning the ratings.

    @staticmethod
    def _scan_filter(
        guild_id: int | None, rule: Eligibility, first: int
    ) -> tuple[str, list[SqlValue]]:
        """SQL conditions on `r` for `rule` (and guild membership), numbered from `$first`."""
        sql = f" AND r.rated_games >= ${first} AND r.deviation < ${first + 1}"
        params: list[SqlValue] = [rule.min_games, rule.max_deviation]
        if guild_id is not None:
            sql += (
                " AND EXISTS (SELECT 1 FROM guild_rated_players g WHERE g.guild_id = "
                f"${first + 2} AND g.variant = r.variant AND g.user_id = r.user_id)"
            )
            params.append(guild_id)
        return sql, params

    async def _scan_leaderboard(self, variant: str, guild_id: int | None, limit: int,
                                offset: int, rule: Eligibility) -> list[LeaderboardEntry]:
        where, params = self._scan_filter(guild_id, rule, 4)
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT r.*, p.display_name FROM ratings r JOIN players p "
                f"ON p.user_id = r.user_id WHERE r.variant = $1{where} "
                "ORDER BY r.rating DESC, r.user_id LIMIT $2 OFFSET $3",
                variant, limit, offset, *params,
            )
        return [
            LeaderboardEntry(rank=offset + index + 1, rating=rating_from_row(row),
                             display_name=row["display_name"])
            for index, row in enumerate(rows)
        ]

    async def _scan_rank(self, user_id: int, variant: str, guild_id: int | None,
                         rule: Eligibility) -> int | None:
        where, params = self._scan_filter(guild_id, rule, 3)
        async with self._db.read() as conn:
            own = await conn.fetchrow(
                f"SELECT r.rating FROM ratings r WHERE r.user_id = $1 AND r.variant = $2{where}",
                user_id, variant, *params,
            )
            if own is None:
                return None
            where, params = self._scan_filter(guild_id, rule, 4)
            ahead = await conn.fetchval(
                "SELECT count(*) FROM ratings r WHERE r.variant = $1 AND (r.rating > $2 OR "
                f"(r.rating = $2 AND r.user_id < $3)){where}",
                variant, own[0], user_id, *params,
            )
        return int(ahead) + 1

    async def _scan_count(self, variant: str, guild_id: int | None, rule: Eligibility) -> int:
        where, params = self._scan_filter(guild_id, rule, 2)
        async with self._db.read() as conn:
            total = await conn.fetchval(
                f"SELECT count(*) FROM ratings r WHERE r.variant = $1{where}", variant, *params
            )
        return int(total)
