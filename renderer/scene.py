"""A scene (what one picture shows) and its drawing onto the cached background.

A `Scene` is plain data about squares, independent of the engine's move generation, so
the same drawing serves boards, GIF frames in the middle of a capture and the palette
sample of `renderer.encode`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

from engine import Color, Geometry, Piece, square_to_number
from engine.squares10 import fmjd_number
from renderer.background import background, grid_width, is_light, square_colour
from renderer.layout import Layout
from renderer.numbers import corner_number_sprite, face_number_sprite
from renderer.overlays import Sprite, cross_sprite, dot_sprite, path_sprites
from renderer.sprites import ghost_sprite, piece_sprite, turn_sprite
from renderer.theme import RGB, Theme


@dataclass(frozen=True, slots=True)
class Scene:
    """What one picture shows. Squares are engine squares: 0..63, or 0..99 on the 10 x 10
    board (the layout's `board_size` says which).

    `pieces`: (square, piece) pairs on the board. `highlights`: squares tinted as part of
    the last move (its start and landing squares). `path`: start then landing squares of
    the last move, drawn as a line with an arrowhead (empty: no path; it needs two squares
    or more). `earlier_path`: the same for the move before the last one, drawn beneath it
    in its own colour (see the theme). `crosses`: squares of captured pieces, marked with a
    cross (drawn under the pieces, over a piece only when it is listed in `taken`).
    `taken`: pieces jumped but not yet removed (diagonal variants, mid-capture GIF frames),
    drawn faded with a cross.
    `dots`: marked squares. `numbers`: write the square numbers on the dark squares (where:
    renderer.numbers; which: `square_number`).
    `a1_dark`: the diagonal board's a1 corner is dark (`Variant.a1_dark`).
    `turn`: the side to move, shown as a small disc of its colour in the frame's right-hand
    corner on that side's end of the board (None: not shown).
    """

    geometry: Geometry
    pieces: tuple[tuple[int, Piece], ...]
    highlights: tuple[int, ...] = ()
    path: tuple[int, ...] = ()
    earlier_path: tuple[int, ...] = ()
    crosses: tuple[int, ...] = ()
    taken: tuple[tuple[int, Piece], ...] = ()
    dots: tuple[int, ...] = ()
    numbers: bool = False
    turn: Color | None = None
    a1_dark: bool = False


def square_number(sq: int, board_size: int, a1_dark: bool) -> int:
    """The number written on dark square `sq`: the FMJD's 1..50 on the 10 x 10 board
    (`engine.squares10`), 1..32 on 8 x 8 counted from the top-left dark square as White
    sees it (a8 when a1 is light, as Italian numbers it; b8 when a1 is dark, as English
    checkers does: `engine.squares`)."""
    if board_size == 10:
        return fmjd_number(sq)
    return square_to_number(sq, a1_dark=a1_dark)


def draw_scene(scene: Scene, layout: Layout, theme: Theme) -> Image.Image:
    """The RGB picture (`layout.size` square) of `scene`."""
    im = background(scene.geometry, layout, theme, scene.a1_dark).copy()
    q = layout.square
    n = layout.board_size
    if scene.highlights:
        # A square's inside is one flat colour, so its highlight is a fill with the blend
        # (inside the grid lines of orthogonal boards, which stay crisp).
        inset = (grid_width(layout) + 1) // 2 if scene.geometry is Geometry.ORTHOGONAL else 0
        for sq in set(scene.highlights):
            x, y = layout.square_origin(sq)
            colour = _blend(square_colour(scene.geometry, sq, theme, n, scene.a1_dark),
                            theme.highlight, theme.highlight_alpha)
            im.paste(colour, (x + inset, y + inset, x + q - inset, y + q - inset))
    if scene.crosses:
        _stamp(im, layout, scene.crosses, cross_sprite(q, theme))
    for sq, piece in scene.pieces:
        # With numbers, a king's number takes the place of its crown (renderer.numbers).
        sprite = piece_sprite(piece.color, piece.kind, q, theme, crown=not scene.numbers)
        im.paste(sprite, layout.square_origin(sq), sprite)
    if scene.taken:
        for sq, piece in scene.taken:
            sprite = ghost_sprite(piece.color, piece.kind, q, theme)
            im.paste(sprite, layout.square_origin(sq), sprite)
        _stamp(im, layout, [sq for sq, _ in scene.taken], cross_sprite(q, theme))
    for path, earlier in ((scene.earlier_path, True), (scene.path, False)):
        if len(path) >= 2:
            cells = tuple(layout.cell(sq) for sq in path)
            for sprite, (dx, dy) in path_sprites(cells, q, theme, earlier):
                im.paste(sprite, (layout.origin + dx, layout.origin + dy), sprite)
    if scene.dots:
        _stamp(im, layout, scene.dots, dot_sprite(q, theme))
    if scene.turn is not None:
        _draw_turn(im, layout, scene.turn, theme)
    if scene.numbers:
        _draw_numbers(im, layout, scene, theme)
    return im


def _draw_numbers(im: Image.Image, layout: Layout, scene: Scene, theme: Theme) -> None:
    """Each dark square's number (`square_number`): on the face of the piece standing
    there, in the corner of an empty square (a jumped piece not yet removed counts as
    empty)."""
    q = layout.square
    n = layout.board_size
    standing = dict(scene.pieces)
    for sq in range(n * n):
        if is_light(sq, n, scene.a1_dark):
            continue
        piece = standing.get(sq)
        number = square_number(sq, n, scene.a1_dark)
        if piece is None:
            sprite, (dx, dy) = corner_number_sprite(number, q, theme)
        else:
            sprite, (dx, dy) = face_number_sprite(number, q, piece, theme)
        x, y = layout.square_origin(sq)
        im.paste(sprite, (x + dx, y + dy), sprite)


def _draw_turn(im: Image.Image, layout: Layout, turn: Color, theme: Theme) -> None:
    """A small ringed disc of the side to move's colour in the right-hand frame corner of
    its side of the board (bottom for the side the picture is seen from)."""
    o, end = layout.origin, layout.origin + layout.board_px
    bottom_side = Color.BLACK if layout.flipped else Color.WHITE
    side = min(o, layout.size - end)
    sprite = turn_sprite(turn, side, theme)
    x = end + (layout.size - end - side) // 2
    y = end + (layout.size - end - side) // 2 if turn is bottom_side else (o - side) // 2
    im.paste(sprite, (x, y), sprite)


def _stamp(im: Image.Image, layout: Layout, squares: Iterable[int], sprite: Sprite) -> None:
    """Paste `sprite` (an image and its offset in the square) on each of `squares`."""
    image, (dx, dy) = sprite
    for sq in squares:
        x, y = layout.square_origin(sq)
        im.paste(image, (x + dx, y + dy), image)


def _blend(base: RGB, over: RGB, alpha: float) -> RGB:
    return (round(base[0] + (over[0] - base[0]) * alpha),
            round(base[1] + (over[1] - base[1]) * alpha),
            round(base[2] + (over[2] - base[2]) * alpha))
