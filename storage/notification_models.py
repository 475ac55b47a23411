"""The values of the notifications' storage (`storage.notifications`, migration 0013)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime


class NotificationKind(enum.Enum):
    """What a notification tells a player (docs/ARCHITECTURE.md, "Notifications")."""

    TURN = "turn"
    """It became their move."""
    REMINDER = "reminder"
    """Less than a quarter of their move time is left."""


class NotificationOutcome(enum.Enum):
    """How an owed notification was settled."""

    SENT = "sent"
    DROPPED = "dropped"
    """Not sent: the game moved on or ended, or the player cannot be reached."""


@dataclass(frozen=True)
class NewNotification:
    """A notification to owe: `kind` to `user_id` about `game_id` at `ply` (the game's
    number of moves when it was owed), due at `due_at`; `guild_id` is the game's server
    (None: a direct message), for the shard that sends it."""

    user_id: int
    kind: NotificationKind
    game_id: int
    ply: int
    guild_id: int | None
    due_at: datetime


@dataclass(frozen=True)
class OwedNotification:
    """A stored notification not yet settled (`claimed_at` None: no sender holds it)."""

    id: int
    user_id: int
    kind: NotificationKind
    game_id: int
    ply: int
    guild_id: int | None
    due_at: datetime
    claimed_at: datetime | None


@dataclass(frozen=True)
class NotifiedUser:
    """What is stored of a player for their notifications: when they last used the bot
    (`seen_at`), the last notification sent to them (`last_sent_at`), and when their
    direct messages were found closed (`dms_closed_at`) and they were told
    (`dms_told_at`). All None for a player never stored."""

    user_id: int
    seen_at: datetime | None = None
    last_sent_at: datetime | None = None
    dms_closed_at: datetime | None = None
    dms_told_at: datetime | None = None
