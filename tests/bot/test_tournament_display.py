"""The tournament words shared by Discord and the web pages (`bot/tournament_display.py`)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.tournament_display import number_text


@pytest.mark.parametrize("locale", ["en", "tr", "ar", "it", "fr"])
def test_a_performance_rating_is_written_as_a_plain_integer(locale: str) -> None:
    # ratings stay plain integers in every language (docs/LANGUAGES.md): a Turkish reader
    # would take "2.000" for two
    assert number_text(2000, locale) == "2000"


def test_a_half_point_keeps_the_readers_decimal_sign() -> None:
    assert number_text(Fraction(7, 2), "tr") == "3,5"
    assert number_text(Fraction(7, 2), "en") == "3.5"
