"""Pending challenges (`ChallengeRepository`), on either backend (`storage.sql`)."""

from __future__ import annotations

from datetime import datetime

from storage.clock import Clock, from_ms, to_ms, utc_now
from storage.errors import ChallengeNotFoundError, ChallengeNotPendingError
from storage.games import insert_game, time_control_of
from storage.models import (
    Challenge,
    ChallengeStatus,
    ColorChoice,
    GameRecord,
    NewChallenge,
    NewGame,
    PlaceKind,
    Seat,
)
from storage.players import ensure_players
from storage.sql import Row, SqlDatabase, SqlValue, lock_row

_PENDING = ChallengeStatus.PENDING.value
_CLOSING = {ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED, ChallengeStatus.EXPIRED}


def challenge_from_row(row: Row) -> Challenge:
    return Challenge(
        id=row["id"],
        challenger_id=row["challenger_id"],
        challenged_id=row["challenged_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        variant=row["variant"],
        rated=bool(row["rated"]),
        color=ColorChoice(row["color"]),
        move_seconds=row["move_seconds"],
        created_at=from_ms(row["created_at"]),
        expires_at=from_ms(row["expires_at"]),
        message_id=row["message_id"],
        status=ChallengeStatus(row["status"]),
        game_id=row["game_id"],
        updated_at=from_ms(row["updated_at"]),
        time_control=time_control_of(row),
    )


class SqlChallengeRepository:
    """`ChallengeRepository` on either backend. Times come from `clock` unless given."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock

    async def create(self, new: NewChallenge) -> Challenge:
        now_at = self._clock()
        if new.challenged_id == new.challenger_id:
            raise ValueError("a player cannot challenge themselves")
        if new.expires_at <= now_at:
            raise ValueError("a challenge must expire in the future")
        if new.move_seconds is not None and new.move_seconds <= 0:
            raise ValueError(
                f"the move time must be a positive number of seconds, not {new.move_seconds}"
            )
        if new.move_seconds is not None and new.time_control is not None:
            raise ValueError("a challenge has a per-move time or a clock, not both")
        if not new.variant:
            raise ValueError("a challenge needs a variant key")
        now = to_ms(now_at)
        control = new.time_control
        async with self._db.transaction() as conn:
            await ensure_players(conn, (new.challenger_id, new.challenged_id), now)
            row = await conn.fetchrow(
                "INSERT INTO challenges (challenger_id, challenged_id, guild_id, channel_id, "
                "variant, rated, color, move_seconds, created_at, expires_at, status, "
                "updated_at, clock_base_seconds, clock_increment_seconds) VALUES "
                "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $9, $12, $13) RETURNING *",
                new.challenger_id, new.challenged_id, new.guild_id, new.channel_id,
                new.variant, new.rated, new.color.value, new.move_seconds, now,
                to_ms(new.expires_at), _PENDING,
                None if control is None else control.base_seconds,
                None if control is None else control.increment_seconds,
            )
        assert row is not None
        return challenge_from_row(row)

    async def _challenges(self, sql: str, *params: SqlValue) -> list[Challenge]:
        async with self._db.read() as conn:
            rows = await conn.fetch(sql, *params)
        return [challenge_from_row(row) for row in rows]

    async def get(self, challenge_id: int) -> Challenge | None:
        found = await self._challenges("SELECT * FROM challenges WHERE id = $1", challenge_id)
        return found[0] if found else None

    async def by_message(self, message_id: int) -> Challenge | None:
        found = await self._challenges(
            "SELECT * FROM challenges WHERE message_id = $1 ORDER BY id DESC LIMIT 1", message_id
        )
        return found[0] if found else None

    async def pending(self) -> list[Challenge]:
        return await self._challenges(
            "SELECT * FROM challenges WHERE status = $1 ORDER BY expires_at, id", _PENDING,
        )

    async def pending_in_channel(self, channel_id: int) -> list[Challenge]:
        return await self._challenges(
            "SELECT * FROM challenges WHERE channel_id = $1 AND status = $2 ORDER BY id",
            channel_id, _PENDING,
        )

    async def pending_for_user(self, user_id: int) -> list[Challenge]:
        return await self._challenges(
            "SELECT * FROM challenges WHERE challenger_id = $1 AND status = $2 "
            "UNION "
            "SELECT * FROM challenges WHERE challenged_id = $1 AND status = $2 ORDER BY id",
            user_id, _PENDING,
        )

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE challenges SET message_id = $1, updated_at = $2 WHERE id = $3",
                message_id, now, challenge_id,
            )
            if changed != 1:
                raise ChallengeNotFoundError(challenge_id)

    async def expire_due(self, now: datetime | None = None) -> list[Challenge]:
        moment = to_ms(now if now is not None else self._clock())
        async with self._db.transaction() as conn:
            rows = await conn.fetch(
                "UPDATE challenges SET status = $1, updated_at = $2 "
                "WHERE status = $3 AND expires_at <= $2 RETURNING *",
                ChallengeStatus.EXPIRED.value, moment, _PENDING,
            )
        return sorted((challenge_from_row(row) for row in rows), key=lambda c: c.id)

    @staticmethod
    def _pending(row: Row | None, challenge_id: int, now: int) -> Challenge:
        """The challenge of `row` if it is pending and not past its expiry, else raise."""
        if row is None:
            raise ChallengeNotFoundError(challenge_id)
        challenge = challenge_from_row(row)
        if challenge.status is not ChallengeStatus.PENDING:
            raise ChallengeNotPendingError(challenge_id, challenge.status.value)
        if to_ms(challenge.expires_at) <= now:
            raise ChallengeNotPendingError(challenge_id, ChallengeStatus.EXPIRED.value)
        return challenge

    async def close(self, challenge_id: int, status: ChallengeStatus) -> Challenge:
        if status not in _CLOSING:
            raise ValueError(
                f"close() declines, cancels or expires a challenge, not {status.value}; "
                "accept with accept()"
            )
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            # Locked: a concurrent accept or close waits, then sees this one's outcome.
            row = await lock_row(conn, "challenges", "id", challenge_id)
            if status is not ChallengeStatus.EXPIRED:
                self._pending(row, challenge_id, now)
            elif row is None:
                raise ChallengeNotFoundError(challenge_id)
            elif row["status"] != _PENDING:
                raise ChallengeNotPendingError(challenge_id, row["status"])
            updated = await conn.fetchrow(
                "UPDATE challenges SET status = $1, updated_at = $2 WHERE id = $3 RETURNING *",
                status.value, now, challenge_id,
            )
        assert updated is not None
        return challenge_from_row(updated)

    async def accept(
        self,
        challenge_id: int,
        *,
        accepted_by: int,
        white: Seat,
        black: Seat,
        start_fen: str,
        deadline: datetime | None = None,
        place: PlaceKind = PlaceKind.CHANNEL,
    ) -> tuple[Challenge, GameRecord]:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            # Locked: a concurrent accept or close waits, then sees this one's outcome.
            row = await lock_row(conn, "challenges", "id", challenge_id)
            challenge = self._pending(row, challenge_id, now)
            if accepted_by == challenge.challenger_id:
                raise ValueError("a player cannot accept their own challenge")
            if challenge.challenged_id not in (None, accepted_by):
                raise ValueError("only the challenged player can accept this challenge")
            seats = {white.user_id, black.user_id}
            if seats != {challenge.challenger_id, accepted_by}:
                raise ValueError("the game's seats must be the challenger and the acceptor")
            await ensure_players(conn, (accepted_by,), now)
            game = await insert_game(
                conn,
                NewGame(
                    variant=challenge.variant,
                    channel_id=challenge.channel_id,
                    guild_id=challenge.guild_id,
                    white=white,
                    black=black,
                    start_fen=start_fen,
                    rated=challenge.rated,
                    move_seconds=challenge.move_seconds,
                    deadline=deadline,
                    time_control=challenge.time_control,
                    place=place,
                ),
                now,
            )
            updated = await conn.fetchrow(
                "UPDATE challenges SET status = $1, game_id = $2, challenged_id = $3, "
                "updated_at = $4 WHERE id = $5 RETURNING *",
                ChallengeStatus.ACCEPTED.value, game.id, accepted_by, now, challenge_id,
            )
        assert updated is not None
        return challenge_from_row(updated), game

    async def delete(self, challenge_id: int) -> bool:
        async with self._db.transaction() as conn:
            return await conn.execute("DELETE FROM challenges WHERE id = $1", challenge_id) == 1

