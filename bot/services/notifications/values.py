"""The notifications' values: their limits, what is sent in one message (`Delivery`),
what the outlet answers (`SendResult`), and the outlet the Discord layer implements
(`NotificationOutlet`). docs/ARCHITECTURE.md, "Notifications"."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from storage import NotificationKind


@dataclass(frozen=True)
class Limits:
    """How notifications are paced (the settings `DAMA_NOTIFY_*`, `bot.config`).

    `min_move_time`: games with a per-move time below it owe none (an hour, the rule of
    docs/PLAYING.md's `/settings notify`). `turn_delay`: a turn's notification is due this
    long after the move that made it (a reply within it sends nothing). `quiet`: a
    player who used the bot within it is told nothing until it has passed (postponed,
    not lost). `user_pace`: at most one message to a player per this long; what falls
    due meanwhile goes in their next digest. `per_second`: messages a process sends per
    second at most, all players together. `queue_size`: messages claimed and waiting in
    memory at most (the rest waits in the database). `batch`: due notifications read at
    once. `digest_games`: games one message names at most. `poll`: the longest sleep
    between two looks at the database. `max_backoff`: the slowest the pace gets after
    rate limits (a factor of `per_second`'s interval)."""

    min_move_time: timedelta = timedelta(hours=1)
    turn_delay: timedelta = timedelta(minutes=1)
    quiet: timedelta = timedelta(minutes=5)
    user_pace: timedelta = timedelta(minutes=10)
    per_second: float = 5.0
    queue_size: int = 100
    batch: int = 500
    digest_games: int = 10
    poll: timedelta = timedelta(seconds=30)
    max_backoff: float = 16.0

    def __post_init__(self) -> None:
        if self.per_second <= 0 or self.queue_size < 1 or self.batch < 1 or (
                self.digest_games < 1) or self.max_backoff < 1:
            raise ValueError(f"notification limits out of range: {self}")


class TargetKind(enum.Enum):
    """Where a message goes: the player's direct messages, or a game's channel (a
    message there mentions the player)."""

    DM = "dm"
    CHANNEL = "channel"


@dataclass(frozen=True)
class DigestItem:
    """One game a message names: why (`kind`), the game, where its board is (`guild_id`
    None: a direct message; `board_message_id` None: no board recorded, the link goes to
    the channel), the opponent (`opponent_id`, None: the computer at `opponent_level`)
    and, for a reminder, the time left at its due time (`left`)."""

    kind: NotificationKind
    game_id: int
    guild_id: int | None
    channel_id: int
    board_message_id: int | None
    opponent_id: int | None
    left: timedelta | None = None
    opponent_level: int | None = None


@dataclass(frozen=True)
class Delivery:
    """One message to send: to `user_id`, at `target` (a channel's id in `channel_id`
    for `TargetKind.CHANNEL`), naming `items` (one game, or a digest of several); `ids`
    are the owed notifications it settles, all claimed."""

    user_id: int
    target: TargetKind
    channel_id: int | None
    guild_id: int | None
    items: tuple[DigestItem, ...]
    ids: tuple[int, ...]


class Outcome(enum.Enum):
    """What became of a message the outlet was asked to send."""

    SENT = "sent"
    DMS_CLOSED = "dms_closed"
    """Discord refused the direct message (403, code 50007): the player's DMs are closed
    to the bot."""
    RATE_LIMITED = "rate_limited"
    """Discord answered 429 and the outlet did not wait it out (`retry_after`)."""
    UNREACHABLE = "unreachable"
    """The channel is gone or closed to the bot (404, 403 other than 50007)."""
    FAILED = "failed"
    """Anything else (Discord's 5xx, the network): worth trying again later."""


@dataclass(frozen=True)
class SendResult:
    """The outlet's answer: the `outcome`, the wait Discord asked for when rate limited
    (`retry_after`, seconds), and how many 429s the HTTP client waited out itself while
    sending (`waited_429`: discord.py retries them, docs/ARCHITECTURE.md,
    "Notifications")."""

    outcome: Outcome
    retry_after: float = 0.0
    waited_429: int = 0


class NotificationOutlet(Protocol):
    """Sends notification messages (the Discord layer: `bot.ui.notifications`)."""

    async def send(self, delivery: Delivery) -> SendResult:
        """Send `delivery` in its reader's language; never raises (a failure is
        `Outcome.FAILED`)."""
        ...


@dataclass(frozen=True)
class Plan:
    """What one look at the due notifications decided: the messages to send, the ids to
    drop (the game moved on or ended, the player turned notifications off or cannot be
    reached), and the ids to postpone with their new due time (quiet while active, the
    per-player pace)."""

    deliveries: tuple[Delivery, ...]
    drop: tuple[int, ...]
    postpone: tuple[tuple[int, datetime], ...]
    reopen: tuple[int, ...] = ()
    """Players who chose direct messages again after theirs were found closed."""
