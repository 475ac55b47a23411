"""Discord snowflake ids: milliseconds since the Discord epoch, worker, process and increment.

Layout (Discord developer docs, Reference > Snowflakes): bits 63..22 milliseconds since
2015-01-01T00:00:00Z (1420070400000), 21..17 worker id, 16..12 process id, 11..0 increment.
discord.py reads creation times from ids (`discord.utils.snowflake_time`), so ids here are
made the same way and are strictly increasing.
"""

from __future__ import annotations

import datetime
import time

DISCORD_EPOCH_MS = 1420070400000


class SnowflakeFactory:
    """Hands out strictly increasing snowflakes stamped with the current time."""

    def __init__(self, worker: int = 1, process: int = 1) -> None:
        self._prefix_bits = ((worker & 0x1F) << 17) | ((process & 0x1F) << 12)
        self._last = 0

    def next(self) -> int:
        """A new id, larger than every id handed out before."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | self._prefix_bits
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


def snowflake_time(snowflake: int) -> datetime.datetime:
    """The UTC creation time encoded in `snowflake`."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)


def iso_timestamp(moment: datetime.datetime) -> str:
    """ISO 8601 with microseconds and +00:00, the form Discord writes timestamps in."""
    return moment.astimezone(datetime.UTC).isoformat(timespec="microseconds")


def now_iso() -> str:
    """The current time as Discord writes timestamps."""
    return iso_timestamp(datetime.datetime.now(datetime.UTC))
