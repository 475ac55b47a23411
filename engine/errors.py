"""The engine's errors. Every message is safe to show a player and says what to do.

Hierarchy (all derive from `DamaError`)::

    DamaError
    ├── UnknownVariantError (also ValueError)   unknown variant name
    ├── PositionError (also ValueError)         bad FEN text or an impossible position
    ├── GameOverError                           a move played after the game ended
    └── NotationError (also ValueError)         move text that cannot be played
        ├── MalformedMoveError                  not move text at all
        ├── IllegalMoveError                    well formed, but not legal here (says why)
        └── AmbiguousMoveError                  matches several legal moves (lists them)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.moves import Move

#: Most characters of a player's input repeated in an error message.
QUOTE_LIMIT = 40


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` as a quoted string for an error message (Python's repr), cut to `limit`
    characters with `...` after them when it is longer, so that an error echoing a player's
    input stays short whatever they typed (a chat message has a length limit)."""
    if len(text) > limit:
        return repr(text[:limit]) + "..."
    return repr(text)


class DamaError(Exception):
    """Base of every engine error; the message is safe to show a player."""


class UnknownVariantError(DamaError, ValueError):
    """A variant name that is neither a key nor an alias of the registry.

    Attribute `valid`: the valid variant keys, in registry order.
    """

    def __init__(self, message: str, valid: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.valid = valid


class PositionError(DamaError, ValueError):
    """FEN text that cannot be read, or a position the variant does not allow."""


class GameOverError(DamaError):
    """A move, resignation or draw offered after the game has ended."""


class NotationError(DamaError, ValueError):
    """Move text that cannot be turned into a legal move of the position."""


class MalformedMoveError(NotationError):
    """Text that is not move notation at all (e.g. `hello`, `z9-d4`, a single square)."""


class IllegalMoveError(NotationError):
    """Well-formed move text that is not legal in the position; the message says why."""


class AmbiguousMoveError(NotationError):
    """Move text matching several legal moves.

    Attribute `candidates`: the matching legal moves; the message lists them in full notation.
    """

    def __init__(self, message: str, candidates: tuple[Move, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates
