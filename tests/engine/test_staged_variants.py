"""The staged variants (engine/staged_variants.py): Russian draughts and English checkers,
defined in the engine apart from the variants the bot offers, with their rule parameters,
their a1-dark board and their start positions (docs/RULES.md, "Family 3")."""

from __future__ import annotations

import pytest

import engine
from engine import (
    STAGED_VARIANTS,
    VARIANTS,
    CapturePrecedence,
    Color,
    CrownedMidCapture,
    Position,
    UnknownVariantError,
    get_staged_variant,
    get_variant,
    parse_square,
)
from engine.movegen_core import generator, unsupported_rules


def test_staged_variants_are_apart_from_the_bots_registry() -> None:
    assert list(STAGED_VARIANTS) == ["russian", "english"]
    for key, variant in STAGED_VARIANTS.items():
        assert variant.key == key
        assert get_staged_variant(key.upper()) is variant
        assert key not in VARIANTS
        for name in (key, *variant.aliases):
            with pytest.raises(UnknownVariantError):
                get_variant(name)


def test_an_unknown_staged_key_lists_the_staged_ones() -> None:
    with pytest.raises(UnknownVariantError) as info:
        get_staged_variant("turkish")
    assert info.value.valid == ("russian", "english")


def test_russian_rule_parameters() -> None:
    v = get_staged_variant("russian")
    assert v.a1_dark and v.men_capture_backward and v.flying_kings and v.men_capture_kings
    assert v.capture_precedence is CapturePrecedence.FREE_CHOICE
    assert v.crowned_mid_capture is CrownedMidCapture.CONTINUES_AS_KING
    assert not v.numeric_notation
    assert v.pdn_gametype == 25


def test_english_rule_parameters() -> None:
    v = get_staged_variant("english")
    assert v.a1_dark and not v.men_capture_backward and not v.flying_kings
    assert v.capture_precedence is CapturePrecedence.FREE_CHOICE
    assert v.crowned_mid_capture is CrownedMidCapture.MOVE_ENDS
    assert v.numeric_notation
    assert v.pdn_gametype == 21
    assert v.draw_law.no_progress_plies == 80


@pytest.mark.parametrize("key", ["russian", "english"])
def test_the_a1_dark_board_uses_a1_and_h8_not_b1(key: str) -> None:
    v = get_staged_variant(key)
    for name in ("a1", "c1", "h2", "b8", "h8"):
        assert v.is_playable(parse_square(name)), name
    for name in ("b1", "h1", "a2", "a8", "g8"):
        assert not v.is_playable(parse_square(name)), name
    assert bin(v.playable_mask).count("1") == 32
    # The a1-light board of the four is untouched.
    assert not get_variant("italian").is_playable(parse_square("a1"))


@pytest.mark.parametrize(("key", "first"), [("russian", Color.WHITE), ("english", Color.BLACK)])
def test_start_positions(key: str, first: Color) -> None:
    v = get_staged_variant(key)
    pos = Position.from_fen(v.start_fen, v)
    assert pos.turn is first
    white = {sq for sq in range(64) if (p := pos.piece_at(sq)) and p.color is Color.WHITE}
    black = {sq for sq in range(64) if (p := pos.piece_at(sq)) and p.color is Color.BLACK}
    assert len(white) == len(black) == 12
    assert {sq >> 3 for sq in white} == {0, 1, 2}
    assert {sq >> 3 for sq in black} == {5, 6, 7}
    assert all(v.is_playable(sq) for sq in white | black)


def test_the_move_generator_refuses_the_rules_it_does_not_read_yet() -> None:
    assert unsupported_rules(get_staged_variant("russian")) == (
        "men_capture_backward",
        "capture_precedence",
        "crowned_mid_capture",
    )
    assert unsupported_rules(get_staged_variant("english")) == ("capture_precedence",)
    for v in STAGED_VARIANTS.values():
        with pytest.raises(NotImplementedError, match=v.name):
            generator(v)
        with pytest.raises(NotImplementedError):
            engine.perft(Position.from_fen(v.start_fen, v), v, 1)
    for v in VARIANTS.values():
        assert unsupported_rules(v) == ()
