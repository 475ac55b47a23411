"""One test per move rule of Brazilian draughts that differs from Moroccan (docs/RULES.md,
"Brazilian"): men capture backwards, a man passing the far rank during a capture is not
crowned and goes on as a man, one ending its capture there is crowned, and the maximum
capture counts the backward jumps of men too.

Each case is a position and the exact set of legal moves, written by hand from the rule in
full notation. Every case runs as given and turned 180 degrees with the colours swapped,
against the engine and against the independent reference generator (tests/engine/oracles).
Brazilian is an engine-level variant (`engine.variants.UPCOMING_VARIANTS`); it is played
here on the diagonal geometry with a light a1, the mirror image of the Brazilian board.
"""

from __future__ import annotations

import pytest

import engine
from engine.variants import BRAZILIAN

from .oracles.bridge import sq_index
from .oracles.rulecases import (
    RuleCase,
    check_engine,
    describe,
    expected_identities,
    reference_identities,
)

ONLY = ("brazilian",)

CASES = [
    RuleCase(
        "men step diagonally forward only",
        ONLY,
        "W:Wd3:Bg8",
        ("d3-c4", "d3-e4"),
    ),
    RuleCase(
        "men capture backwards as well as forwards",
        ONLY,
        "W:Wd3:Bc2,e4",
        ("d3xb1", "d3xf5"),
    ),
    RuleCase(
        "a man's capture may turn backwards, and the sequence taking the most pieces is "
        "compulsory (e4xg6 takes one piece)",
        ONLY,
        "W:We4:Bb5,d5,f5",
        ("e4xc6xa4",),
    ),
    RuleCase(
        "a man passing the far rank during a capture is not crowned: it goes on as a man",
        ONLY,
        "W:Wc6:Bd7,f7",
        ("c6xe8xg6",),
    ),
    RuleCase(
        "maximum capture over all pieces: the man taking two, not the one taking one",
        ONLY,
        "W:Wa2,d3:Bb3,e4,e6",
        ("d3xf5xd7",),
    ),
    RuleCase(
        "kings fly, and capture from a distance landing on any empty square beyond",
        ONLY,
        "W:WKb1:Be4",
        ("b1xf5", "b1xg6", "b1xh7"),
    ),
    RuleCase(
        "a king's capture and a man's count the same: equal counts, free choice between them",
        ONLY,
        "W:WKa2,h3:Bc4,e6,g4",
        ("a2xd5xf7", "a2xd5xg8", "h3xf5xd7"),
    ),
]

PARAMS = [
    pytest.param(case if not turned else case.rotated(), variant, id=f"{i}-{variant}-{tag}")
    for i, case in enumerate(CASES)
    for variant in case.variants
    for turned, tag in ((False, "white"), (True, "black"))
]


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_engine(case: RuleCase, variant: str) -> None:
    check_engine(case, variant)


@pytest.mark.parametrize(("case", "variant"), PARAMS)
def test_reference_generator(case: RuleCase, variant: str) -> None:
    got = reference_identities(case, variant)
    assert describe(got) == describe(expected_identities(case, variant)), case.rule


def _after(fen: str, move: str) -> engine.Position:
    position = engine.Position.from_fen(fen, BRAZILIAN)
    return engine.apply_move(position, engine.parse_move(move, position, BRAZILIAN), BRAZILIAN)


def test_a_man_passing_the_far_rank_mid_capture_stays_a_man() -> None:
    after = _after("W:Wc6:Bd7,f7", "c6xe8xg6")
    piece = after.piece_at(sq_index("g6"))
    assert piece is not None and piece.kind is engine.PieceKind.MAN


def test_a_man_ending_its_capture_on_the_far_rank_is_crowned() -> None:
    after = _after("W:Wc6:Bd7", "c6xe8")
    piece = after.piece_at(sq_index("e8"))
    assert piece is not None and piece.kind is engine.PieceKind.KING


def test_brazilian_is_not_offered_by_the_bot() -> None:
    # The bot lists `engine.VARIANTS`; Brazilian stays engine level until it is wired in.
    assert "brazilian" not in engine.VARIANTS
    with pytest.raises(engine.UnknownVariantError):
        engine.get_variant("brazilian")

