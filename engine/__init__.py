"""The rules of Turkish, Arab, Moroccan and Italian draughts. Standard library only.

Everything a caller needs is importable from `engine` directly; see README.md ("Engine")
and RULES.md for the rules implemented.
"""

from engine.errors import (
    AmbiguousMoveError,
    DamaError,
    GameOverError,
    IllegalMoveError,
    MalformedMoveError,
    NotationError,
    PositionError,
    UnknownVariantError,
)
from engine.moves import Move
from engine.pieces import Color, Piece, PieceKind
from engine.position import Position
from engine.squares import number_to_square, parse_square, square_name, square_to_number
from engine.variants import (
    VARIANTS,
    CapturePrecedence,
    CaptureRemoval,
    CrownedMidCapture,
    DrawLaw,
    Geometry,
    Variant,
    get_variant,
)

__all__ = [
    "VARIANTS",
    "AmbiguousMoveError",
    "CapturePrecedence",
    "CaptureRemoval",
    "Color",
    "CrownedMidCapture",
    "DamaError",
    "DrawLaw",
    "GameOverError",
    "Geometry",
    "IllegalMoveError",
    "MalformedMoveError",
    "Move",
    "NotationError",
    "Piece",
    "PieceKind",
    "Position",
    "PositionError",
    "UnknownVariantError",
    "Variant",
    "get_variant",
    "number_to_square",
    "parse_square",
    "square_name",
    "square_to_number",
]
