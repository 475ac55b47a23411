"""Which process posts a server's daily puzzle: the one whose `ShardScope.owns` the server
(the one ownership predicate, `bot.services.shards`), Discord's sharding formula
`(guild_id >> 22) % shard_count` (Discord developer documentation, "Gateway: Sharding")."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any, cast

from bot.services.puzzles import PuzzleService
from bot.services.scheduler import DailyPuzzleScheduler
from bot.services.shards import ShardScope
from puzzles import Puzzle
from storage.models import DailyPuzzleSetting
from storage.repositories import PuzzleRepository

DAY = datetime(2026, 12, 1, 12, tzinfo=UTC)
# Guilds on shards 1, 2 and 0 of 3: the id's bits above the 22 low ones modulo 3.
GUILDS = {1 << 22: 1, 5 << 22: 2, (3 << 22) + 12345: 0}


class Repo:
    def __init__(self) -> None:
        self.claimed: set[tuple[int, str]] = set()

    async def daily_all(self) -> list[DailyPuzzleSetting]:
        return [DailyPuzzleSetting(guild, 7, None, 9, None) for guild in GUILDS]

    async def claim_daily(self, guild_id: int, day: str) -> bool:
        if (guild_id, day) in self.claimed:
            return False
        self.claimed.add((guild_id, day))
        return True


class Puzzles:
    def daily_puzzle(self, day: date, variant: str | None = None) -> Puzzle:
        return cast(Puzzle, object())


class Poster:
    def __init__(self) -> None:
        self.posted: list[int] = []

    async def post_daily(self, setting: DailyPuzzleSetting, puzzle: Puzzle, day: date) -> None:
        self.posted.append(setting.guild_id)


def scheduler(scope: ShardScope, repo: Any, poster: Poster) -> DailyPuzzleScheduler:
    return DailyPuzzleScheduler(cast(PuzzleService, Puzzles()), cast(PuzzleRepository, repo),
                                poster, scope=scope, clock=lambda: DAY)


async def test_a_process_running_every_shard_posts_every_server() -> None:
    poster = Poster()
    assert sorted(await scheduler(ShardScope(), Repo(), poster).run_once()) == sorted(GUILDS)


async def test_each_server_is_posted_by_the_process_whose_scope_owns_it() -> None:
    repo = Repo()
    for shard in range(3):
        scope = ShardScope(3, frozenset({shard}))
        poster = Poster()
        await scheduler(scope, repo, poster).run_once()
        assert poster.posted == [g for g, s in GUILDS.items() if s == shard]
        assert all(scope.owns(g) for g in poster.posted)
