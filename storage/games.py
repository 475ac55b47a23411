"""Games and their moves (`GameRepository`), on either backend (`storage.sql`)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import NoReturn

from storage.clock import Clock, from_ms, opt_from_ms, opt_to_ms, to_ms, utc_now
from storage.database import Database, SyncConnection
from storage.errors import (
    ChannelBusyError,
    GameNotActiveError,
    GameNotFoundError,
    StaleMoveError,
)
from storage.models import (
    DEFAULT_ELIGIBILITY,
    ClockState,
    Eligibility,
    GameProgress,
    GameRecord,
    GameResult,
    GameStatus,
    MoveRecord,
    NewGame,
    PlaceKind,
    RatingChange,
    Seat,
    Side,
    TimeControl,
)
from storage.players import ensure_players
from storage.postgres import PostgresDatabase, violated_constraint
from storage.ratings import apply_rated_result
from storage.repositories import RatingCalculator
from storage.sql import Row, SqlConnection, SqlDatabase, SqlValue, lock_row

_ACTIVE = GameStatus.ACTIVE.value
_PROGRESS_BATCH = 500
"""Ids per query of `progress` (SQLite binds at most 32,766 values a statement)."""


def _seat(user_id: int | None, level: int | None) -> Seat:
    return Seat(user_id=user_id, computer_level=level)


def _change(row: Row, side: str) -> RatingChange | None:
    before = row[f"{side}_rating_before"]
    if before is None:
        return None
    return RatingChange(
        rating_before=before,
        deviation_before=row[f"{side}_deviation_before"],
        rating_after=row[f"{side}_rating_after"],
        deviation_after=row[f"{side}_deviation_after"],
    )


def game_from_row(row: Row) -> GameRecord:
    """A `GameRecord` from a `SELECT * FROM games` row."""
    return GameRecord(
        id=row["id"],
        variant=row["variant"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        white=_seat(row["white_user_id"], row["white_computer_level"]),
        black=_seat(row["black_user_id"], row["black_computer_level"]),
        rated=bool(row["rated"]),
        move_seconds=row["move_seconds"],
        start_fen=row["start_fen"],
        status=GameStatus(row["status"]),
        result=None if row["result"] is None else GameResult(row["result"]),
        termination=row["termination"],
        ply_count=row["ply_count"],
        board_message_id=row["board_message_id"],
        draw_offer_by=None if row["draw_offer_by"] is None else Side(row["draw_offer_by"]),
        clock=ClockState(
            deadline=opt_from_ms(row["deadline_at"]),
            white_computer_moves=row["white_computer_moves"],
            black_computer_moves=row["black_computer_moves"],
            white_left=_opt_span(row["white_clock_ms"]),
            black_left=_opt_span(row["black_clock_ms"]),
        ),
        time_control=time_control_of(row),
        created_at=from_ms(row["created_at"]),
        updated_at=from_ms(row["updated_at"]),
        finished_at=opt_from_ms(row["finished_at"]),
        white_rating=_change(row, "white"),
        black_rating=_change(row, "black"),
        board_owed=bool(row["board_owed"]),
        quarantined=bool(row["quarantined"]),
        place=PlaceKind(row["place"]),
    )


def _move_from_row(row: Row) -> MoveRecord:
    return MoveRecord(
        game_id=row["game_id"],
        ply=row["ply"],
        text=row["text"],
        played_at=from_ms(row["played_at"]),
        by_computer=bool(row["by_computer"]),
        white_left=_opt_span(row["white_clock_ms"]),
        black_left=_opt_span(row["black_clock_ms"]),
    )


def time_control_of(row: Row) -> TimeControl | None:
    """The time control of a `games` or `challenges` row (None: no clock)."""
    base = row["clock_base_seconds"]
    if base is None:
        return None
    return TimeControl(base, row["clock_increment_seconds"])


def _opt_span(ms: int | None) -> timedelta | None:
    return None if ms is None else timedelta(milliseconds=ms)


def _opt_span_ms(span: timedelta | None) -> int | None:
    return None if span is None else span // timedelta(milliseconds=1)


def validate_new_game(new: NewGame) -> None:
    """Raise `ValueError` for a game the schema would refuse, with a clear message."""
    if not new.variant:
        raise ValueError("a game needs a variant key")
    if not new.start_fen:
        raise ValueError("a game needs a start position (FEN text)")
    if new.move_seconds is not None and new.move_seconds <= 0:
        raise ValueError(
            f"the move time must be a positive number of seconds, not {new.move_seconds}"
        )
    if new.move_seconds is not None and new.time_control is not None:
        raise ValueError("a game has a per-move time or a clock, not both")
    if new.rated:
        if new.white.is_computer or new.black.is_computer:
            raise ValueError("a game against the computer cannot be rated")
        if new.white.user_id == new.black.user_id:
            raise ValueError("a game against oneself cannot be rated")


async def insert_game(conn: SqlConnection, new: NewGame, now_ms: int) -> GameRecord:
    """Insert an active game inside the caller's write transaction; its first board is
    owed (`GameRecord.board_owed`) until its message is recorded.

    Raises `ChannelBusyError` if the channel has an active game, `ValueError` as
    `validate_new_game`.
    """
    validate_new_game(new)
    busy = await conn.fetchval(
        "SELECT id FROM games WHERE channel_id = $1 AND status = $2", new.channel_id, _ACTIVE
    )
    if busy is not None:
        raise ChannelBusyError(new.channel_id)
    await ensure_players(conn, (new.white.user_id, new.black.user_id), now_ms)
    control = new.time_control
    try:
        row = await conn.fetchrow(
            "INSERT INTO games (variant, guild_id, channel_id, white_user_id, "
            "white_computer_level, black_user_id, black_computer_level, rated, move_seconds, "
            "start_fen, status, deadline_at, created_at, updated_at, board_owed, "
            "clock_base_seconds, clock_increment_seconds, white_clock_ms, black_clock_ms, place) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, 1, "
            "$14, $15, $16, $16, $17) RETURNING *",
            new.variant, new.guild_id, new.channel_id, new.white.user_id,
            new.white.computer_level, new.black.user_id, new.black.computer_level, new.rated,
            new.move_seconds, new.start_fen, _ACTIVE, opt_to_ms(new.deadline), now_ms,
            None if control is None else control.base_seconds,
            None if control is None else control.increment_seconds,
            None if control is None else control.base_seconds * 1000,
            new.place.value,
        )
    except Exception as error:
        # PostgreSQL: another process started a game in the channel since the check above.
        if violated_constraint(error) == "games_active_channel":
            raise ChannelBusyError(new.channel_id) from error
        raise
    assert row is not None
    return game_from_row(row)


async def _require_active(conn: SqlConnection, game_id: int) -> Row:
    """The game's row, locked until the transaction ends, if the game is active."""
    row = await lock_row(conn, "games", "id", game_id)
    if row is None:
        raise GameNotFoundError(game_id)
    if row["status"] != _ACTIVE:
        raise GameNotActiveError(game_id, row["status"])
    return row


_INSERT_MOVE = (
    "INSERT INTO moves (game_id, ply, text, played_at, by_computer, white_clock_ms, "
    "black_clock_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)"
)


def _check_move_text(text: str) -> None:
    if not text or not text.strip():
        raise ValueError("a move needs its notation text")


def _move_update(
    game_id: int, ply: int, now_ms: int, clock: ClockState | None, clear_draw_offer: bool
) -> tuple[str, list[SqlValue]]:
    """The UPDATE of the game row that goes with appending ply `ply`, and its parameters:
    it changes one row only if the game is active at ply `ply - 1`."""
    sets = ["ply_count = ply_count + 1", "updated_at = $1", "board_owed = 1"]
    params: list[SqlValue] = [now_ms, game_id, ply - 1, _ACTIVE]
    if clock is not None:
        sets.append("deadline_at = $5, white_computer_moves = $6, black_computer_moves = $7, "
                    "white_clock_ms = $8, black_clock_ms = $9")
        params += [
            opt_to_ms(clock.deadline), clock.white_computer_moves, clock.black_computer_moves,
            _opt_span_ms(clock.white_left), _opt_span_ms(clock.black_left),
        ]
    if clear_draw_offer:
        sets.append("draw_offer_by = NULL")
    update = f"UPDATE games SET {', '.join(sets)} WHERE id = $2 AND ply_count = $3 AND status = $4"
    return update, params


def _lefts(clock: ClockState | None) -> tuple[int | None, int | None]:
    """The players' remaining times in milliseconds a move stores (None: no clock)."""
    if clock is None:
        return None, None
    return _opt_span_ms(clock.white_left), _opt_span_ms(clock.black_left)


def _stored_move(
    game_id: int, ply: int, text: str, now: int, by_computer: bool, clock: ClockState | None
) -> MoveRecord:
    return MoveRecord(game_id, ply, text, from_ms(now), by_computer,
                      None if clock is None else clock.white_left,
                      None if clock is None else clock.black_left)


def _refuse_move(game_id: int, ply: int, row: Row | None) -> NoReturn:
    """Raise why the move update changed no row (`row`: the game's status and ply count)."""
    if row is None:
        raise GameNotFoundError(game_id)
    if row["status"] != _ACTIVE:
        raise GameNotActiveError(game_id, row["status"])
    raise StaleMoveError(game_id, row["ply_count"] + 1, ply)


class SqlGameRepository:
    """`GameRepository` on either backend."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now,
                 rule: Eligibility = DEFAULT_ELIGIBILITY) -> None:
        self._db = db
        self._clock = clock
        self._rule = rule

    async def create(self, new: NewGame) -> GameRecord:
        validate_new_game(new)
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            return await insert_game(conn, new, now)

    async def get(self, game_id: int) -> GameRecord | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow("SELECT * FROM games WHERE id = $1", game_id)
        return None if row is None else game_from_row(row)

    async def load(self, game_id: int, *, after: int = 0) -> tuple[GameRecord, list[MoveRecord]]:
        async with self._db.read() as conn:
            row = await conn.fetchrow("SELECT * FROM games WHERE id = $1", game_id)
            if row is None:
                raise GameNotFoundError(game_id)
            moves = await conn.fetch(
                "SELECT * FROM moves WHERE game_id = $1 AND ply > $2 AND ply <= $3 "
                "ORDER BY ply", game_id, after, row["ply_count"],
            )
        return game_from_row(row), [_move_from_row(move) for move in moves]

    async def moves(self, game_id: int) -> list[MoveRecord]:
        async with self._db.read() as conn:
            rows = await conn.fetch("SELECT * FROM moves WHERE game_id = $1 ORDER BY ply", game_id)
        return [_move_from_row(row) for row in rows]

    async def _games(self, sql: str, *params: SqlValue) -> list[GameRecord]:
        async with self._db.read() as conn:
            rows = await conn.fetch(sql, *params)
        return [game_from_row(row) for row in rows]

    async def active(self) -> list[GameRecord]:
        return await self._games(
            "SELECT * FROM games WHERE status = $1 ORDER BY created_at, id", _ACTIVE
        )

    async def progress(self, game_ids: Collection[int]) -> dict[int, GameProgress]:
        ids = sorted(set(game_ids))
        found: dict[int, GameProgress] = {}
        async with self._db.read() as conn:
            for start in range(0, len(ids), _PROGRESS_BATCH):
                batch = ids[start:start + _PROGRESS_BATCH]
                marks = ", ".join(f"${n}" for n in range(1, len(batch) + 1))
                rows = await conn.fetch(
                    f"SELECT id, ply_count, status FROM games WHERE id IN ({marks})", *batch
                )
                found.update((row["id"], GameProgress(row["ply_count"], GameStatus(row["status"])))
                             for row in rows)
        return found

    async def last_activity(self, user_id: int | None = None) -> dict[int, datetime]:
        players = "" if user_id is None else " AND (g.white_user_id = $2 OR g.black_user_id = $2)"
        args: tuple[SqlValue, ...] = (_ACTIVE,) if user_id is None else (_ACTIVE, user_id)
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT g.id AS id, g.created_at AS created_at, MAX(m.played_at) AS played_at "
                "FROM games g LEFT JOIN moves m ON m.game_id = g.id AND m.ply <= g.ply_count "
                f"WHERE g.status = $1{players} GROUP BY g.id, g.created_at",
                *args,
            )
        return {
            row["id"]: from_ms(row["created_at"] if row["played_at"] is None
                               else row["played_at"])
            for row in rows
        }

    async def active_in_channel(self, channel_id: int) -> GameRecord | None:
        games = await self._games(
            "SELECT * FROM games WHERE channel_id = $1 AND status = $2", channel_id, _ACTIVE
        )
        return games[0] if games else None

    async def active_for_user(self, user_id: int) -> list[GameRecord]:
        return await self._games(
            "SELECT * FROM games WHERE white_user_id = $1 AND status = $2 "
            "UNION "
            "SELECT * FROM games WHERE black_user_id = $1 AND status = $2 "
            "ORDER BY created_at, id",
            user_id, _ACTIVE,
        )

    async def due(self, now: datetime) -> list[GameRecord]:
        return await self._games(
            "SELECT * FROM games WHERE status = $1 AND deadline_at <= $2 "
            "ORDER BY deadline_at, id",
            _ACTIVE, to_ms(now),
        )

    async def append_move(
        self,
        game_id: int,
        *,
        ply: int,
        text: str,
        by_computer: bool = False,
        clock: ClockState | None = None,
        clear_draw_offer: bool = False,
    ) -> MoveRecord:
        _check_move_text(text)
        played_at = self._clock()
        now = to_ms(played_at)
        update, params = _move_update(game_id, ply, now, clock, clear_draw_offer)
        white_left, black_left = _lefts(clock)
        insert = (game_id, ply, text, now, by_computer, white_left, black_left)

        def append(conn: SyncConnection) -> None:
            if conn.execute(update, *params) != 1:
                row = conn.fetchrow("SELECT status, ply_count FROM games WHERE id = $1", game_id)
                _refuse_move(game_id, ply, row)
            conn.execute(_INSERT_MOVE, *insert)

        db = self._db
        if isinstance(db, Database):
            # SQLite: one round trip to the database thread for the whole transaction (the
            # hot path), committed with the other moves queued meanwhile.
            await db.run(append)
        else:
            assert isinstance(db, PostgresDatabase)
            # PostgreSQL: the game's update and the move's insert as one statement, so one
            # round trip; it inserts the move only if the update found the game at the
            # previous ply (a statement is all or nothing).
            first = len(params) + 1
            changed = await db.execute(
                f"WITH game AS ({update} RETURNING id) "
                "INSERT INTO moves (game_id, ply, text, played_at, by_computer, "
                "white_clock_ms, black_clock_ms) "
                f"SELECT id, ${first}, ${first + 1}, $1, ${first + 2}, ${first + 3}, "
                f"${first + 4} FROM game",
                *params, ply, text, by_computer, white_left, black_left,
            )
            if changed != 1:
                async with db.read() as conn:
                    row = await conn.fetchrow(
                        "SELECT status, ply_count FROM games WHERE id = $1", game_id
                    )
                _refuse_move(game_id, ply, row)
        return _stored_move(game_id, ply, text, now, by_computer, clock)

    async def append_final_move(
        self,
        game_id: int,
        *,
        ply: int,
        text: str,
        result: GameResult,
        termination: str,
        rate: RatingCalculator | None = None,
        by_computer: bool = False,
        clock: ClockState | None = None,
        clear_draw_offer: bool = False,
    ) -> tuple[MoveRecord, GameRecord]:
        _check_move_text(text)
        if not termination:
            raise ValueError("a finished game needs a termination reason")
        played_at = self._clock()
        now = to_ms(played_at)
        update, params = _move_update(game_id, ply, now, clock, clear_draw_offer)
        async with self._db.transaction() as conn:
            if await conn.execute(update, *params) != 1:
                row = await conn.fetchrow(
                    "SELECT status, ply_count FROM games WHERE id = $1", game_id
                )
                _refuse_move(game_id, ply, row)
            await conn.execute(_INSERT_MOVE, game_id, ply, text, now, by_computer,
                               *_lefts(clock))
            record = await self._finish_in(conn, game_id, result, termination, rate, now)
        return _stored_move(game_id, ply, text, now, by_computer, clock), record

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE games SET board_message_id = $1, board_owed = 0 WHERE id = $2",
                message_id, game_id,
            )
            if changed != 1:
                raise GameNotFoundError(game_id)

    async def settle_board(self, game_id: int) -> None:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE games SET board_owed = 0 WHERE id = $1", game_id
            )
            if changed != 1:
                raise GameNotFoundError(game_id)

    async def quarantine(self, game_id: int) -> None:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE games SET quarantined = 1 WHERE id = $1", game_id
            )
            if changed != 1:
                raise GameNotFoundError(game_id)

    async def owed_boards(self, limit: int | None = None,
                          place: PlaceKind | None = None) -> list[GameRecord]:
        places = [kind.value for kind in PlaceKind] if place is None else [place.value]
        sql = ("SELECT * FROM games WHERE board_owed = 1 AND place IN ($1, $2) "
               "ORDER BY updated_at, id")
        if limit is None:
            return await self._games(sql, places[0], places[-1])
        return await self._games(sql + " LIMIT $3", places[0], places[-1], limit)

    async def _update_active(self, game_id: int, sets: str, *params: SqlValue) -> None:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                f"UPDATE games SET {sets}, updated_at = $1 WHERE id = $2 AND status = $3",
                now, game_id, _ACTIVE, *params,
            )
            if changed != 1:
                await _require_active(conn, game_id)

    async def set_draw_offer(self, game_id: int, side: Side | None) -> None:
        # An offer is a step its channel is owed (told by a text, or an owed board).
        await self._update_active(
            game_id, "draw_offer_by = $4, board_owed = $5", None if side is None else side.value,
            int(side is not None),
        )

    async def set_clock(self, game_id: int, clock: ClockState) -> None:
        if clock.white_computer_moves < 0 or clock.black_computer_moves < 0:
            raise ValueError("computer-move counts cannot be negative")
        await self._update_active(
            game_id,
            "deadline_at = $4, white_computer_moves = $5, black_computer_moves = $6",
            opt_to_ms(clock.deadline), clock.white_computer_moves, clock.black_computer_moves,
        )

    async def finish(
        self,
        game_id: int,
        *,
        result: GameResult,
        termination: str,
        rate: RatingCalculator | None = None,
        unrated: bool = False,
    ) -> GameRecord:
        if not termination:
            raise ValueError("a finished game needs a termination reason")
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            return await self._finish_in(conn, game_id, result, termination, rate, now,
                                         unrated=unrated)

    async def _finish_in(
        self,
        conn: SqlConnection,
        game_id: int,
        result: GameResult,
        termination: str,
        rate: RatingCalculator | None,
        now: int,
        *,
        unrated: bool = False,
    ) -> GameRecord:
        """End the active game inside the caller's write transaction (see `finish`)."""
        game = game_from_row(await _require_active(conn, game_id))
        ratings: list[SqlValue] = [None] * 8
        if game.rated and not unrated:
            if rate is None:
                raise ValueError(f"game {game_id} is rated: finishing it needs a calculator")
            white_id, black_id = game.white.user_id, game.black.user_id
            assert white_id is not None and black_id is not None
            changes = await apply_rated_result(
                conn, game.variant, game.guild_id, (white_id, black_id), result, rate, now,
                self._rule,
            )
            ratings = [
                value
                for change in changes
                for value in (
                    change.rating_before, change.deviation_before,
                    change.rating_after, change.deviation_after,
                )
            ]
        row = await conn.fetchrow(
            "UPDATE games SET status = $1, result = $2, termination = $3, finished_at = $4, "
            "updated_at = $4, deadline_at = NULL, draw_offer_by = NULL, board_owed = 1, "
            "white_rating_before = $5, white_deviation_before = $6, "
            "white_rating_after = $7, white_deviation_after = $8, "
            "black_rating_before = $9, black_deviation_before = $10, "
            "black_rating_after = $11, black_deviation_after = $12 "
            "WHERE id = $13 RETURNING *",
            GameStatus.FINISHED.value, result.value, termination, now, *ratings, game_id,
        )
        assert row is not None
        return game_from_row(row)

    async def abort(self, game_id: int, *, termination: str) -> GameRecord:
        if not termination:
            raise ValueError("an aborted game needs a termination reason")
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            await _require_active(conn, game_id)
            row = await conn.fetchrow(
                "UPDATE games SET status = $1, termination = $2, finished_at = $3, "
                "updated_at = $3, deadline_at = NULL, draw_offer_by = NULL, "
                "board_owed = 1 WHERE id = $4 RETURNING *",
                GameStatus.ABORTED.value, termination, now, game_id,
            )
        assert row is not None
        return game_from_row(row)

    async def last_finished_in_channel(self, channel_id: int) -> GameRecord | None:
        found = await self._games(
            "SELECT * FROM games WHERE channel_id = $1 AND status = $2 "
            "ORDER BY finished_at DESC, id DESC LIMIT 1",
            channel_id, GameStatus.FINISHED.value,
        )
        return found[0] if found else None

    async def recent_for_user(
        self, user_id: int, *, limit: int = 10, variant: str | None = None,
        include_aborted: bool = False,
    ) -> list[GameRecord]:
        if limit <= 0:
            return []
        statuses = [GameStatus.FINISHED.value]
        if include_aborted:
            statuses.append(GameStatus.ABORTED.value)
        status_sql = "status IN ($2, $3)" if include_aborted else "status = $2"
        params: list[SqlValue] = [user_id, *statuses]
        variant_sql = ""
        if variant is not None:
            params.append(variant)
            variant_sql = f" AND variant = ${len(params)}"
        params.append(limit)
        return await self._games(
            f"SELECT * FROM games WHERE white_user_id = $1 AND {status_sql}{variant_sql} "
            "UNION "
            f"SELECT * FROM games WHERE black_user_id = $1 AND {status_sql}{variant_sql} "
            f"ORDER BY finished_at DESC, id DESC LIMIT ${len(params)}",
            *params,
        )
