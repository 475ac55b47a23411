"""Persistent storage on SQLite through aiosqlite: migrations and repositories.

Stores strings and ints; knows nothing of the rules. Start with `await Storage.open()`
(path from `DAMA_DATABASE`, default `data/dama.sqlite3`); the repositories are
`storage.players`, `.games`, `.challenges`, `.ratings`, `.settings` (interfaces in
`storage.repositories`, values in `storage.models`, errors in `storage.errors`).
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
)
from storage.repositories import (
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
    "database_path",
    "latest_version",
    "utc_now",
]
