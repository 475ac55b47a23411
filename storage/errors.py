"""Errors raised by the storage layer.

Every error derives from `StorageError`. Messages name what went wrong and what to do;
they are meant for logs and operators, and the bot turns the domain ones (a stale move, a
busy channel, a challenge no longer pending) into replies for players.

Three carry a `Cause` (why, as far as the operator must act) and an `explanation` (the
line for the log): `DatabaseFileError` for anything that stops the database from being
opened at start-up, `StorageUnavailableError` for a database that cannot be used at run
time, and its subclass `StorageWriteError` for a write refused at run time (nothing of it
was stored).
"""

from __future__ import annotations

import enum


class StorageError(Exception):
    """Base class of every storage error."""


DATABASE_SETTING = "DAMA_DATABASE"
"""The setting that names the bot's database (docs/OPERATING.md, "Settings")."""


class Cause(enum.Enum):
    """Why the database cannot be used, as far as the operator must act on it.

    The value is a short phrase for logs. `advice` is what the operator should do: only
    DAMAGED says "restore from a backup", because for a full or read-only disk the file
    is sound and replacing it would lose games.
    """

    NOT_WRITABLE = "not writable"
    READ_ONLY_FILESYSTEM = "read-only filesystem"
    DISK_FULL = "disk full"
    LOCKED = "locked"
    IO_ERROR = "input/output error"
    UNREADABLE = "unreadable"
    NOT_A_FILE = "not a file"
    DAMAGED = "damaged"
    NOT_DAMA_BOT = "not a dama-bot database"
    NEWER_SCHEMA = "newer schema"
    OLDER_SCHEMA = "older schema"
    UNREACHABLE = "unreachable"

    @property
    def advice(self) -> str:
        """What the operator should do, one or two sentences (for the bot's database,
        `DAMA_DATABASE`)."""
        return self.advice_naming(DATABASE_SETTING)

    def advice_naming(self, setting: str) -> str:
        """`advice` for a database named by `setting` (`db copy`'s `SOURCE` or
        `TARGET`, say) rather than by `DAMA_DATABASE`."""
        return _ADVICE[self].format(setting=setting)


_KEEP = "The file is not damaged: keep it as it is."
_ADVICE = {
    Cause.NOT_WRITABLE: (
        "Give the user running dama-bot write permission on the file and its folder "
        "(SQLite also creates the -wal and -shm files beside it), or point {setting} "
        "elsewhere. " + _KEEP
    ),
    Cause.READ_ONLY_FILESYSTEM: (
        "Its filesystem is mounted read-only: remount it read-write, or point "
        "{setting} at a writable place. " + _KEEP
    ),
    Cause.DISK_FULL: (
        "Free space on the disk that holds it (check with df), then start dama-bot "
        "again. " + _KEEP
    ),
    Cause.LOCKED: (
        "Another program holds the database's write lock: stop the other dama-bot or "
        "program using the file, then start again. Nothing was changed."
    ),
    Cause.IO_ERROR: (
        "The operating system reported an input/output error: check the disk (dmesg, "
        "the filesystem's health) before anything else. dama-bot did not change the file."
    ),
    Cause.UNREADABLE: (
        "Give the user running dama-bot read and write permission on the file and its "
        "folder, or point {setting} elsewhere. dama-bot did not change it."
    ),
    Cause.NOT_A_FILE: (
        "Point {setting} at a file (it is created if missing). Nothing was changed."
    ),
    Cause.DAMAGED: (
        "dama-bot did not change it; restore it from a backup, or move it away to start "
        "with an empty database."
    ),
    Cause.NOT_DAMA_BOT: (
        "dama-bot did not change it; point {setting} at dama-bot's database, or move "
        "this file away."
    ),
    Cause.NEWER_SCHEMA: (
        "It was written by a newer dama-bot: upgrade dama-bot, or point {setting} at "
        "another file. Nothing was changed."
    ),
    Cause.OLDER_SCHEMA: (
        "It was opened read-only, so it was not migrated: start the bot on it once (it "
        "migrates the file), then read it. Nothing was changed."
    ),
}

_ADVICE[Cause.UNREACHABLE] = (
    "dama-bot could not reach the PostgreSQL database: check that the server runs and "
    "that {setting}'s host, port, user, password and database name are right "
    "(the database must exist; dama-bot creates its tables). Nothing was changed."
)

_WRITE_ADVICE = {
    Cause.NOT_WRITABLE: (
        "Give the user running dama-bot write permission on the file and its folder again; "
        "writes succeed as soon as it has it."
    ),
    Cause.READ_ONLY_FILESYSTEM: (
        "Its filesystem became read-only (often the kernel's answer to disk errors): check "
        "the disk, remount it read-write and restart dama-bot."
    ),
    Cause.DISK_FULL: "Free space on its disk (check with df); writes succeed again at once.",
    Cause.LOCKED: (
        "Another program held the database's write lock longer than the busy timeout: "
        "stop whatever else writes to the file."
    ),
    Cause.IO_ERROR: "The operating system reported an input/output error: check the disk.",
    Cause.UNREACHABLE: (
        "The connection to PostgreSQL failed or the server shut down: check that it runs; "
        "writes succeed again once it answers."
    ),
}


class DatabaseFileError(StorageError):
    """The database at the configured path cannot be used: raised by `Database.open` and
    `Storage.open` for every failure while opening or checking it.

    `cause` (a `Cause`) tells why: the file or its folder is not writable, the filesystem
    is read-only or full, another program holds its lock, an input/output error, the file
    is unreadable, a folder, damaged, not a dama-bot database, or of another schema
    version (`SchemaVersionError`). `problem` is what was found, `explanation` the line
    for the operator: what is wrong and what to do (`cause.advice`). `str(error)` is that
    one line, naming the path. Nothing was written to a file refused as damaged, foreign
    or of a newer schema (checked read-only first).
    """

    def __init__(self, path: str, problem: str, cause: Cause = Cause.DAMAGED) -> None:
        self.path = path
        self.problem = " ".join(problem.split())  # SQLite's reports span lines; ours is one
        self.cause = cause
        self.explanation = self._explain(DATABASE_SETTING)
        super().__init__(self.explanation)

    def _explain(self, setting: str) -> str:
        kind = "database" if "://" in self.path else "database file"
        return (f"cannot use the {kind} {self.path!r}: {self.problem}. "
                f"{self.cause.advice_naming(setting)}")

    def naming(self, setting: str) -> DatabaseFileError:
        """The same error, its advice naming `setting` where the bot's start names
        `DAMA_DATABASE` (`dama-bot db copy` names its `SOURCE` and `TARGET`)."""
        renamed = type(self).__new__(type(self))
        renamed.__dict__.update(self.__dict__)  # path, problem, cause (found, latest)
        renamed.explanation = self._explain(setting)
        StorageError.__init__(renamed, renamed.explanation)
        return renamed


class SchemaVersionError(DatabaseFileError):
    """The database was written by a newer dama-bot than this one (schema version too high),
    or, opened read-only, has not been migrated to this dama-bot's version yet (too low)."""

    def __init__(self, path: str, found: int, latest: int) -> None:
        self.found = found
        self.latest = latest
        if found < latest:
            problem = (f"it has schema version {found}, older than this dama-bot's {latest}, "
                       "and was opened read-only")
            cause = Cause.OLDER_SCHEMA
        else:
            problem = (f"it has schema version {found}, but this dama-bot only knows "
                       f"versions up to {latest}")
            cause = Cause.NEWER_SCHEMA
        super().__init__(path, problem, cause)


class StorageUnavailableError(StorageError):
    """The database could not be used at run time, for a reason outside dama-bot.

    Raised as itself by the PostgreSQL backend's reads (`PostgresDatabase.read()` and
    `connection()`) when the server is unreachable or ended the session
    (`Cause.UNREACHABLE`), and as its subclass `StorageWriteError` by every refused
    write. Either way nothing of the step was stored, and the caller may tell the player
    so. `path` names the database (a URL without its password), `cause` says why,
    `detail` is what the driver reported; `explanation` is the line for the log (what
    happened and what the operator should do); `str(error)` is the same.
    """

    def __init__(self, path: str, cause: Cause, detail: str) -> None:
        if cause not in _WRITE_ADVICE:
            raise ValueError(f"{cause} is not a cause of a failure at run time")
        self.path = path
        self.cause = cause
        self.detail = " ".join(detail.split())
        self.explanation = self._explain()
        super().__init__(self.explanation)

    def _explain(self) -> str:
        return (f"cannot read the database {self.path!r} ({self.cause.value}: "
                f"{self.detail}). {_WRITE_ADVICE[self.cause]}")


class StorageWriteError(StorageUnavailableError):
    """A write could not be stored, at run time, for a reason outside dama-bot: the disk is
    full (`Cause.DISK_FULL`), the file, its folder or its filesystem became read-only
    (`NOT_WRITABLE`, `READ_ONLY_FILESYSTEM`), another program held the write lock longer
    than the busy timeout (`LOCKED`), the disk reported an input/output error
    (`IO_ERROR`), or PostgreSQL could not be reached or ended the session (`UNREACHABLE`).

    Raised by `Database.transaction()` and `Database.run()` (so by every repository
    write), and by `PostgresDatabase.transaction()` and `execute()`, when the database
    refused the transaction: it was not committed, nothing of it is stored, and the caller
    may tell the player so. `explanation` is the line for the log (what happened and what
    the operator should do); `str(error)` is the same.
    """

    def _explain(self) -> str:
        return (f"cannot write to the database {self.path!r} ({self.cause.value}: "
                f"{self.detail}); the change was not stored. {_WRITE_ADVICE[self.cause]}")


class MigrationError(StorageError):
    """A migration file is missing, misnumbered, or failed to apply (it was rolled back)."""


class NotFoundError(StorageError, LookupError):
    """A game or challenge with the given id does not exist."""


class GameNotFoundError(NotFoundError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"there is no game with id {game_id}")


class GameNotActiveError(StorageError):
    """The game is finished or aborted, so it takes no more moves, offers or results."""

    def __init__(self, game_id: int, status: str) -> None:
        self.game_id = game_id
        self.status = status
        super().__init__(f"game {game_id} is {status}, not active")


class StaleMoveError(StorageError):
    """A move was appended with a ply number that is not the next one.

    Typically a double click or two interactions racing: the first move was stored, the
    second one was computed from an older position. Reload the game and try again.
    """

    def __init__(self, game_id: int, expected_ply: int, given_ply: int) -> None:
        self.game_id = game_id
        self.expected_ply = expected_ply
        self.given_ply = given_ply
        super().__init__(
            f"game {game_id}: the next ply is {expected_ply}, not {given_ply}; "
            "the game changed meanwhile, reload it"
        )


class ChannelBusyError(StorageError):
    """The channel already has an active game (one active game per channel)."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(
            f"channel {channel_id} already has an active game; finish or abort it first, "
            "or play in another channel or thread"
        )


class ChallengeNotFoundError(NotFoundError):
    """No challenge has this id."""

    def __init__(self, challenge_id: int) -> None:
        self.challenge_id = challenge_id
        super().__init__(f"there is no challenge with id {challenge_id}")


class ChallengeNotPendingError(StorageError):
    """The challenge was already accepted, declined, cancelled or has expired."""

    def __init__(self, challenge_id: int, status: str) -> None:
        self.challenge_id = challenge_id
        self.status = status
        super().__init__(f"challenge {challenge_id} is {status}, no longer pending")


class PuzzleSessionChangedError(StorageError):
    """A puzzle session's step was computed from a revision that is no longer stored:
    another task or process answered, started another puzzle or ended it meanwhile.
    Nothing was written; read the session again and decide anew."""

    def __init__(self, user_id: int, revision: int) -> None:
        self.user_id = user_id
        self.revision = revision
        super().__init__(
            f"user {user_id}'s puzzle session is no longer at revision {revision}; "
            "it changed meanwhile, read it again")


# --- tournaments (storage.tournaments) ---------------------------------------------


class TournamentNotFoundError(NotFoundError):
    """No tournament has this id."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"there is no tournament with id {tournament_id}")


class EntrantNotFoundError(NotFoundError):
    """The user never joined the tournament."""

    def __init__(self, tournament_id: int, user_id: int) -> None:
        self.tournament_id = tournament_id
        self.user_id = user_id
        super().__init__(f"user {user_id} is not an entrant of tournament {tournament_id}")


class PairingNotFoundError(NotFoundError):
    """The tournament has no such round (`board` None) or no such board in it."""

    def __init__(self, tournament_id: int, round: int, board: int | None = None) -> None:
        self.tournament_id = tournament_id
        self.round = round
        self.board = board
        where = f"round {round}" if board is None else f"board {board} in round {round}"
        super().__init__(f"tournament {tournament_id} has no {where}")


class TournamentPostNotFoundError(NotFoundError):
    """No post of this kind and key was claimed for the tournament."""

    def __init__(self, tournament_id: int, kind: str, key: str) -> None:
        self.tournament_id = tournament_id
        self.kind = kind
        self.key = key
        super().__init__(f"tournament {tournament_id} claimed no post {kind!r} {key!r}")


class TournamentChannelBusyError(StorageError):
    """The channel already has a tournament in sign-up or under way (one per channel)."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(
            f"channel {channel_id} already has a tournament in sign-up or under way; "
            "finish or cancel it first, or use another channel"
        )


class StaleTournamentError(StorageError):
    """A conditional write of a tournament was computed from a state no longer stored: its
    `revision` or its `status` changed meanwhile (another task or process wrote it), or
    the round it pairs was paired already. Nothing was written; read the tournament again
    and decide anew. `revision` and `status` are what was found (None: not read)."""

    def __init__(self, tournament_id: int, detail: str, *, revision: int | None = None,
                 status: str | None = None) -> None:
        self.tournament_id = tournament_id
        self.revision = revision
        self.status = status
        super().__init__(f"tournament {tournament_id} changed meanwhile ({detail}); "
                         "read it again")


class PairingTakenError(StaleTournamentError):
    """The pairing already has its game (`game_id`) or a forfeit (`forfeit`): a second
    game or a forfeit over a played game is refused, nothing was written."""

    def __init__(self, tournament_id: int, round: int, board: int, *,
                 game_id: int | None, forfeit: str | None) -> None:
        self.round = round
        self.board = board
        self.game_id = game_id
        self.forfeit = forfeit
        has = f"game {game_id}" if game_id is not None else f"the forfeit {forfeit}"
        super().__init__(tournament_id, f"board {board} of round {round} already has {has}")


class EntryRefusal(enum.Enum):
    """Why a player cannot join: the tournament is full, closed to entries (not in
    sign-up, and not a running arena), or removed them."""

    FULL = "full"
    CLOSED = "closed"
    REMOVED = "removed"


class EntryRefusedError(StorageError):
    """A join (or a leave of a tournament that is over) was refused for `reason`
    (`EntryRefusal`); nothing was written."""

    def __init__(self, tournament_id: int, user_id: int, reason: EntryRefusal) -> None:
        self.tournament_id = tournament_id
        self.user_id = user_id
        self.reason = reason
        super().__init__(
            f"user {user_id} cannot join tournament {tournament_id}: {reason.value}")
