"""The static part of a picture: frame, coordinates, squares and grid lines.

One background per (geometry, size, perspective, theme) is drawn and cached; a board is
then a copy of it with pieces and marks pasted on top (Italian numbers last, see
renderer.numbers).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine import Geometry
from renderer.layout import Layout
from renderer.theme import RGB, Theme

FILES = "abcdefgh"


def is_light(sq: int) -> bool:
    """Whether `sq` is a light square of the diagonal board (file + rank even, a1 light)."""
    return ((sq & 7) + (sq >> 3)) % 2 == 0


def square_colour(geometry: Geometry, sq: int, theme: Theme) -> RGB:
    """The colour of the empty square `sq` on a board of `geometry`."""
    if geometry is Geometry.ORTHOGONAL:
        return theme.plain_square
    return theme.light_square if is_light(sq) else theme.dark_square


def grid_width(layout: Layout) -> int:
    """Width in pixels of the grid lines of orthogonal boards."""
    return max(1, round(layout.square / 28))


@lru_cache(maxsize=16)
def font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at `px` pixels (no file needed, nothing fetched)."""
    return ImageFont.load_default(size=px)


@lru_cache(maxsize=32)
def background(geometry: Geometry, layout: Layout, theme: Theme) -> Image.Image:
    """The RGB picture of an empty board of `geometry` with its frame and coordinates.

    Treat the result as read-only (it is shared); copy it before drawing on it.
    """
    size, q, o = layout.size, layout.square, layout.origin
    im = Image.new("RGB", (size, size), theme.frame)
    draw = ImageDraw.Draw(im)
    board = 8 * q
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
    for sq in range(64):
        x, y = layout.square_origin(sq)
        draw.rectangle((x, y, x + q - 1, y + q - 1), fill=square_colour(geometry, sq, theme))
    if geometry is Geometry.ORTHOGONAL:
        w = grid_width(layout)
        for i in range(9):
            p = o + i * q - w // 2
            p = min(max(p, o), o + board - w)
            draw.rectangle((p, o, p + w - 1, o + board - 1), fill=theme.grid_line)
            draw.rectangle((o, p, o + board - 1, p + w - 1), fill=theme.grid_line)
    _draw_coordinates(draw, layout, theme)
    return im


def _draw_coordinates(draw: ImageDraw.ImageDraw, layout: Layout, theme: Theme) -> None:
    """Files on the top and bottom frame, ranks on the left and right, as seen from the
    layout's perspective."""
    q, o, size = layout.square, layout.origin, layout.size
    far = o + 8 * q  # where the bottom and right frame starts
    frame_near, frame_far = o, size - far
    px = max(8, round(min(frame_near, frame_far) * 0.66))
    f = font(px)
    for i in range(8):
        file = 7 - i if layout.flipped else i
        rank = i if layout.flipped else 7 - i
        centre = o + i * q + q / 2
        letter, digit = FILES[file], str(rank + 1)
        for x, y, text in (
            (centre, frame_near / 2, letter),
            (centre, far + frame_far / 2, letter),
            (frame_near / 2, centre, digit),
            (far + frame_far / 2, centre, digit),
        ):
            draw.text((x, y), text, fill=theme.coordinate_text, font=f, anchor="mm")
