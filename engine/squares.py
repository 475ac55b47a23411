"""Square coordinates and names.

A square is an int 0..63: `index = rank * 8 + file`, with file a..h = 0..7 (left to right
from White's side) and rank 1..8 = 0..7. So a1 = 0, b1 = 1, h1 = 7, a2 = 8, h8 = 63.
Bitboards are Python ints in which bit i stands for square i.

Italian numeric squares (docs/RULES.md, "Italian numeric squares") number the 32 dark squares of
the diagonal board row by row from the far left of Black's back rank as seen from White:
1 = a8, 2 = c8, 3 = e8, 4 = g8, 5 = b7, ..., 29 = b1, 30 = d1, 31 = f1, 32 = h1.
English checkers numbers its board, whose a1 corner is dark, the same way (docs/RULES.md,
"English checkers"): 1 = b8, 4 = h8, 5 = a7, ..., 29 = a1, 32 = g1 (`a1_dark=True`).
"""

from __future__ import annotations

from collections.abc import Iterator

FILES = "abcdefgh"
RANKS = "12345678"
ALL_SQUARES = (1 << 64) - 1


def square(file: int, rank: int) -> int:
    """The square at `file` 0..7 and `rank` 0..7."""
    return rank * 8 + file


def square_name(sq: int) -> str:
    """The algebraic name of square `sq` (0 -> "a1", 63 -> "h8").

    Raises ValueError when `sq` is not in 0..63.
    """
    if not 0 <= sq < 64:
        raise ValueError(f"square index {sq} is outside the board (0..63)")
    return FILES[sq & 7] + RANKS[sq >> 3]


def parse_square(text: str) -> int:
    """The square named by algebraic `text` ("a1".."h8", any case, surrounding spaces ignored).

    Raises ValueError with a message naming the text when it is not a square name.
    """
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in RANKS:
        raise ValueError(f"{text!r} is not a square: use a file a-h and a rank 1-8, e.g. d3")
    return (ord(t[1]) - ord("1")) * 8 + (ord(t[0]) - ord("a"))


def is_dark(sq: int) -> bool:
    """Whether `sq` is a dark (playable) square of the diagonal board: file+rank odd (a1 light)."""
    return ((sq & 7) + (sq >> 3)) % 2 == 1


def square_to_number(sq: int, *, a1_dark: bool = False) -> int:
    """The numeric square 1..32 of dark square `sq`: Italian (a8 -> 1, h1 -> 32), or with
    `a1_dark` English checkers (b8 -> 1, g1 -> 32).

    Raises ValueError when `sq` is off the board or a light square.
    """
    if not 0 <= sq < 64 or is_dark(sq) == a1_dark:
        raise ValueError(f"square {sq} is not a dark square of the diagonal board")
    row = 7 - (sq >> 3)
    return row * 4 + (sq & 7) // 2 + 1


def number_to_square(n: int, *, a1_dark: bool = False) -> int:
    """The square (0..63) of numeric square `n` 1..32: Italian (1 -> a8 = 56, 32 -> h1 = 7),
    or with `a1_dark` English checkers (1 -> b8 = 57, 32 -> g1 = 6).

    Raises ValueError when `n` is not in 1..32.
    """
    if not 1 <= n <= 32:
        raise ValueError(f"{n} is not a numeric square: squares are numbered 1 to 32")
    row, col = divmod(n - 1, 4)
    rank = 7 - row
    file = col * 2 + ((rank % 2 == 1) if a1_dark else (rank % 2 == 0))
    return rank * 8 + file


def iter_bits(bb: int) -> Iterator[int]:
    """The squares set in bitboard `bb`, ascending."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def bitboard(squares: Iterator[int] | list[int] | tuple[int, ...]) -> int:
    """The bitboard with exactly the given squares set."""
    bb = 0
    for sq in squares:
        bb |= 1 << sq
    return bb
