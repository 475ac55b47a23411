"""Squares of each variant's own board: algebraic names on 8×8 and 10×10, and numeric
squares (Italian and English checkers 1..32, International 1..50 as the FMJD numbers them,
docs/RULES.md)."""

from __future__ import annotations

import pytest

from engine import Variant, get_variant
from engine.squares_board import (
    name_on,
    number_of,
    numeric_squares,
    parse_square_on,
    square_name_of,
    square_of,
)

ITALIAN = get_variant("italian")
ENGLISH = get_variant("english")
INTERNATIONAL = get_variant("international")


def test_names_on_both_boards() -> None:
    assert [name_on(sq, 8) for sq in (0, 7, 56, 63)] == ["a1", "h1", "a8", "h8"]
    assert [name_on(sq, 10) for sq in (0, 9, 90, 99)] == ["a1", "j1", "a10", "j10"]
    assert square_name_of(99, INTERNATIONAL) == "j10"
    with pytest.raises(ValueError, match="outside"):
        name_on(64, 8)
    with pytest.raises(ValueError, match="neither 8 nor 10"):
        name_on(0, 12)


@pytest.mark.parametrize("size", [8, 10])
def test_every_name_reads_back(size: int) -> None:
    for sq in range(size * size):
        assert parse_square_on(name_on(sq, size).upper(), size) == sq


@pytest.mark.parametrize(("text", "size"), [("i1", 8), ("a9", 8), ("k1", 10), ("a11", 10),
                                            ("a0", 10), ("a01", 10), ("", 10), ("j", 10)])
def test_names_off_the_board_are_refused(text: str, size: int) -> None:
    with pytest.raises(ValueError, match="not a square"):
        parse_square_on(text, size)


def test_numbers_follow_each_boards_numbering() -> None:
    assert numeric_squares(ITALIAN) == 32 and numeric_squares(INTERNATIONAL) == 50
    # Italian: 1 = a8, 32 = h1; English checkers (a1 dark): 1 = b8, 32 = g1.
    assert [name_on(square_of(n, ITALIAN), 8) for n in (1, 32)] == ["a8", "h1"]
    assert [name_on(square_of(n, ENGLISH), 8) for n in (1, 32)] == ["b8", "g1"]
    # International (FMJD rules, article 2.6): 1 = b10, 5 = j10, 6 = a9, 46 = a1, 50 = i1.
    assert [name_on(square_of(n, INTERNATIONAL), 10) for n in (1, 5, 6, 46, 50)] == [
        "b10", "j10", "a9", "a1", "i1"
    ]


@pytest.mark.parametrize("variant", [ITALIAN, ENGLISH, INTERNATIONAL], ids=lambda v: v.key)
def test_numbers_read_back(variant: Variant) -> None:
    for n in range(1, numeric_squares(variant) + 1):
        assert number_of(square_of(n, variant), variant) == n
    with pytest.raises(ValueError, match="numbered 1 to"):
        square_of(numeric_squares(variant) + 1, variant)
