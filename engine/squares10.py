"""Squares of the 10×10 board (International draughts), beside the 8×8 `engine.squares`.

A square is an int 0..99: `index = rank * 10 + file`, with file a..j = 0..9 (left to right
from White's side) and rank 1..10 = 0..9. So a1 = 0, j1 = 9, a2 = 10, j10 = 99. Bitboards are
Python ints in which bit i stands for square i (100 bits; see docs/ENGINE.md).

The game is played on the 50 dark squares; a1 is dark, the long diagonal starting at each
player's left hand (FMJD rules, article 2.4, docs/RULES.md "Sources"), so the dark squares
are those with file + rank even (counting from 0). They are numbered 1..50 row by row from
the top (Black's side), left to right as seen from White (FMJD rules, article 2.6):
1 = b10, 5 = j10, 6 = a9, ..., 46 = a1, 50 = i1.
"""

from __future__ import annotations

SIZE = 10
FILES = "abcdefghij"


def is_dark_square(sq: int) -> bool:
    """Whether `sq` (0..99) is a dark, playable square of the 10×10 board."""
    return 0 <= sq < SIZE * SIZE and (sq % SIZE + sq // SIZE) % 2 == 0


DARK_SQUARES = sum(1 << sq for sq in range(SIZE * SIZE) if is_dark_square(sq))


def fmjd_square(n: int) -> int:
    """The square (0..99) of FMJD number `n` 1..50 (1 -> b10 = 91, 46 -> a1 = 0).

    Raises ValueError when `n` is not in 1..50.
    """
    if not 1 <= n <= 50:
        raise ValueError(f"{n} is not a square of the 10×10 board: they are numbered 1 to 50")
    row, col = divmod(n - 1, 5)
    rank = SIZE - 1 - row
    file = col * 2 + (1 if rank % 2 == 1 else 0)
    return rank * SIZE + file


def fmjd_number(sq: int) -> int:
    """The FMJD number 1..50 of dark square `sq` (b10 = 91 -> 1, i1 = 8 -> 50).

    Raises ValueError when `sq` is off the board or a light square.
    """
    if not is_dark_square(sq):
        raise ValueError(f"square {sq} is not a dark square of the 10×10 board")
    rank, file = divmod(sq, SIZE)
    return (SIZE - 1 - rank) * 5 + file // 2 + 1


def square_name10(sq: int) -> str:
    """The algebraic name of square `sq` of the 10×10 board (0 -> "a1", 99 -> "j10").

    Raises ValueError when `sq` is not in 0..99.
    """
    if not 0 <= sq < SIZE * SIZE:
        raise ValueError(f"square index {sq} is outside the 10×10 board (0..99)")
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def fmjd_bitboard(numbers: range | tuple[int, ...] | list[int]) -> int:
    """The bitboard of the squares with the given FMJD numbers.

    Raises ValueError for a number outside 1..50.
    """
    bb = 0
    for n in numbers:
        bb |= 1 << fmjd_square(n)
    return bb
