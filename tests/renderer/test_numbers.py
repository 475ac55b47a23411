"""The Italian square numbers (renderer.numbers) read back from the pixels, at every
picture size the bot can be set to (DAMA_BOARD_SIZE, 160..2048; 512 by default, which
Discord shows about 300 px wide on a phone).

Readable: the digits are at least 6 px tall, and at least 22 % of a square (12.5 px at
512 px, 7 px once a phone shrinks it), with strong contrast (80 of 255 in luminance)
against what they are written on. Uncovered: a piece's number lies wholly inside the
piece's rim (not on its edge, where the pieces' outlines and shadows run); an empty
square's number is drawn over the mark dot, and from 384 px up keeps clear of it.
"""

from __future__ import annotations

import math

import pytest
from PIL import Image

from engine import Color, PieceKind, Position, get_variant
from renderer import DEFAULT_THEME, render_png
from tests.renderer.pixels import (
    Grid,
    changed_pixels,
    decode,
    is_gold,
    luminance,
    near,
    pixel,
    rgb,
)

T = DEFAULT_THEME
SIZES = [160, 256, 384, 512, 1024, 2048]
ITALIAN = get_variant("italian")
# White: a man on c4 (18), a king on e4 (19); Black: a king on d5 (14), a man on f5 (15).
PIECES = Position.from_fen("W:W18,K19:B15,K14", ITALIAN)
EMPTY_SQUARES = ("a8", "h1", "b5", "g4")  # 1, 32, 13, 20
VISIBLE = 24  # a change of more than this in a colour channel is seen
RIM = T.piece_radius - 0.035  # where a piece's outline ends, as a fraction of a square


def pictures(position: Position, size: int, marks: tuple[str, ...] = ()) -> tuple[
        Image.Image, Image.Image]:
    plain = rgb(decode(render_png(position, ITALIAN, size=size, marks=marks)))
    numbered = rgb(decode(render_png(position, ITALIAN, size=size, marks=marks, numbers=True)))
    return plain, numbered


def square_box(grid: Grid, name: str) -> tuple[int, int, int, int]:
    x, y = grid.top_left(name)
    return x, y, x + grid.square, y + grid.square


def centre(grid: Grid, name: str) -> tuple[float, float]:
    """The square's centre, in the coordinates of its pixels' centres."""
    x, y = grid.top_left(name)
    half = grid.square / 2 - 0.5
    return x + half, y + half


def height(points: list[tuple[int, int]]) -> int:
    ys = [y for _, y in points]
    return max(ys) - min(ys) + 1


def readable_height(grid: Grid) -> float:
    return max(6.0, 0.22 * grid.square)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["c4", "e4", "d5", "f5"])
def test_a_pieces_number_lies_inside_its_rim_tall_and_contrasted(size: int, name: str) -> None:
    plain, numbered = pictures(PIECES, size)
    grid = Grid.of(size)
    # A visible change (more than faint resampling ripples where a king's crown was).
    changed = changed_pixels(plain, numbered, square_box(grid, name), tol=VISIBLE)
    assert changed, f"no number on {name} at {size} px"
    cx, cy = centre(grid, name)
    reach = max(math.hypot(x - cx, y - cy) for x, y in changed)
    assert reach <= RIM * grid.square, (name, size, reach, RIM * grid.square)
    assert height(changed) >= readable_height(grid), (name, size, height(changed))
    contrast = max(abs(luminance(pixel(plain, p)) - luminance(pixel(numbered, p)))
                   for p in changed)
    assert contrast >= 80, (name, size, contrast)


@pytest.mark.parametrize("size", SIZES)
def test_an_empty_squares_number_is_tall_contrasted_and_drawn_over_the_mark_dot(
        size: int) -> None:
    empty = Position.from_fen("W:W:B", ITALIAN)
    plain, numbered = pictures(empty, size)
    _, marked = pictures(empty, size, marks=EMPTY_SQUARES)
    grid = Grid.of(size)
    for name in EMPTY_SQUARES:
        changed = changed_pixels(plain, numbered, square_box(grid, name))
        assert changed, f"no number on {name} at {size} px"
        assert height(changed) >= readable_height(grid), (name, size, height(changed))
        contrast = max(abs(luminance(pixel(plain, p)) - luminance(pixel(numbered, p)))
                       for p in changed)
        assert contrast >= 80, (name, size, contrast)
        # The digits' ink comes out the same with a dot beneath: not covered.
        ink = [p for p in changed if near(pixel(numbered, p), T.number_on_dark)]
        assert ink, (name, size)
        assert [pixel(marked, p) for p in ink] == [pixel(numbered, p) for p in ink]


@pytest.mark.parametrize("size", [s for s in SIZES if s >= 384])
def test_an_empty_squares_number_keeps_clear_of_the_mark_dot(size: int) -> None:
    empty = Position.from_fen("W:W:B", ITALIAN)
    plain, numbered = pictures(empty, size, marks=EMPTY_SQUARES)
    grid = Grid.of(size)
    dot = (T.mark_radius + 0.03) * grid.square  # the dot and its light rim
    for name in EMPTY_SQUARES:
        changed = changed_pixels(plain, numbered, square_box(grid, name))
        cx, cy = centre(grid, name)
        assert min(math.hypot(x - cx, y - cy) for x, y in changed) > dot, (name, size)


def test_a_kings_number_is_gold_and_a_mans_is_not() -> None:
    # The number takes the crown's place on a king, so it carries the crown's gold.
    plain, numbered = pictures(PIECES, 512)
    grid = Grid.of(512)
    for name, piece in [("c4", "man"), ("f5", "man"), ("e4", "king"), ("d5", "king")]:
        changed = changed_pixels(plain, numbered, square_box(grid, name))
        gold = sum(is_gold(pixel(numbered, p)) for p in changed)
        if piece == "king":
            assert gold >= 40, (name, gold)
        else:
            assert gold == 0, (name, gold)


def test_the_pieces_in_the_fen_are_those_the_tests_name() -> None:
    kinds = {sq: (p.color, p.kind) for sq, p in PIECES.pieces()}
    assert kinds == {26: (Color.WHITE, PieceKind.MAN), 28: (Color.WHITE, PieceKind.KING),
                     35: (Color.BLACK, PieceKind.KING), 37: (Color.BLACK, PieceKind.MAN)}
