"""One test per move rule of docs/RULES.md, family 2 (Moroccan, Italian).

Each case is a position and the exact set of legal moves, written by hand from the rule in
full notation, for the variants named in the case. Every case runs as given and turned 180
degrees with the colours swapped, against the engine and against the independent reference
generator (tests/engine/oracles); Italian ones also against pydraughts (its quirks handled
in the adapter).
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

BOTH = ("moroccan", "italian")
MOROCCAN = ("moroccan",)
ITALIAN = ("italian",)

CASES = [
    RuleCase(
        "man steps one square diagonally forward",
        BOTH,
        "W:Wa2,c4:Bg8",
        ("a2-b3", "c4-b5", "c4-d5"),
    ),
    RuleCase(
        "man captures diagonally forward only (not e2 behind it), onto an empty square "
        "(not e4: f5 is taken); capture is compulsory (a2 may not step)",
        BOTH,
        "W:Wa2,d3:Bc4,e2,e4,f5",
        ("d3xb5",),
    ),
    RuleCase(
        "Moroccan king flies: any number of empty squares along a diagonal, both ways",
        MOROCCAN,
        "W:Wf3,Kd5:Ba6",
        (
            "d5-e6",
            "d5-f7",
            "d5-g8",
            "d5-c6",
            "d5-b7",
            "d5-a8",
            "d5-e4",
            "d5-c4",
            "d5-b3",
            "d5-a2",
            "f3-e4",
            "f3-g4",
        ),
    ),
    RuleCase(
        "Italian king is short: one square diagonally in any direction",
        ITALIAN,
        "W:Wf3,Kd5:Ba6",
        ("d5-e6", "d5-c6", "d5-e4", "d5-c4", "f3-e4", "f3-g4"),
    ),
    RuleCase(
        "Moroccan king captures from a distance, landing on any empty square beyond",
        MOROCCAN,
        "W:WKb1:Be4",
        ("b1xf5", "b1xg6", "b1xh7"),
    ),
    RuleCase(
        "Italian king captures only an adjacent piece (e4 is out of reach)",
        ITALIAN,
        "W:WKb1:Be4",
        ("b1-a2", "b1-c2"),
    ),
    RuleCase(
        "Moroccan: equal counts are a free choice, no most-kings tiebreak",
        MOROCCAN,
        "W:WKd5:BKc6,e4",
        ("d5xb7", "d5xa8", "d5xf3", "d5xg2", "d5xh1"),
    ),
    RuleCase(
        "captured pieces stay until the move ends and block: from c6 the king may not pass "
        "over e4 (taken first) to reach f3",
        MOROCCAN,
        "W:WKc2:Bd7,e4,f3,f7",
        ("c2xg6xe8xc6", "c2xg6xe8xb5", "c2xg6xe8xa4"),
    ),
    RuleCase(
        "the start square counts as empty: the flying king's last jump lands on or passes "
        "c4, where it started; the loop either way round to c4 is one move",
        MOROCCAN,
        "W:WKc4:Bd3,d5,f3,f5",
        (
            "c4xe6xg4xe2xc4",
            "c4xe6xg4xe2xb5",
            "c4xe6xg4xe2xa6",
            "c4xe2xg4xe6xb3",
            "c4xe2xg4xe6xa2",
        ),
    ),
    RuleCase(
        "short king loop: ends on its start square; both ways round are one move",
        ITALIAN,
        "W:WKc4:Bd3,d5,f3,f5",
        ("c4xe6xg4xe2xc4",),
    ),
    RuleCase(
        "a man reaching the far rank mid-capture is crowned and the move ends (f7 stays)",
        BOTH,
        "W:Wc6:Bd7,f7",
        ("c6xe8",),
    ),
    RuleCase(
        "maximum capture over all pieces: the man's two beat the king's one (and the man "
        "is crowned on e8)",
        BOTH,
        "W:We4,Kh1:Bd5,d7,g2",
        ("e4xc6xe8",),
    ),
    RuleCase(
        "one start and end with different captured sets are different moves",
        BOTH,
        "W:Wc2:Bb3,b5,d3,d5",
        ("c2xe4xc6", "c2xa4xc6"),
    ),
    RuleCase(
        "Italian: a man may never capture a king",
        ITALIAN,
        "W:Wd3:BKc4,e4",
        ("d3xf5",),
    ),
    RuleCase(
        "Moroccan: a man captures a king like any piece",
        MOROCCAN,
        "W:Wd3:BKc4,e4",
        ("d3xb5", "d3xf5"),
    ),
    RuleCase(
        "Italian: a man may never capture a king, so with only a king in reach it steps",
        ITALIAN,
        "W:Wd3:BKc4",
        ("d3-e4",),
    ),
    RuleCase(
        "Italian ladder step 1: the most pieces (the man's two beat the king's one)",
        ITALIAN,
        "W:Wc2,Kh3:Bd3,d5,g4",
        ("c2xe4xc6",),
    ),
    RuleCase(
        "Italian ladder step 2: a capture by a king beats one by a man, counts equal",
        ITALIAN,
        "W:Wc2,Kh3:Bd3,g4",
        ("h3xf5",),
    ),
    RuleCase(
        "Italian ladder step 3: the most kings captured",
        ITALIAN,
        "W:WKd5:BKc6,e4",
        ("d5xb7",),
    ),
    RuleCase(
        "Italian ladder step 4: the capture meeting a king earliest (king first, then man; "
        "not man first, then king)",
        ITALIAN,
        "W:WKd5:Bc2,Kc4,e4,Kg2",
        ("d5xb3xd1",),
    ),
    RuleCase(
        "Italian ladder step 4, later kings: kings at jumps 1 and 2 beat kings at jumps 1 and 3",
        ITALIAN,
        "W:WKd1:BKe2,Ke4,c6,g4,Kg6",
        ("d1xf3xd5xb7",),
    ),
    RuleCase(
        "Italian: still tied after the ladder: free choice",
        ITALIAN,
        "W:WKd5:Bc6,e4",
        ("d5xb7", "d5xf3"),
    ),
]

PARAMS = case_params(CASES)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_engine(case: RuleCase, variant: str) -> None:
    check_engine(case, variant)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_reference_generator(case: RuleCase, variant: str) -> None:
    check_reference(case, variant)


@pytest.mark.parametrize(("case", "variant"), [p for p in PARAMS if "italian" in str(p.id)])
def test_pydraughts(case: RuleCase, variant: str) -> None:
    board, side = parse_fen(case.fen)
    got = set(merge(pydraughts_adapter.pydraughts_routes(board, side, variant)))
    assert describe(got) == describe(expected_identities(case, variant)), case.rule


@pytest.mark.parametrize("turned", [False, True], ids=["white", "black"])
@pytest.mark.parametrize("variant", BOTH)
def test_notation_shows_full_paths_where_start_and_end_are_ambiguous(
    variant: str, turned: bool
) -> None:
    """docs/RULES.md: where one start and end allow several captured sets, the notation shows the
    landing squares that tell them apart; the short form is ambiguous and lists them."""
    fen, short = "W:Wc2:Bb3,b5,d3,d5", "c2xc6"
    if turned:
        fen, short = rotate_fen(fen), rotate_notation(short)
    v = engine.get_variant(variant)
    position = engine.Position.from_fen(fen, v)
    start, end = (sq_index(s) for s in short.split("x"))
    matching = [m for m in engine.legal_moves(position, v) if (m.start, m.end) == (start, end)]
    assert len(matching) == 2
    with pytest.raises(engine.AmbiguousMoveError) as info:
        engine.parse_move(short, position, v)
    assert len(info.value.candidates) == 2
    for move in matching:
        text = engine.format_move(move, position, v)
        assert text != short and text.count("x") == 2, text
        assert engine.parse_move(text, position, v) == move
