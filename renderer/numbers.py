"""The Italian square numbers (1..32) written on a diagonal board.

Where a number goes depends on what stands on its square, so that nothing covers it and
it covers nothing that matters:

- an empty square shows its number in the top-left corner, light with a dark outline,
  clear of the mark dot and the capture cross at the square's centre;
- a man shows the number of its square on its face, in the ink of the other side
  (dark on White's ivory, light on Black's), inside the piece's rim;
- a king shows it on its face in place of the crown, in the crown's gold with the crown's
  dark outline: the gold number and the gold ring still say "king".

Sizes are fractions of a square with a floor in pixels, so the digits stay readable when
Discord shrinks a 512 px picture to a phone's width (about 300 px): at 512 px a man's
number is 15 px tall, an empty square's 13 px, and never under 6 px at the smallest
picture (160 px). An empty square's number keeps clear of the mark dot from 384 px up;
below that it is written over the dot's edge (numbers are drawn last, so never covered).
Each sprite is drawn once per (number, square size, place) and cached.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Color, Piece, PieceKind
from renderer.background import font
from renderer.theme import RGB, Theme

CORNER_FONT = 0.32
"""Font size of an empty square's number, as a fraction of the square's side."""

FACE_FONT = 0.37
"""Font size of the number on a piece's face, as a fraction of the square's side."""

MIN_CORNER_PX = 10
"""Smallest font size of an empty square's number in pixels (digits 7 px tall, and a "1"
whose stem still reaches full ink)."""

MIN_FACE_PX = 9
"""Smallest font size of a piece's number in pixels (digits 6 px tall: what fits inside
a piece's rim on 17 px squares)."""

Sprite = tuple[Image.Image, tuple[int, int]]
"""An RGBA image and the (x, y) offset of its top-left corner from the square's."""


def _font_px(square: int, fraction: float, floor: int) -> int:
    return max(floor, round(square * fraction))


def _cropped(im: Image.Image) -> Sprite:
    box = im.getbbox() or (0, 0, 1, 1)
    return im.crop(box), (box[0], box[1])


@lru_cache(maxsize=256)
def corner_number_sprite(number: int, square: int, theme: Theme) -> Sprite:
    """Italian square `number` for the top-left corner of an empty square of `square` px:
    light digits with a dark outline."""
    sprite = Image.new("RGBA", (square, square), (0, 0, 0, 0))
    px = _font_px(square, CORNER_FONT, MIN_CORNER_PX)
    stroke = max(1, round(square / 40))
    pad = max(1, round(square * 0.03))
    ImageDraw.Draw(sprite).text(
        (pad + stroke, pad + stroke), str(number), font=font(px), anchor="lt",
        fill=(*theme.number_on_dark, 255), stroke_width=stroke,
        stroke_fill=(*theme.frame, 255),
    )
    return _cropped(sprite)


def face_ink(piece: Piece, theme: Theme) -> tuple[RGB, RGB | None]:
    """(fill, outline or None) of the number written on `piece`'s face."""
    if piece.kind is PieceKind.KING:
        return theme.crown, theme.crown_outline
    if piece.color is Color.WHITE:
        return theme.white_outline, None
    return theme.number_on_dark, None


@lru_cache(maxsize=512)
def face_number_sprite(number: int, square: int, piece: Piece, theme: Theme) -> Sprite:
    """Italian square `number` centred on the face of `piece` standing on a square of
    `square` px (see `face_ink` for its colours)."""
    sprite = Image.new("RGBA", (square, square), (0, 0, 0, 0))
    px = _font_px(square, FACE_FONT, MIN_FACE_PX)
    fill, outline = face_ink(piece, theme)
    # Below 24 px a square has no room for an outline inside the rim.
    stroke = 0 if outline is None or square < 24 else max(1, round(square / 40))
    centre = square / 2
    ImageDraw.Draw(sprite).text(
        (centre, centre), str(number), font=font(px), anchor="mm",
        fill=(*fill, 255), stroke_width=stroke,
        stroke_fill=(*(outline or fill), 255),
    )
    return _cropped(sprite)
