"""Turning RGB pictures into PNG and GIF bytes through one fixed 256-colour palette.

Why a palette: a board is mostly flat colour plus antialiased edges, so 256 colours lose
nothing visible, while the PNG shrinks to about a third and encodes several times faster
than 24-bit RGB (measured in benchmarks/render.py). Adaptive quantizing per picture would
cost more than the whole drawing; instead one palette per theme is built once from a
sample of everything the renderer draws (both boards, all pieces, highlights, both paths,
crosses, dots, numbers), then every picture is mapped to it without dithering, which is fast and
deterministic. GIF frames share the same palette, so colours do not flicker.

The palette keeps the most frequent sample colours exactly (the flat squares, frame,
highlights), and fills the rest with a median-cut of the other colours, each weighted by
the square root of its pixel count so rare edge shades still get entries.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from engine import Color, Geometry, Piece, PieceKind
from renderer.layout import make_layout
from renderer.scene import Scene, draw_scene
from renderer.theme import Theme

EXACT_COLOURS = 64
"""How many of the most frequent sample colours the palette keeps exactly."""

PNG_COMPRESS_LEVEL = 3
"""zlib level for PNG output; see benchmarks/render.py for the size/time trade-off."""


def _sample_scenes() -> list[Scene]:
    wm, wk = Piece(Color.WHITE, PieceKind.MAN), Piece(Color.WHITE, PieceKind.KING)
    bm, bk = Piece(Color.BLACK, PieceKind.MAN), Piece(Color.BLACK, PieceKind.KING)
    kinds = (wm, wk, bm, bk)
    scenes = []
    for geometry in Geometry:
        playable = [sq for sq in range(64)
                    if geometry is Geometry.ORTHOGONAL or ((sq & 7) + (sq >> 3)) % 2 == 1]
        pieces = tuple((sq, kinds[i % 4]) for i, sq in enumerate(playable[::2]))
        empty = [sq for sq in playable if sq not in dict(pieces)]
        scenes.append(Scene(
            geometry, pieces,
            highlights=(*playable[:6], *empty[:6]),
            path=(playable[1], playable[-3]) if len(playable) > 4 else (),
            crosses=tuple(empty[6:10]),
            taken=tuple((sq, kinds[i % 4]) for i, sq in enumerate(empty[10:14])),
            dots=tuple(empty[14:20]) + tuple(sq for sq, _ in pieces[:4]),
            numbers=geometry is Geometry.DIAGONAL,
            turn=Color.WHITE,
        ))
        # A path over highlighted squares and pieces, both directions, over an earlier one.
        scenes.append(Scene(geometry, pieces, highlights=(playable[0], playable[-1]),
                            path=(playable[-1], playable[0], playable[len(playable) // 2]),
                            earlier_path=(playable[2], playable[-5], playable[5]),
                            turn=Color.BLACK))
    return scenes


@lru_cache(maxsize=4)
def palette_image(theme: Theme) -> Image.Image:
    """The 256-colour palette (a 1 x 1 P image carrying it) for pictures drawn in `theme`."""
    counts: dict[tuple[int, int, int], int] = {}
    for size in (256, 512):
        layout = make_layout(size, Color.WHITE)
        for scene in _sample_scenes():
            found = draw_scene(scene, layout, theme).getcolors(size * size)
            assert found is not None  # a picture has at most size * size colours
            for n, value in found:
                assert isinstance(value, tuple)
                rgb = (value[0], value[1], value[2])
                counts[rgb] = counts.get(rgb, 0) + n
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    exact = [rgb for rgb, _ in ranked[:EXACT_COLOURS]]
    rest = ranked[EXACT_COLOURS:]
    pixels: list[tuple[int, int, int]] = []
    for rgb, n in rest:
        pixels.extend([rgb] * max(1, round(math.sqrt(n))))
    colours: list[tuple[int, int, int]] = list(exact)
    if pixels:
        strip = Image.new("RGB", (len(pixels), 1))
        strip.putdata(pixels)
        quant = strip.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT)
        flat = quant.getpalette() or []
        used = sorted({int(i) for i in quant.tobytes()})
        colours.extend((flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]) for i in used)
    colours = colours[:256]
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for rgb in colours for v in rgb] + [0] * (3 * (256 - len(colours))))
    return pal


def to_palette(im: Image.Image, theme: Theme) -> Image.Image:
    """`im` (RGB) mapped to the theme's fixed palette, without dithering."""
    return im.quantize(palette=palette_image(theme), dither=Image.Dither.NONE)


def png_bytes(im: Image.Image, theme: Theme) -> bytes:
    """PNG bytes (palette mode) of RGB picture `im`. Deterministic: no timestamps or
    other metadata are written."""
    buf = io.BytesIO()
    to_palette(im, theme).save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def gif_bytes(frames: Sequence[Image.Image], durations: Sequence[int], theme: Theme) -> bytes:
    """Animated GIF bytes of RGB `frames`, each shown for its duration in milliseconds,
    looping forever.

    Each frame after the first is stored as the rectangle that changed, with unchanged
    pixels in it made transparent (Pillow's `optimize`): a game GIF shrinks about five
    times and decodes to exactly the same frames.
    """
    indexed = [to_palette(f, theme) for f in frames]
    buf = io.BytesIO()
    indexed[0].save(
        buf, format="GIF", save_all=True, append_images=indexed[1:],
        duration=list(durations), loop=0, optimize=True, disposal=1,
    )
    return buf.getvalue()
