"""PDN tag pairs and result tokens: names, the Italian tag names, escaping, results.

Standard PDN tags (FMJD PDN 3.0, after PGN's seven-tag roster): Event, Site, Date, Round,
White, Black, Result, and GameType and FEN for the variant and the start position. Our own
tag `Variant` names the variant by its key (`[Variant "arab"]`): Arab and Moroccan draughts
have no GameType number, and a file should always say what it holds.

Italian records (e.g. the Federazione Italiana Dama archives) use Italian tag names; they
are read as the standard ones: Bianco = White, Nero = Black, Risultato = Result,
Evento/Torneo/Dati = Event, Luogo/Sede = Site, Data = Date, Anno = Date (year only, written
`YYYY.??.??`), Turno = Round, Apertura = Opening.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

#: Tags every exported game carries first, in this order (PGN's roster without Round).
ROSTER = ("Event", "Site", "Date", "White", "Black", "Result")
ROSTER_DEFAULTS = {
    "Event": "?", "Site": "?", "Date": "????.??.??", "White": "?", "Black": "?", "Result": "*",
}
#: The tag of our own naming the variant by its key.
VARIANT_TAG = "Variant"

_STANDARD = {
    name.lower(): name
    for name in (*ROSTER, "Round", "GameType", "FEN", VARIANT_TAG, "Opening", "Annotator",
                 "Time", "TimeControl", "Termination")
}
_ITALIAN = {
    "bianco": "White",
    "nero": "Black",
    "risultato": "Result",
    "evento": "Event",
    "torneo": "Event",
    "dati": "Event",
    "luogo": "Site",
    "sede": "Site",
    "data": "Date",
    "anno": "Date",
    "turno": "Round",
    "apertura": "Opening",
}
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+\Z")
_YEAR = re.compile(r"\d{4}\Z")


class PdnResult(enum.Enum):
    """The result of a recorded game, valued by its PDN token."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    UNKNOWN = "*"

    @property
    def token(self) -> str:
        """The PDN token: `1-0`, `0-1`, `1/2-1/2` or `*`."""
        return self.value

    @classmethod
    def from_token(cls, text: str) -> PdnResult | None:
        """The result written as `text`, None when it is no result token.

        Accepts `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`, and the 2-point forms used by some
        federations: `2-0`, `0-2`, `1-1` (a draw) and `0-0` (no winner and no draw, as when
        both sides forfeit: read as `*`). Surrounding spaces are ignored.
        """
        return _RESULTS.get(text.strip())


_RESULTS = {
    "1-0": PdnResult.WHITE_WINS,
    "2-0": PdnResult.WHITE_WINS,
    "0-1": PdnResult.BLACK_WINS,
    "0-2": PdnResult.BLACK_WINS,
    "1/2-1/2": PdnResult.DRAW,
    "½-½": PdnResult.DRAW,
    "1-1": PdnResult.DRAW,
    "*": PdnResult.UNKNOWN,
    "0-0": PdnResult.UNKNOWN,
}


def standard_tag_name(name: str) -> str:
    """The standard spelling of tag `name`: Italian names and case variants of the known
    standard tags mapped (`Bianco` -> `White`, `gametype` -> `GameType`); others unchanged."""
    key = name.lower()
    return _STANDARD.get(key) or _ITALIAN.get(key) or name


def normalize_tags(pairs: Iterable[tuple[str, str]]) -> tuple[dict[str, str], list[str]]:
    """The tags of `pairs` under their standard names, and warnings about what was changed.

    `pairs`: (name, value) in file order. An Italian year tag `Anno "2005"` becomes
    `Date "2005.??.??"`. When two tags map to one standard name the first keeps it and a
    later one keeps its own name (both are kept); the same name written twice keeps the
    first value and warns. Values are stripped of surrounding spaces.
    """
    tags: dict[str, str] = {}
    warnings: list[str] = []
    for name, raw_value in pairs:
        value = raw_value.strip()
        standard = standard_tag_name(name)
        if standard == "Date" and name.lower() == "anno" and _YEAR.match(value):
            value = f"{value}.??.??"
        if standard not in tags:
            tags[standard] = value
        elif name not in tags:
            tags[name] = value
        elif tags[name] != value:
            warnings.append(f"tag {name} is given twice; kept {tags[name]!r}, not {value!r}")
    return tags, warnings


def check_tag_name(name: str) -> None:
    """Raise ValueError unless `name` can be written as a PDN tag name (letters, digits, _)."""
    if not _TAG_NAME.match(name):
        raise ValueError(
            f"{name!r} cannot be a PDN tag name: use letters, digits and underscores only"
        )


def format_tag(name: str, value: str) -> str:
    """The tag pair line `[Name "value"]`, quotes and backslashes escaped, line breaks in
    the value turned into spaces. Raises ValueError for a name `check_tag_name` refuses."""
    check_tag_name(name)
    clean = " ".join(value.splitlines()) if ("\n" in value or "\r" in value) else value
    escaped = clean.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'
