"""Bad input to the renderer raises RenderError (a ValueError) with a useful message."""

from __future__ import annotations

import pytest

from engine import Color, Move, Position, apply_move, get_variant, parse_move, parse_square
from renderer import MAX_SIZE, MIN_SIZE, RenderError, render_png, warm_up

ITALIAN = get_variant("italian")
START = Position.start(ITALIAN)


def test_render_error_is_a_value_error() -> None:
    assert issubclass(RenderError, ValueError)


def test_unknown_variant_name_lists_the_valid_ones() -> None:
    with pytest.raises(RenderError, match="italian") as info:
        render_png(START, "chess")
    assert "chess" in str(info.value)
    with pytest.raises(RenderError, match="variant"):
        render_png(START, 42)  # type: ignore[arg-type]


def test_variant_by_alias_or_case() -> None:
    assert render_png(START, "Italian") == render_png(START, ITALIAN)


@pytest.mark.parametrize("size", [0, MIN_SIZE - 1, MAX_SIZE + 1, -512])
def test_size_out_of_range(size: int) -> None:
    with pytest.raises(RenderError, match=str(MIN_SIZE)):
        render_png(START, ITALIAN, size=size)


@pytest.mark.parametrize("size", ["512", 512.0, True, None])
def test_size_of_wrong_type(size: object) -> None:
    with pytest.raises(RenderError, match="size"):
        render_png(START, ITALIAN, size=size)  # type: ignore[arg-type]


def test_last_move_that_does_not_fit_the_position() -> None:
    # White to move in the start position, so a last move must have been Black's.
    white_step = Move(parse_square("b3"), (parse_square("a4"),))
    with pytest.raises(RenderError, match="does not fit"):
        render_png(START, ITALIAN, last_move=white_step)
    after = apply_move(START, parse_move("21-17", START, ITALIAN), ITALIAN)
    # White did move last, but nothing stands on b3 now (the man went on to a4).
    wrong_start = Move(parse_square("c2"), (parse_square("b3"),))
    with pytest.raises(RenderError):
        render_png(after, ITALIAN, last_move=wrong_start)


def test_last_move_of_the_wrong_shape() -> None:
    after = apply_move(START, parse_move("21-17", START, ITALIAN), ITALIAN)
    knight = Move(parse_square("b1"), (parse_square("a4"),))
    with pytest.raises(RenderError, match="diagonals"):
        render_png(after, ITALIAN, last_move=knight)
    with pytest.raises(RenderError, match="Move"):
        render_png(after, ITALIAN, last_move="b3-a4")  # type: ignore[arg-type]


def test_last_move_not_legal_in_the_position_before() -> None:
    move = parse_move("21-17", START, ITALIAN)
    after = apply_move(START, move, ITALIAN)
    assert render_png(after, ITALIAN, last_move=move, before=START)
    # The same move claimed from a position where b3 holds no man: not legal there.
    empty_b3 = Position.from_fen("W:Wd3:Ba8", ITALIAN)
    with pytest.raises(RenderError, match="not legal"):
        render_png(after, ITALIAN, last_move=move, before=empty_b3)
    with pytest.raises(RenderError, match="last_move"):
        render_png(after, ITALIAN, before=START)


def test_piece_on_a_square_the_variant_does_not_use() -> None:
    on_a1 = Position(white_men=1, white_kings=0, black_men=0, black_kings=0,
                     turn=Color.WHITE)
    with pytest.raises(RenderError, match="a1"):
        render_png(on_a1, ITALIAN)
    assert render_png(on_a1, "turkish")  # every square is used there


def test_not_a_position() -> None:
    with pytest.raises(RenderError, match="Position"):
        render_png("W:Wb3:Ba8", ITALIAN)  # type: ignore[arg-type]


@pytest.mark.parametrize("marks", [["z9"], [64], [-1], "d4", [True]])
def test_bad_marks(marks: object) -> None:
    with pytest.raises(RenderError, match="marks"):
        render_png(START, ITALIAN, marks=marks)  # type: ignore[arg-type]


def test_numbers_only_on_the_diagonal_board() -> None:
    with pytest.raises(RenderError, match="numbers"):
        render_png(Position.start(get_variant("turkish")), "turkish", numbers=True)


def test_bad_perspective() -> None:
    with pytest.raises(RenderError, match="perspective"):
        render_png(START, ITALIAN, perspective="black")  # type: ignore[arg-type]


def test_warm_up_checks_sizes() -> None:
    warm_up([MIN_SIZE])
    with pytest.raises(RenderError, match="size"):
        warm_up([MIN_SIZE - 1])
