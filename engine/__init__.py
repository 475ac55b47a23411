"""The rules of the eight variants the bot offers: Turkish, Arab, Moroccan and Italian
draughts, and the a1-dark four, Brazilian, International and Russian draughts and English
checkers (docs/RULES.md, "Family 3"). Standard library only.

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
from engine.variants import (
    A1_DARK_VARIANTS,
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
    "A1_DARK_VARIANTS",
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
    "get_variant",
    "legal_moves",
    "number_to_square",
    "parse_move",
    "parse_square",
    "perft",
    "square_name",
    "square_to_number",
]
