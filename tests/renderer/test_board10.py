"""render_png on the a1-dark variants' boards, read back from its pixels: International
draughts on 10 x 10 and Brazilian draughts on 8 x 8, both with a dark a1 (docs/RULES.md,
"Family 3"; the FMJD's numbers 1..50, FMJD rules article 2.6).

Expected contents come from the rules: the start positions (International: men on the
dark squares of ranks 1-4 and 7-10; Brazilian: ranks 1-3 and 6-8), a1 dark, the board
turned for Black.
"""

from __future__ import annotations

import pytest
from PIL import Image

from engine import Color, Position, Variant, apply_move, get_variant, parse_move
from engine.squares_board import name_on
from renderer import DEFAULT_THEME, RenderError, render_png
from renderer.layout import make_layout
from renderer.text import render_text
from tests.renderer.pixels import Grid, blend, decode, near, pixel, read_square, rgb

T = DEFAULT_THEME
INTERNATIONAL = get_variant("international")
BRAZILIAN = get_variant("brazilian")


def names(n: int) -> list[str]:
    return [name_on(sq, n) for sq in range(n * n)]


def dark(name: str) -> bool:
    """a1 dark: file + rank (both from 1) even."""
    return (ord(name[0]) - ord("a") + 1 + int(name[1:])) % 2 == 0


def expected_start(variant: Variant, name: str) -> str:
    rank, men_ranks = int(name[1:]), (4 if variant.board_size == 10 else 3)
    if not dark(name):
        return "empty"
    if rank <= men_ranks:
        return "white man"
    if rank > variant.board_size - men_ranks:
        return "black man"
    return "empty"


@pytest.mark.parametrize("perspective", [Color.WHITE, Color.BLACK])
@pytest.mark.parametrize("variant", [INTERNATIONAL, BRAZILIAN], ids=lambda v: v.key)
def test_start_position_reads_back_square_by_square(variant: Variant,
                                                    perspective: Color) -> None:
    n = variant.board_size
    im = rgb(decode(render_png(Position.start(variant), variant, perspective=perspective)))
    grid = Grid.of(512, perspective is Color.BLACK, n)
    for name in names(n):
        base = T.dark_square if dark(name) else T.light_square
        seen = read_square(im, grid, name, (base, blend(base, T.highlight, T.highlight_alpha)))
        assert seen == expected_start(variant, name), name


@pytest.mark.parametrize("variant", [INTERNATIONAL, BRAZILIAN], ids=lambda v: v.key)
def test_a1_is_dark_on_the_boards_of_family_3(variant: Variant) -> None:
    im = rgb(decode(render_png(Position.from_fen("W:W:B", variant), variant)))
    grid = Grid.of(512, board=variant.board_size)
    last = name_on(variant.board_size**2 - 1, variant.board_size)
    assert pixel(im, grid.at("a1", 0.5, 0.5)) == T.dark_square
    assert pixel(im, grid.at(last, 0.5, 0.5)) == T.dark_square  # h8 / j10
    assert pixel(im, grid.at("b1", 0.5, 0.5)) == T.light_square
    assert pixel(im, grid.at("a2", 0.5, 0.5)) == T.light_square


def test_the_10x10_layout_has_ten_squares_a_side() -> None:
    layout = make_layout(512, Color.WHITE, 10)
    assert layout.board_px == 10 * layout.square and layout.square == 45
    assert layout.cell(0) == (0, 9) and layout.cell(99) == (9, 0)
    assert make_layout(512, Color.BLACK, 10).cell(0) == (9, 0)
    with pytest.raises(RenderError, match=r"200\.\.2048"):
        render_png(Position.start(INTERNATIONAL), INTERNATIONAL, size=160)


def test_a_capture_on_the_10x10_board_is_drawn_to_its_end() -> None:
    before = Position.from_fen(
        "B:W26,32,33,35,36,40,41,42,48:B1,2,6,7,10,11,13,14,19,23,24,30,K50", INTERNATIONAL
    )
    move = parse_move("50x46", before, INTERNATIONAL)  # 50x28x37x46: takes 33, 32 and 41
    after = apply_move(before, move, INTERNATIONAL)
    assert after.to_fen(INTERNATIONAL, numeric=True) == (
        "W:W26,35,36,40,42,48:B1,2,6,7,10,11,13,14,19,23,24,30,K46"
    )
    im = rgb(decode(render_png(after, INTERNATIONAL, last_move=move, before=before)))
    grid = Grid.of(512, board=10)
    highlighted = blend(T.dark_square, T.highlight, T.highlight_alpha)
    assert near(pixel(im, grid.at("i1", 0.9, 0.9)), highlighted)  # 50: the start
    assert near(pixel(im, grid.at("e5", 0.5, 0.1)), highlighted)  # 28: a landing
    assert read_square(im, grid, "a1", (highlighted,)) == "black king"  # 46: the end
    for taken in ("f4", "d4", "b2"):  # 33, 32, 41 -> crossed, empty
        assert pixel(im, grid.at(taken, 0.5, 0.5)) != T.dark_square, taken


def test_fmjd_numbers_on_the_dark_squares_only() -> None:
    empty = Position.from_fen("W:W:B", INTERNATIONAL)
    plain = rgb(decode(render_png(empty, INTERNATIONAL)))
    numbered = rgb(decode(render_png(empty, INTERNATIONAL, numbers=True)))
    g = Grid.of(512, board=10)

    def corner(im: Image.Image, name: str) -> bytes:
        x, y = g.top_left(name)
        return im.crop((x, y, x + g.square // 2, y + g.square // 3)).tobytes()

    for name in ("b10", "j10", "a1", "i1", "e5"):  # 1, 5, 46, 50, 28
        assert corner(plain, name) != corner(numbered, name), name
    for name in ("a10", "j1", "b1", "f5"):
        assert corner(plain, name) == corner(numbered, name), name


def test_marks_take_10x10_squares() -> None:
    start = Position.start(INTERNATIONAL)
    plain = rgb(decode(render_png(start, INTERNATIONAL)))
    marked = rgb(decode(render_png(start, INTERNATIONAL, marks=("e5", 57))))
    g = Grid.of(512, board=10)
    for name in ("e5", "h6"):  # 57 = h6
        assert pixel(marked, g.at(name, 0.5, 0.5)) != pixel(plain, g.at(name, 0.5, 0.5))
    with pytest.raises(RenderError, match="a-j"):
        render_png(start, INTERNATIONAL, marks=("k1",))
    with pytest.raises(RenderError, match=r"0\.\.99"):
        render_png(start, INTERNATIONAL, marks=(100,))


def test_a_position_of_another_board_is_refused() -> None:
    with pytest.raises(RenderError, match="10x10"):
        render_png(Position.start(INTERNATIONAL), BRAZILIAN)


def test_text_board_of_the_10x10_board() -> None:
    lines = render_text(Position.start(INTERNATIONAL), INTERNATIONAL).splitlines()
    assert len(lines) == 12
    assert lines[0].split() == list("abcdefghij")
    assert lines[1].split() == ["10", "b", "b", "b", "b", "b", "10"]
    assert lines[10].split() == ["1", "w", "w", "w", "w", "w", "1"]
    numbered = render_text(Position.from_fen("W:W:B", INTERNATIONAL), INTERNATIONAL,
                           numbers=True).splitlines()
    assert numbered[1].split() == ["10", "1", "2", "3", "4", "5", "10"]
    assert numbered[10].split() == ["1", "46", "47", "48", "49", "50", "1"]
