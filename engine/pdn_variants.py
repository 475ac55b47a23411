"""Which variant a PDN game is: by its GameType number or our own `Variant` tag.

PDN reads and writes every variant the engine plays: those the bot offers
(`engine.VARIANTS`) and the staged ones whose moves the generator already plays
(`engine.staged_variants`, without `engine.movegen_core.unsupported_rules`): Brazilian
draughts (GameType 26) and International draughts (GameType 20). GameType numbers: the FMJD's
PDN 3.0 table (https://pdn.fmjd.org/gametype.html), where International is
``20,W,10,10,N2,0`` (numeric squares 1-50) and Brazilian ``26,W,8,8,A0,0`` (algebraic
squares, a1 dark): so Brazilian records are read and written with algebraic squares, and
International records with the FMJD's numbers unless asked otherwise.
"""

from __future__ import annotations

from engine.errors import UnknownVariantError, quoted
from engine.movegen_core import unsupported_rules
from engine.staged_variants import STAGED_VARIANTS
from engine.variants import VARIANTS, Variant, get_variant

#: GameTypes whose preferred notation in the FMJD's table is numeric and which PDN export
#: writes with numbers by default: 20, International draughts (``20,W,10,10,N2,0``).
NUMERIC_BY_DEFAULT = frozenset({20})


def pdn_variants() -> tuple[Variant, ...]:
    """The variants PDN reads and writes: the bot's, then the staged variants the move
    generator plays."""
    staged = tuple(v for v in STAGED_VARIANTS.values() if not unsupported_rules(v))
    return (*VARIANTS.values(), *staged)


def pdn_variant(name: str) -> Variant:
    """The variant a `Variant` tag names: a key or alias of `engine.get_variant`, or the key
    of a staged variant PDN reads (`pdn_variants`).

    Raises UnknownVariantError (a ValueError) listing the names PDN reads when there is
    none."""
    try:
        return get_variant(name)
    except UnknownVariantError:
        key = name.strip().lower()
        for variant in pdn_variants():
            if variant.key == key:
                return variant
        valid = tuple(v.key for v in pdn_variants())
        raise UnknownVariantError(
            f"unknown variant {quoted(name)}: choose one of {', '.join(valid)}", valid
        ) from None


def by_gametype(number: int) -> Variant | None:
    """The variant PDN reads for GameType `number`, or None when it plays none with that
    number."""
    return next((v for v in pdn_variants() if v.pdn_gametype == number), None)


def numeric_by_default(variant: Variant) -> bool:
    """Whether PDN export writes `variant`'s squares as numbers when not told
    (`NUMERIC_BY_DEFAULT`)."""
    return variant.pdn_gametype in NUMERIC_BY_DEFAULT
