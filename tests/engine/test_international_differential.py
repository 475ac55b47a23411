"""International draughts on the 10×10 board: the engine's move generator against
pydraughts (0.6.7, MIT licence; its "standard" variant is International draughts with the
FMJD's square numbers) on random positions, moves compared under the move identity of
docs/RULES.md (start, end, set of captured squares; pydraughts lists routes, merged here).

Slow suite only: no reference generator of our own covers 10×10 yet.
"""

from __future__ import annotations

import random

import draughts
import pytest

from engine.movegen_core import generator
from engine.squares10 import fmjd_bitboard, fmjd_number
from engine.staged_variants import INTERNATIONAL

Identity = tuple[int, int, frozenset[int]]
Side = tuple[list[int], list[int]]  # men, kings (FMJD numbers)

COUNT = 3000


def _numbers(bb: int) -> frozenset[int]:
    return frozenset(fmjd_number(sq) for sq in range(100) if (bb >> sq) & 1)


def engine_moves(white: Side, black: Side, white_to_move: bool) -> tuple[set[Identity], int]:
    """The generator's legal moves and its bulk count."""
    g = generator(INTERNATIONAL)
    us, them = (white, black) if white_to_move else (black, white)
    state = (fmjd_bitboard(us[0]), fmjd_bitboard(us[1]), fmjd_bitboard(them[0]),
             fmjd_bitboard(them[1]), 0 if white_to_move else 1)
    captures = g.capture_keys(*state)
    if captures:
        moves = {(fmjd_number(s), fmjd_number(e), _numbers(cm)) for s, e, cm in captures}
    else:
        moves = {(fmjd_number(s), fmjd_number(e), frozenset()) for s, e in g.quiet_moves(*state)}
    return moves, g.count_moves(*state)


def pydraughts_moves(white: Side, black: Side, white_to_move: bool) -> set[Identity]:
    def part(side: Side) -> str:
        items = sorted([(n, "") for n in side[0]] + [(n, "K") for n in side[1]])
        return ",".join(f"{k}{n}" for n, k in items)

    fen = f"{'W' if white_to_move else 'B'}:W{part(white)}:B{part(black)}"
    board = draughts.Board("standard", fen=fen)
    steps_list, captures = board._legal_moves_board()
    return {
        (steps[0][0], steps[-1][1], frozenset(c for c in taken if c is not None))
        for steps, taken in zip(steps_list, captures, strict=True)
    }


def random_position(rng: random.Random) -> tuple[Side, Side, bool]:
    """Up to 14 pieces a side, a quarter of them kings, no man on its own crowning row."""
    squares = list(range(1, 51))
    rng.shuffle(squares)
    sides: list[Side] = [([], []), ([], [])]
    for colour in (0, 1):
        for _ in range(rng.randint(1, 14)):
            n = squares.pop()
            crowning = n <= 5 if colour == 0 else n >= 46
            sides[colour][1 if crowning or rng.random() < 0.25 else 0].append(n)
    return sides[0], sides[1], rng.random() < 0.5


@pytest.mark.slow
def test_moves_match_pydraughts_on_random_positions() -> None:
    rng = random.Random(2024)
    with_captures = 0
    for _ in range(COUNT):
        white, black, white_to_move = random_position(rng)
        moves, count = engine_moves(white, black, white_to_move)
        assert moves == pydraughts_moves(white, black, white_to_move), (white, black)
        assert count == len(moves)
        with_captures += any(captured for _, _, captured in moves)
    assert with_captures * 2 >= COUNT  # the positions exercise captures
