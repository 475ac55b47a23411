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

import enum
from collections.abc import Mapping
from types import MappingProxyType
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


class MoveProblem(enum.Enum):
    """Why move text was refused: the `reason` of a `NotationError`, with its `details`
    (parameter name: value) named here. Squares and moves are texts in the notation the
    player typed (algebraic ``d3``, or Italian numbers ``22``); `moves` is a comma-separated
    list of legal moves written in full."""

    # MalformedMoveError
    EMPTY = "empty"  # no details
    NOT_A_SQUARE = "not_a_square"  # square: the text that is not a square ("d9")
    NUMBERS_RUN_TOGETHER = "numbers_run_together"  # no details
    NUMBERS_NOT_USED = "numbers_not_used"  # variant: the variant's key
    NUMBER_OFF_BOARD = "number_off_board"  # number: the number out of 1..32
    NOT_A_MOVE = "not_a_move"  # no details
    MIXED_NOTATION = "mixed_notation"  # no details
    ONE_SQUARE = "one_square"  # no details
    # IllegalMoveError
    NOT_LEGAL = "not_legal"  # move: the move's text
    NO_LEGAL_MOVE = "no_legal_move"  # no details
    LIGHT_SQUARE = "light_square"  # square
    EMPTY_SQUARE = "empty_square"  # square
    OPPONENTS_PIECE = "opponents_piece"  # square
    MAN_CANNOT_TAKE_KING = "man_cannot_take_king"  # square (the king's), moves
    CAPTURE_PRECEDENCE = "capture_precedence"  # moves
    LONGER_CAPTURE = "longer_capture"  # count (pieces to take), moves
    CAPTURE_UNFINISHED = "capture_unfinished"  # moves
    MUST_CAPTURE = "must_capture"  # moves
    PIECE_CANNOT_GO_THERE = "piece_cannot_go_there"  # moves (that piece's)
    PIECE_STUCK = "piece_stuck"  # square, moves
    # AmbiguousMoveError
    AMBIGUOUS = "ambiguous"  # moves
    # NotationError
    NO_NUMERIC_NOTATION = "no_numeric_notation"  # variant


class NotationError(DamaError, ValueError):
    """Move text that cannot be turned into a legal move of the position.

    Attributes `reason` (a `MoveProblem`, or None when not given) and `details` (its
    parameters, read-only); `str(error)` is the English explanation.
    """

    def __init__(
        self,
        message: str,
        reason: MoveProblem | None = None,
        details: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.details: Mapping[str, str | int] = MappingProxyType(dict(details or {}))


class MalformedMoveError(NotationError):
    """Text that is not move notation at all (e.g. `hello`, `z9-d4`, a single square)."""


class IllegalMoveError(NotationError):
    """Well-formed move text that is not legal in the position; the message says why."""


class AmbiguousMoveError(NotationError):
    """Move text matching several legal moves.

    Attribute `candidates`: the matching legal moves; the message lists them in full notation.
    """

    def __init__(
        self,
        message: str,
        candidates: tuple[Move, ...] = (),
        reason: MoveProblem | None = MoveProblem.AMBIGUOUS,
        details: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(message, reason, details)
        self.candidates = candidates
