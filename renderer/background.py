"""The static part of a picture: frame, coordinates, squares and grid lines.

One background per (geometry, dark corner, picture size, board size, perspective, theme)
is drawn and cached; a board is then a copy of it with pieces and marks pasted on top
(square numbers last, see renderer.numbers). The diagonal board's dark squares are where
the variant says (`Variant.a1_dark`: a1 dark for Brazilian and International draughts,
light for Moroccan and Italian).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine import Geometry
from renderer.layout import Layout
from renderer.theme import RGB, Theme

FILES = "abcdefghij"


def is_light(sq: int, board_size: int = 8, a1_dark: bool = False) -> bool:
    """Whether `sq` is a light square of the `board_size` x `board_size` diagonal board:
    file + rank even when a1 is light, odd when `a1_dark`."""
    return (sq % board_size + sq // board_size) % 2 == (1 if a1_dark else 0)


def square_colour(geometry: Geometry, sq: int, theme: Theme, board_size: int = 8,
                  a1_dark: bool = False) -> RGB:
    """The colour of the empty square `sq` on a `board_size` board of `geometry` (a1 dark
    when `a1_dark`)."""
    if geometry is Geometry.ORTHOGONAL:
        return theme.plain_square
    return theme.light_square if is_light(sq, board_size, a1_dark) else theme.dark_square


def grid_width(layout: Layout) -> int:
    """Width in pixels of the grid lines of orthogonal boards."""
    return max(1, round(layout.square / 28))


@lru_cache(maxsize=16)
def font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at `px` pixels (no file needed, nothing fetched)."""
    return ImageFont.load_default(size=px)


@lru_cache(maxsize=32)
def background(geometry: Geometry, layout: Layout, theme: Theme,
               a1_dark: bool = False) -> Image.Image:
    """The RGB picture of an empty board of `geometry` (`layout.board_size` squares a side,
    a1 dark when `a1_dark`) with its frame and coordinates.

    Treat the result as read-only (it is shared); copy it before drawing on it.
    """
    size, q, o, n = layout.size, layout.square, layout.origin, layout.board_size
    im = Image.new("RGB", (size, size), theme.frame)
    draw = ImageDraw.Draw(im)
    board = n * q
    # A light bevel line around the playing area, set off from it by a dark gap.
    bevel = max(1, round(q / 30))
    gap = max(1, round(q / 40))
    draw.rectangle(
        (o - gap - bevel, o - gap - bevel, o + board + gap + bevel - 1,
         o + board + gap + bevel - 1),
        fill=theme.frame_bevel,
    )
    draw.rectangle((o - gap, o - gap, o + board + gap - 1, o + board + gap - 1),
                   fill=theme.frame)
    # Squares.
    for sq in range(n * n):
        x, y = layout.square_origin(sq)
        draw.rectangle((x, y, x + q - 1, y + q - 1),
                       fill=square_colour(geometry, sq, theme, n, a1_dark))
    if geometry is Geometry.ORTHOGONAL:
        w = grid_width(layout)
        for i in range(n + 1):
            p = o + i * q - w // 2
            p = min(max(p, o), o + board - w)
            draw.rectangle((p, o, p + w - 1, o + board - 1), fill=theme.grid_line)
            draw.rectangle((o, p, o + board - 1, p + w - 1), fill=theme.grid_line)
    _draw_coordinates(draw, layout, theme)
    return im


def _draw_coordinates(draw: ImageDraw.ImageDraw, layout: Layout, theme: Theme) -> None:
    """Files on the top and bottom frame, ranks on the left and right, as seen from the
    layout's perspective."""
    q, o, size, n = layout.square, layout.origin, layout.size, layout.board_size
    far = o + n * q  # where the bottom and right frame starts
    frame_near, frame_far = o, size - far
    px = max(8, round(min(frame_near, frame_far) * 0.66))
    # Two-digit ranks (10 on the 10x10 board) in a slightly smaller type, to fit the frame.
    f, f_two = font(px), font(max(8, round(px * 0.82)))
    for i in range(n):
        file = n - 1 - i if layout.flipped else i
        rank = i if layout.flipped else n - 1 - i
        centre = o + i * q + q / 2
        letter, digit = FILES[file], str(rank + 1)
        for x, y, text in (
            (centre, frame_near / 2, letter),
            (centre, far + frame_far / 2, letter),
            (frame_near / 2, centre, digit),
            (far + frame_far / 2, centre, digit),
        ):
            draw.text((x, y), text, fill=theme.coordinate_text,
                      font=f_two if len(text) > 1 else f, anchor="mm")
