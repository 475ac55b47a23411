"""The reference generator and the engine against pydraughts 0.6.7 for the a1-dark variants
of the 8×8 board, Brazilian and Russian draughts and English checkers (docs/RULES.md,
"Family 3"; International, on 10×10, is tests/engine/test_international_differential.py):
the same legal moves under the move identity on random positions (uniform, crowded
corners, capture-chain trees), on the hand-made rule cases, and the same perft from the
start. The engine against pydraughts: `ENGINE_POSITIONS` random positions per variant, in
`ENGINE_CHUNKS` seeded chunks, each engine move's path one of pydraughts' routes of that
move (about a minute each for Russian and Brazilian, half that for English: under three
minutes in all, measured). Slow suite.
"""

from __future__ import annotations

import random

import pytest

from .oracles import pydraughts_adapter, reference
from .oracles.board import A1_DARK_8X8_KEYS, merge, parse_fen
from .oracles.bridge import engine_moves
from .oracles.positions import random_chains, random_cluster, random_position
from .oracles.rulecases import RuleCase
from .test_rules_brazilian import CASES as BRAZILIAN_CASES
from .test_rules_russian_english import CASES as RUSSIAN_ENGLISH_CASES

pytestmark = pytest.mark.slow

POSITIONS_PER_VARIANT = 1500
ENGINE_POSITIONS = 20_000
ENGINE_CHUNKS = 4


@pytest.mark.parametrize("variant", A1_DARK_8X8_KEYS)
def test_reference_and_pydraughts_agree_on_random_positions(variant: str) -> None:
    rng = random.Random(f"a1-dark-{variant}")
    makers = (random_position, random_cluster, random_chains)
    for i in range(POSITIONS_PER_VARIANT):
        board, side = makers[i % len(makers)](rng, variant)
        want = set(reference.legal_moves(board, side, variant))
        got = set(merge(pydraughts_adapter.pydraughts_routes(board, side, variant)))
        assert got == want, f"{variant} {side} {sorted(board.items())}"


@pytest.mark.parametrize("chunk", range(ENGINE_CHUNKS))
@pytest.mark.parametrize("variant", A1_DARK_8X8_KEYS)
def test_engine_and_pydraughts_agree_on_random_positions(variant: str, chunk: int) -> None:
    rng = random.Random(f"engine-pydraughts-{variant}-{chunk}")
    makers = (random_position, random_cluster, random_chains)
    for i in range(ENGINE_POSITIONS // ENGINE_CHUNKS):
        board, side = makers[i % len(makers)](rng, variant)
        got = engine_moves(board, side, variant)  # asserts no move listed twice
        want = merge(pydraughts_adapter.pydraughts_routes(board, side, variant))
        where = f"{variant} {side} {sorted(board.items())}"
        assert set(got) == set(want), where
        for key, route in got.items():
            assert route in want[key], f"{where}: {route} not among {want[key]}"


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


@pytest.mark.parametrize("variant", A1_DARK_8X8_KEYS)
def test_pydraughts_perft_from_the_start(variant: str) -> None:
    board, side = parse_fen(reference.START_FENS[variant])
    want = {
        "brazilian": [7, 49, 302, 1469],
        "russian": [7, 49, 302, 1469],
        "english": [7, 49, 302, 1469],
    }[variant]
    got = [pydraughts_adapter.perft(board, side, variant, d) for d in range(1, 5)]
    assert got == want
