"""The variant registry: keys, aliases, unknown names, playable squares, rule parameters."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine import (
    VARIANTS,
    CaptureRemoval,
    DamaError,
    Geometry,
    UnknownVariantError,
    get_variant,
)


def test_the_eight_variants_are_registered_by_key() -> None:
    assert list(VARIANTS) == ["turkish", "arab", "moroccan", "italian",
                              "international", "brazilian", "russian", "english"]
    for key, variant in VARIANTS.items():
        assert variant.key == key
        assert get_variant(key) is variant


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("dama", "turkish"),
        ("turkish-draughts", "turkish"),
        ("Turkish Draughts", "turkish"),
        ("TURKISH", "turkish"),
        ("arab-dama", "arab"),
        ("Arab Dama", "arab"),
        ("italian-draughts", "italian"),
        ("  Italian  ", "italian"),
        ("italian_draughts", "italian"),
        ("moroccan-draughts", "moroccan"),
        ("Moroccan", "moroccan"),
    ],
)
def test_aliases_are_case_insensitive(name: str, key: str) -> None:
    assert get_variant(name).key == key


@pytest.mark.parametrize("name", ["chess", "", "draughts", "turkish2"])
def test_unknown_names_list_the_valid_ones(name: str) -> None:
    with pytest.raises(UnknownVariantError) as info:
        get_variant(name)
    message = str(info.value)
    for key in VARIANTS:
        assert key in message
    assert info.value.valid == tuple(VARIANTS)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, DamaError)


def test_orthogonal_boards_use_every_square() -> None:
    for key in ("turkish", "arab"):
        variant = get_variant(key)
        assert variant.geometry is Geometry.ORTHOGONAL
        assert all(variant.is_playable(sq) for sq in range(64))


def test_diagonal_boards_use_dark_squares_with_a1_light() -> None:
    # docs/RULES.md: dark squares have file + rank odd counting a = 1, rank 1 = 1.
    for key in ("moroccan", "italian"):
        variant = get_variant(key)
        assert variant.geometry is Geometry.DIAGONAL
        assert not variant.is_playable(0)  # a1
        assert variant.is_playable(1)  # b1
        assert variant.is_playable(8)  # a2
        assert variant.is_playable(7)  # h1
        assert not variant.is_playable(63)  # h8
        assert variant.is_playable(56)  # a8
        assert sum(variant.is_playable(sq) for sq in range(64)) == 32
    assert not get_variant("italian").is_playable(64)
    assert not get_variant("italian").is_playable(-1)


def test_the_ten_by_ten_board_uses_its_fifty_dark_squares_with_a1_dark() -> None:
    # docs/RULES.md, "Family 3": the FMJD board's a1 is dark; squares are rank * 10 + file.
    international = get_variant("international")
    assert (international.board_size, international.a1_dark) == (10, True)
    assert international.is_playable(0)  # a1
    assert not international.is_playable(1)  # b1
    assert international.is_playable(99)  # j10
    assert not international.is_playable(100)
    assert sum(international.is_playable(sq) for sq in range(100)) == 50
    dark = [sq for sq in range(100) if (sq % 10 + sq // 10) % 2 == 0]
    assert international.playable_mask == sum(1 << sq for sq in dark)


@pytest.mark.parametrize(
    ("base", "changes", "reason"),
    [
        ("international", {"a1_dark": False}, "10×10"),
        ("international", {"geometry": Geometry.ORTHOGONAL}, "10×10"),
        ("turkish", {"a1_dark": True}, "diagonal board only"),
        ("italian", {"board_size": 12}, "neither 8 nor 10"),
    ],
)
def test_a_variant_record_refuses_a_board_that_does_not_exist(
    base: str, changes: dict[str, object], reason: str
) -> None:
    variant = get_variant(base)
    with pytest.raises(ValueError, match=reason):
        dataclasses.replace(variant, **changes)  # type: ignore[arg-type]


def test_rule_parameters_follow_rules_md() -> None:
    turkish, arab, moroccan, italian = map(get_variant, ("turkish", "arab", "moroccan", "italian"))
    assert (turkish.men_per_side, arab.men_per_side) == (16, 16)
    assert (moroccan.men_per_side, italian.men_per_side) == (12, 12)
    assert turkish.flying_kings and arab.flying_kings and moroccan.flying_kings
    assert not italian.flying_kings
    assert turkish.capture_removal is CaptureRemoval.IMMEDIATE
    assert arab.capture_removal is CaptureRemoval.IMMEDIATE
    assert moroccan.capture_removal is CaptureRemoval.END_OF_MOVE
    assert italian.capture_removal is CaptureRemoval.END_OF_MOVE
    assert italian.numeric_notation
    assert not (turkish.numeric_notation or arab.numeric_notation or moroccan.numeric_notation)
    # PDN GameType numbers: 22 Italian, 30 Turkish; Arab and Moroccan have none.
    assert (italian.pdn_gametype, turkish.pdn_gametype) == (22, 30)
    assert arab.pdn_gametype is None and moroccan.pdn_gametype is None
    assert not italian.men_capture_kings and moroccan.men_capture_kings
    assert turkish.no_reversal and arab.no_reversal
    # Draw laws: one piece each for the orthogonal family; 30 plies Turkish, 80 otherwise.
    assert turkish.draw_law.one_piece_each and arab.draw_law.one_piece_each
    assert not moroccan.draw_law.one_piece_each and not italian.draw_law.one_piece_each
    assert turkish.draw_law.no_progress_plies == 30
    assert arab.draw_law.no_progress_plies == 80
    assert moroccan.draw_law.no_progress_plies == 80
    assert italian.draw_law.no_progress_plies == 80
    assert all(v.draw_law.repetitions == 3 for v in VARIANTS.values())


def test_variants_are_frozen_records() -> None:
    variant = get_variant("italian")
    with pytest.raises(AttributeError):
        variant.key = "x"  # type: ignore[misc]
    assert hash(variant) == hash(get_variant("italian"))


ENGINE = Path(__file__).resolve().parents[2] / "engine"
RULE_MODULES = (
    "movegen.py", "movegen_core.py", "movegen_tables.py", "notation.py", "game.py",
    "position.py",
)


@pytest.mark.parametrize("module", RULE_MODULES)
def test_rule_code_never_branches_on_a_variant_name(module: str) -> None:
    # docs/ARCHITECTURE.md: no `if variant == ...` outside the registry; rules read parameters.
    source = (ENGINE / module).read_text(encoding="utf-8")
    assert not re.search(r"\.key\s*(==|!=|\bin\b)", source)
    assert not re.search(r"variant\s*(==|!=|\bis\b)\s", source)
    for key in VARIANTS:
        assert f'"{key}"' not in source and f"'{key}'" not in source
