"""Permission names as the stand-in writes them in its refusals (standin/model.py)."""

from __future__ import annotations

from standin.model import permission_names


def test_names_a_single_permission_by_discords_flag_name() -> None:
    # Discord's Bitwise Permission Flags table: MANAGE_GUILD is 0x20.
    assert permission_names(0x20) == "MANAGE_GUILD"


def test_names_several_permissions_lowest_bit_first() -> None:
    # ADMINISTRATOR 0x8, MANAGE_MESSAGES 0x2000.
    assert permission_names(0x8 | 0x2000) == "ADMINISTRATOR and MANAGE_MESSAGES"


def test_unknown_bits_are_kept_as_a_number() -> None:
    # Bit 40 is not among the stand-in's known flags.
    assert permission_names(0x20 | (1 << 40)) == f"MANAGE_GUILD and {1 << 40}"
    assert permission_names(0) == "0"
