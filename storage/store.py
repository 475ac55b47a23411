"""`Storage`: the open database (SQLite or PostgreSQL) and its repositories, built in one
call."""

from __future__ import annotations

import os
from types import TracebackType

from storage.analyses import SqlAnalysisRepository
from storage.challenges import SqlChallengeRepository
from storage.clock import Clock, utc_now
from storage.database import Database, Durability, database_path
from storage.diagnosis import open_failure
from storage.games import SqlGameRepository
from storage.models import DEFAULT_ELIGIBILITY, Eligibility
from storage.notifications import SqlNotificationRepository
from storage.players import SqlPlayerRepository
from storage.postgres import DEFAULT_POOL_SIZE, PostgresDatabase, is_postgresql
from storage.puzzles import SqlPuzzleRepository
from storage.ratings import SqlRatingRepository
from storage.repositories import (
    AnalysisRepository,
    ChallengeRepository,
    GameRepository,
    NotificationRepository,
    PlayerRepository,
    PuzzleRepository,
    RatingRepository,
    SettingsRepository,
    TournamentRepository,
)
from storage.settings import SqlSettingsRepository
from storage.tournaments import SqlTournamentRepository


class Storage:
    """Everything the bot stores. `await Storage.open(path)`; `await storage.close()` (or
    `async with await Storage.open(...) as storage:`)."""

    def __init__(self, db: Database | PostgresDatabase, clock: Clock = utc_now,
                 leaderboard: Eligibility = DEFAULT_ELIGIBILITY) -> None:
        self.db = db
        self.leaderboard_rule = leaderboard
        self._ratings = SqlRatingRepository(db, clock, leaderboard)
        self.players: PlayerRepository = SqlPlayerRepository(db, clock)
        self.games: GameRepository = SqlGameRepository(db, clock, leaderboard)
        self.challenges: ChallengeRepository = SqlChallengeRepository(db, clock)
        self.ratings: RatingRepository = self._ratings
        self.puzzles: PuzzleRepository = SqlPuzzleRepository(db, clock)
        self.settings: SettingsRepository = SqlSettingsRepository(db, clock)
        self.analyses: AnalysisRepository = SqlAnalysisRepository(db, clock)
        self.tournaments: TournamentRepository = SqlTournamentRepository(db, clock)
        self.notifications: NotificationRepository = SqlNotificationRepository(db, clock)

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
        pool_size: int = DEFAULT_POOL_SIZE,
    ) -> Storage:
        """Open the database and build the repositories. `path` (default: `DAMA_DATABASE`,
        else `data/dama.sqlite3`) is an SQLite file (`Database.open`, same arguments and
        errors) or a `postgresql://` URL (`PostgresDatabase.open`; `durability` and
        `verify` are then the server's business and ignored; `pool_size` is its connection
        pool's size, ignored for SQLite). `clock` gives the times
        stored (created, played, finished...); `leaderboard` is the eligibility rule of
        every leaderboard (if the database was ranked under another rule, the rankings
        are recomputed now, in one transaction).

        `read_only=True` is for a program that only reads a database the bot keeps (local
        play, tests): see `Database.open`. The repositories' reads work as usual; their
        writes raise `RuntimeError`; the rankings are not recomputed, so a leaderboard read
        shows them as the bot last stored them.

        Every failure while opening or checking the database is raised as a
        `DatabaseFileError` whose `cause` and one-line message say why and what to do (or
        a `MigrationError` when a shipped migration itself is wrong): never another
        exception type."""
        target = os.fspath(path) if path is not None else database_path()
        db: Database | PostgresDatabase
        if is_postgresql(target):
            db = await PostgresDatabase.open(target, read_only=read_only, pool_size=pool_size)
        else:
            db = await Database.open(target, durability=durability, verify=verify,
                                     read_only=read_only)
        storage = cls(db, clock, leaderboard)
        if read_only:
            return storage
        try:
            await storage._ratings.apply_rule()
        except BaseException as error:
            await db.close()
            explained = open_failure(error, db.name) if isinstance(error, Exception) else error
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
