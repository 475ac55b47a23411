"""The variants of docs/RULES.md's "Family 3", diagonal with a1 dark
(engine/variants_a1_dark.py): Brazilian, International and Russian draughts and English
checkers in the bot's registry, their rule parameters, their a1-dark board and their start
positions."""

from __future__ import annotations

import dataclasses

import pytest

import engine
from engine import (
    A1_DARK_VARIANTS,
    VARIANTS,
    CapturePrecedence,
    Color,
    CrownedMidCapture,
    Position,
    get_variant,
    parse_square,
)
from engine.movegen_core import generator, unsupported_rules

from .oracles.board import A1_DARK_KEYS, english_number, parse_fen
from .oracles.bridge import board_of, engine_position
from .oracles.reference import START_FENS


def test_the_a1_dark_variants_are_the_records_of_the_registry_with_a1_dark() -> None:
    # The same records, in `VARIANTS`' order.
    assert list(A1_DARK_VARIANTS.items()) == [(k, v) for k, v in VARIANTS.items() if v.a1_dark]
    assert list(A1_DARK_VARIANTS) == ["international", "brazilian", "russian", "english"]
    # The reference's keys of the same variants, in the same order.
    assert tuple(A1_DARK_VARIANTS) == A1_DARK_KEYS


def test_the_a1_dark_variants_are_found_by_key_and_alias() -> None:
    for key, variant in A1_DARK_VARIANTS.items():
        assert variant.key == key
        assert get_variant(key.upper()) is variant
        for name in (key, *variant.aliases):
            assert get_variant(name) is variant
    assert get_variant("English checkers") is get_variant("checkers")


def test_russian_rule_parameters() -> None:
    v = get_variant("russian")
    assert v.a1_dark and v.men_capture_backward and v.flying_kings and v.men_capture_kings
    assert v.capture_precedence is CapturePrecedence.FREE_CHOICE
    assert v.crowned_mid_capture is CrownedMidCapture.CONTINUES_AS_KING
    assert not v.numeric_notation
    assert v.pdn_gametype == 25


def test_english_rule_parameters() -> None:
    v = get_variant("english")
    assert v.a1_dark and not v.men_capture_backward and not v.flying_kings
    assert v.capture_precedence is CapturePrecedence.FREE_CHOICE
    assert v.crowned_mid_capture is CrownedMidCapture.MOVE_ENDS
    assert v.numeric_notation
    assert v.pdn_gametype == 21
    assert v.draw_law.no_progress_plies == 80


@pytest.mark.parametrize("key", ["brazilian", "russian", "english"])
def test_the_a1_dark_board_uses_a1_and_h8_not_b1(key: str) -> None:
    v = get_variant(key)
    for name in ("a1", "c1", "h2", "b8", "h8"):
        assert v.is_playable(parse_square(name)), name
    for name in ("b1", "h1", "a2", "a8", "g8"):
        assert not v.is_playable(parse_square(name)), name
    assert bin(v.playable_mask).count("1") == 32
    # Italian's a1-light board is untouched.
    assert not get_variant("italian").is_playable(parse_square("a1"))


@pytest.mark.parametrize(
    ("key", "first"),
    [("brazilian", Color.WHITE), ("russian", Color.WHITE), ("english", Color.BLACK)],
)
def test_start_positions(key: str, first: Color) -> None:
    v = get_variant(key)
    pos = Position.from_fen(v.start_fen, v)
    assert pos.turn is first
    white = {sq for sq in range(64) if (p := pos.piece_at(sq)) and p.color is Color.WHITE}
    black = {sq for sq in range(64) if (p := pos.piece_at(sq)) and p.color is Color.BLACK}
    assert len(white) == len(black) == 12
    assert {sq >> 3 for sq in white} == {0, 1, 2}
    assert {sq >> 3 for sq in black} == {5, 6, 7}
    assert all(v.is_playable(sq) for sq in white | black)


def test_the_move_generator_plays_every_variant() -> None:
    for v in VARIANTS.values():
        assert unsupported_rules(v) == ()
        assert generator(v).variant is v


def test_the_move_generator_refuses_a_crowned_man_that_would_change_its_captures() -> None:
    # Going on as a king, the crowned man keeps the man's capture directions and victims:
    # a record where men capture forward only, or never a king, is refused.
    russian = get_variant("russian")
    for v in (
        dataclasses.replace(russian, key="forward-capture", men_capture_backward=False),
        dataclasses.replace(russian, key="no-king-capture", men_capture_kings=False),
    ):
        assert unsupported_rules(v) == ("crowned_mid_capture",)
        with pytest.raises(NotImplementedError, match="crowned_mid_capture"):
            generator(v)


@pytest.mark.parametrize(
    ("name", "number"),
    [("b8", 1), ("h8", 4), ("a7", 5), ("b6", 9), ("h2", 28), ("a1", 29), ("g1", 32)],
)
def test_english_numeric_squares(name: str, number: int) -> None:
    sq = parse_square(name)
    assert engine.square_to_number(sq, a1_dark=True) == number
    assert engine.number_to_square(number, a1_dark=True) == sq
    assert english_number(name) == number  # the reference's own numbering


def test_english_numbering_covers_the_32_dark_squares_once() -> None:
    english = get_variant("english")
    dark = [sq for sq in range(64) if english.is_playable(sq)]
    assert sorted(engine.square_to_number(sq, a1_dark=True) for sq in dark) == list(range(1, 33))
    with pytest.raises(ValueError):
        engine.square_to_number(parse_square("a8"), a1_dark=True)


def test_english_start_in_the_numeric_fen_its_players_write() -> None:
    english = get_variant("english")
    start = Position.from_fen(english.start_fen, english)
    assert Position.from_fen("B:W21-32:B1-12", english) == start
    assert start.to_fen(english, numeric=True) == (
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    )


@pytest.mark.parametrize("key", ["brazilian", "russian", "english"])
def test_the_start_position_crosses_the_bridge_from_the_reference_unchanged(key: str) -> None:
    """The bridge between the reference and the engine takes the a1-dark keys (the
    differential tests compare their moves through it)."""
    board, side = parse_fen(START_FENS[key])
    position = engine_position(board, side, key)
    assert position == Position.start(get_variant(key))
    assert board_of(position) == (board, side)
