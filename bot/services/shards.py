"""Which games, challenges and boards this bot process looks after: `ShardScope`.

Discord sends each server's events to one shard, shard `(guild_id >> 22) % shard_count`,
and direct messages to shard 0 (Discord developer docs, Topics > Gateway, Sharding). A
process that runs some of the shards (`DAMA_SHARD_IDS`) hears only those servers, so it
restores, schedules and announces only their games; the games of direct messages (no
guild) belong to the process that holds shard 0. `ShardScope.owns` is that rule, the one
predicate every service applies (game restore, owed boards, deadlines through the live
games, challenge expiries, the computer's turns through the live games); anything a later
change schedules asks it too. A process that runs every shard owns everything.

`parse_shard_ids` reads the operator's list (`0-3`, `0,2`, `1`); it raises `ValueError`
with a message that says what to write (`bot.config` turns it into a `ConfigError`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EVERY_SHARD", "ShardScope", "parse_shard_ids", "shard_of"]

MAX_SHARDS = 4096
"""The most shards a setting may name (far beyond any bot's need; keeps ranges finite)."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives `guild_id`'s events: `(guild_id >> 22) % shard_count`,
    and 0 for direct messages (`guild_id` None). Raises `ValueError` for a count below 1."""
    if shard_count < 1:
        raise ValueError(f"a shard count is at least 1, not {shard_count}")
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardScope:
    """The shards one process runs: `shard_ids` of `shard_count` (None: every shard, so
    the process owns every guild and the direct messages)."""

    shard_count: int | None = None
    shard_ids: frozenset[int] | None = None

    def __post_init__(self) -> None:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("shard ids need a shard count")
            if not self.shard_ids or any(
                not 0 <= i < self.shard_count for i in self.shard_ids
            ):
                raise ValueError(
                    f"shard ids must be from 0 to {self.shard_count - 1}, "
                    f"not {sorted(self.shard_ids)}"
                )

    @property
    def everything(self) -> bool:
        """True when this process runs every shard (it owns every game)."""
        return (
            self.shard_ids is None
            or self.shard_count is None
            or len(self.shard_ids) == self.shard_count
        )

    @property
    def holds_shard_zero(self) -> bool:
        """True when this process runs shard 0: it owns the direct messages' games and is
        the one that registers the slash commands."""
        return self.everything or 0 in (self.shard_ids or ())

    def owns(self, guild_id: int | None) -> bool:
        """True when the game, challenge or board of `guild_id` (None: a direct message)
        is this process's to restore, schedule and announce (`shard_of`)."""
        if self.everything:
            return True
        assert self.shard_count is not None and self.shard_ids is not None
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def describe(self) -> str:
        """`shards 0, 2 of 4` or `every shard`, for the log."""
        if self.shard_ids is None or self.shard_count is None:
            return "every shard"
        ids = ", ".join(str(i) for i in sorted(self.shard_ids))
        return f"shards {ids} of {self.shard_count}"


EVERY_SHARD = ShardScope()
"""The scope of a process that runs every shard: it owns every game."""


def parse_shard_ids(text: str, shard_count: int) -> frozenset[int]:
    """Shard ids from `0-3`, `0,2`, `1` or a mix (`0-1,4`), each from 0 to
    `shard_count - 1`. Raises `ValueError` naming what is wrong: not a number or range,
    a range running backwards, an id out of range, an id given twice, nothing given."""
    ids: set[int] = set()
    parts = [part.strip() for part in text.split(",")]
    if not text.strip():
        raise ValueError("name at least one shard id, e.g. 0 or 0-3")
    for part in parts:
        low_text, dash, high_text = part.partition("-")
        if not low_text.strip().isdigit() or (dash and not high_text.strip().isdigit()):
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3")
        low = int(low_text)
        high = int(high_text) if dash else low
        if high < low:
            raise ValueError(f"the range {part!r} runs backwards; write {high}-{low}")
        if high >= shard_count:
            raise ValueError(
                f"shard {high} does not exist with {shard_count} shards "
                f"(ids run from 0 to {shard_count - 1})"
            )
        named = set(range(low, high + 1))
        if ids & named:
            raise ValueError(f"shard {min(ids & named)} is named twice")
        ids |= named
    return frozenset(ids)
