"""One test per move rule of Brazilian draughts that differs from Moroccan (docs/RULES.md,
"Brazilian draughts"): men capture backwards, a man passing the far rank during a capture is
not crowned and goes on as a man, one ending its capture there is crowned, and the maximum
capture counts the backward jumps of men too.

Each case is a position and the exact set of legal moves, written by hand from the rule in
full notation. Every case runs as given and turned 180 degrees with the colours swapped,
against the engine and against the independent reference generator (tests/engine/oracles).
Brazilian is one of the a1-dark variants (`engine.A1_DARK_VARIANTS`), played on its own
board, whose near-left corner a1 is dark.
"""

from __future__ import annotations

import pytest

import engine
from engine.variants import BRAZILIAN

from .oracles.bridge import sq_index
from .oracles.rulecases import (
    RuleCase,
    case_params,
    check_engine,
    check_reference,
)

ONLY = ("brazilian",)

CASES = [
    RuleCase(
        "men step diagonally forward only",
        ONLY,
        "W:We3:Bb8",
        ("e3-f4", "e3-d4"),
    ),
    RuleCase(
        "men capture backwards as well as forwards",
        ONLY,
        "W:We3:Bf2,d4",
        ("e3xg1", "e3xc5"),
    ),
    RuleCase(
        "a man's capture may turn backwards, and the sequence taking the most pieces is "
        "compulsory (d4xb6 takes one piece)",
        ONLY,
        "W:Wd4:Bg5,e5,c5",
        ("d4xf6xh4",),
    ),
    RuleCase(
        "a man passing the far rank during a capture is not crowned: it goes on as a man",
        ONLY,
        "W:Wf6:Be7,c7",
        ("f6xd8xb6",),
    ),
    RuleCase(
        "maximum capture over all pieces: the man taking two, not the one taking one",
        ONLY,
        "W:Wh2,e3:Bg3,d4,d6",
        ("e3xc5xe7",),
    ),
    RuleCase(
        "kings fly, and capture from a distance landing on any empty square beyond",
        ONLY,
        "W:WKg1:Bd4",
        ("g1xc5", "g1xb6", "g1xa7"),
    ),
    RuleCase(
        "a king's capture and a man's count the same: equal counts, free choice between them",
        ONLY,
        "W:WKh2,a3:Bf4,d6,b4",
        ("h2xe5xc7", "h2xe5xb8", "a3xc5xe7"),
    ),
]

PARAMS = case_params(CASES)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_engine(case: RuleCase, variant: str) -> None:
    check_engine(case, variant)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_reference_generator(case: RuleCase, variant: str) -> None:
    check_reference(case, variant)


def _after(fen: str, move: str) -> engine.Position:
    position = engine.Position.from_fen(fen, BRAZILIAN)
    return engine.apply_move(position, engine.parse_move(move, position, BRAZILIAN), BRAZILIAN)


def test_a_man_passing_the_far_rank_mid_capture_stays_a_man() -> None:
    after = _after("W:Wf6:Be7,c7", "f6xd8xb6")
    piece = after.piece_at(sq_index("b6"))
    assert piece is not None and piece.kind is engine.PieceKind.MAN


def test_a_man_ending_its_capture_on_the_far_rank_is_crowned() -> None:
    after = _after("W:Wf6:Be7", "f6xd8")
    piece = after.piece_at(sq_index("d8"))
    assert piece is not None and piece.kind is engine.PieceKind.KING


def test_brazilian_is_offered_by_the_bot() -> None:
    assert engine.VARIANTS["brazilian"] is engine.get_variant("damas-brasileiras")

