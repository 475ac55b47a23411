"""The service layer's value types (`bot/services/models.py`)."""

from __future__ import annotations

import pytest

import engine
from bot.services import EndReason
from bot.services.models import MoveTime


def test_engine_terminations_all_have_an_end_reason() -> None:
    for termination in engine.Termination:
        assert EndReason.of(termination).value == termination.value


def test_move_time_of_seconds_is_the_inverse_of_seconds() -> None:
    for limit in MoveTime:
        assert MoveTime.of_seconds(limit.seconds) is limit
    with pytest.raises(ValueError, match="17 seconds"):
        MoveTime.of_seconds(17)
