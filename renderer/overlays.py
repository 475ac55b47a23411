"""What is drawn over the squares: the last move's path, capture crosses and mark dots.

All shapes are drawn supersampled and reduced once, then cached: a path by its cells and
square size, a cross or a dot by its square size.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from renderer.theme import Theme

PATH_SUPERSAMPLE = 3
SPRITE_SUPERSAMPLE = 4

Cell = tuple[int, int]


Sprite = tuple[Image.Image, Cell]
"""An RGBA image and the (x, y) offset of its top-left corner."""


@lru_cache(maxsize=512)
def path_sprites(cells: tuple[Cell, ...], square: int, theme: Theme,
                 earlier: bool = False) -> tuple[Sprite, ...]:
    """The last move's path through `cells` ((column, row) from the top-left, start first)
    on squares of `square` px, as RGBA pieces to paste: a line from the start square's
    centre through every landing square's centre, ending in an arrowhead that points at
    the piece on the last square and stops at its edge. `earlier`: the path of the move
    before the last one, in the theme's `earlier_path` colour, a third thinner.

    The path is drawn as one shape (so overlapping legs do not darken each other), then cut
    into one piece per square it touches, cropped to what it covers: pasting only those is
    much cheaper than blending the whole bounding box. Offsets are from the board's
    top-left corner, in pixels.
    """
    mask, (ox, oy) = _path_mask(cells, square, theme, earlier)
    colour = theme.earlier_path if earlier else theme.path
    pieces: list[Sprite] = []
    for ty in range(0, mask.height, square):
        for tx in range(0, mask.width, square):
            tile = mask.crop((tx, ty, tx + square, ty + square))
            box = tile.getbbox()
            if box is None:
                continue
            alpha = tile.crop(box)
            sprite = Image.new("RGBA", alpha.size, (*colour, 255))
            sprite.putalpha(alpha)
            pieces.append((sprite, (ox + tx + box[0], oy + ty + box[1])))
    return tuple(pieces)


def _path_mask(cells: tuple[Cell, ...], square: int, theme: Theme,
               earlier: bool) -> tuple[Image.Image, Cell]:
    """The path's opacity mask over the bounding box of `cells` (already scaled by the
    theme's path opacity), and that box's offset from the board's top-left corner."""
    ss = PATH_SUPERSAMPLE
    s = square * ss
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    c0, r0 = min(cols), min(rows)
    c1, r1 = max(cols), max(rows)
    w, h = (c1 - c0 + 1) * s, (r1 - r0 + 1) * s
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    pts = [((c - c0) * s + s / 2, (r - r0) * s + s / 2) for c, r in cells]
    thin = 2 / 3 if earlier else 1.0
    width = theme.path_width * s * thin
    head_len = 0.40 * s * thin
    head_half = 0.25 * s * thin
    # The tip stops at the edge of the piece on the last square, so the piece (often a
    # new king) stays in full view; the shaft stops where the arrowhead begins.
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    seg = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / seg, (by - ay) / seg
    back = theme.piece_radius * s
    tip = (bx - ux * back, by - uy * back)
    base = (tip[0] - ux * head_len, tip[1] - uy * head_len)
    shaft = [*pts[:-1], base]
    draw.line(shaft, fill=255, width=round(width), joint="curve")
    r = width / 2
    for x, y in shaft[:-1]:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    px, py = -uy, ux
    draw.polygon(
        [tip,
         (base[0] + px * head_half, base[1] + py * head_half),
         (base[0] - px * head_half, base[1] - py * head_half)],
        fill=255,
    )
    mask = mask.reduce(ss)
    alpha = theme.earlier_path_alpha if earlier else theme.path_alpha
    mask = mask.point(lambda v: round(v * alpha))
    return mask, (c0 * square, r0 * square)


def _cropped(im: Image.Image) -> Sprite:
    box = im.getbbox() or (0, 0, 1, 1)
    return im.crop(box), (box[0], box[1])


@lru_cache(maxsize=32)
def cross_sprite(square: int, theme: Theme) -> Sprite:
    """The cross that marks a captured piece's square, red with a light outline: an RGBA
    sprite and its offset from the square's top-left corner."""
    s = square * SPRITE_SUPERSAMPLE
    arm = 0.22 * s
    c = s / 2
    im = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    lines = [((c - arm, c - arm), (c + arm, c + arm)), ((c - arm, c + arm), (c + arm, c - arm))]
    outer = 0.16 * s
    inner = 0.09 * s
    for width, colour in ((outer, theme.capture_cross_outline), (inner, theme.capture_cross)):
        for a, b in lines:
            draw.line([a, b], fill=(*colour, 255), width=round(width))
            rr = width / 2
            for x, y in (a, b):
                draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=(*colour, 255))
    return _cropped(im.resize((square, square), Image.Resampling.LANCZOS))


@lru_cache(maxsize=32)
def dot_sprite(square: int, theme: Theme) -> Sprite:
    """The dot of a marked square, translucent, with a light rim so it shows on dark pieces
    too: an RGBA sprite and its offset from the square's top-left corner."""
    s = square * SPRITE_SUPERSAMPLE
    c = s / 2
    r = theme.mark_radius * s
    rim = 0.03 * s
    im = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    draw.ellipse((c - r - rim, c - r - rim, c + r + rim, c + r + rim),
                 fill=(*theme.capture_cross_outline, round(255 * theme.mark_alpha)))
    draw.ellipse((c - r, c - r, c + r, c + r),
                 fill=(*theme.mark, round(255 * theme.mark_alpha)))
    return _cropped(im.resize((square, square), Image.Resampling.LANCZOS))
