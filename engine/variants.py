"""The variant registry: one frozen record of rule parameters per variant.

Every rule difference between the variants is a named parameter here; move generation,
notation and the game's draw rules read these parameters and never compare variant names.
The rules themselves are restated in ``docs/RULES.md`` (project documentation): Turkish
draughts, Arab Dama, Moroccan draughts and Italian draughts, from their four rule pages,
and the variants of its "Family 3" (Brazilian, International, Russian draughts and English
checkers, the variants whose board has a dark a1), whose records are in
``engine.variants_a1_dark`` (`A1_DARK_VARIANTS`). `VARIANTS` lists the eight, which the bot
offers; the record's type and its enums are in ``engine.variant_rules`` and
re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.errors import UnknownVariantError, quoted
from engine.variant_rules import (
    CapturePrecedence,
    CaptureRemoval,
    CountFrom,
    CrownedMidCapture,
    DrawLaw,
    Endgame,
    EndgameRule,
    Geometry,
    MovesOf,
    Variant,
)
from engine.variants_a1_dark import (
    A1_DARK_VARIANTS,
    BRAZILIAN,
    ENGLISH,
    INTERNATIONAL,
    RUSSIAN,
)

__all__ = [
    "A1_DARK_VARIANTS",
    "ARAB",
    "BRAZILIAN",
    "ENGLISH",
    "INTERNATIONAL",
    "ITALIAN",
    "MOROCCAN",
    "RUSSIAN",
    "TURKISH",
    "VARIANTS",
    "CapturePrecedence",
    "CaptureRemoval",
    "CountFrom",
    "CrownedMidCapture",
    "DrawLaw",
    "Endgame",
    "EndgameRule",
    "Geometry",
    "MovesOf",
    "Variant",
    "get_variant",
]

_ORTHOGONAL_START = (
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
    ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
)
_DIAGONAL_START = (
    "W:Wb1,d1,f1,h1,a2,c2,e2,g2,b3,d3,f3,h3"
    ":Ba6,c6,e6,g6,b7,d7,f7,h7,a8,c8,e8,g8"
)

TURKISH = Variant(
    key="turkish",
    name="Turkish draughts",
    aliases=("dama", "turkish-draughts", "turkish-dama", "turk", "tr"),
    geometry=Geometry.ORTHOGONAL,
    board_size=8,
    a1_dark=False,
    men_per_side=16,
    man_sideways=True,
    men_capture_backward=False,
    flying_kings=True,
    capture_removal=CaptureRemoval.IMMEDIATE,
    no_reversal=True,
    men_capture_kings=True,
    capture_precedence=CapturePrecedence.MAXIMUM,
    crowned_mid_capture=CrownedMidCapture.CONTINUES_AS_MAN,
    draw_law=DrawLaw(repetitions=3, one_piece_each=True, no_progress_plies=30),
    numeric_notation=False,
    pdn_gametype=30,
    start_fen=_ORTHOGONAL_START,
)

ARAB = Variant(
    key="arab",
    name="Arab Dama",
    aliases=("arab-dama", "arabic", "arabic-dama", "arab-draughts", "ar"),
    geometry=Geometry.ORTHOGONAL,
    board_size=8,
    a1_dark=False,
    men_per_side=16,
    man_sideways=True,
    men_capture_backward=False,
    flying_kings=True,
    capture_removal=CaptureRemoval.IMMEDIATE,
    no_reversal=True,
    men_capture_kings=True,
    capture_precedence=CapturePrecedence.MAXIMUM,
    crowned_mid_capture=CrownedMidCapture.CONTINUES_AS_MAN,
    draw_law=DrawLaw(repetitions=3, one_piece_each=True, no_progress_plies=80),
    numeric_notation=False,
    pdn_gametype=None,
    start_fen=_ORTHOGONAL_START,
)

MOROCCAN = Variant(
    key="moroccan",
    name="Moroccan draughts",
    aliases=("moroccan-draughts", "morocco", "ma"),
    geometry=Geometry.DIAGONAL,
    board_size=8,
    a1_dark=False,
    men_per_side=12,
    man_sideways=False,
    men_capture_backward=False,
    flying_kings=True,
    capture_removal=CaptureRemoval.END_OF_MOVE,
    no_reversal=False,
    men_capture_kings=True,
    capture_precedence=CapturePrecedence.MAXIMUM,
    crowned_mid_capture=CrownedMidCapture.MOVE_ENDS,
    draw_law=DrawLaw(repetitions=3, one_piece_each=False, no_progress_plies=80),
    numeric_notation=False,
    pdn_gametype=None,
    start_fen=_DIAGONAL_START,
)

ITALIAN = Variant(
    key="italian",
    name="Italian draughts",
    aliases=("italian-draughts", "dama-italiana", "italiana", "it"),
    geometry=Geometry.DIAGONAL,
    board_size=8,
    a1_dark=False,
    men_per_side=12,
    man_sideways=False,
    men_capture_backward=False,
    flying_kings=False,
    capture_removal=CaptureRemoval.END_OF_MOVE,
    no_reversal=False,
    men_capture_kings=False,
    capture_precedence=CapturePrecedence.ITALIAN_LADDER,
    crowned_mid_capture=CrownedMidCapture.MOVE_ENDS,
    draw_law=DrawLaw(repetitions=3, one_piece_each=False, no_progress_plies=80),
    numeric_notation=True,
    pdn_gametype=22,
    start_fen=_DIAGONAL_START,
)

VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {v.key: v for v in (TURKISH, ARAB, MOROCCAN, ITALIAN, *A1_DARK_VARIANTS.values())}
)

_LOOKUP: dict[str, Variant] = {}
for _v in VARIANTS.values():
    for _name in (_v.key, *_v.aliases):
        _LOOKUP[_name] = _v


def _normalize(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def get_variant(name: str) -> Variant:
    """The variant called `name`: a key or an alias, any case; spaces, `_` and `-` alike.

    Raises UnknownVariantError (a ValueError) listing the valid names when there is none.
    """
    found = _LOOKUP.get(_normalize(name))
    if found is None:
        valid = tuple(VARIANTS)
        raise UnknownVariantError(
            f"unknown variant {quoted(name)}: choose one of {', '.join(valid)}", valid
        )
    return found
