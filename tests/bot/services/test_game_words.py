"""The words both faces of the bot share (`bot/services/game_words.py`): the end reasons'
messages (one table), move numbers, and moves written in numbers."""

from __future__ import annotations

import pytest

import engine
from bot.services import EndReason
from bot.services.game_words import END_REASONS, move_number, numeric_text
from engine import Color, get_variant


def test_every_end_reason_has_a_sentence_and_short_words_of_its_own() -> None:
    assert set(END_REASONS) == set(EndReason)
    shorts = [END_REASONS[reason].short for reason in EndReason]
    sentences = [END_REASONS[reason].sentence for reason in EndReason]
    assert len(set(shorts)) == len(shorts) and len(set(sentences)) == len(sentences)


def test_move_numbers_count_from_the_games_start() -> None:
    italian = get_variant("italian")
    assert move_number(1, Color.WHITE, italian) == "1."
    assert move_number(2, Color.BLACK, italian) == "1..."
    assert move_number(23, Color.WHITE, italian) == "12."


def test_move_numbers_open_with_black_in_english_checkers() -> None:
    # Black moves first: its records write `1. 11-15 22-18`.
    english = get_variant("english")
    assert move_number(1, Color.BLACK, english) == "1."
    assert move_number(2, Color.WHITE, english) == "1..."
    assert move_number(23, Color.BLACK, english) == "12."


# The federation's numbering (docs/RULES.md, "Coordinates and notation", after the FID's
# brief rules): 1 in Black's right-hand single corner (a8) to 32 at White's single corner
# (h1); White's seven first moves are 21-17, 21-18, 22-18, 22-19, 23-19, 23-20, 24-20.
FID_FIRST_MOVES = {
    "b3-a4": "21-17", "b3-c4": "21-18", "d3-c4": "22-18", "d3-e4": "22-19",
    "f3-e4": "23-19", "f3-g4": "23-20", "h3-g4": "24-20",
}


def test_italian_moves_are_written_in_the_federations_numbers() -> None:
    italian = engine.get_variant("italian")
    for algebraic, numeric in FID_FIRST_MOVES.items():
        assert numeric_text(algebraic, italian) == numeric
    assert numeric_text("a8-h1", italian) == "1-32"  # the two single corners


@pytest.mark.parametrize(
    ("key", "fens"),
    [
        ("italian", ["W:Wd3,h1:Bc4,c6,e4,e6", "B:W22,23,26,K31:B9,10,14,18"]),
        ("english", ["B:W18,22,K27:B9,10,14"]),
        ("international", ["W:W28,K46:B17,19,22,23"]),
    ],
)
def test_numeric_text_is_the_engines_numeric_notation(key: str, fens: list[str]) -> None:
    # Every legal move of the start and a few positions of each variant with numbers (its
    # own board: Italian and English checkers 1..32, International 1..50), short and full
    # captures included: the same text as `engine.format_move(..., numeric=True)`.
    variant = engine.get_variant(key)
    positions = [engine.Position.start(variant),
                 *(engine.Position.from_fen(fen, variant) for fen in fens)]
    for position in positions:
        moves = engine.legal_moves(position, variant)
        assert moves
        for move in moves:
            for full in (False, True):
                written = engine.format_move(move, position, variant, full=full)
                assert numeric_text(written, variant) == engine.format_move(
                    move, position, variant, full=full, numeric=True)
