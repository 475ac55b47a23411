"""render_png read back from its pixels.

Expected contents come from the rules (docs/RULES.md and the rule pages): the start positions
(orthogonal: men on ranks 2-3 and 6-7; diagonal: men on the dark squares of ranks 1-3
and 6-8, a1 light), the board orientation (White's perspective: a8 top left; Black's: h1
top left), and the colours the renderer promises (the theme).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine import Color, Move, Position, apply_move, get_variant, parse_move, parse_square
from renderer import DEFAULT_THEME, RenderError, render_png
from tests.renderer.pixels import Grid, blend, decode, luminance, near, pixel, read_square, rgb

T = DEFAULT_THEME
ROOT = Path(__file__).parent.parent.parent
NAMES = [f + r for r in "12345678" for f in "abcdefgh"]


def dark(name: str) -> bool:
    return (ord(name[0]) - ord("a") + 1 + int(name[1])) % 2 == 1


def empty_colours(variant_key: str, name: str) -> tuple[tuple[int, int, int], ...]:
    if get_variant(variant_key).geometry.value == "orthogonal":
        base = T.plain_square
    else:
        base = T.dark_square if dark(name) else T.light_square
    return (base, blend(base, T.highlight, T.highlight_alpha))


def expected_start(variant_key: str, name: str) -> str:
    rank = int(name[1])
    if variant_key in ("turkish", "arab"):
        return {2: "white man", 3: "white man", 6: "black man", 7: "black man"}.get(
            rank, "empty")
    if not dark(name):
        return "empty"
    if rank <= 3:
        return "white man"
    if rank >= 6:
        return "black man"
    return "empty"


@pytest.mark.parametrize("perspective", [Color.WHITE, Color.BLACK])
@pytest.mark.parametrize("key", ["turkish", "arab", "moroccan", "italian"])
def test_start_position_reads_back_square_by_square(key: str, perspective: Color) -> None:
    v = get_variant(key)
    im = rgb(decode(render_png(Position.start(v), v, perspective=perspective)))
    grid = Grid.of(512, black_view=perspective is Color.BLACK)
    seen = {n: read_square(im, grid, n, empty_colours(key, n)) for n in NAMES}
    assert seen == {n: expected_start(key, n) for n in NAMES}


def test_men_and_kings_of_both_sides_are_told_apart() -> None:
    v = get_variant("moroccan")
    pos = Position.from_fen("W:Wb1,Kd1,Kc4:Bg8,Kh7,a6,Kf5", v)
    im = rgb(decode(render_png(pos, v)))
    grid = Grid.of(512)
    expected = {"b1": "white man", "d1": "white king", "c4": "white king",
                "g8": "black man", "h7": "black king", "a6": "black man",
                "f5": "black king", "e4": "empty", "b3": "empty"}
    seen = {n: read_square(im, grid, n, empty_colours("moroccan", n)) for n in expected}
    assert seen == expected


def test_kings_are_told_apart_at_256_px() -> None:
    v = get_variant("italian")
    pos = Position.from_fen("W:Wb1,Kd1:Bg8,Kh7", v)
    im = rgb(decode(render_png(pos, v, size=256)))
    grid = Grid.of(256)
    seen = {n: read_square(im, grid, n, empty_colours("italian", n))
            for n in ("b1", "d1", "g8", "h7")}
    assert seen == {"b1": "white man", "d1": "white king", "g8": "black man",
                    "h7": "black king"}


def test_orthogonal_board_is_one_colour_and_diagonal_two() -> None:
    for key, colours in (("turkish", {T.plain_square}),
                         ("italian", {T.light_square, T.dark_square})):
        v = get_variant(key)
        im = rgb(decode(render_png(Position.from_fen("W:W:B", v), v)))
        grid = Grid.of(512)
        seen = {pixel(im, grid.at(n, 0.5, 0.5)) for n in NAMES}
        assert seen == colours
    # a1 is light on the diagonal board, b1 and a2 dark.
    v = get_variant("italian")
    im = rgb(decode(render_png(Position.from_fen("W:W:B", v), v)))
    grid = Grid.of(512)
    assert pixel(im, grid.at("a1", 0.5, 0.5)) == T.light_square
    assert pixel(im, grid.at("b1", 0.5, 0.5)) == T.dark_square
    assert pixel(im, grid.at("a2", 0.5, 0.5)) == T.dark_square


def test_black_perspective_puts_h1_top_left() -> None:
    v = get_variant("italian")
    start = Position.start(v)
    white = rgb(decode(render_png(start, v)))
    black = rgb(decode(render_png(start, v, perspective=Color.BLACK)))
    top_left = Grid.of(512)  # the geometry of White's view: its top-left cell is a8
    both = ("a8", empty_colours("italian", "a8"))
    # From White's side the top-left cell is a8 (a black man); from Black's it is h1,
    # which holds a white man.
    assert read_square(white, top_left, *both) == "black man"
    assert read_square(black, top_left, *both) == "white man"


def test_coordinates_follow_the_perspective() -> None:
    v = get_variant("turkish")
    start = Position.start(v)
    white = rgb(decode(render_png(start, v)))
    black = rgb(decode(render_png(start, v, perspective=Color.BLACK)))
    g = Grid.of(512)

    def rank_label(im: Image.Image, row: int) -> bytes:
        box = (0, g.origin + row * g.square, g.origin, g.origin + (row + 1) * g.square)
        return im.crop(box).tobytes()

    def file_label(im: Image.Image, col: int) -> bytes:
        box = (g.origin + col * g.square, g.origin + 8 * g.square + 3,
               g.origin + (col + 1) * g.square, g.size)
        return im.crop(box).tobytes()

    # White's top row is rank 8; Black's bottom row is rank 8: the same label.
    assert rank_label(white, 0) == rank_label(black, 7)
    assert rank_label(white, 7) == rank_label(black, 0)
    assert rank_label(white, 0) != rank_label(black, 0)
    # Files: a is left for White and right for Black.
    assert file_label(white, 0) == file_label(black, 7)
    assert file_label(white, 0) != file_label(black, 0)


def _is_red(c: tuple[int, int, int]) -> bool:
    return c[0] > 170 and c[1] < 100 and c[2] < 100


def test_last_move_squares_path_and_captures_are_marked() -> None:
    v = get_variant("turkish")
    before = Position.from_fen("W:Wd3,Ka1,h2:Bd4,c5,b6,e7,f8,d7", v)
    move = parse_move("d3xd5xb5xb7", before, v)
    after = apply_move(before, move, v)
    im = rgb(decode(render_png(after, v, last_move=move, before=before)))
    g = Grid.of(512)
    lit = blend(T.plain_square, T.highlight, T.highlight_alpha)
    for name in ("d3", "d5", "b5", "b7"):  # start and every landing square
        assert near(pixel(im, g.at(name, 0.15, 0.15)), lit), name
    for name in ("a5", "e5", "h8", "d4"):  # untouched squares keep the board colour
        assert near(pixel(im, g.at(name, 0.15, 0.15)), T.plain_square), name
    for name in ("d4", "c5", "b6"):  # captured: gone, and crossed
        assert _is_red(pixel(im, g.at(name, 0.64, 0.64))), name
    assert not _is_red(pixel(im, g.at("e5", 0.64, 0.64)))
    # The path runs through the start square's centre and between landing squares.
    for xy in (g.at("d3", 0.5, 0.5), g.at("c5", 0.9, 0.5), g.at("b6", 0.5, 0.9)):
        r, _, b = pixel(im, xy)
        assert b > r + 60, xy
    assert read_square(im, g, "b7", (T.plain_square, lit)) == "white man"


def _is_teal(c: tuple[int, int, int]) -> bool:
    r, g, b = c
    return g > r + 60 and b > r + 40


def test_a_puzzles_move_and_its_defence_are_both_drawn() -> None:
    # The gallery's puzzle (Black to move): 1... f5-e4, answered by White's f3xd5. The
    # picture after the defence shows the defence's blue arrow and, beneath it, the
    # solver's move as a teal one (docs/PUZZLES.md: "the new picture shows both").
    v = get_variant("italian")
    puzzle = Position.from_fen("B:Wd1,b3,d3,f3,h3:Bf5,c6,g6,b7,h7", v)
    solving = parse_move("f5-e4", puzzle, v)
    answered = apply_move(puzzle, solving, v)
    defence = parse_move("f3xd5", answered, v)
    after = apply_move(answered, defence, v)
    both = rgb(decode(render_png(after, v, last_move=defence, before=answered,
                                 earlier_move=solving)))
    last_only = rgb(decode(render_png(after, v, last_move=defence, before=answered)))
    g = Grid.of(512)
    solving_leg = g.at("f5", 0.05, 0.95)  # on the way from f5's centre to e4's
    assert _is_teal(pixel(both, solving_leg))
    assert not _is_teal(pixel(last_only, solving_leg))
    defence_leg = g.at("f3", 0.05, 0.05)  # on the way from f3 to d5
    for im in (both, last_only):
        r, _, b = pixel(im, defence_leg)
        assert b > r + 60
    # The captured man's square is crossed, the solver's man gone with it.
    assert _is_red(pixel(both, g.at("e4", 0.32, 0.68)))  # the arm clear of both arrows


def test_an_earlier_move_needs_the_position_it_led_to_and_must_fit_it() -> None:
    v = get_variant("italian")
    puzzle = Position.from_fen("B:Wd1,b3,d3,f3,h3:Bf5,c6,g6,b7,h7", v)
    solving = parse_move("f5-e4", puzzle, v)
    answered = apply_move(puzzle, solving, v)
    defence = parse_move("f3xd5", answered, v)
    after = apply_move(answered, defence, v)
    with pytest.raises(RenderError, match="before="):
        render_png(after, v, last_move=defence, earlier_move=solving)
    elsewhere = parse_move("g6-h5", puzzle, v)  # a move the position does not show
    with pytest.raises(RenderError, match="does not fit"):
        render_png(after, v, last_move=defence, before=answered, earlier_move=elsewhere)


def test_marks_are_dots_on_the_given_squares() -> None:
    v = get_variant("italian")
    start = Position.start(v)
    im = rgb(decode(render_png(start, v, marks=["a4", 26])))  # 26 = c4
    g = Grid.of(512)
    for name in ("a4", "c4"):
        r, _, b = pixel(im, g.at(name, 0.5, 0.5))
        assert b > r + 60, name
        assert pixel(im, g.at(name, 0.1, 0.1)) == T.dark_square
    assert pixel(im, g.at("e4", 0.5, 0.5)) == T.dark_square


def test_numbers_are_written_on_dark_squares_only() -> None:
    v = get_variant("italian")
    empty = Position.from_fen("W:W:B", v)
    plain = rgb(decode(render_png(empty, v)))
    numbered = rgb(decode(render_png(empty, v, numbers=True)))
    g = Grid.of(512)

    def corner(im: Image.Image, name: str) -> bytes:
        x, y = g.top_left(name)
        return im.crop((x, y, x + g.square // 2, y + g.square // 3)).tobytes()

    for name in ("a8", "b1", "h1", "d5"):
        assert corner(plain, name) != corner(numbered, name), name
    for name in ("a1", "b8", "h8", "e5"):
        assert corner(plain, name) == corner(numbered, name), name


@pytest.mark.parametrize("size", [160, 256, 512, 1001])
def test_size_and_mode(size: int) -> None:
    v = get_variant("arab")
    im = decode(render_png(Position.start(v), v, size=size))
    assert im.format == "PNG"
    assert im.size == (size, size)
    assert im.mode == "P"


def test_same_input_same_bytes() -> None:
    v = get_variant("italian")
    before = Position.from_fen("B:Wd1,a2,g2,h3,c4,g4,Ke4:Ba6,b7,d7,f7,a8,Kb3", v)
    move = parse_move("b3xd5xf3xh1", before, v)
    after = apply_move(before, move, v)
    args = dict(last_move=move, marks=("c2",), numbers=True, perspective=Color.BLACK)
    first = render_png(after, v, **args)  # type: ignore[arg-type]
    assert render_png(after, "italian", **args) == first  # type: ignore[arg-type]


def test_a_busy_board_stays_small() -> None:
    v = get_variant("turkish")
    start = Position.start(v)
    move = Move(parse_square("c3"), (parse_square("c4"),))
    after = apply_move(start, move, v)
    data = render_png(after, v, last_move=move, marks=("c5", "d4", "b4"))
    assert len(data) < 60_000


def test_side_to_move_disc_in_the_frame_corner() -> None:
    v = get_variant("italian")
    start = Position.start(v)  # White to move
    after = apply_move(start, parse_move("21-17", start, v), v)  # Black to move
    g = Grid.of(512)
    end = g.origin + 8 * g.square
    side = min(g.origin, g.size - end)
    x = end + (g.size - end - side) // 2 + side // 2
    bottom = (x, end + (g.size - end - side) // 2 + side // 2)
    top = (x, (g.origin - side) // 2 + side // 2)
    im = rgb(decode(render_png(start, v)))
    assert luminance(pixel(im, bottom)) > 185
    assert pixel(im, top) == T.frame
    im = rgb(decode(render_png(after, v)))
    assert pixel(im, bottom) == T.frame
    assert pixel(im, top) != T.frame and luminance(pixel(im, top)) < 90
    # From Black's side, Black (to move) is at the bottom.
    im = rgb(decode(render_png(after, v, perspective=Color.BLACK)))
    assert pixel(im, bottom) != T.frame and luminance(pixel(im, bottom)) < 90
    assert pixel(im, top) == T.frame
    # A finished game has no side to move: show_turn=False leaves both corners as frame.
    for position in (start, after):
        im = rgb(decode(render_png(position, v, show_turn=False)))
        assert pixel(im, bottom) == T.frame and pixel(im, top) == T.frame


def test_same_bytes_in_another_process() -> None:
    """The palette and caches are rebuilt per process; string hashing differs between
    processes (PYTHONHASHSEED), and the bytes must not."""
    script = (
        "import hashlib, sys\n"
        "from engine import Position, apply_move, get_variant, parse_move\n"
        "from renderer import render_png, render_move_gif\n"
        "v = get_variant('turkish')\n"
        "b = Position.from_fen('W:Wd3,Ka1,h2:Bd4,c5,b6,e7,f8,d7', v)\n"
        "m = parse_move('d3xb7', b, v)\n"
        "a = apply_move(b, m, v)\n"
        "data = render_png(a, v, last_move=m, marks=['h3']) + render_move_gif(b, m, v, "
        "size=200)\n"
        "print(hashlib.sha256(data).hexdigest())\n"
    )
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1
