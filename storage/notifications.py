"""Turn notifications owed to players and what is kept of each notified player (tables
`notifications_owed` and `notification_users`, migration 0013): `NotificationRepository`
on either backend (`storage.sql`).

A notification is owed once: its key is (user, kind, game, ply), and owing it again does
nothing. A sender claims rows before it sends them (`claim`: only rows neither claimed
nor settled), then settles them (`settle`); rows whose sender was killed between the two
stay claimed until the owning process releases them (`release`), so they are sent again:
at most one duplicate, never a loss (docs/ARCHITECTURE.md, "Notifications").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from storage.clock import Clock, from_ms, opt_from_ms, to_ms, utc_now
from storage.notification_models import (
    NewNotification,
    NotificationKind,
    NotificationOutcome,
    NotifiedUser,
    OwedNotification,
)
from storage.sql import Row, SqlConnection, SqlDatabase

__all__ = ["Shards", "SqlNotificationRepository"]

Shards = tuple[int, Sequence[int]] | None
"""Which shards' rows a read keeps: (shard count, shard ids); None: every row."""


def _owed(row: Row) -> OwedNotification:
    return OwedNotification(
        id=row["id"], user_id=row["user_id"], kind=NotificationKind(row["kind"]),
        game_id=row["game_id"], ply=row["ply"], guild_id=row["guild_id"],
        due_at=from_ms(row["due_at"]), claimed_at=opt_from_ms(row["claimed_at"]),
    )


def _user(row: Row) -> NotifiedUser:
    return NotifiedUser(
        user_id=row["user_id"], seen_at=opt_from_ms(row["seen_at"]),
        last_sent_at=opt_from_ms(row["last_sent_at"]),
        dms_closed_at=opt_from_ms(row["dms_closed_at"]),
        dms_told_at=opt_from_ms(row["dms_told_at"]),
    )


def _marks(count: int, first: int) -> str:
    """`$first, $first+1, ...`: `count` placeholders for an `IN (...)` list."""
    return ", ".join(f"${first + i}" for i in range(count))


def _shard_filter(shards: Shards, first: int) -> tuple[str, list[int]]:
    """The condition keeping the rows of `shards` (shard count, shard ids; None: every
    row), a server's shard being `(guild_id >> 22) % count` and a direct message's 0
    (Discord developer docs, Topics > Gateway, Sharding), with its parameters numbered
    from `$first`."""
    if shards is None:
        return "", []
    count, ids = shards
    marks = _marks(len(ids), first + 1)
    return (f" AND (CASE WHEN guild_id IS NULL THEN 0 ELSE (guild_id / {1 << 22}) % "
            f"${first} END) IN ({marks})", [count, *sorted(ids)])


async def _ensure_user(conn: SqlConnection, user_id: int) -> None:
    await conn.execute(
        "INSERT INTO notification_users (user_id) VALUES ($1) "
        "ON CONFLICT (user_id) DO NOTHING", user_id)


class SqlNotificationRepository:
    """`NotificationRepository` on either backend."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock

    async def owe(self, notifications: Sequence[NewNotification]) -> int:
        if not notifications:
            return 0
        owed = 0
        async with self._db.transaction() as conn:
            for new in notifications:
                row = await conn.fetchrow(
                    "INSERT INTO notifications_owed "
                    "(user_id, kind, game_id, ply, guild_id, due_at) "
                    "VALUES ($1, $2, $3, $4, $5, $6) "
                    "ON CONFLICT (user_id, kind, game_id, ply) DO NOTHING RETURNING id",
                    new.user_id, new.kind.value, new.game_id, new.ply, new.guild_id,
                    to_ms(new.due_at))
                owed += row is not None
        return owed

    async def due(self, now: datetime, limit: int, shards: Shards = None
                  ) -> list[OwedNotification]:
        where, params = _shard_filter(shards, 3)
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT * FROM notifications_owed WHERE done_at IS NULL "
                f"AND claimed_at IS NULL AND due_at <= $1{where} ORDER BY due_at, id "
                "LIMIT $2", to_ms(now), limit, *params)
        return [_owed(row) for row in rows]

    async def due_to(self, user_ids: Sequence[int], now: datetime) -> list[OwedNotification]:
        if not user_ids:
            return []
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT * FROM notifications_owed WHERE done_at IS NULL "
                "AND claimed_at IS NULL AND due_at <= $1 AND user_id IN "
                f"({_marks(len(user_ids), 2)}) ORDER BY due_at, id", to_ms(now), *user_ids)
        return [_owed(row) for row in rows]

    async def next_due(self, shards: Shards = None) -> datetime | None:
        where, params = _shard_filter(shards, 1)
        async with self._db.read() as conn:
            value = await conn.fetchval(
                "SELECT MIN(due_at) FROM notifications_owed "
                f"WHERE done_at IS NULL AND claimed_at IS NULL{where}", *params)
        return opt_from_ms(value)

    async def claimed(self) -> list[OwedNotification]:
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT * FROM notifications_owed WHERE done_at IS NULL "
                "AND claimed_at IS NOT NULL ORDER BY id")
        return [_owed(row) for row in rows]

    async def claim(self, ids: Sequence[int]) -> list[int]:
        if not ids:
            return []
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            rows = await conn.fetch(
                f"UPDATE notifications_owed SET claimed_at = $1 WHERE id IN "
                f"({_marks(len(ids), 2)}) AND claimed_at IS NULL AND done_at IS NULL "
                "RETURNING id", now, *ids)
        return sorted(int(row["id"]) for row in rows)

    async def release(self, ids: Sequence[int], due_at: datetime | None = None) -> None:
        if not ids:
            return
        async with self._db.transaction() as conn:
            if due_at is None:
                await conn.execute(
                    f"UPDATE notifications_owed SET claimed_at = NULL WHERE id IN "
                    f"({_marks(len(ids), 1)}) AND done_at IS NULL", *ids)
            else:
                await conn.execute(
                    f"UPDATE notifications_owed SET claimed_at = NULL, due_at = $1 "
                    f"WHERE id IN ({_marks(len(ids), 2)}) AND done_at IS NULL",
                    to_ms(due_at), *ids)

    async def postpone(self, ids: Sequence[int], until: datetime) -> None:
        if not ids:
            return
        async with self._db.transaction() as conn:
            await conn.execute(
                f"UPDATE notifications_owed SET due_at = $1 WHERE id IN "
                f"({_marks(len(ids), 2)}) AND claimed_at IS NULL AND done_at IS NULL",
                to_ms(until), *ids)

    async def settle(self, ids: Sequence[int], outcome: NotificationOutcome,
                     sent_to: int | None = None) -> None:
        if not ids and sent_to is None:
            return
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            if ids:
                await conn.execute(
                    f"UPDATE notifications_owed SET done_at = $1, outcome = $2, "
                    f"claimed_at = COALESCE(claimed_at, $1) WHERE id IN "
                    f"({_marks(len(ids), 3)}) AND done_at IS NULL",
                    now, outcome.value, *ids)
            if sent_to is not None:
                await _ensure_user(conn, sent_to)
                await conn.execute(
                    "UPDATE notification_users SET last_sent_at = $2 WHERE user_id = $1",
                    sent_to, now)

    async def prune(self, before: datetime) -> int:
        async with self._db.transaction() as conn:
            rows = await conn.fetch(
                "DELETE FROM notifications_owed WHERE done_at IS NOT NULL AND done_at < $1 "
                "RETURNING id", to_ms(before))
        return len(rows)

    async def users(self, user_ids: Sequence[int]) -> dict[int, NotifiedUser]:
        if not user_ids:
            return {}
        async with self._db.read() as conn:
            rows = await conn.fetch(
                f"SELECT * FROM notification_users WHERE user_id IN "
                f"({_marks(len(user_ids), 1)})", *user_ids)
        found = {int(row["user_id"]): _user(row) for row in rows}
        return {user: found.get(user, NotifiedUser(user)) for user in user_ids}

    async def record_seen(self, user_id: int, at: datetime) -> None:
        async with self._db.transaction() as conn:
            await _ensure_user(conn, user_id)
            await conn.execute(
                "UPDATE notification_users SET seen_at = $2 WHERE user_id = $1 "
                "AND (seen_at IS NULL OR seen_at < $2)", user_id, to_ms(at))

    async def close_dms(self, user_id: int) -> bool:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            await _ensure_user(conn, user_id)
            row = await conn.fetchrow(
                "UPDATE notification_users SET dms_closed_at = $2, dms_told_at = NULL "
                "WHERE user_id = $1 AND dms_closed_at IS NULL RETURNING user_id",
                user_id, now)
        return row is not None

    async def reopen_dms(self, user_id: int) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE notification_users SET dms_closed_at = NULL, dms_told_at = NULL "
                "WHERE user_id = $1", user_id)

    async def untold(self) -> list[int]:
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT user_id FROM notification_users WHERE dms_closed_at IS NOT NULL "
                "AND dms_told_at IS NULL ORDER BY user_id")
        return [int(row["user_id"]) for row in rows]

    async def mark_told(self, user_id: int) -> bool:
        now = to_ms(self._clock())
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE notification_users SET dms_told_at = $2 WHERE user_id = $1 "
                "AND dms_closed_at IS NOT NULL AND dms_told_at IS NULL RETURNING user_id",
                user_id, now)
        return row is not None
