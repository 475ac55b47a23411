"""Squares of a variant's own board: algebraic names and numbers on 8×8 and 10×10.

`engine.squares` (8×8) and `engine.squares10` (10×10) hold each board's arithmetic; this
module picks the one a variant plays on, so that notation and FEN read and write every
board with one call:

- algebraic names: files a..h and ranks 1..8 on 8×8, files a..j and ranks 1..10 on
  10×10 (a1 is White's near-left corner: docs/RULES.md, "Coordinates and notation");
- numeric squares (variants with `numeric_notation`): the dark squares numbered row by row
  from Black's side, left to right as seen from White: Italian 1..32 from a8, English
  checkers 1..32 from b8 (`engine.squares`), International 1..50 from b10 (the FMJD's
  numbering, FMJD rules article 2.6: `engine.squares10`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import squares, squares10

if TYPE_CHECKING:
    from engine.moves import Move
    from engine.variants import Variant


def name_on(sq: int, size: int) -> str:
    """The algebraic name of square `sq` on a `size` × `size` board (8: 0 -> "a1",
    63 -> "h8"; 10: 0 -> "a1", 99 -> "j10").

    Raises ValueError when `sq` is off that board or `size` is neither 8 nor 10.
    """
    if size == 8:
        return squares.square_name(sq)
    if size == 10:
        return squares10.square_name10(sq)
    raise ValueError(f"board size {size} is neither 8 nor 10")


def square_name_of(sq: int, variant: Variant) -> str:
    """The algebraic name of square `sq` on `variant`'s board (see `name_on`).

    Raises ValueError when `sq` is off the board."""
    return name_on(sq, variant.board_size)


def parse_square_on(text: str, size: int) -> int:
    """The square named by algebraic `text` on a `size` × `size` board ("a1".."h8" or
    "a1".."j10"; any case, surrounding spaces ignored).

    Raises ValueError naming the text when it is not a square of that board.
    """
    if size == 8:
        return squares.parse_square(text)
    t = text.strip().lower()
    files = squares10.FILES[:size]
    if 2 <= len(t) <= 3 and t[0] in files and t[1:].isdigit() and t[1] != "0":
        rank = int(t[1:])
        if 1 <= rank <= size:
            return (rank - 1) * size + files.index(t[0])
    raise ValueError(
        f"{text!r} is not a square: use a file a-{files[-1]} and a rank 1-{size}, e.g. d3"
    )


def numeric_squares(variant: Variant) -> int:
    """How many numeric squares `variant`'s board has: its dark squares, 32 on 8×8 and 50
    on 10×10."""
    return variant.board_size * variant.board_size // 2


def number_of(sq: int, variant: Variant) -> int:
    """The numeric square of dark square `sq` on `variant`'s board (Italian a8 -> 1,
    English checkers b8 -> 1, International b10 -> 1; see the module docstring).

    Raises ValueError when `sq` is off the board or a light square.
    """
    if variant.board_size == 10:
        return squares10.fmjd_number(sq)
    return squares.square_to_number(sq, a1_dark=variant.a1_dark)


def square_of(n: int, variant: Variant) -> int:
    """The square of numeric square `n` on `variant`'s board (the inverse of `number_of`).

    Raises ValueError when `n` is not in 1..32 (8×8) or 1..50 (10×10).
    """
    if variant.board_size == 10:
        return squares10.fmjd_square(n)
    return squares.number_to_square(n, a1_dark=variant.a1_dark)


def move_name(move: Move, size: int) -> str:
    """`move`'s full path in algebraic squares of the `size` × `size` board (``d3xd5xf5``,
    ``e5xg7`` on 10×10), for messages: `str(move)` names 8×8 squares, since a `Move` does
    not know its board.

    Raises ValueError when a square of the move is off that board."""
    sep = "x" if move.captured else "-"
    return sep.join(name_on(sq, size) for sq in move.path)
