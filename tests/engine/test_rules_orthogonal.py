"""One test per move rule of docs/RULES.md, family 1 (Turkish draughts, Arab Dama).

Each case is a position and the exact set of legal moves, written by hand from the rule in
full notation. Every case runs for both variants of the family, as given and turned 180
degrees with the colours swapped, against the engine and against the independent reference
generator (tests/engine/oracles); Turkish ones also against pydraughts.
"""

from __future__ import annotations

import pytest

import engine

from .oracles import pydraughts_adapter
from .oracles.board import merge, parse_fen, rotate_fen, rotate_notation
from .oracles.bridge import sq_index
from .oracles.rulecases import (
    RuleCase,
    case_params,
    check_engine,
    check_reference,
    describe,
    expected_identities,
)

VARIANTS = ("turkish", "arab")

CASES = [
    RuleCase(
        "man steps one square forward, left or right; never backward or diagonally",
        VARIANTS,
        "W:Wa2,d3:Bh6",
        ("a2-a3", "a2-b2", "d3-d4", "d3-c3", "d3-e3"),
    ),
    RuleCase(
        "man captures an adjacent piece ahead, left or right, never backward or diagonally; "
        "capture is compulsory (a2 may not step)",
        VARIANTS,
        "W:Wa2,d4:Bc4,d3,d5,e5",
        ("d4xd6", "d4xb4"),
    ),
    RuleCase(
        "man captures kings as well as men, one each; the longest capture over all pieces "
        "is compulsory (the man's two beat the king's one)",
        VARIANTS,
        "W:Wb2,Kh1:Bb3,Kb5,h6",
        ("b2xb4xb6",),
    ),
    RuleCase(
        "king slides any number of empty squares along a rank or file in all four directions",
        VARIANTS,
        "W:WKd4,b4,d6:Bh8",
        (
            "d4-c4",
            "d4-e4",
            "d4-f4",
            "d4-g4",
            "d4-h4",
            "d4-d5",
            "d4-d3",
            "d4-d2",
            "d4-d1",
            "b4-b5",
            "b4-a4",
            "b4-c4",
            "d6-d7",
            "d6-c6",
            "d6-e6",
        ),
    ),
    RuleCase(
        "flying king captures from a distance, landing on any empty square beyond",
        VARIANTS,
        "W:WKb1:Bb5",
        ("b1xb6", "b1xb7", "b1xb8"),
    ),
    RuleCase(
        "a king may not jump two pieces at once nor its own pieces",
        VARIANTS,
        "W:WKa2,a4,e2:Bc2,d2,h3",
        ("a4-a5", "a4-b4", "e2-e3", "e2-f2", "a2-a3", "a2-a1", "a2-b2"),
    ),
    RuleCase(
        "equal counts: free choice among pieces and landing squares",
        VARIANTS,
        "W:Wa2,Kh8:Ba3,h4",
        ("a2xa4", "h8xh3", "h8xh2", "h8xh1"),
    ),
    RuleCase(
        "captured pieces leave at once: a later jump crosses the square emptied by c3",
        VARIANTS,
        "W:WKc1,c6,e2,f5:Bb3,c3,d5,e4",
        ("c1xc5xe5xe3xa3",),
    ),
    RuleCase(
        "captured pieces leave at once: a later jump lands on the square emptied by b3",
        VARIANTS,
        "W:WKb1,b6,e2,f5:Bb3,c3,d5,e4",
        ("b1xb5xe5xe3xb3", "b1xb5xe5xe3xa3"),
    ),
    RuleCase(
        "the start square counts as empty: the last jump crosses d4, where the king started",
        VARIANTS,
        "W:WKd4,a3:Ba5,b7,d6,d8,f4",
        ("d4xd7xa7xa4xg4", "d4xd7xa7xa4xh4"),
    ),
    RuleCase(
        "the start square counts as empty: the king may end on its own start square; the "
        "loop run either way round is one move (d4xa4xa7xd7xd4 is d4xd7xa7xa4xd4)",
        VARIANTS,
        "W:WKd4,a3:Ba5,b7,c4,d6,d8",
        (
            "d4xd7xa7xa4xd4",
            "d4xa4xa7xd7xd5",
            "d4xa4xa7xd7xd3",
            "d4xa4xa7xd7xd2",
            "d4xa4xa7xd7xd1",
            "d4xd7xa7xa4xe4",
            "d4xd7xa7xa4xf4",
            "d4xd7xa7xa4xg4",
            "d4xd7xa7xa4xh4",
        ),
    ),
    RuleCase(
        "no 180-degree turn: after jumping north the king may not come back south",
        VARIANTS,
        "W:WKd4:Bd2,d6",
        ("d4xd7", "d4xd8", "d4xd1"),
    ),
    RuleCase(
        "straight on and 90-degree turns are allowed (man: forward, forward, right)",
        VARIANTS,
        "W:Wd2:Bd3,d5,e6",
        ("d2xd4xd6xf6",),
    ),
    RuleCase(
        "a man reaching the far rank mid-capture goes on capturing sideways as a man "
        "(not as a king: e5 stays)",
        VARIANTS,
        "W:Wc6:Bc7,d8,e5",
        ("c6xc8xe8",),
    ),
    RuleCase(
        "move identity: a flying king taking two men on one line may stop on either square "
        "between them: 4 routes, 2 moves",
        VARIANTS,
        "W:WKa2:Bc2,f2",
        ("a2xd2xg2", "a2xd2xh2"),
    ),
    RuleCase(
        "one start and end with different captured sets are different moves",
        VARIANTS,
        "W:WKh8:Ba6,b6,d7,g4,g8",
        ("h8xd8xd4xh4", "h8xb8xb4xh4", "h8xa8xa4xh4"),
    ),
]

PARAMS = case_params(CASES)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_engine(case: RuleCase, variant: str) -> None:
    check_engine(case, variant)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_reference_generator(case: RuleCase, variant: str) -> None:
    check_reference(case, variant)


@pytest.mark.parametrize(("case", "variant"), [p for p in PARAMS if "turkish" in str(p.id)])
def test_pydraughts(case: RuleCase, variant: str) -> None:
    board, side = parse_fen(case.fen)
    got = set(merge(pydraughts_adapter.pydraughts_routes(board, side, variant)))
    assert describe(got) == describe(expected_identities(case, variant)), case.rule


NOTATION = [
    # (fen, short form from x to, number of legal moves with that start and end)
    ("W:WKh8:Ba6,b6,d7,g4,g8", "h8xh4", 3),
    ("W:WKa2:Bc2,f2", "a2xg2", 1),
]


@pytest.mark.parametrize("turned", [False, True], ids=["white", "black"])
@pytest.mark.parametrize(("fen", "short", "count"), NOTATION)
@pytest.mark.parametrize("variant", VARIANTS)
def test_notation_shows_full_paths_only_where_start_and_end_are_ambiguous(
    variant: str, fen: str, short: str, count: int, turned: bool
) -> None:
    """docs/RULES.md: the short form from x to is used wherever it identifies one move; where one
    start and end allow several captured sets the landing squares must tell them apart."""
    if turned:
        fen, short = rotate_fen(fen), rotate_notation(short)
    v = engine.get_variant(variant)
    position = engine.Position.from_fen(fen, v)
    start, end = (sq_index(s) for s in short.split("x"))
    matching = [m for m in engine.legal_moves(position, v) if (m.start, m.end) == (start, end)]
    assert len(matching) == count
    if count == 1:
        assert engine.format_move(matching[0], position, v) == short
        assert engine.parse_move(short, position, v) == matching[0]
        return
    with pytest.raises(engine.AmbiguousMoveError) as info:
        engine.parse_move(short, position, v)
    assert len(info.value.candidates) == count
    for move in matching:
        text = engine.format_move(move, position, v)
        assert text != short and text.count("x") >= 2, text
        assert engine.parse_move(text, position, v) == move
