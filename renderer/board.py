"""`render_png`: one position as a PNG picture."""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

from engine import VARIANTS, Color, Geometry, Move, Position, Variant
from renderer.encode import png_bytes
from renderer.errors import RenderError
from renderer.layout import Layout, make_layout
from renderer.scene import Scene, draw_scene
from renderer.theme import DEFAULT_THEME, Theme
from renderer.validate import (
    check_follows,
    check_last_move,
    check_marks,
    check_position,
    resolve_variant,
)


def check_numbers(numbers: bool, variant: Variant) -> bool:
    """`numbers` after checking it can be drawn: square numbers (1..32, or the FMJD's
    1..50 on the 10 x 10 board: `renderer.scene.square_number`) exist only on the diagonal
    board. Raises RenderError for an orthogonal variant."""
    if numbers and variant.geometry is not Geometry.DIAGONAL:
        raise RenderError(
            f"the numbers option writes the square numbers 1..32 on the dark squares of a "
            f"diagonal board; {variant.name} is played on all 64 squares: leave it off"
        )
    return bool(numbers)


def move_scene(position: Position, variant: Variant, last_move: Move | None,
               marks: tuple[int, ...], numbers: bool, show_turn: bool = True,
               earlier_move: Move | None = None) -> Scene:
    """The scene of `position` after `last_move` (None: no last move shown), with
    `earlier_move` (the move before it, or None) drawn beneath; the side to move is marked
    unless `show_turn` is False (a finished game)."""
    turn = position.turn if show_turn else None
    earlier_path = earlier_move.path if earlier_move is not None else ()
    earlier_crosses = earlier_move.captured if earlier_move is not None else ()
    if last_move is None:
        return Scene(variant.geometry, tuple(position.pieces()), dots=marks, numbers=numbers,
                     turn=turn, a1_dark=variant.a1_dark)
    return Scene(
        variant.geometry,
        tuple(position.pieces()),
        highlights=last_move.path,
        path=last_move.path,
        earlier_path=earlier_path,
        crosses=tuple(dict.fromkeys((*earlier_crosses, *last_move.captured))),
        dots=marks,
        numbers=numbers,
        turn=turn,
        a1_dark=variant.a1_dark,
    )


def render_image(
    position: Position,
    variant: Variant | str,
    *,
    perspective: Color = Color.WHITE,
    last_move: Move | None = None,
    before: Position | None = None,
    marks: Iterable[int | str] = (),
    size: int = 512,
    numbers: bool = False,
    theme: Theme = DEFAULT_THEME,
    show_turn: bool = True,
    earlier_move: Move | None = None,
) -> Image.Image:
    """Like `render_png`, but returns the RGB Pillow image (`size` x `size`)."""
    v = resolve_variant(variant)
    layout: Layout = make_layout(size, perspective, v.board_size)
    check_position(position, v)
    dots = check_marks(marks, v)
    show_numbers = check_numbers(numbers, v)
    if last_move is not None:
        check_last_move(position, last_move, v)
        if before is not None:
            check_position(before, v)
            check_follows(before, last_move, position, v)
    elif before is not None:
        raise RenderError("before= is the position before last_move; give last_move too")
    if earlier_move is not None:
        if before is None:
            raise RenderError("earlier_move= is the move before last_move; give last_move "
                              "and before= (the position it led to) too")
        check_last_move(before, earlier_move, v)
    return draw_scene(move_scene(position, v, last_move, dots, show_numbers, show_turn,
                                 earlier_move), layout, theme)


def render_png(
    position: Position,
    variant: Variant | str,
    *,
    perspective: Color = Color.WHITE,
    last_move: Move | None = None,
    before: Position | None = None,
    marks: Iterable[int | str] = (),
    size: int = 512,
    numbers: bool = False,
    theme: Theme = DEFAULT_THEME,
    show_turn: bool = True,
    earlier_move: Move | None = None,
) -> bytes:
    """The PNG picture of `position` in `variant`, as bytes.

    Arguments:
      position: the position to draw (after `last_move`, when one is given).
      variant: a Variant or its name (a key or alias of `engine.get_variant`, any case:
        "italian", "international", "checkers").
      perspective: the side at the bottom of the picture (Color.BLACK turns the board).
      last_move: the move that led to `position`: its start and landing squares are tinted,
        a line with an arrowhead runs through every landing square, and the squares of the
        captured pieces are crossed. It is checked against `position` (the moving side's
        piece on its end square, its start and captured squares empty, its legs along the
        variant's lines).
      before: optionally the position before `last_move`; then `last_move` must also be a
        legal move there (engine `legal_moves`) that leads to `position`.
      marks: squares to mark with a dot (ints 0..63, 0..99 on the 10 x 10 board, or names
        such as "d4"), for example the legal destinations of a piece.
      size: side of the square picture in pixels, 160..2048 (default 512; 200..2048 for
        the 10 x 10 board).
      numbers: write the square numbers on the dark squares (diagonal boards only): Italian
        1..32, 1..32 from b8 where a1 is dark, the FMJD's 1..50 on the 10 x 10 board; in an
        empty square's corner, on a piece's face (renderer.numbers).
      theme: colours and proportions (renderer.theme.Theme).
      show_turn: mark the side to move beside the board (False for a finished game,
        which has none).
      earlier_move: the move played before `last_move` (a puzzle's solving move, answered
        by the defence given as `last_move`): drawn as a thinner teal arrow beneath the last
        move's, its captured squares crossed. It must fit `before`, the position it led to
        (checked as `last_move` is against `position`); `last_move` and `before` are then
        required.

    Returns PNG bytes of a `size` x `size` picture in palette mode ("P", 256 colours).
    The same arguments always give the same bytes.

    Raises RenderError (a ValueError) for an unknown variant name, a position with pieces
    on squares the variant does not use, a last move that does not fit the position (or is
    not legal in `before`), an `earlier_move` without `before` or that does not fit it, a
    bad square in `marks`, numbers on an orthogonal board, or a size out of range.
    """
    image = render_image(position, variant, perspective=perspective, last_move=last_move,
                         before=before, marks=marks, size=size, numbers=numbers, theme=theme,
                         show_turn=show_turn, earlier_move=earlier_move)
    return png_bytes(image, theme)


def warm_up(sizes: Iterable[int] = (512,), theme: Theme = DEFAULT_THEME) -> None:
    """Build the caches (palette, backgrounds, piece sprites) for pictures of `sizes`, so
    that the first picture a program sends is as fast as the others. Takes under a
    second; call it at start-up (in a worker thread from async code) if that matters.

    Raises RenderError for a size out of range.
    """
    for size in sizes:
        for perspective in Color:
            for key in ("turkish", "italian"):
                variant = VARIANTS[key]
                start = Position.start(variant)
                png_bytes(render_image(start, variant, perspective=perspective, size=size,
                                       theme=theme), theme)
