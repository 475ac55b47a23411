"""`NotificationRepository`: the interface of the notifications' storage
(`storage.notifications.SqlNotificationRepository`, migration 0013), exported by
`storage.repositories`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from storage.notification_models import (
    NewNotification,
    NotificationOutcome,
    NotifiedUser,
    OwedNotification,
)


class NotificationRepository(Protocol):
    async def owe(self, notifications: Sequence[NewNotification]) -> int:
        """Store the notifications not owed yet (their key: user, kind, game, ply; one
        owed already is left as it is, settled or not), in one transaction. Returns how
        many were new."""
        ...

    async def due(self, now: datetime, limit: int,
                  shards: tuple[int, Sequence[int]] | None = None) -> list[OwedNotification]:
        """At most `limit` notifications due by `now`, neither claimed nor settled,
        earliest first; with `shards` (shard count, shard ids), only those of games in
        the servers of those shards (a direct message's game: shard 0)."""
        ...

    async def due_to(self, user_ids: Sequence[int], now: datetime) -> list[OwedNotification]:
        """Every notification due by `now` to the players `user_ids`, neither claimed
        nor settled, earliest first (a digest gathers all of a player's)."""
        ...

    async def next_due(self, shards: tuple[int, Sequence[int]] | None = None
                       ) -> datetime | None:
        """The earliest due time of a notification neither claimed nor settled (of
        `shards`, as `due`); None when there is none."""
        ...

    async def claimed(self) -> list[OwedNotification]:
        """Every notification claimed and not settled (after a restart: those a killed
        sender held)."""
        ...

    async def claim(self, ids: Sequence[int]) -> list[int]:
        """Claim the notifications `ids` for sending: of those neither claimed nor
        settled, the ids now claimed (one claimer wins across processes)."""
        ...

    async def release(self, ids: Sequence[int], due_at: datetime | None = None) -> None:
        """Give claimed notifications back (not sent: a rate limit, a failure, a
        restart), due again at `due_at` (None: as they were)."""
        ...

    async def postpone(self, ids: Sequence[int], until: datetime) -> None:
        """Make unclaimed, unsettled notifications due at `until` instead."""
        ...

    async def settle(self, ids: Sequence[int], outcome: NotificationOutcome,
                     sent_to: int | None = None) -> None:
        """Mark notifications done (sent, or dropped); with `sent_to`, that player's
        last notification is now (the per-player pace). One transaction."""
        ...

    async def prune(self, before: datetime) -> int:
        """Delete the notifications settled before `before` (the owner keeps them until
        no game can still be at their ply, so none is owed again); returns how many."""
        ...

    async def users(self, user_ids: Sequence[int]) -> dict[int, NotifiedUser]:
        """What is stored of each player (an empty `NotifiedUser` for one never
        stored)."""
        ...

    async def record_seen(self, user_id: int, at: datetime) -> None:
        """The player used the bot at `at` (kept only if later than what is stored)."""
        ...

    async def close_dms(self, user_id: int) -> bool:
        """Their direct messages are closed to the bot (now), not told yet. False when
        they were known closed already (nothing changes)."""
        ...

    async def reopen_dms(self, user_id: int) -> None:
        """Forget that their direct messages were closed (they chose DMs again)."""
        ...

    async def untold(self) -> list[int]:
        """The players whose direct messages are closed and who were not told."""
        ...

    async def mark_told(self, user_id: int) -> bool:
        """The player was told that their direct messages are closed: True for the one
        call that marks it (across processes), False when already told or not closed."""
        ...
