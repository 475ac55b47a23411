"""The service layer's value types (`bot/services/models.py`)."""

from __future__ import annotations

import pytest

import engine
from bot.services import EndReason
from bot.services.models import MoveTime, counts_for_rating
from engine import Color


def test_engine_terminations_all_have_an_end_reason() -> None:
    for termination in engine.Termination:
        assert EndReason.of(termination).value == termination.value


def test_move_time_of_seconds_is_the_inverse_of_seconds() -> None:
    for limit in MoveTime:
        assert MoveTime.of_seconds(limit.seconds) is limit
    with pytest.raises(ValueError, match="17 seconds"):
        MoveTime.of_seconds(17)


def test_only_each_sides_own_moves_count_for_rating() -> None:
    human, computer = False, True
    assert not counts_for_rating([human] * 3, Color.WHITE)
    assert counts_for_rating([human] * 4, Color.WHITE)
    # White's second move was the computer's, for White absent: one of White's own.
    assert not counts_for_rating([human, human, computer, human], Color.WHITE)
    assert counts_for_rating([human, human, computer, human, human], Color.WHITE)
    # From a set-up position with Black to move, Black's moves are the odd plies.
    assert not counts_for_rating([human, computer, human, computer, human], Color.BLACK)
    assert counts_for_rating([computer, human, human, human, human, human], Color.BLACK)
