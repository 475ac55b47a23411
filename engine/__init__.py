"""The rules of Turkish, Arab, Moroccan and Italian draughts (and, staged, not yet offered by
the bot: Brazilian, International and Russian draughts, English checkers; the move
generator plays the first two). Standard library only.

Everything a caller needs is importable from `engine` directly; see docs/ENGINE.md ("Engine")
and docs/RULES.md for the rules implemented.
"""

from engine.errors import (
    AmbiguousMoveError,
    DamaError,
    GameOverError,
    IllegalMoveError,
    MalformedMoveError,
    MoveProblem,
    NotationError,
    PositionError,
    UnknownVariantError,
)
from engine.game import Game, Outcome, Termination
from engine.movegen import apply_move, legal_moves, perft
from engine.moves import Move
from engine.notation import format_move, parse_move
from engine.pieces import Color, Piece, PieceKind
from engine.position import Position
from engine.squares import number_to_square, parse_square, square_name, square_to_number
from engine.staged_variants import STAGED_VARIANTS, get_staged_variant
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
    "STAGED_VARIANTS",
    "VARIANTS",
    "AmbiguousMoveError",
    "CapturePrecedence",
    "CaptureRemoval",
    "Color",
    "CrownedMidCapture",
    "DamaError",
    "DrawLaw",
    "Game",
    "GameOverError",
    "Geometry",
    "IllegalMoveError",
    "MalformedMoveError",
    "Move",
    "MoveProblem",
    "NotationError",
    "Outcome",
    "Piece",
    "PieceKind",
    "Position",
    "PositionError",
    "Termination",
    "UnknownVariantError",
    "Variant",
    "apply_move",
    "format_move",
    "get_staged_variant",
    "get_variant",
    "legal_moves",
    "number_to_square",
    "parse_move",
    "parse_square",
    "perft",
    "square_name",
    "square_to_number",
]
