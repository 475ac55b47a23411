"""Discord snowflake ids: milliseconds since the Discord epoch, worker, process and increment.

Layout (Discord developer docs, Reference > Snowflakes): bits 63..22 milliseconds since
2015-01-01T00:00:00Z (1420070400000), 21..17 worker id, 16..12 process id, 11..0 increment.
discord.py reads creation times from ids (`discord.utils.snowflake_time`), so ids here are
made the same way and are strictly increasing.
"""

from __future__ import annotations

import datetime
import hashlib
import time

DISCORD_EPOCH_MS = 1420070400000


NAMED_EPOCH_MS = 1735689600000
"""2025-01-01T00:00:00Z: named ids (`SnowflakeFactory.named`) are stamped within 2**30 ms
(about 12 days) after it, so they read as real, past creation times."""


class SnowflakeFactory:
    """Hands out strictly increasing snowflakes stamped with the current time.

    With a `seed`, `named(kind, name)` gives the same id for the same seed, kind and name
    in every process (users, a server and its channels that a later run finds again);
    without one it is `next()`.
    """

    def __init__(self, worker: int = 1, process: int = 1, *, seed: str | None = None) -> None:
        self._prefix_bits = ((worker & 0x1F) << 17) | ((process & 0x1F) << 12)
        self._last = 0
        self.seed = seed
        self._named: set[int] = set()

    def named(self, kind: str, name: str) -> int:
        """The id of the `kind` ("user", "guild", "channel") called `name`: derived from
        the seed, the kind and the name (SHA-256) when the factory has a seed, else a new
        `next()` id. A derived id already handed out (two names with one digest, about one
        chance in 2**52) falls back to `next()`."""
        if self.seed is None:
            return self.next()
        digest = hashlib.sha256(f"{self.seed}\0{kind}\0{name}".encode()).digest()
        value = int.from_bytes(digest[:8], "big")
        ms = NAMED_EPOCH_MS - DISCORD_EPOCH_MS + (value >> 34)  # 30 bits of milliseconds
        candidate = (ms << 22) | (value & 0x3FFFFF)
        if candidate in self._named:
            return self.next()
        self._named.add(candidate)
        return candidate

    def next(self) -> int:
        """A new id, larger than every id handed out before."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | self._prefix_bits
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


def on_shard(snowflake: int, shard_id: int, num_shards: int) -> int:
    """`snowflake` moved forward by less than `num_shards` milliseconds so that its guild
    falls on `shard_id`: `(id >> 22) % num_shards == shard_id` (Discord developer docs,
    Topics > Gateway, Sharding). Raises `ValueError` when `shard_id` is not a shard of
    `num_shards`."""
    if num_shards < 1 or not 0 <= shard_id < num_shards:
        raise ValueError(f"shard {shard_id} is not one of {num_shards} shards")
    ms = snowflake >> 22
    return ((ms + (shard_id - ms) % num_shards) << 22) | (snowflake & 0x3FFFFF)


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
