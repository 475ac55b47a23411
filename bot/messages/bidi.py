"""Unicode directional isolates (UAX #9): a parameter inside a right-to-left sentence
keeps its own direction (`isolate`)."""

from __future__ import annotations

FSI = "\u2068"
"""FIRST STRONG ISOLATE: starts a run whose direction its first strong character decides."""
LRI = "\u2066"
"""LEFT-TO-RIGHT ISOLATE: starts a run shown left to right (notation inside Arabic)."""
RLI = "\u2067"
"""RIGHT-TO-LEFT ISOLATE: starts a run shown right to left (an Arabic line whose values'
order carries its meaning, so that it reads the same in a left-to-right paragraph)."""
PDI = "\u2069"
"""POP DIRECTIONAL ISOLATE: ends the run an isolate started."""

_OPENERS = frozenset("\u2066\u2067\u2068")
"""LRI, RLI, FSI: the characters that open an isolate (closed by PDI)."""


def isolate(value: str) -> str:
    """`value` between FSI and PDI (Unicode Bidirectional Algorithm, UAX #9, section 2.7):
    inside a right-to-left sentence a mention, a move (`d3-d4`, `22x13`), a square or a
    rating keeps its own direction and does not reorder the words around it. Isolates
    inside `value` (a display name is the user's to write) are balanced first: a stray PDI
    is dropped and an unclosed isolate closed, so the value cannot end this isolate early
    nor leave one open over the rest of the sentence."""
    kept: list[str] = []
    depth = 0
    for char in value:
        if char in _OPENERS:
            depth += 1
        elif char == PDI:
            if depth == 0:
                continue
            depth -= 1
        kept.append(char)
    return f"{FSI}{''.join(kept)}{PDI * depth}{PDI}"

