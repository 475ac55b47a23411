"""Fonts for pictures that write people's names (the standings picture): finding a real
font, choosing one that can draw a text, and what to write when none can.

Pillow's bundled font (`renderer.background.font`) has Latin letters without accents
only, so a name such as "Zoë", "Çağla" or "علي" would come out as boxes. The pictures
that write names use instead the first of `FONT_FILES` found on the machine: DejaVu Sans
(Debian's and Ubuntu's `fonts-dejavu-core`: Latin with every accent, Greek, Cyrillic,
Arabic, Hebrew, many symbols), then, when installed, a CJK font (`fonts-noto-cjk` or
`fonts-wqy-zenhei`), tried in that order for each text (`FontChain.pick`). When none of
the files is there, Pillow's bundled font is the only one, and names it cannot draw take
the fallback below: the picture is still right, only plainer.

Arabic and Hebrew are drawn only when Pillow lays text out with libraqm (shaping joins
Arabic letters and the Unicode Bidirectional Algorithm orders right-to-left runs):
`PIL.features.check("raqm")`, which Pillow's wheels provide when the system has FriBiDi
(`libfribidi0`). Without it a right-to-left text counts as one the font cannot draw,
because the basic layout would write its letters unjoined and in reverse order.

A text the fonts cannot draw is never drawn as boxes (`display_name`): invisible
formatting characters (joiners, direction marks, variation selectors) are dropped, then
symbols no font has (emoji) are dropped, and a name that still holds a letter or digit no
font can draw, or nothing at all, is written as the player's number ("#7").
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = Path("/usr/share/fonts")

FONT_FILES: tuple[tuple[str, str], ...] = (
    ("truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf"),
    ("opentype/noto/NotoSansCJK-Regular.ttc", "opentype/noto/NotoSansCJK-Bold.ttc"),
    ("truetype/wqy/wqy-zenhei.ttc", "truetype/wqy/wqy-zenhei.ttc"),
)
"""(regular, bold) font files under `FONT_DIR`, in the order they are tried; a missing
file is skipped (a missing bold file: the regular one serves)."""

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

_MISSING = "\ue000"
"""A private-use character: no font has a glyph for it, so it draws the missing-glyph box."""

_RIGHT_TO_LEFT = frozenset({"R", "AL"})


def raqm_available() -> bool:
    """Whether Pillow lays text out with libraqm (shaping and bidirectional order)."""
    return bool(features.check("raqm"))


def is_right_to_left(text: str) -> bool:
    """Whether `text` holds a right-to-left letter (Arabic, Hebrew: bidirectional class R
    or AL of the Unicode Bidirectional Algorithm)."""
    return any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in text)


def _glyph(char: str, font: Font) -> bytes:
    im = Image.new("L", (64, 64))
    ImageDraw.Draw(im).text((8, 8), char, font=font, fill=255)
    return im.tobytes()


@lru_cache(maxsize=64)
def _missing_glyph(font: Font) -> bytes:
    return _glyph(_MISSING, font)


@lru_cache(maxsize=8192)
def _char_drawable(char: str, font: Font) -> bool:
    return _glyph(char, font) != _missing_glyph(font)


def _shapes(font: Font) -> bool:
    return isinstance(font, ImageFont.FreeTypeFont) and (
        font.layout_engine == ImageFont.Layout.RAQM
    )


def font_draws(text: str, font: Font) -> bool:
    """Whether `font` has a glyph for every character of `text` (spaces aside; a
    character drawn exactly as the missing-glyph box is missing) and, for a right-to-left
    text, lays it out with libraqm."""
    if is_right_to_left(text) and not _shapes(font):
        return False
    return all(char.isspace() or _char_drawable(char, font) for char in set(text))


@dataclass(frozen=True, slots=True)
class FontChain:
    """The fonts of one size and weight, in the order they are tried."""

    fonts: tuple[Font, ...]

    @property
    def first(self) -> Font:
        """The main font (for digits, symbols and measuring)."""
        return self.fonts[0]

    def pick(self, text: str) -> Font | None:
        """The first font that draws the whole of `text` (`font_draws`), or None."""
        for font in self.fonts:
            if font_draws(text, font):
                return font
        return None

    def draws(self, char: str) -> bool:
        """Whether some font of the chain draws `char`."""
        return self.pick(char) is not None


def font_files(folder: Path = FONT_DIR, bold: bool = False) -> tuple[Path, ...]:
    """The files of `FONT_FILES` present under `folder`, regular or `bold`."""
    found: list[Path] = []
    for regular, heavy in FONT_FILES:
        path = folder / (heavy if bold else regular)
        if not path.is_file():
            path = folder / regular
        if path.is_file() and path not in found:
            found.append(path)
    return tuple(found)


@lru_cache(maxsize=32)
def font_chain(px: int, bold: bool = False, folder: Path = FONT_DIR) -> FontChain:
    """The fonts at `px` pixels: the files of `font_files` found under `folder` (a file
    Pillow cannot read is skipped), or Pillow's bundled font when none is."""
    fonts: list[Font] = []
    for path in font_files(folder, bold):
        try:
            fonts.append(ImageFont.truetype(str(path), px))
        except OSError:
            continue
    if not fonts:
        fonts.append(ImageFont.load_default(size=px))
    return FontChain(tuple(fonts))


MAX_MARKS = 2
"""Combining marks kept on one letter: enough for any language (Vietnamese stacks two),
and a name piling up dozens of marks (Discord's "Zalgo" names) stays in its row."""


def _invisible(char: str) -> bool:
    """Formatting and control characters, drawn as nothing by a shaping layout (and as
    boxes by the basic one): joiners, direction marks, variation selectors."""
    return unicodedata.category(char) in ("Cf", "Cc") or "\ufe00" <= char <= "\ufe0f"


def plain(text: str) -> str:
    """`text` on one line: without formatting and control characters, every run of
    white space (line breaks included) one space, at most MAX_MARKS combining marks on a
    letter."""
    kept: list[str] = []
    marks = 0
    for char in text:
        if char.isspace():
            char = " "
        elif _invisible(char):
            continue
        marks = marks + 1 if unicodedata.combining(char) else 0
        if marks <= MAX_MARKS:
            kept.append(char)
    return " ".join("".join(kept).split())


def display_name(name: str, number: int, chain: FontChain) -> str:
    """What the picture writes for the player `name` with pairing number `number`:
    `name` made `plain` and without the symbols no font of `chain` draws (emoji); or
    "#number" when a letter, digit or mark of it cannot be drawn, or when nothing is
    left. Never a text that would show missing-glyph boxes."""
    visible = plain(name)
    kept = "".join(char for char in visible
                    if char.isspace() or not unicodedata.category(char).startswith("S")
                    or chain.draws(char))
    kept = " ".join(kept.split())
    if kept and chain.pick(kept) is not None:
        return kept
    return f"#{number}"


def drawable_or(text: str, fallback: str, chain: FontChain) -> str:
    """`text` made `plain` when a font of `chain` draws it, else `fallback` (a caller's
    heading in a language the fonts cannot write falls back to a neutral one)."""
    shown = plain(text)
    return shown if chain.pick(shown) is not None else fallback
