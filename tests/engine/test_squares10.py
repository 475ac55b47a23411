"""The squares of the 10×10 board: FMJD numbers 1..50 (FMJD rules, article 2.6:
row by row from the top left as seen from White), a1 dark (article 2.4)."""

from __future__ import annotations

import pytest

from engine.squares10 import (
    DARK_SQUARES,
    fmjd_bitboard,
    fmjd_number,
    fmjd_square,
    is_dark_square,
    square_name10,
)


def test_the_corners_and_row_ends_have_the_fmjd_numbers() -> None:
    named = {n: square_name10(fmjd_square(n)) for n in (1, 5, 6, 15, 16, 45, 46, 50)}
    assert named == {
        1: "b10", 5: "j10", 6: "a9", 15: "j8", 16: "a7", 45: "j2", 46: "a1", 50: "i1",
    }


def test_numbers_and_squares_are_inverse_and_cover_the_fifty_dark_squares() -> None:
    assert sorted(fmjd_square(n) for n in range(1, 51)) == [
        sq for sq in range(100) if is_dark_square(sq)
    ]
    assert all(fmjd_number(fmjd_square(n)) == n for n in range(1, 51))
    assert fmjd_bitboard(range(1, 51)) == DARK_SQUARES
    assert DARK_SQUARES.bit_count() == 50


def test_a1_is_dark_and_b1_light() -> None:
    assert is_dark_square(0) and not is_dark_square(1)


@pytest.mark.parametrize("n", [0, 51, -1])
def test_numbers_off_the_board_are_refused(n: int) -> None:
    with pytest.raises(ValueError, match="1 to 50"):
        fmjd_square(n)


@pytest.mark.parametrize("sq", [1, 100, -1])
def test_light_or_outside_squares_have_no_number(sq: int) -> None:
    with pytest.raises(ValueError, match="not a dark square"):
        fmjd_number(sq)


def test_names_outside_the_board_are_refused() -> None:
    with pytest.raises(ValueError, match=r"0\.\.99"):
        square_name10(100)
