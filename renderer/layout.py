"""Where things go: the pixel geometry of a board picture of a given size and perspective.

A picture is `size` x `size` pixels: a frame (the border that carries the coordinates)
around the variant's `board_size` x `board_size` squares (8 x 8, or 10 x 10 for
International draughts) of `square` pixels each. Pixel (0, 0) is the top-left corner. From
White's perspective a8 (a10) is the top-left square and h1 (j1) the bottom-right one; from
Black's the board is turned half a turn, so h1 (j1) is top-left and a8 (a10)
bottom-right.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine import Color
from renderer.errors import RenderError

MIN_SIZE = 160
"""Smallest picture side in pixels: squares of 17 px, the least that shows a king's crown."""

MIN_SIZE_10 = 200
"""Smallest picture side of the 10 x 10 board: again squares of 17 px."""

MAX_SIZE = 2048
"""Largest picture side in pixels (bounds memory and time per picture)."""

_FRAME_FRACTION = 0.052
_MIN_FRAME = 12


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel geometry of one picture.

    `size`: side of the whole picture. `square`: side of one square. `origin`: distance from
    the picture's left and top edges to the board's top-left corner (the frame width).
    `flipped`: True for Black's perspective. `board_size`: squares per rank and file (8 or
    10); squares are the engine's, `rank * board_size + file`.
    """

    size: int
    square: int
    origin: int
    flipped: bool
    board_size: int = 8

    @property
    def board_px(self) -> int:
        """Side of the squares area in pixels."""
        return self.board_size * self.square

    def cell(self, sq: int) -> tuple[int, int]:
        """(column, row) 0..board_size-1 of square `sq` on the picture, column from the
        left and row from the top."""
        n = self.board_size
        rank, file = divmod(sq, n)
        if self.flipped:
            return n - 1 - file, rank
        return file, n - 1 - rank

    def square_origin(self, sq: int) -> tuple[int, int]:
        """Pixel (x, y) of the top-left corner of square `sq`."""
        col, row = self.cell(sq)
        return self.origin + col * self.square, self.origin + row * self.square

    def centre(self, sq: int) -> tuple[float, float]:
        """Pixel (x, y) of the centre of square `sq` (may be fractional)."""
        x, y = self.square_origin(sq)
        half = self.square / 2
        return x + half, y + half


def make_layout(size: int, perspective: Color, board_size: int = 8) -> Layout:
    """The layout of a `size`-pixel picture of a `board_size` x `board_size` board (the
    variant's `Variant.board_size`, 8 or 10) seen from `perspective`'s side.

    Raises RenderError when `size` is not an int in MIN_SIZE..MAX_SIZE (MIN_SIZE_10..MAX_SIZE
    for the 10 x 10 board).
    """
    if isinstance(size, bool) or not isinstance(size, int):
        raise RenderError(f"size must be a whole number of pixels, not {size!r}")
    smallest = MIN_SIZE if board_size == 8 else MIN_SIZE_10
    if not smallest <= size <= MAX_SIZE:
        raise RenderError(
            f"size {size} px is outside {smallest}..{MAX_SIZE}: "
            f"pick a size in that range (512 suits Discord)"
        )
    if not isinstance(perspective, Color):
        raise RenderError(f"perspective must be Color.WHITE or Color.BLACK, not {perspective!r}")
    return _layout(size, perspective is Color.BLACK, board_size)


@lru_cache(maxsize=64)
def _layout(size: int, flipped: bool, board_size: int) -> Layout:
    frame = max(_MIN_FRAME, round(size * _FRAME_FRACTION))
    square = (size - 2 * frame) // board_size
    origin = (size - board_size * square) // 2
    return Layout(size=size, square=square, origin=origin, flipped=flipped,
                  board_size=board_size)
