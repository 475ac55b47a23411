"""Which variant a PDN game is: by its GameType number or our own `Variant` tag.

PDN reads and writes every variant the bot offers (`engine.VARIANTS`); the GameTypes of the
four of docs/RULES.md's "Family 3" are Brazilian draughts (GameType 26), International
draughts (20), Russian draughts (25) and English checkers (21). GameType numbers,
notations and capture separators: the FMJD's PDN 3.0 table
(https://pdn.fmjd.org/gametype.html), where International is ``20,W,10,10,N2,0`` (numeric
squares 1-50), English draughts ``21,B,8,8,N1,0`` (numeric squares 1-32, Black first),
Russian ``25,W,8,8,A0,0`` (algebraic squares, captures written with ``:``) and Brazilian
``26,W,8,8,A0,0`` (algebraic squares): so Brazilian and Russian records are read and
written with algebraic squares, International and English ones with numbers unless asked
otherwise.
"""

from __future__ import annotations

import re

from engine.variants import VARIANTS, Variant

#: GameTypes whose preferred notation in the FMJD's table is numeric and which PDN export
#: writes with numbers by default: 20, International draughts (``20,W,10,10,N2,0``), and
#: 21, English draughts (``21,B,8,8,N1,0``).
NUMERIC_BY_DEFAULT = frozenset({20, 21})

_GAMETYPE = re.compile(r"\s*(\d+)")

#: The capture separator of the FMJD's table where it is not ``x``: 25, Russian draughts
#: (``c3:e5``).
CAPTURE_SEPARATORS = {25: ":"}


def gametype_number(text: str) -> int | None:
    """The type number a GameType tag's value starts with (`20` and `20,W,10,10,N2,0`
    give 20), None when it starts with none."""
    match = _GAMETYPE.match(text)
    return int(match.group(1)) if match else None


def by_gametype(number: int) -> Variant | None:
    """The variant PDN reads for GameType `number`, or None when it plays none with that
    number."""
    return next((v for v in VARIANTS.values() if v.pdn_gametype == number), None)


def numeric_by_default(variant: Variant) -> bool:
    """Whether PDN export writes `variant`'s squares as numbers when not told
    (`NUMERIC_BY_DEFAULT`)."""
    return variant.pdn_gametype in NUMERIC_BY_DEFAULT


def capture_separator(variant: Variant) -> str:
    """The sign PDN export writes between the squares of `variant`'s captures: ``:`` for
    Russian draughts, ``x`` elsewhere (`CAPTURE_SEPARATORS`)."""
    if variant.pdn_gametype is None:
        return "x"
    return CAPTURE_SEPARATORS.get(variant.pdn_gametype, "x")


def numbered_like(variant: Variant) -> Variant | None:
    """The variant whose square numbers a FEN tag of `variant` written in numbers is read
    with: `variant` itself when it has numeric notation, else the variant PDN reads on the
    same board (geometry, size, colour of a1) that has numbers (Russian and Brazilian:
    English checkers, 1 = b8, 32 = g1), None when there is none."""
    if variant.numeric_notation:
        return variant
    return next(
        (v for v in VARIANTS.values() if v.numeric_notation and v.geometry is variant.geometry
         and v.board_size == variant.board_size and v.a1_dark == variant.a1_dark),
        None,
    )
