"""renderer.fonts: a real font is found, texts it cannot draw are recognised, and a name
no font draws is written another way than as boxes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageFont

from renderer.fonts import (
    FONT_DIR,
    FONT_FILES,
    display_name,
    font_chain,
    font_draws,
    font_files,
    is_right_to_left,
    plain,
    raqm_available,
)

DEJAVU = FONT_DIR / FONT_FILES[0][0]


def test_the_machine_has_the_font_the_pictures_write_names_with() -> None:
    # CI installs fonts-dejavu-core; without it names with accents become numbers.
    assert DEJAVU.is_file(), f"{DEJAVU} is missing: install the fonts-dejavu-core package"
    assert font_files()[0] == DEJAVU


def test_pillow_lays_out_right_to_left_text() -> None:
    # Pillow's wheels shape Arabic with libraqm when the system has FriBiDi.
    assert raqm_available(), "Pillow has no libraqm layout: install the libfribidi0 package"


def test_font_draws_accents_and_arabic_but_not_a_character_no_font_has() -> None:
    chain = font_chain(24)
    assert font_draws("Zoë Çağla Łukasz", chain.first)
    assert font_draws("علي حسن", chain.first)
    assert not font_draws("Ann \ue000", chain.first)  # private use: no glyph anywhere


def test_right_to_left_text_needs_the_shaping_layout() -> None:
    basic = ImageFont.truetype(str(DEJAVU), 24, layout_engine=ImageFont.Layout.BASIC)
    assert font_draws("Zoë", basic)
    assert not font_draws("علي", basic)  # its letters would come out unjoined, reversed
    assert is_right_to_left("Ali علي") and not is_right_to_left("Zoë")


def test_the_bundled_font_stands_in_when_no_font_file_is_found(tmp_path: Path) -> None:
    chain = font_chain(24, folder=tmp_path)
    assert len(chain.fonts) == 1
    assert display_name("Ann", 3, chain) == "Ann"
    assert display_name("Zoë", 3, chain) == "#3"  # the bundled font has no accents


def test_a_name_keeps_what_can_be_drawn_or_becomes_the_players_number() -> None:
    chain = font_chain(24)
    assert display_name("Zoë", 4, chain) == "Zoë"
    assert display_name("Ali \ue000", 4, chain) == "#4"  # a letter no font draws
    assert display_name("\U0001f525 Ali \U0001f525", 4, chain) == "Ali"  # symbols dropped
    assert display_name("Ali\u200d\ufe0f", 4, chain) == "Ali"  # invisible formatting
    assert display_name("\U0001f525", 4, chain) == "#4"  # nothing left
    assert display_name("", 4, chain) == "#4"


@pytest.mark.parametrize("name", ["\ue000\ue001", "\U0001f525\ue000"])
def test_a_name_never_keeps_a_character_no_font_draws(name: str) -> None:
    chain = font_chain(24)
    shown = display_name(name, 9, chain)
    assert chain.pick(shown) is not None


def test_a_name_is_written_on_one_line_without_piles_of_marks() -> None:
    chain = font_chain(24)
    assert display_name("Ann\nMarie\t\x07Lee", 2, chain) == "Ann Marie Lee"
    zalgo = "Z" + "\u0301\u0308\u0323" * 10 + "oe"
    assert display_name(zalgo, 2, chain) == "Z\u0301\u0308oe"
    assert plain("Ð\u1ebf\u0301 ") == "Ð\u1ebf\u0301"  # Vietnamese: two marks stay
