"""The evaluation's board tables follow the variant's board: the long diagonal of the
lone-king rule (a8-h1 where a1 is light, a1-h8 where it is dark, a1-j10 on 10x10) and the
advancement of men counted over the board's own ranks."""

from __future__ import annotations

import pytest

from engine import Position, Variant, get_variant
from engine.evaluation import (
    DIAGONAL_FLYING_WEIGHTS_10,
    Evaluator,
    main_diagonal,
    weights_for,
)
from engine.movegen import side_relative
from engine.squares_board import name_on, number_of

ITALIAN = get_variant("italian")
MOROCCAN = get_variant("moroccan")
BRAZILIAN = get_variant("brazilian")
INTERNATIONAL = get_variant("international")


def diagonal_names(variant: Variant) -> list[str]:
    mask = main_diagonal(variant)
    n = variant.board_size
    return [name_on(sq, n) for sq in range(n * n) if mask >> sq & 1]


def test_the_long_diagonal_is_derived_from_the_variants_board() -> None:
    assert diagonal_names(ITALIAN) == ["h1", "g2", "f3", "e4", "d5", "c6", "b7", "a8"]
    assert diagonal_names(BRAZILIAN) == ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
    assert diagonal_names(INTERNATIONAL)[::9] == ["a1", "j10"]
    mask = main_diagonal(INTERNATIONAL)
    assert sorted(number_of(sq, INTERNATIONAL) for sq in range(100) if mask >> sq & 1) == [
        5, 10, 14, 19, 23, 28, 32, 37, 41, 46
    ]
    for variant in (ITALIAN, MOROCCAN, BRAZILIAN, INTERNATIONAL):
        assert main_diagonal(variant) & variant.playable_mask == main_diagonal(variant)
    with pytest.raises(ValueError, match="orthogonal"):
        main_diagonal(get_variant("turkish"))


def test_a_lone_king_on_the_10x10_long_diagonal_holds_three_kings() -> None:
    evaluate = Evaluator(INTERNATIONAL)
    on = Position.from_fen("B:WK1,K2,K3:BK46", INTERNATIONAL)  # 46 = a1, on a1-j10
    off = Position.from_fen("B:WK1,K2,K3:BK36", INTERNATIONAL)  # 36 = a3
    held, lost = evaluate(*side_relative(on)), evaluate(*side_relative(off))
    assert lost < held < 0 and held * 4 > lost


def test_international_uses_ten_ranks_of_advancement() -> None:
    assert weights_for(INTERNATIONAL) is DIAGONAL_FLYING_WEIGHTS_10
    assert len(DIAGONAL_FLYING_WEIGHTS_10.advance) == 10
    evaluate = Evaluator(INTERNATIONAL)
    start = Position.start(INTERNATIONAL)
    assert evaluate(*side_relative(start)) == 0  # the start is symmetric
    back = Position.from_fen("W:W46:B5", INTERNATIONAL)  # both men at home
    ahead = Position.from_fen("W:W6:B5", INTERNATIONAL)  # White's man on rank 9
    assert evaluate(*side_relative(ahead)) > evaluate(*side_relative(back))
