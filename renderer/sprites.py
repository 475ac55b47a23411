"""Piece sprites and small marks, drawn once per size and cached.

Every sprite is an RGBA image one square in size, to be pasted (with its alpha) at a
square's top-left corner. Shapes are drawn at `SUPERSAMPLE` times the size and reduced
with a Lanczos filter, which gives smooth antialiased edges; this happens once per
(piece, size) thanks to the caches, so a board costs only pastes.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine import Color, PieceKind
from renderer.theme import RGB, Theme

SUPERSAMPLE = 4

_Point = tuple[float, float]


def _disc_mask(side: int, cx: float, cy: float, r: float) -> Image.Image:
    mask = Image.new("L", (side, side), 0)
    ImageDraw.Draw(mask).ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    return mask


def _vertical_gradient(side: int, top: RGB, bottom: RGB, y0: float, y1: float) -> Image.Image:
    """An RGB image going from `top` at row y0 to `bottom` at row y1 (clamped outside)."""
    ramp = Image.new("L", (1, side))
    span = max(y1 - y0, 1.0)
    ramp.putdata([round(255 * min(max((y - y0) / span, 0.0), 1.0)) for y in range(side)])
    ramp = ramp.resize((side, side))
    return Image.composite(Image.new("RGB", (side, side), bottom),
                           Image.new("RGB", (side, side), top), ramp)


def _radial_gradient(side: int, centre: _Point, radius: float, inner: RGB,
                     outer: RGB) -> Image.Image:
    """An RGB image going from `inner` at `centre` to `outer` at `radius` and beyond."""
    small = 64
    scale = small / side
    cx, cy, rr = centre[0] * scale, centre[1] * scale, max(radius * scale, 1.0)
    ramp = Image.new("L", (small, small))
    ramp.putdata([
        round(255 * min(math.hypot(x + 0.5 - cx, y + 0.5 - cy) / rr, 1.0))
        for y in range(small) for x in range(small)
    ])
    ramp = ramp.resize((side, side), Image.Resampling.BICUBIC)
    return Image.composite(Image.new("RGB", (side, side), outer),
                           Image.new("RGB", (side, side), inner), ramp)


def _paint(layer: Image.Image, fill: Image.Image | RGB, mask: Image.Image) -> None:
    """Paint `fill` (an image or a colour) onto RGBA `layer` through `mask`."""
    side = layer.size[0]
    src = fill if isinstance(fill, Image.Image) else Image.new("RGB", (side, side), fill)
    rgba = src.convert("RGBA")
    rgba.putalpha(mask)
    layer.alpha_composite(rgba)


def _ring_mask(side: int, cx: float, cy: float, r: float, width: float) -> Image.Image:
    return ImageChops.subtract(_disc_mask(side, cx, cy, r), _disc_mask(side, cx, cy, r - width))


def _crown_polygon(cx: float, cy: float, w: float) -> list[_Point]:
    """Outline of a three-pointed crown `w` wide, centred on (cx, cy)."""
    h = w * 0.78
    top, bottom = cy - h / 2, cy + h / 2
    band = bottom - h * 0.30
    left, right = cx - w / 2, cx + w / 2
    return [
        (left + w * 0.06, bottom),
        (left, top + h * 0.18),          # left point
        (cx - w * 0.24, band - h * 0.12),
        (cx, top),                        # middle point
        (cx + w * 0.24, band - h * 0.12),
        (right, top + h * 0.18),          # right point
        (right - w * 0.06, bottom),
    ]


def _draw_crown(layer: Image.Image, cx: float, cy: float, w: float, theme: Theme) -> None:
    side = layer.size[0]
    poly = _crown_polygon(cx, cy, w)
    outline = max(w * 0.09, 1.0)
    h = w * 0.78
    # Dark outline: the polygon grown by drawing it with a thick outline.
    out_mask = Image.new("L", (side, side), 0)
    d = ImageDraw.Draw(out_mask)
    d.polygon(poly, fill=255)
    d.line([*poly, poly[0]], fill=255, width=round(outline * 2), joint="curve")
    ball_r = w * 0.085
    tips = (poly[1], poly[3], poly[5])
    for x, y in tips:
        d.ellipse((x - ball_r - outline, y - ball_r - outline,
                   x + ball_r + outline, y + ball_r + outline), fill=255)
    _paint(layer, theme.crown_outline, out_mask)
    # Gold body with a light top, and balls on the points.
    body = Image.new("L", (side, side), 0)
    d = ImageDraw.Draw(body)
    d.polygon(poly, fill=255)
    for x, y in tips:
        d.ellipse((x - ball_r, y - ball_r, x + ball_r, y + ball_r), fill=255)
    gold = _vertical_gradient(side, theme.crown_light, theme.crown, cy - h / 2, cy + h / 2)
    _paint(layer, gold, body)
    # The band across the bottom of the crown.
    band = Image.new("L", (side, side), 0)
    bottom = cy + h / 2
    y_band = bottom - h * 0.30
    ImageDraw.Draw(band).line(
        [(cx - w * 0.47, y_band), (cx + w * 0.47, y_band)], fill=255, width=round(outline)
    )
    _paint(layer, theme.crown_outline, ImageChops.multiply(band, body))


@lru_cache(maxsize=64)
def piece_sprite(color: Color, kind: PieceKind, square: int, theme: Theme, *,
                 crown: bool = True) -> Image.Image:
    """The RGBA sprite (`square` x `square` px) of a piece of `color` and `kind`, with its
    drop shadow, centred in the square. `crown=False` leaves a king's face bare (its gold
    ring stays) for a number to be written there (renderer.numbers)."""
    side = square * SUPERSAMPLE
    layer = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    c = side / 2
    r = theme.piece_radius * side
    # Soft drop shadow below and slightly right of the disc.
    off = theme.shadow_offset * side
    shadow_mask = _disc_mask(side, c + off * 0.4, c + off, r)
    shadow_mask = shadow_mask.filter(ImageFilter.GaussianBlur(theme.shadow_blur * side))
    shadow_mask = shadow_mask.point(lambda v: round(v * theme.shadow_alpha))
    _paint(layer, (0, 0, 0), shadow_mask)

    white = color is Color.WHITE
    outline = theme.white_outline if white else theme.black_outline
    rim = theme.white_rim if white else theme.black_rim
    face = theme.white_face if white else theme.black_face
    face_light = theme.white_face_light if white else theme.black_face_light
    groove = theme.white_groove if white else theme.black_groove

    # Outline, then the bevelled rim: light at the top, darker at the bottom.
    _paint(layer, outline, _disc_mask(side, c, c, r))
    rim_r = r - max(0.035 * side, 1.0)
    rim_dark = tuple(round(v * 0.72) for v in rim)
    rim_fill = _vertical_gradient(side, face_light, (rim_dark[0], rim_dark[1], rim_dark[2]),
                                  c - rim_r, c + rim_r)
    _paint(layer, rim_fill, _disc_mask(side, c, c, rim_r))
    # The face: a radial gradient lit from the top left.
    face_r = r * 0.80
    face_fill = _radial_gradient(side, (c - face_r * 0.45, c - face_r * 0.5), face_r * 1.6,
                                 face_light, face)
    _paint(layer, face_fill, _disc_mask(side, c, c, face_r))
    # A fine shadow line at the face's edge so it sits inside the rim.
    _paint(layer, tuple(round(v * 0.8) for v in rim),  # type: ignore[arg-type]
           _ring_mask(side, c, c, face_r, max(0.012 * side, 1.0)))
    if kind is PieceKind.MAN:
        # An engraved groove, as on a wooden draughtsman.
        _paint(layer, groove, _ring_mask(side, c, c, r * 0.52, max(0.025 * side, 1.0)))
    else:
        # A gold ring at the face's edge and a crown: two marks of a king.
        _paint(layer, theme.crown_outline,
               _ring_mask(side, c, c, face_r + 0.012 * side, 0.075 * side))
        _paint(layer, theme.crown, _ring_mask(side, c, c, face_r, 0.05 * side))
        if crown:
            _draw_crown(layer, c, c + 0.005 * side, r * 0.9, theme)
    return layer.resize((square, square), Image.Resampling.LANCZOS)


GHOST_OPACITY = 0.5
"""Opacity of a captured piece that stays on the board until the move ends."""


@lru_cache(maxsize=32)
def ghost_sprite(color: Color, kind: PieceKind, square: int, theme: Theme) -> Image.Image:
    """`piece_sprite` faded to GHOST_OPACITY: a piece jumped but not yet removed."""
    sprite = piece_sprite(color, kind, square, theme).copy()
    alpha = sprite.getchannel("A").point(lambda v: round(v * GHOST_OPACITY))
    sprite.putalpha(alpha)
    return sprite


@lru_cache(maxsize=16)
def turn_sprite(color: Color, side: int, theme: Theme) -> Image.Image:
    """The side-to-move marker, `side` px square: a small disc of `color` inside a thin
    ring in the coordinates' colour, so a black disc still shows on the dark frame."""
    s = side * SUPERSAMPLE
    layer = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    c = s / 2
    r = 0.46 * s
    ring = max(0.07 * s, SUPERSAMPLE * 1.2)
    _paint(layer, theme.coordinate_text, _ring_mask(s, c, c, r, ring))
    small = piece_sprite(color, PieceKind.MAN, side, theme).resize((s, s),
                                                                   Image.Resampling.LANCZOS)
    scaled = small.resize((round(s * 0.84), round(s * 0.84)), Image.Resampling.LANCZOS)
    offset = (s - scaled.width) // 2
    layer.alpha_composite(scaled, (offset, offset))
    return layer.resize((side, side), Image.Resampling.LANCZOS)
