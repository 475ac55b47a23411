"""A scene (what one picture shows) and its drawing onto the cached background.

A `Scene` is plain data about squares, independent of the engine's move generation, so
the same drawing serves boards, GIF frames in the middle of a capture and the palette
sample of `renderer.encode`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from engine import Geometry, Piece, square_to_number
from renderer.background import background, grid_width, number_sprite
from renderer.layout import Layout
from renderer.overlays import cross_sprite, dot_sprite, path_mask
from renderer.sprites import ghost_sprite, piece_sprite
from renderer.theme import Theme


@dataclass(frozen=True, slots=True)
class Scene:
    """What one picture shows. Squares are engine squares 0..63.

    `pieces`: (square, piece) pairs on the board. `highlights`: squares tinted as part of
    the last move (its start and landing squares). `path`: start then landing squares of
    the last move, drawn as a line with an arrowhead (empty: no path; it needs two squares
    or more). `crosses`: squares of captured pieces, marked with a cross (drawn under the
    pieces, over a piece only when it is listed in `taken`). `taken`: pieces jumped but not
    yet removed (diagonal variants, mid-capture GIF frames), drawn faded with a cross.
    `dots`: marked squares. `numbers`: write Italian numbers 1..32 on the dark squares.
    """

    geometry: Geometry
    pieces: tuple[tuple[int, Piece], ...]
    highlights: tuple[int, ...] = ()
    path: tuple[int, ...] = ()
    crosses: tuple[int, ...] = ()
    taken: tuple[tuple[int, Piece], ...] = ()
    dots: tuple[int, ...] = ()
    numbers: bool = False


def draw_scene(scene: Scene, layout: Layout, theme: Theme) -> Image.Image:
    """The RGB picture (`layout.size` square) of `scene`."""
    im = background(scene.geometry, layout, theme).copy()
    q = layout.square
    inset = (grid_width(layout) + 1) // 2 if scene.geometry is Geometry.ORTHOGONAL else 0
    if scene.highlights:
        tint = Image.new("L", (q - 2 * inset, q - 2 * inset), round(255 * theme.highlight_alpha))
        for sq in set(scene.highlights):
            x, y = layout.square_origin(sq)
            im.paste(theme.highlight, (x + inset, y + inset), tint)
    if scene.crosses:
        cross = cross_sprite(q, theme)
        for sq in scene.crosses:
            im.paste(cross, layout.square_origin(sq), cross)
    for sq, piece in scene.pieces:
        sprite = piece_sprite(piece.color, piece.kind, q, theme)
        im.paste(sprite, layout.square_origin(sq), sprite)
    if scene.taken:
        cross = cross_sprite(q, theme)
        for sq, piece in scene.taken:
            sprite = ghost_sprite(piece.color, piece.kind, q, theme)
            im.paste(sprite, layout.square_origin(sq), sprite)
            im.paste(cross, layout.square_origin(sq), cross)
    if len(scene.path) >= 2:
        cells = tuple(layout.cell(sq) for sq in scene.path)
        mask, (dx, dy) = path_mask(cells, q, theme)
        im.paste(theme.path, (layout.origin + dx, layout.origin + dy), mask)
    if scene.dots:
        dot = dot_sprite(q, theme)
        for sq in scene.dots:
            im.paste(dot, layout.square_origin(sq), dot)
    if scene.numbers:
        for sq in range(64):
            if ((sq & 7) + (sq >> 3)) % 2 == 1:
                sprite, (dx, dy) = number_sprite(square_to_number(sq), q, theme)
                x, y = layout.square_origin(sq)
                im.paste(sprite, (x + dx, y + dy), sprite)
    return im
