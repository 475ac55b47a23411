"""`Storage`: the open database and its four repositories, built in one call."""

from __future__ import annotations

import os
from types import TracebackType

from storage.challenges import SqliteChallengeRepository
from storage.clock import Clock, utc_now
from storage.database import Database, Durability
from storage.games import SqliteGameRepository
from storage.players import SqlitePlayerRepository
from storage.ratings import SqliteRatingRepository
from storage.repositories import (
    ChallengeRepository,
    GameRepository,
    PlayerRepository,
    RatingRepository,
)


class Storage:
    """Everything the bot stores. `await Storage.open(path)`; `await storage.close()` (or
    `async with await Storage.open(...) as storage:`)."""

    def __init__(self, db: Database, clock: Clock = utc_now) -> None:
        self.db = db
        self.players: PlayerRepository = SqlitePlayerRepository(db, clock)
        self.games: GameRepository = SqliteGameRepository(db, clock)
        self.challenges: ChallengeRepository = SqliteChallengeRepository(db, clock)
        self.ratings: RatingRepository = SqliteRatingRepository(db, clock)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        durability: Durability = Durability.PROCESS_CRASH,
        clock: Clock = utc_now,
        verify: bool = True,
    ) -> Storage:
        """Open the database (`Database.open`, same arguments and errors) and build the
        repositories; `clock` gives the times stored (created, played, finished...)."""
        return cls(await Database.open(path, durability=durability, verify=verify), clock)

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
