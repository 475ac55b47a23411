"""Zobrist keys for the search's transposition table.

A position's key is the XOR of one fixed 64-bit random number per (colour, kind, square)
of every piece, plus one more when Black is to move (Zobrist, "A new hashing method with
application for game playing", 1970). The numbers come from `random.Random(ZOBRIST_SEED)`,
so keys, and therefore searches, are the same in every run and every process.
"""

from __future__ import annotations

import random

from engine.pieces import Color
from engine.position import Position
from engine.squares import iter_bits

ZOBRIST_SEED = 0x5EED_DA3A


def _keys(rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.getrandbits(64) for _ in range(64))


def _table() -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], int]:
    rng = random.Random(ZOBRIST_SEED)
    pieces = tuple(
        (_keys(rng), _keys(rng)) for _ in range(2)
    )
    return pieces, rng.getrandbits(64)


# PIECE_KEYS[colour][kind][square]: colour 0 White, 1 Black; kind 0 man, 1 king.
PIECE_KEYS, BLACK_TO_MOVE = _table()


def key_of(wm: int, wk: int, bm: int, bk: int, black_to_move: bool) -> int:
    """The Zobrist key of the position with these bitboards and side to move."""
    h = BLACK_TO_MOVE if black_to_move else 0
    for colour, men, kings in ((0, wm, wk), (1, bm, bk)):
        mk, kk = PIECE_KEYS[colour]
        for sq in iter_bits(men):
            h ^= mk[sq]
        for sq in iter_bits(kings):
            h ^= kk[sq]
    return h


def position_key(position: Position) -> int:
    """The Zobrist key of `position`."""
    return key_of(
        position.white_men, position.white_kings, position.black_men, position.black_kings,
        position.turn is Color.BLACK,
    )
