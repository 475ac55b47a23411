"""One test per move rule of docs/RULES.md, family 3, that sets Russian draughts and English
checkers apart from the four (men capturing backward, free choice of capture, crowning in the
middle of a capture, flying and short kings), on the a1-dark board.

Each case is a position and the exact set of legal moves, written by hand from the rule in
full notation. Every case runs as given and turned 180 degrees with the colours swapped,
against the engine (its moves, each with a path that is a legal route of the move) and
against the independent reference generator (tests/engine/oracles).
"""

from __future__ import annotations

import pytest

import engine

from .oracles.board import parse_fen
from .oracles.bridge import board_of, engine_position, engine_variant
from .oracles.reference import apply_route, legal_moves
from .oracles.rulecases import (
    RuleCase,
    case_params,
    check_engine,
    check_reference,
)

RUSSIAN = ("russian",)
ENGLISH = ("english",)

CASES = [
    RuleCase(
        "a man steps one square diagonally forward only",
        ("russian", "english"),
        "W:Wd4:Bh8",
        ("d4-c5", "d4-e5"),
    ),
    RuleCase(
        "Russian: a man captures backward as well as forward; free choice between them",
        RUSSIAN,
        "W:Wd4:Bc3,e5",
        ("d4xb2", "d4xf6"),
    ),
    RuleCase(
        "English: a man captures forward only (not c3 behind it)",
        ENGLISH,
        "W:Wd4:Bc3,e5",
        ("d4xf6",),
    ),
    RuleCase(
        "free choice of capture: the one-piece capture a3xc5 is legal beside the two-piece "
        "g3xe5xg7 (no maximum rule)",
        ("russian", "english"),
        "W:Wa3,g3:Bb4,f4,f6",
        ("a3xc5", "g3xe5xg7"),
    ),
    RuleCase(
        "Russian: a man reaching the far rank during a capture is crowned at once and goes on "
        "capturing as a flying king (d8 over b6, two squares away, to a5)",
        RUSSIAN,
        "W:Wf6:Be7,b6",
        ("f6xd8xa5",),
    ),
    RuleCase(
        "English: a man reaching the far rank during a capture is crowned and the move ends",
        ENGLISH,
        "W:Wf6:Be7,b6",
        ("f6xd8",),
    ),
    RuleCase(
        "Russian: kings fly, any number of empty squares along a diagonal, both ways",
        RUSSIAN,
        "W:WKd4:Bh8",
        (
            "d4-c3",
            "d4-b2",
            "d4-a1",
            "d4-e3",
            "d4-f2",
            "d4-g1",
            "d4-c5",
            "d4-b6",
            "d4-a7",
            "d4-e5",
            "d4-f6",
            "d4-g7",
        ),
    ),
    RuleCase(
        "English: kings move one square diagonally, forward or backward",
        ENGLISH,
        "W:WKd4:Bh8",
        ("d4-c3", "d4-e3", "d4-c5", "d4-e5"),
    ),
    RuleCase(
        "Russian: a flying king captures from a distance and lands on any empty square beyond",
        RUSSIAN,
        "W:WKe5:Bc3",
        ("e5xb2", "e5xa1"),
    ),
    RuleCase(
        "Russian: a capture is played to its end: after jumping c3 the flying king must land "
        "on e5, the one square from which it can go on capturing (not b2..h8 elsewhere)",
        RUSSIAN,
        "W:WKa1:Bc3,f4",
        ("a1xe5xg3", "a1xe5xh2"),
    ),
    RuleCase(
        "English: a king captures an adjacent piece, backward too, landing just beyond",
        ENGLISH,
        "W:WKd4:Bc3",
        ("d4xb2",),
    ),
]

PARAMS = case_params(CASES)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_reference_generator_plays_the_rule(case: RuleCase, variant: str) -> None:
    check_reference(case, variant)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_engine_plays_the_rule(case: RuleCase, variant: str) -> None:
    check_engine(case, variant)


CROWNED = [("russian", "a5"), ("english", "d8")]


@pytest.mark.parametrize(("variant", "crowned"), CROWNED)
def test_a_man_crowned_during_a_capture_ends_it_a_king(variant: str, crowned: str) -> None:
    board, side = parse_fen("W:Wf6:Be7,b6")
    ((routes),) = legal_moves(board, side, variant).values()
    after, _ = apply_route(board, side, routes[0], variant)
    assert after == {crowned: "W"} | ({"b6": "b"} if variant == "english" else {})


@pytest.mark.parametrize(("variant", "crowned"), CROWNED)
def test_the_engine_ends_a_man_crowned_during_a_capture_a_king(
    variant: str, crowned: str
) -> None:
    # Russian: crowned on d8, it ends on a5, off the far rank, and is a king there.
    v = engine_variant(variant)
    position = engine_position(*parse_fen("W:Wf6:Be7,b6"), variant)
    (move,) = engine.legal_moves(position, v)
    want = {crowned: "W"} | ({"b6": "b"} if variant == "english" else {})
    assert board_of(engine.apply_move(position, move, v))[0] == want
    game = engine.Game(v, position)
    game.play(move)
    assert board_of(game.position)[0] == want
