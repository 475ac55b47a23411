"""Errors raised by the storage layer.

Every error derives from `StorageError`. Messages name what went wrong and what to do;
they are meant for logs and operators, and the bot turns the domain ones (a stale move, a
busy channel, a challenge no longer pending) into replies for players.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every storage error."""


class DatabaseFileError(StorageError):
    """The file at the configured path is not a usable dama-bot database.

    Raised at start-up, before anything is written: the file is not SQLite, is damaged,
    belongs to another program, or cannot be opened. The message names the path. The file
    is left exactly as it was.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(
            f"cannot use the database file {path!r}: {problem}. dama-bot did not change it; "
            "restore it from a backup, move it away, or point DAMA_DATABASE at another file."
        )


class SchemaVersionError(StorageError):
    """The database was written by a newer dama-bot than this one (schema version too high),
    or, opened read-only, has not been migrated to this dama-bot's version yet (too low)."""

    def __init__(self, path: str, found: int, latest: int) -> None:
        self.path = path
        self.found = found
        self.latest = latest
        if found < latest:
            super().__init__(
                f"the database {path!r} has schema version {found}, older than this "
                f"dama-bot's {latest}, and was opened read-only, so it was not migrated: "
                "start the bot on it once (it migrates the file), then read it. "
                "Nothing was changed."
            )
            return
        super().__init__(
            f"the database {path!r} has schema version {found}, but this dama-bot only knows "
            f"versions up to {latest}. It was written by a newer dama-bot: upgrade dama-bot, "
            "or point DAMA_DATABASE at another file. Nothing was changed."
        )


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
