"""Privacy between servers: who may see a game. The one rule every command that shows a
game (its moves, opponents, PDN, history entry) goes through; see docs/ARCHITECTURE.md,
"Privacy between servers". Ratings and leaderboards are public and do not use it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from storage import GameRecord


@dataclass(frozen=True)
class Requester:
    """Who asks and where: the user's id, the guild the interaction came from (None in
    direct messages and private channels) and its channel (None: not known, as for a
    request that comes from no chat)."""

    user_id: int
    guild_id: int | None
    channel_id: int | None = None


def can_see(requester: Requester, record: GameRecord) -> bool:
    """True when `requester` may see the game, that is when they can see its place
    (docs/ARCHITECTURE.md, "Privacy between servers"): they play in it (anywhere, direct
    messages too), or they ask from the guild where it was played, or, for a game played
    outside a server (a direct message or a group chat, which has no guild), from that
    very chat, whose members see its boards anyway. Otherwise a game stored without a
    guild is visible to its players only."""
    if record.side_of(requester.user_id) is not None:
        return True
    if record.guild_id is None:
        return requester.guild_id is None and requester.channel_id == record.channel_id
    return requester.guild_id == record.guild_id


def visible(requester: Requester, records: Iterable[GameRecord]) -> list[GameRecord]:
    """The records `requester` may see (`can_see`), in the given order."""
    return [r for r in records if can_see(requester, r)]
