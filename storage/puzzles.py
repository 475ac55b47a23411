"""Puzzle ratings, attempts and daily-puzzle settings (migration 0007) and the puzzles
under way (migration 0008); `PuzzleRepository`, on either backend: `storage.sql`."""

from __future__ import annotations

import secrets

from storage.clock import Clock, from_ms, to_ms, utc_now
from storage.errors import PuzzleSessionChangedError
from storage.models import (
    DailyPuzzleSetting,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleResult,
    PuzzleSession,
    PuzzleStats,
    RatingValue,
)
from storage.players import ensure_players
from storage.repositories import PuzzleRatingCalculator, PuzzleRecording
from storage.sql import Row, SqlConnection, SqlDatabase


def _value(row: Row) -> RatingValue:
    return RatingValue(row["rating"], row["deviation"], row["volatility"])


def _rating(row: Row) -> PuzzleRating:
    return PuzzleRating(row["user_id"], row["variant"], _value(row), row["attempts"],
                        row["solved"], row["streak"], row["best_streak"])


def _stats(row: Row) -> PuzzleStats:
    return PuzzleStats(row["puzzle_id"], row["variant"], _value(row), row["attempts"],
                       row["solved"])


def _session(row: Row) -> PuzzleSession:
    solution = str(row["solution"])
    return PuzzleSession(
        row["user_id"], row["puzzle_id"], row["variant"],
        tuple(solution.split(" ")) if solution else (), row["plies"], bool(row["rated"]),
        bool(row["failed"]), bool(row["hinted"]), from_ms(row["started_at"]),
        row["revision"])


DAILY_LAST_POSTED = "daily_puzzle_last_posted"
"""The server setting (`guild_settings`, migration 0005) holding the UTC day of the last
daily post of a server whose daily puzzle was stopped (`clear_daily`), so that setting
it again the same day (`set_daily`) does not post that day twice. `bot.services.settings`
reads only the names it knows, so this one is never shown as a server's preference."""


def _daily(row: Row) -> DailyPuzzleSetting:
    return DailyPuzzleSetting(row["guild_id"], row["channel_id"], row["variant"],
                              row["set_by"], row["last_posted"])


class SqlPuzzleRepository:
    """`PuzzleRepository` on either backend."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock

    async def rating(self, user_id: int, variant: str) -> PuzzleRating | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow(
                "SELECT * FROM puzzle_ratings WHERE user_id = $1 AND variant = $2",
                user_id, variant)
        return None if row is None else _rating(row)

    async def stats(self, puzzle_id: str) -> PuzzleStats | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow("SELECT * FROM puzzle_stats WHERE puzzle_id = $1",
                                      puzzle_id)
        return None if row is None else _stats(row)

    async def attempted(self, user_id: int, variant: str) -> set[str]:
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT DISTINCT puzzle_id FROM puzzle_attempts "
                "WHERE user_id = $1 AND variant = $2", user_id, variant)
        return {row["puzzle_id"] for row in rows}

    async def puzzle_ratings(self, variant: str) -> dict[str, RatingValue]:
        async with self._db.read() as conn:
            rows = await conn.fetch("SELECT * FROM puzzle_stats WHERE variant = $1", variant)
        return {row["puzzle_id"]: _value(row) for row in rows}

    async def record(
        self, attempt: PuzzleAttempt, puzzle_start: RatingValue,
        calculate: PuzzleRatingCalculator,
    ) -> PuzzleResult:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            return await _record(conn, PuzzleRecording(attempt, puzzle_start, calculate), now)

    async def session(self, user_id: int) -> PuzzleSession | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow("SELECT * FROM puzzle_sessions WHERE user_id = $1",
                                      user_id)
        return None if row is None else _session(row)

    async def start_session(
        self, user_id: int, puzzle_id: str, variant: str, solution: tuple[str, ...],
        *, rated: bool,
    ) -> PuzzleSession:
        now = to_ms(self._clock())
        # A random first revision: a step computed from an earlier session of this user
        # (even of the same puzzle) never matches the new one.
        revision = secrets.randbits(62)
        async with self._db.transaction() as conn:
            await ensure_players(conn, [user_id], now)
            row = await conn.fetchrow(
                "INSERT INTO puzzle_sessions (user_id, puzzle_id, variant, solution, plies, "
                "rated, failed, hinted, revision, started_at, updated_at) "
                "VALUES ($1, $2, $3, $4, 0, $5, 0, 0, $6, $7, $7) "
                "ON CONFLICT (user_id) DO UPDATE SET puzzle_id = excluded.puzzle_id, "
                "variant = excluded.variant, solution = excluded.solution, plies = 0, "
                "rated = excluded.rated, failed = 0, hinted = 0, "
                "revision = excluded.revision, started_at = excluded.started_at, "
                "updated_at = excluded.updated_at RETURNING *",
                user_id, puzzle_id, variant, " ".join(solution), int(rated), revision, now)
        assert row is not None
        return _session(row)

    async def step_session(
        self, session: PuzzleSession, *, finished: bool = False,
        recording: PuzzleRecording | None = None,
    ) -> tuple[PuzzleSession | None, PuzzleResult | None]:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            # The conditional write first: on PostgreSQL it locks the row (a concurrent
            # step waits, then finds the revision changed), on SQLite the transaction
            # already holds the only write lock.
            if finished:
                row = await conn.fetchrow(
                    "DELETE FROM puzzle_sessions WHERE user_id = $1 AND revision = $2 "
                    "RETURNING *", session.user_id, session.revision)
            else:
                row = await conn.fetchrow(
                    "UPDATE puzzle_sessions SET plies = $3, failed = $4, hinted = $5, "
                    "revision = revision + 1, updated_at = $6 "
                    "WHERE user_id = $1 AND revision = $2 RETURNING *",
                    session.user_id, session.revision, session.plies, int(session.failed),
                    int(session.hinted), now)
            if row is None:
                raise PuzzleSessionChangedError(session.user_id, session.revision)
            result = None if recording is None else await _record(conn, recording, now)
        return (None if finished else _session(row)), result

    async def set_daily(
        self, guild_id: int, channel_id: int, variant: str | None, set_by: int
    ) -> DailyPuzzleSetting:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            # A new row takes the day of the last post kept by `clear_daily`; a row
            # already there keeps its own.
            row = await conn.fetchrow(
                "INSERT INTO daily_puzzles (guild_id, channel_id, variant, set_by, "
                "last_posted, updated_at) VALUES ($1, $2, $3, $4, (SELECT value FROM "
                "guild_settings WHERE guild_id = $1 AND name = $6), $5) "
                "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "variant = excluded.variant, set_by = excluded.set_by, "
                "updated_at = excluded.updated_at RETURNING *",
                guild_id, channel_id, variant, set_by, now, DAILY_LAST_POSTED)
        assert row is not None
        return _daily(row)

    async def clear_daily(self, guild_id: int) -> bool:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "DELETE FROM daily_puzzles WHERE guild_id = $1 RETURNING last_posted",
                guild_id)
            if row is not None and row["last_posted"] is not None:
                await conn.execute(
                    "INSERT INTO guild_settings (guild_id, name, value, updated_at) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, name) DO UPDATE SET "
                    "value = excluded.value, updated_at = excluded.updated_at",
                    guild_id, DAILY_LAST_POSTED, row["last_posted"], now)
        return row is not None

    async def daily(self, guild_id: int) -> DailyPuzzleSetting | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow("SELECT * FROM daily_puzzles WHERE guild_id = $1",
                                      guild_id)
        return None if row is None else _daily(row)

    async def daily_all(self) -> list[DailyPuzzleSetting]:
        async with self._db.read() as conn:
            rows = await conn.fetch("SELECT * FROM daily_puzzles ORDER BY guild_id")
        return [_daily(row) for row in rows]

    async def claim_daily(self, guild_id: int, day: str) -> bool:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE daily_puzzles SET last_posted = $2 WHERE guild_id = $1 "
                "AND (last_posted IS NULL OR last_posted < $2)", guild_id, day)
        return changed > 0


async def _upsert_rating(conn: SqlConnection, r: PuzzleRating, now: int) -> None:
    await conn.execute(
        "INSERT INTO puzzle_ratings (user_id, variant, rating, deviation, volatility, "
        "attempts, solved, streak, best_streak, updated_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
        "ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, "
        "deviation = excluded.deviation, volatility = excluded.volatility, "
        "attempts = excluded.attempts, solved = excluded.solved, streak = excluded.streak, "
        "best_streak = excluded.best_streak, updated_at = excluded.updated_at",
        r.user_id, r.variant, r.value.rating, r.value.deviation, r.value.volatility,
        r.attempts, r.solved, r.streak, r.best_streak, now)


async def _record(conn: SqlConnection, recording: PuzzleRecording, now: int) -> PuzzleResult:
    """Store a rated attempt inside the transaction of `conn` (`PuzzleRepository.record`)."""
    attempt, calculate = recording.attempt, recording.calculate
    await ensure_players(conn, [attempt.user_id], now)
    # Read-to-write rows locked first (no-op updates, as `storage.sql.lock_row`): on
    # PostgreSQL a concurrent attempt of the same player or puzzle waits, then reads what
    # it committed, so no rating update is lost.
    row = await conn.fetchrow(
        "UPDATE puzzle_ratings SET user_id = user_id WHERE user_id = $1 AND variant = $2 "
        "RETURNING *", attempt.user_id, attempt.variant)
    old = None if row is None else _rating(row)
    srow = await conn.fetchrow(
        "UPDATE puzzle_stats SET puzzle_id = puzzle_id WHERE puzzle_id = $1 RETURNING *",
        attempt.puzzle_id)
    puzzle_before = recording.puzzle_start if srow is None else _value(srow)
    player_before, player_after, puzzle_after = calculate(
        None if old is None else old.value, puzzle_before, attempt.solved)
    attempts = (0 if old is None else old.attempts) + 1
    solved = (0 if old is None else old.solved) + int(attempt.solved)
    streak = (0 if old is None else old.streak) + 1 if attempt.solved else 0
    best = max(streak, 0 if old is None else old.best_streak)
    player = PuzzleRating(attempt.user_id, attempt.variant, player_after, attempts,
                          solved, streak, best)
    await _upsert_rating(conn, player, now)
    puzzle = PuzzleStats(
        attempt.puzzle_id, attempt.variant, puzzle_after,
        (0 if srow is None else srow["attempts"]) + 1,
        (0 if srow is None else srow["solved"]) + int(attempt.solved))
    await conn.execute(
        "INSERT INTO puzzle_stats (puzzle_id, variant, rating, deviation, volatility, "
        "attempts, solved, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
        "ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, "
        "deviation = excluded.deviation, volatility = excluded.volatility, "
        "attempts = excluded.attempts, solved = excluded.solved, "
        "updated_at = excluded.updated_at",
        puzzle.puzzle_id, puzzle.variant, puzzle_after.rating, puzzle_after.deviation,
        puzzle_after.volatility, puzzle.attempts, puzzle.solved, now)
    await conn.execute(
        "INSERT INTO puzzle_attempts (user_id, puzzle_id, variant, solved, hinted, "
        "revealed, rating_before, rating_after, puzzle_rating_before, "
        "puzzle_rating_after, created_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        attempt.user_id, attempt.puzzle_id, attempt.variant, int(attempt.solved),
        int(attempt.hinted), int(attempt.revealed), player_before.rating,
        player_after.rating, puzzle_before.rating, puzzle_after.rating, now)
    return PuzzleResult(player_before, player, puzzle_before, puzzle)
