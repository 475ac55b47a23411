"""Persistent storage on SQLite (aiosqlite) or PostgreSQL (asyncpg): migrations and
repositories.

Stores strings and ints; knows nothing of the rules. Start with `await Storage.open()`
(`DAMA_DATABASE`: a file path for SQLite, default `data/dama.sqlite3`, or a
`postgresql://` URL); each repository is an attribute of the `Storage` value (interfaces
in `storage.repositories`, values in `storage.models`, errors in `storage.errors`).
See docs/STORAGE.md.
"""

from storage.clock import Clock, utc_now
from storage.database import DEFAULT_PATH, ENV_VAR, Database, Durability, database_path
from storage.errors import (
    Cause,
    ChallengeNotFoundError,
    ChallengeNotPendingError,
    ChannelBusyError,
    DatabaseFileError,
    GameNotActiveError,
    GameNotFoundError,
    MigrationError,
    NotFoundError,
    PuzzleSessionChangedError,
    SchemaVersionError,
    StaleMoveError,
    StorageError,
    StorageWriteError,
)
from storage.migrate import latest_version
from storage.models import (
    DEFAULT_ELIGIBILITY,
    Challenge,
    ChallengeStatus,
    ClockState,
    ColorChoice,
    Eligibility,
    GameRecord,
    GameResult,
    GameStatus,
    LeaderboardEntry,
    MoveRecord,
    NewChallenge,
    NewGame,
    Player,
    Rating,
    RatingChange,
    RatingUpdate,
    RatingValue,
    Seat,
    Side,
    StoredAnalysis,
    TimeControl,
)
from storage.postgres import PostgresDatabase, database_secrets, is_postgresql, redact_url
from storage.repositories import (
    AnalysisRepository,
    ChallengeRepository,
    GameRepository,
    PlayerRepository,
    RatingCalculator,
    RatingRepository,
    SettingsRepository,
)
from storage.store import Storage

__all__ = [
    "DEFAULT_ELIGIBILITY",
    "DEFAULT_PATH",
    "ENV_VAR",
    "AnalysisRepository",
    "Cause",
    "Challenge",
    "ChallengeNotFoundError",
    "ChallengeNotPendingError",
    "ChallengeRepository",
    "ChallengeStatus",
    "ChannelBusyError",
    "Clock",
    "ClockState",
    "ColorChoice",
    "Database",
    "DatabaseFileError",
    "Durability",
    "Eligibility",
    "GameNotActiveError",
    "GameNotFoundError",
    "GameRecord",
    "GameRepository",
    "GameResult",
    "GameStatus",
    "LeaderboardEntry",
    "MigrationError",
    "MoveRecord",
    "NewChallenge",
    "NewGame",
    "NotFoundError",
    "Player",
    "PlayerRepository",
    "PostgresDatabase",
    "PuzzleSessionChangedError",
    "Rating",
    "RatingCalculator",
    "RatingChange",
    "RatingRepository",
    "RatingUpdate",
    "RatingValue",
    "SchemaVersionError",
    "Seat",
    "SettingsRepository",
    "Side",
    "StaleMoveError",
    "Storage",
    "StorageError",
    "StorageWriteError",
    "StoredAnalysis",
    "TimeControl",
    "database_path",
    "database_secrets",
    "is_postgresql",
    "latest_version",
    "redact_url",
    "utc_now",
]
