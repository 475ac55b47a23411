"""The reference generator against pydraughts 0.6.7 for the staged variants of the 8×8 board,
Brazilian and Russian draughts and English checkers (docs/RULES.md, "Family 3"): the same
legal moves under the move identity on random positions (uniform, crowded corners,
capture-chain trees), on the hand-made rule cases, and the same perft from the start. Slow
suite: pydraughts is a second source here, before the engine plays Russian and English (it
plays Brazilian already: tests/engine/test_differential.py compares it with the reference).
"""

from __future__ import annotations

import random

import pytest

from .oracles import pydraughts_adapter, reference
from .oracles.board import STAGED_8X8_VARIANTS, merge, parse_fen
from .oracles.positions import random_chains, random_cluster, random_position
from .oracles.rulecases import RuleCase
from .test_rules_brazilian import CASES as BRAZILIAN_CASES
from .test_rules_russian_english import CASES as RUSSIAN_ENGLISH_CASES

pytestmark = pytest.mark.slow

POSITIONS_PER_VARIANT = 1500


@pytest.mark.parametrize("variant", STAGED_8X8_VARIANTS)
def test_reference_and_pydraughts_agree_on_random_positions(variant: str) -> None:
    rng = random.Random(f"staged-{variant}")
    makers = (random_position, random_cluster, random_chains)
    for i in range(POSITIONS_PER_VARIANT):
        board, side = makers[i % len(makers)](rng, variant)
        want = set(reference.legal_moves(board, side, variant))
        got = set(merge(pydraughts_adapter.pydraughts_routes(board, side, variant)))
        assert got == want, f"{variant} {side} {sorted(board.items())}"


@pytest.mark.parametrize(
    ("case", "variant"),
    [
        pytest.param(c, v, id=f"{v}-{i}")
        for i, c in enumerate((*BRAZILIAN_CASES, *RUSSIAN_ENGLISH_CASES))
        for v in c.variants
    ],
)
def test_pydraughts_plays_the_rule_cases_as_the_reference(case: RuleCase, variant: str) -> None:
    for c in (case, case.rotated()):
        board, side = parse_fen(c.fen)
        got = set(merge(pydraughts_adapter.pydraughts_routes(board, side, variant)))
        assert got == set(reference.legal_moves(board, side, variant)), c.fen


@pytest.mark.parametrize("variant", STAGED_8X8_VARIANTS)
def test_pydraughts_perft_from_the_start(variant: str) -> None:
    board, side = parse_fen(reference.START_FENS[variant])
    want = {
        "brazilian": [7, 49, 302, 1469],
        "russian": [7, 49, 302, 1469],
        "english": [7, 49, 302, 1469],
    }[variant]
    got = [pydraughts_adapter.perft(board, side, variant, d) for d in range(1, 5)]
    assert got == want
