"""Privacy between servers: who may see a game. The one rule every command that shows a
game (its moves, opponents, PDN, history entry) goes through; see docs/ARCHITECTURE.md,
"Privacy between servers". Ratings and leaderboards are public and do not use it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from storage import GameRecord


@dataclass(frozen=True)
class Requester:
    """Who asks and where: the user's id and the guild the interaction came from (None
    in direct messages and private channels)."""

    user_id: int
    guild_id: int | None


def can_see(requester: Requester, record: GameRecord) -> bool:
    """True when `requester` may see the game: they play in it (anywhere, direct messages
    too), or they ask from the guild where it was played. A game stored without a guild
    is visible to its players only."""
    if record.side_of(requester.user_id) is not None:
        return True
    return requester.guild_id is not None and record.guild_id == requester.guild_id


def visible(requester: Requester, records: Iterable[GameRecord]) -> list[GameRecord]:
    """The records `requester` may see (`can_see`), in the given order."""
    return [r for r in records if can_see(requester, r)]
