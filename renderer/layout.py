"""Where things go: the pixel geometry of a board picture of a given size and perspective.

A picture is `size` x `size` pixels: a frame (the border that carries the coordinates)
around 8 x 8 squares of `square` pixels each. Pixel (0, 0) is the top-left corner. From
White's perspective a8 is the top-left square and h1 the bottom-right one; from Black's the
board is turned half a turn, so h1 is top-left and a8 bottom-right.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine import Color
from renderer.errors import RenderError

MIN_SIZE = 160
"""Smallest picture side in pixels: squares of 17 px, the least that shows a king's crown."""

MAX_SIZE = 2048
"""Largest picture side in pixels (bounds memory and time per picture)."""

_FRAME_FRACTION = 0.052
_MIN_FRAME = 12


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel geometry of one picture.

    `size`: side of the whole picture. `square`: side of one square. `origin`: distance from
    the picture's left and top edges to the board's top-left corner (the frame width).
    `flipped`: True for Black's perspective.
    """

    size: int
    square: int
    origin: int
    flipped: bool

    @property
    def board_px(self) -> int:
        """Side of the 8 x 8 squares area in pixels."""
        return 8 * self.square

    def cell(self, sq: int) -> tuple[int, int]:
        """(column, row) 0..7 of square `sq` on the picture, column from the left and row
        from the top."""
        file, rank = sq & 7, sq >> 3
        if self.flipped:
            return 7 - file, rank
        return file, 7 - rank

    def square_origin(self, sq: int) -> tuple[int, int]:
        """Pixel (x, y) of the top-left corner of square `sq`."""
        col, row = self.cell(sq)
        return self.origin + col * self.square, self.origin + row * self.square

    def centre(self, sq: int) -> tuple[float, float]:
        """Pixel (x, y) of the centre of square `sq` (may be fractional)."""
        x, y = self.square_origin(sq)
        half = self.square / 2
        return x + half, y + half


def make_layout(size: int, perspective: Color) -> Layout:
    """The layout of a `size`-pixel picture seen from `perspective`'s side.

    Raises RenderError when `size` is not an int in MIN_SIZE..MAX_SIZE.
    """
    if isinstance(size, bool) or not isinstance(size, int):
        raise RenderError(f"size must be a whole number of pixels, not {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RenderError(
            f"size {size} px is outside {MIN_SIZE}..{MAX_SIZE}: "
            f"pick a size in that range (512 suits Discord)"
        )
    if not isinstance(perspective, Color):
        raise RenderError(f"perspective must be Color.WHITE or Color.BLACK, not {perspective!r}")
    return _layout(size, perspective is Color.BLACK)


@lru_cache(maxsize=64)
def _layout(size: int, flipped: bool) -> Layout:
    frame = max(_MIN_FRAME, round(size * _FRAME_FRACTION))
    square = (size - 2 * frame) // 8
    origin = (size - 8 * square) // 2
    return Layout(size=size, square=square, origin=origin, flipped=flipped)
