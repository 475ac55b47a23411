"""`Storage`: the open database and its repositories, built in one call."""

from __future__ import annotations

import os
from types import TracebackType

from storage.analyses import SqliteAnalysisRepository
from storage.challenges import SqliteChallengeRepository
from storage.clock import Clock, utc_now
from storage.database import Database, Durability
from storage.diagnosis import open_failure
from storage.games import SqliteGameRepository
from storage.models import DEFAULT_ELIGIBILITY, Eligibility
from storage.players import SqlitePlayerRepository
from storage.ratings import SqliteRatingRepository
from storage.repositories import (
    AnalysisRepository,
    ChallengeRepository,
    GameRepository,
    PlayerRepository,
    RatingRepository,
    SettingsRepository,
)
from storage.settings import SqliteSettingsRepository


class Storage:
    """Everything the bot stores. `await Storage.open(path)`; `await storage.close()` (or
    `async with await Storage.open(...) as storage:`)."""

    def __init__(self, db: Database, clock: Clock = utc_now,
                 leaderboard: Eligibility = DEFAULT_ELIGIBILITY) -> None:
        self.db = db
        self.leaderboard_rule = leaderboard
        self._ratings = SqliteRatingRepository(db, clock, leaderboard)
        self.players: PlayerRepository = SqlitePlayerRepository(db, clock)
        self.games: GameRepository = SqliteGameRepository(db, clock, leaderboard)
        self.challenges: ChallengeRepository = SqliteChallengeRepository(db, clock)
        self.ratings: RatingRepository = self._ratings
        self.settings: SettingsRepository = SqliteSettingsRepository(db, clock)
        self.analyses: AnalysisRepository = SqliteAnalysisRepository(db, clock)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        durability: Durability = Durability.PROCESS_CRASH,
        clock: Clock = utc_now,
        leaderboard: Eligibility = DEFAULT_ELIGIBILITY,
        verify: bool = True,
        read_only: bool = False,
    ) -> Storage:
        """Open the database (`Database.open`, same arguments and errors) and build the
        repositories. `clock` gives the times stored (created, played, finished...);
        `leaderboard` is the eligibility rule of every leaderboard (if the database was
        ranked under another rule, the rankings are recomputed now, in one transaction).

        `read_only=True` is for a program that only reads a database the bot keeps (local
        play, tests): see `Database.open`. The repositories' reads work as usual; their
        writes raise `RuntimeError`; the rankings are not recomputed, so a leaderboard read
        shows them as the bot last stored them.

        Every failure while opening or checking the database is raised as a
        `DatabaseFileError` whose `cause` and one-line message say why and what to do (or
        a `MigrationError` when a shipped migration itself is wrong): never another
        exception type."""
        db = await Database.open(path, durability=durability, verify=verify,
                                 read_only=read_only)
        storage = cls(db, clock, leaderboard)
        if read_only:
            return storage
        try:
            await storage._ratings.apply_rule()
        except BaseException as error:
            await db.close()
            explained = open_failure(error, db.path) if isinstance(error, Exception) else error
            if explained is error:
                raise
            raise explained from error
        return storage

    async def rebuild_rankings(self) -> None:
        """Recompute every leaderboard from the stored ratings (after a bulk import)."""
        await self._ratings.rebuild()

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
