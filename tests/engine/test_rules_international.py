"""International draughts on the 10×10 board (docs/RULES.md, "International draughts"),
through the move generator's bitboards: `Position`, FEN and notation are 8×8 only so far.

Each case is a position given by FMJD square numbers (`engine.squares10`) and the exact set
of legal moves, (start, end, captured squares), written by hand from the rule; White moves
toward squares 1..5. The generator's move count and successor positions are checked to
agree with the list.
"""

from __future__ import annotations

import pytest

from engine.movegen_core import generator
from engine.squares10 import fmjd_bitboard, fmjd_number, fmjd_square
from engine.variants import INTERNATIONAL

Moves = set[tuple[int, int, frozenset[int]]]


def numbers(bb: int) -> frozenset[int]:
    return frozenset(fmjd_number(sq) for sq in range(100) if (bb >> sq) & 1)


def white_moves(
    men: tuple[int, ...], kings: tuple[int, ...], black_men: tuple[int, ...],
    black_kings: tuple[int, ...] = (),
) -> Moves:
    """White's legal moves, checked against the generator's count and successors."""
    g = generator(INTERNATIONAL)
    state = (fmjd_bitboard(men), fmjd_bitboard(kings), fmjd_bitboard(black_men),
             fmjd_bitboard(black_kings), 0)
    captures = g.capture_keys(*state)
    if captures:
        got = {(fmjd_number(s), fmjd_number(e), numbers(cm)) for s, e, cm in captures}
    else:
        got = {(fmjd_number(s), fmjd_number(e), frozenset()) for s, e in g.quiet_moves(*state)}
    assert g.count_moves(*state) == len(got)
    assert len(g.children(*state)) == len(got)
    return got


def test_the_start_position_has_nine_moves() -> None:
    got = white_moves(tuple(range(31, 51)), (), tuple(range(1, 21)))
    assert got == {
        (31, 26, frozenset()), (31, 27, frozenset()), (32, 27, frozenset()),
        (32, 28, frozenset()), (33, 28, frozenset()), (33, 29, frozenset()),
        (34, 29, frozenset()), (34, 30, frozenset()), (35, 30, frozenset()),
    }


@pytest.mark.parametrize(
    ("rule", "men", "kings", "black", "expected"),
    [
        ("men step one square diagonally forward only", (28,), (), (5,),
         {(28, 22, frozenset()), (28, 23, frozenset())}),
        ("men capture backwards too, and capture is compulsory", (28, 45), (), (33,),
         {(28, 39, frozenset({33}))}),
        ("a king flies and captures from a distance down the whole long diagonal", (), (46,),
         (10,), {(46, 5, frozenset({10}))}),
        ("a man passing the far row during a capture goes on capturing as a man", (12,), (),
         (8, 9), {(12, 14, frozenset({8, 9}))}),
        ("the capture taking the most pieces is compulsory, a man's over a king's", (12, 32),
         (46,), (8, 9, 41), {(12, 14, frozenset({8, 9}))}),
        # 46x41 lands anywhere on the long diagonal; from 14 it takes 9 (landing on 3) and
        # from 3 takes 8, landing on 12, 17, 21 or 26: three pieces. 46x41, 19x8 lands on
        # 2 and stops at two pieces, so it is not legal.
        ("a flying king's capture turns onto other diagonals; only the longest is legal", (),
         (46,), (8, 9, 41),
         {(46, end, frozenset({8, 9, 41})) for end in (12, 17, 21, 26)}),
    ],
)
def test_move_rules(
    rule: str, men: tuple[int, ...], kings: tuple[int, ...], black: tuple[int, ...],
    expected: Moves,
) -> None:
    assert white_moves(men, kings, black) == expected, rule


def test_crowned_only_when_the_move_ends_on_the_far_row() -> None:
    g = generator(INTERNATIONAL)
    passing = g.children(fmjd_bitboard((12,)), 0, fmjd_bitboard((8, 9)), 0, 0)
    # successors are side-relative for Black: (their men, their kings, our men, our kings)
    assert [(numbers(c[2]), numbers(c[3])) for c in passing] == [(frozenset({14}), frozenset())]
    ending = g.children(fmjd_bitboard((12,)), 0, fmjd_bitboard((8,)), 0, 0)
    assert [(numbers(c[2]), numbers(c[3])) for c in ending] == [(frozenset(), frozenset({3}))]


def test_fmjd_numbers_follow_the_rows_from_the_top_left() -> None:
    assert [fmjd_square(n) for n in (1, 5, 6, 46, 50)] == [91, 99, 80, 0, 8]
