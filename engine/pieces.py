"""Colours, piece kinds and pieces: small immutable values."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Color(enum.Enum):
    """A side. White moves first and plays up the board (toward rank 8)."""

    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def letter(self) -> str:
        """`W` or `B`, as in FEN and PDN."""
        return "W" if self is Color.WHITE else "B"


class PieceKind(enum.Enum):
    """A man (moves forward) or a king (crowned man, `dama` in Turkish/Arab)."""

    MAN = "man"
    KING = "king"


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its colour and kind."""

    color: Color
    kind: PieceKind

    def __str__(self) -> str:
        return f"{self.color.value} {self.kind.value}"
