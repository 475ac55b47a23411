"""Zobrist keys for the search's transposition table.

A position's key is the XOR of one fixed 64-bit random number per (colour, kind, square)
of every piece, plus one more when Black is to move (Zobrist, "A new hashing method with
application for game playing", 1970). The numbers come from `random.Random(ZOBRIST_SEED)`
for the 8×8 board and from `random.Random(ZOBRIST_SEED + 10)` for the 10×10 board (one
table per board size, `piece_keys`), so keys, and therefore searches, are the same in every
run and every process.
"""

from __future__ import annotations

import random
from functools import cache

from engine.pieces import Color
from engine.position import Position
from engine.squares import iter_bits

ZOBRIST_SEED = 0x5EED_DA3A

#: One colour's keys: (men's keys by square, kings' keys by square).
ColourKeys = tuple[tuple[int, ...], tuple[int, ...]]


def _keys(rng: random.Random, squares: int) -> tuple[int, ...]:
    return tuple(rng.getrandbits(64) for _ in range(squares))


@cache
def _table(size: int) -> tuple[tuple[ColourKeys, ColourKeys], int]:
    rng = random.Random(ZOBRIST_SEED if size == 8 else ZOBRIST_SEED + size)
    white = (_keys(rng, size * size), _keys(rng, size * size))
    black = (_keys(rng, size * size), _keys(rng, size * size))
    return (white, black), rng.getrandbits(64)


def piece_keys(size: int) -> tuple[ColourKeys, ColourKeys]:
    """The keys of the `size` × `size` board (8 or 10): ``piece_keys(size)[colour][kind]
    [square]``, colour 0 White, 1 Black; kind 0 man, 1 king.

    Raises ValueError for another size."""
    if size not in (8, 10):
        raise ValueError(f"board size {size} is neither 8 nor 10")
    return _table(size)[0]


# PIECE_KEYS[colour][kind][square] of the 8×8 board: colour 0 White, 1 Black; kind 0 man,
# 1 king. BLACK_TO_MOVE: the side-to-move key, the same number on every board.
PIECE_KEYS = piece_keys(8)
BLACK_TO_MOVE = _table(8)[1]


def key_of(wm: int, wk: int, bm: int, bk: int, black_to_move: bool, size: int = 8) -> int:
    """The Zobrist key of the position with these bitboards and side to move on the
    `size` × `size` board (8 or 10)."""
    h = BLACK_TO_MOVE if black_to_move else 0
    keys = PIECE_KEYS if size == 8 else piece_keys(size)
    for colour, men, kings in ((0, wm, wk), (1, bm, bk)):
        mk, kk = keys[colour]
        for sq in iter_bits(men):
            h ^= mk[sq]
        for sq in iter_bits(kings):
            h ^= kk[sq]
    return h


def position_key(position: Position) -> int:
    """The Zobrist key of `position` (on its own board, `Position.board_size`)."""
    return key_of(
        position.white_men, position.white_kings, position.black_men, position.black_kings,
        position.turn is Color.BLACK, position.board_size,
    )
