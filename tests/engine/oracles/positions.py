"""Random legal positions for the cross-checks (plain ``random.Random``, reproducible by seed).

A position is legal here when: pieces only on the variant's playable squares; at most the
variant's number of pieces per side (16 orthogonal, 12 diagonal), at least one each; no man
on its own crowning rank. Kings of both sides, either side to move.
"""

from __future__ import annotations

import random

from .board import ORTHOGONAL_VARIANTS, Board, coords, crowning_rank, playable_squares


def men_per_side(variant: str) -> int:
    return 16 if variant in ORTHOGONAL_VARIANTS else 12


def random_position(rng: random.Random, variant: str, king_share: float = 0.3) -> tuple[Board, str]:
    squares = playable_squares(variant)
    rng.shuffle(squares)
    most = men_per_side(variant)
    counts = {"w": rng.randint(1, most), "b": rng.randint(1, most)}
    board: Board = {}
    for colour, count in counts.items():
        for _ in range(count):
            sq = squares.pop()
            king = rng.random() < king_share or coords(sq)[1] == crowning_rank(colour)
            board[sq] = colour.upper() if king else colour
    return board, rng.choice("wb")
