"""The service layer's value types (`bot/services/models.py`)."""

from __future__ import annotations

import engine
from bot.services import EndReason


def test_engine_terminations_all_have_an_end_reason() -> None:
    for termination in engine.Termination:
        assert EndReason.of(termination).value == termination.value
