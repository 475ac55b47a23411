"""Perft from non-start positions (kings on the board, captures pending): the engine against
the independent reference generator and against pydraughts (Italian, Turkish and the 8×8
a1-dark variants: Brazilian, Russian, English checkers), all
counted under docs/RULES.md's move identity. Also the reference generator against the published
start-position tables, which is what earns it its place as an oracle.

Published tables: Italian 7, 49, 302, 1469, 7361, 36473 (rhalbersma/dctl,
test/src/algo/traversal/initial/board_08x08.cpp); Turkish 8, 64, 708, 7538, 85090
(Mazyod/kish, src/perft.rs); Moroccan equals Spanish (dctl) to depth 10 and Arab equals
Turkish.

The 8×8 a1-dark variants (docs/RULES.md, "Family 3"), duplicate captures dropped as our move
identity does:
- Brazilian draughts 7, 49, 302, 1469, 7473, 37628, 187302: rhalbersma/dctl,
  https://github.com/rhalbersma/dctl/blob/master/test/src/algo/traversal/initial/board_08x08.cpp,
  and https://damforum.nl/bb3/viewtopic.php?f=53&t=2822.
- Russian draughts 7, 49, 302, 1469, 7482, 37986, 190146, 929899: the same dctl file
  (its "drop duplicates" row, first derived in the "Standard validation generator moves"
  thread of the shashki.com forum, http://shashki.com/PNphpBB2-viewtopic-t-627-start-126.html).
- English checkers 7, 49, 302, 1469, 7361, 36768, 179740, 845931: OEIS A133046,
  https://oeis.org/A133046 (Schaeffer; Aart Bik), the same in dctl's file above (duplicate
  captures first differ at depth 12).
"""

from __future__ import annotations

import pytest

import engine

from .oracles import pydraughts_adapter
from .oracles.board import parse_fen
from .oracles.bridge import engine_variant
from .oracles.reference import START_FENS, perft

# name: (fen, {variant: depth for engine vs reference}, depth for pydraughts or None)
ORTHOGONAL = {
    "kings-both-sides": ("W:Wd2,e2,Ka5,f5,d7,g7,Kb8,Kg8:BKg1,d3,e4,Kg4,h5,Ka6,c7,c8", 4, 3),
    "kings-endgame": ("W:Wf2,Kd4,h6,Kc8,Kg8:BKb1,Ke1,h2,b3,c4,e4", 4, 2),
    "middlegame-capture": ("W:Wa3,b3,c3,e3,f3,h3,b4,d4,g4:Bb5,c5,e5,f5,a6,c6,d6,h6,Kd1", 6, 4),
}
DIAGONAL = {
    "kings-both-sides": ("W:Wd1,f1,Ke6,f7,h7,Ka8,Kg8:BKh1,Kc2,e2,Kb3,e4,g4,b7", 5, 3),
    "kings-and-men": ("W:Wb1,d1,Kh3,e4,f5,b7,Kc8:BKh1,c2,e2,f3,Kg4,e8,g8", 6, 4),
    "king-ladder": ("W:WKd1,a2,c2,h3:BKe2,Ke4,c6,g4,Kg6,b7,h7", 6, 3),
    "middlegame": ("W:Wb1,d1,f1,a2,c2,g2,b3,d3,Kf5:Ba6,e6,g6,b7,d7,h7,c8,e8,Kc4", 5, 3),
}
#: The same positions mirrored left to right, for the board whose a1 is dark.
DIAGONAL_A1_DARK = {
    "kings-both-sides": ("W:We1,c1,Kd6,c7,a7,Kh8,Kb8:BKa1,Kf2,d2,Kg3,d4,b4,g7", 5, 3),
    "kings-and-men": ("W:Wg1,e1,Ka3,d4,c5,g7,Kf8:BKa1,f2,d2,c3,Kb4,d8,b8", 6, 4),
    "king-ladder": ("W:WKe1,h2,f2,a3:BKd2,Kd4,f6,b4,Kb6,g7,a7", 6, 3),
    "middlegame": ("W:Wg1,e1,c1,h2,f2,b2,g3,e3,Kc5:Bh6,d6,b6,g7,e7,a7,f8,d8,Kf4", 5, 3),
}

CASES = [
    pytest.param(variant, fen, depth, pd_depth, id=f"{variant}-{name}")
    for table, variants in (
        (ORTHOGONAL, ("turkish", "arab")),
        (DIAGONAL, ("italian", "moroccan")),
        (DIAGONAL_A1_DARK, ("brazilian", "russian", "english")),
    )
    for name, (fen, depth, pd_depth) in table.items()
    for variant in variants
]


def engine_perft(fen: str, variant: str, depth: int) -> int:
    v = engine_variant(variant)
    return int(engine.perft(engine.Position.from_fen(fen, v), v, depth))


@pytest.mark.parametrize(("variant", "fen", "depth", "pd_depth"), CASES)
def test_engine_perft_matches_reference(variant: str, fen: str, depth: int, pd_depth: int) -> None:
    board, side = parse_fen(fen)
    for d in range(1, depth + 1):
        assert engine_perft(fen, variant, d) == perft(board, side, variant, d), f"depth {d}"


@pytest.mark.parametrize(
    ("variant", "fen", "depth", "pd_depth"),
    [p for p in CASES if p.values[0] in pydraughts_adapter.SUPPORTED],
)
def test_engine_perft_matches_pydraughts(variant: str, fen: str, depth: int, pd_depth: int) -> None:
    board, side = parse_fen(fen)
    want = pydraughts_adapter.perft(board, side, variant, pd_depth)
    assert perft(board, side, variant, pd_depth) == want, "reference vs pydraughts"
    assert engine_perft(fen, variant, pd_depth) == want, "engine vs pydraughts"


PUBLISHED = {
    "italian": [7, 49, 302, 1469, 7361],
    "moroccan": [7, 49, 302, 1469, 7361],
    "turkish": [8, 64, 708, 7538],
    "arab": [8, 64, 708, 7538],
    "brazilian": [7, 49, 302, 1469, 7473],
    "russian": [7, 49, 302, 1469, 7482, 37986],
    "english": [7, 49, 302, 1469, 7361, 36768],
}
#: Deeper published counts of the a1-dark variants (sources in the module docstring).
PUBLISHED_DEEP = {
    "russian": {7: 190146, 8: 929899},
    "english": {7: 179740, 8: 845931},
}


@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_reference_matches_published_start_tables(variant: str) -> None:
    board, side = parse_fen(START_FENS[variant])
    got = [perft(board, side, variant, d) for d in range(1, len(PUBLISHED[variant]) + 1)]
    assert got == PUBLISHED[variant]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "depth", "leaves"),
    [
        ("italian", 7, 177532),
        ("moroccan", 7, 177532),
        ("turkish", 5, 85090),
        ("arab", 5, 85090),
        ("brazilian", 7, 187302),
    ],
)
def test_reference_matches_published_start_tables_deeper(
    variant: str, depth: int, leaves: int
) -> None:
    board, side = parse_fen(START_FENS[variant])
    assert perft(board, side, variant, depth) == leaves


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "fen", "depth", "pd_depth"), CASES)
def test_engine_perft_matches_reference_deeper(
    variant: str, fen: str, depth: int, pd_depth: int
) -> None:
    board, side = parse_fen(fen)
    assert engine_perft(fen, variant, depth + 1) == perft(board, side, variant, depth + 1)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PUBLISHED_DEEP))
def test_reference_matches_published_deep_start_tables(variant: str) -> None:
    board, side = parse_fen(START_FENS[variant])
    for depth, want in PUBLISHED_DEEP[variant].items():
        assert perft(board, side, variant, depth) == want, f"depth {depth}"
