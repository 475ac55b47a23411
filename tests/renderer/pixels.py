"""Reading a rendered board back from its pixels, for the renderer's tests.

The board geometry is recomputed here from the picture size alone (the frame is 5.2 % of
the size, at least 12 px; squares fill the rest), independently of renderer.layout, so a
layout bug cannot hide itself.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image


@dataclass(frozen=True)
class Grid:
    size: int
    square: int
    origin: int
    black_view: bool
    board: int = 8

    @classmethod
    def of(cls, size: int, black_view: bool = False, board: int = 8) -> Grid:
        """The grid of a `size` px picture of a `board` x `board` board (8 or 10)."""
        frame = max(12, round(size * 0.052))
        square = (size - 2 * frame) // board
        return cls(size, square, (size - board * square) // 2, black_view, board)

    def top_left(self, name: str) -> tuple[int, int]:
        """Pixel of the top-left corner of the square called `name` ("d4", "j10")."""
        file, rank = ord(name[0]) - ord("a"), int(name[1:]) - 1
        last = self.board - 1
        col, row = (last - file, rank) if self.black_view else (file, last - rank)
        return self.origin + col * self.square, self.origin + row * self.square

    def at(self, name: str, fx: float, fy: float) -> tuple[int, int]:
        """Pixel at fractions (fx, fy) of square `name` from its top-left corner."""
        x, y = self.top_left(name)
        return x + int(fx * self.square), y + int(fy * self.square)


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def rgb(im: Image.Image) -> Image.Image:
    return im.convert("RGB")


def luminance(c: tuple[int, int, int]) -> float:
    r, g, b = c
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 14) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def blend(base: tuple[int, int, int], over: tuple[int, int, int],
          alpha: float) -> tuple[int, int, int]:
    return (round(base[0] * (1 - alpha) + over[0] * alpha),
            round(base[1] * (1 - alpha) + over[1] * alpha),
            round(base[2] * (1 - alpha) + over[2] * alpha))


def pixel(im: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    value = im.getpixel(xy)
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def is_gold(c: tuple[int, int, int]) -> bool:
    """The crown's gold: strongly yellow (red high, blue low)."""
    r, _, b = c
    return r > 170 and r - b > 90


def read_square(im: Image.Image, grid: Grid, name: str,
                empty: tuple[tuple[int, int, int], ...]) -> str:
    """What stands on square `name`: 'empty', 'white man', 'white king', 'black man' or
    'black king' ('unclear' otherwise).

    Empty: the square's centre and a point a quarter-square below it both show one of the
    `empty` colours (the square's own colour, highlighted or not). Otherwise the side comes
    from that lower point, on the piece's face (light or dark), and a king is told by the
    gold of its crown at the centre.
    """
    centre = pixel(im, grid.at(name, 0.5, 0.5))
    face = pixel(im, grid.at(name, 0.5, 0.73))
    if any(near(centre, c) for c in empty) and any(near(face, c) for c in empty):
        return "empty"
    lum = luminance(face)
    if lum > 185:
        side = "white"
    elif lum < 80:
        side = "black"
    else:
        return "unclear"
    return f"{side} {'king' if is_gold(centre) else 'man'}"


def changed_pixels(before: Image.Image, after: Image.Image, box: tuple[int, int, int, int],
                   tol: int = 0) -> list[tuple[int, int]]:
    """The pixels (x, y) inside `box` (left, top, right, bottom) where `after` differs
    from `before` (both RGB) by more than `tol` in some channel."""
    left, top, right, bottom = box
    return [(x, y) for y in range(top, bottom) for x in range(left, right)
            if not near(pixel(before, (x, y)), pixel(after, (x, y)), tol)]
