"""The text board's piece letters in the reader's language (`bot/ui/text_board.py`):
each language's letters begin its words for White and Black; Arabic keeps the Latin
letters, one plain character each for the left-to-right code block."""

from __future__ import annotations

import pytest

from bot.ui.text_board import piece_letters
from renderer import PieceLetters


@pytest.mark.parametrize(("locale", "letters"), [
    ("en-US", PieceLetters("w", "b", "W", "B")),
    ("tr", PieceLetters("b", "s", "B", "S")),  # beyaz, siyah
    ("it", PieceLetters("b", "n", "B", "N")),  # bianco, nero
    ("fr", PieceLetters("b", "n", "B", "N")),  # blanc, noir
    ("ar", PieceLetters("w", "b", "W", "B")),
])
def test_the_piece_letters_are_the_readers_languages(
    locale: str, letters: PieceLetters,
) -> None:
    assert piece_letters(locale) == letters
