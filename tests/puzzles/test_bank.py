"""The shipped puzzle banks (`puzzles/data/<variant>.json`): every puzzle replays with
legal moves, was verified deeper than its line, and has a source and a rating; the slow
suite verifies ten of each bank again with the search (`puzzles.mining.verify_puzzle`),
spread over the bank (all of them would take most of the slow suite's half hour)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import VARIANTS, get_variant, legal_moves
from puzzles import load_bank
from puzzles.bank import BankFile, bank_path
from puzzles.mining import MiningSettings, VerifiedLine, move_texts, verify_puzzle

SHIPPED = [key for key in VARIANTS if bank_path(get_variant(key)).exists()]


def test_some_bank_is_shipped() -> None:
    assert SHIPPED


@pytest.mark.parametrize("key", SHIPPED)
def test_every_shipped_puzzle_replays_and_is_recorded_whole(key: str) -> None:
    variant = get_variant(key)
    bank = BankFile.read(bank_path(variant), variant)
    assert bank.settings and bank.sources_done
    ids = [p.id for p in bank.puzzles]
    assert len(ids) == len(set(ids))
    for puzzle in load_bank(key):
        position = puzzle.position()
        assert len(legal_moves(position, variant)) >= 2, puzzle.id
        for pos, move in puzzle.line():
            assert move in legal_moves(pos, variant), puzzle.id
        assert len(puzzle.solution) % 2 == 1, puzzle.id  # ends with the solver's move
        assert puzzle.verify_depth > len(puzzle.solution), puzzle.id
        assert puzzle.source.kind in ("pdn", "self-play") and puzzle.source.name
        assert 800 <= puzzle.rating <= 2300


@pytest.mark.slow
@pytest.mark.parametrize("key", SHIPPED)
def test_shipped_puzzles_verify_again(key: str) -> None:
    variant = get_variant(key)
    bank = BankFile.read(bank_path(variant), variant)
    # Verified again by the reference (every move scored exactly, no node budget), whatever
    # way the bank was mined: a bank mined with threshold questions is checked by the
    # exact scoring they were shown to agree with.
    settings = replace(MiningSettings(**bank.settings), exact_scores=True)
    for puzzle in bank.puzzles[:: max(1, len(bank.puzzles) // 10)]:
        position = puzzle.position()
        result = verify_puzzle(position, variant, settings)
        assert isinstance(result, VerifiedLine), (puzzle.id, result)
        assert move_texts(position, variant, result.moves)[0] == puzzle.solution[0]
