"""Painting the standings picture (`renderer.standings` says what goes where) and its
entry points `render_standings_image` and `render_standings_png`.

The colours are the boards' (renderer.theme): the walnut frame around a table on the
light squares' parchment, a header on the frame's bevel colour. Results differ by a
symbol or the caller's points as well as by tint (green win, sand draw, rose loss), so
they read without colour; a forfeit's cell is hatched (a game not played) and has no
side disc; a doubled arena score is lit orange, the flame's colour. The podium's rank
discs are gold, silver and bronze, and its names bold.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal, assert_never

from PIL import Image, ImageDraw, ImageFont

from engine import Color
from renderer.fonts import FontChain
from renderer.standings import (
    DISC,
    FLAME_WIDTH,
    MARGIN,
    NOTE_HEIGHT,
    PAD,
    ROW_HEIGHT,
    TITLE_HEIGHT,
    CellResult,
    Column,
    ColumnKind,
    Fonts,
    PlacedRow,
    RoundCell,
    StandingsLayout,
    StandingsTable,
    TextDirection,
    cell_text,
    fonts,
    standings_layout,
    text_width,
)
from renderer.theme import DEFAULT_THEME, RGB

PNG_COMPRESS_LEVEL = 6
"""zlib level of the standings PNG (see `render_standings_png`)."""

MAX_BYTES = 10 * 1024 * 1024
"""Discord's limit for an attachment (10 MiB); the picture stays far under it."""


@dataclass(frozen=True, slots=True)
class StandingsTheme:
    """The standings picture's colours (RGB), taken from the boards' theme where one
    fits."""

    frame: RGB = DEFAULT_THEME.frame
    bevel: RGB = DEFAULT_THEME.frame_bevel
    frame_text: RGB = DEFAULT_THEME.coordinate_text
    row: RGB = DEFAULT_THEME.light_square
    row_alternate: RGB = DEFAULT_THEME.number_on_dark
    text: RGB = (40, 28, 20)
    grid: RGB = (200, 172, 136)
    win: RGB = (188, 224, 168)
    draw: RGB = (220, 216, 208)
    loss: RGB = (240, 188, 176)
    neutral: RGB = (236, 228, 212)
    hatch: RGB = (156, 128, 100)
    doubled: RGB = (252, 188, 96)
    gold: RGB = DEFAULT_THEME.crown
    silver: RGB = (196, 200, 208)
    bronze: RGB = (208, 140, 80)
    flame: RGB = (236, 88, 24)
    flame_core: RGB = (252, 208, 64)
    white_side: RGB = DEFAULT_THEME.white_face
    black_side: RGB = DEFAULT_THEME.black_face
    side_outline: RGB = DEFAULT_THEME.white_outline


DEFAULT_STANDINGS_THEME = StandingsTheme()

Anchor = Literal["lm", "mm", "rm"]


@dataclass(frozen=True, slots=True)
class _Painter:
    image: Image.Image
    draw: ImageDraw.ImageDraw
    layout: StandingsLayout
    fonts: Fonts
    theme: StandingsTheme

    @property
    def rtl(self) -> bool:
        return self.layout.direction is TextDirection.RIGHT_TO_LEFT

    def text(self, xy: tuple[float, float], text: str, chain: FontChain, fill: RGB,
             anchor: Anchor = "mm", caller_words: bool = False) -> None:
        """`text` in the chain's first font that draws it (callers pass drawable texts).
        `caller_words`: a text in the caller's language, laid out right to left in a
        right-to-left table (names are laid out by their own letters)."""
        font = chain.pick(text) or chain.first
        rtl_base = caller_words and self.rtl and isinstance(font, ImageFont.FreeTypeFont) \
            and font.layout_engine == ImageFont.Layout.RAQM
        self.draw.text(xy, text, fill=fill, font=font, anchor=anchor,
                       direction="rtl" if rtl_base else None)

    def start(self, column: Column) -> tuple[float, Anchor]:
        """Where a text aligned to the reading start of `column` is anchored."""
        if self.rtl:
            return column.right - PAD, "rm"
        return column.left + PAD, "lm"


def _podium(theme: StandingsTheme, rank: int) -> RGB | None:
    return {1: theme.gold, 2: theme.silver, 3: theme.bronze}.get(rank)


def _tint(cell: RoundCell, theme: StandingsTheme) -> RGB:
    if cell.doubled:
        return theme.doubled
    match cell.result:
        case CellResult.WIN | CellResult.FORFEIT_WIN:
            return theme.win
        case CellResult.DRAW:
            return theme.draw
        case CellResult.LOSS | CellResult.FORFEIT_LOSS:
            return theme.loss
        case CellResult.BYE | CellResult.NOT_PAIRED | CellResult.UNDER_WAY:
            return theme.neutral
        case _ as unreachable:
            assert_never(unreachable)


def draw_flame(draw: ImageDraw.ImageDraw, left: float, middle: float,
               theme: StandingsTheme) -> None:
    """The streak's flame, FLAME_WIDTH wide, centred on `middle`: an orange tongue with a
    yellow core (a shape, so no font needs an emoji)."""
    w = FLAME_WIDTH
    h = w * 1.25

    def tongue(scale: float) -> list[tuple[float, float]]:
        cx, bottom = left + w / 2, middle + h / 2
        return [(cx + dx * w * scale, bottom - dy * h * scale) for dx, dy in (
            (0, 0), (0.42, 0.12), (0.5, 0.4), (0.3, 0.72), (0.12, 1.0), (0.08, 0.7),
            (-0.08, 0.78), (-0.36, 0.58), (-0.5, 0.34), (-0.42, 0.12))]

    draw.polygon(tongue(1.0), fill=theme.flame)
    draw.polygon(tongue(0.5), fill=theme.flame_core)


def _cell(p: _Painter, column: Column, top: int, cell: RoundCell) -> None:
    theme = p.theme
    w, h = column.width - 6, ROW_HEIGHT - 6
    tile = Image.new("RGB", (w, h), _tint(cell, theme))
    forfeit = cell.result in (CellResult.FORFEIT_WIN, CellResult.FORFEIT_LOSS)
    if forfeit:
        hatch = ImageDraw.Draw(tile)
        for hx in range(-h, w, 9):
            hatch.line((hx, h, hx + h, 0), fill=theme.hatch, width=1)
    p.image.paste(tile, (column.left + 3, top + 3))
    opponent, result = cell_text(cell)
    disc = cell.colour is not None and not forfeit
    parts: list[tuple[str | None, int, FontChain]] = []  # None: the side disc
    if opponent:
        parts.append((opponent, text_width(opponent, p.fonts.text), p.fonts.text))
    if disc:
        parts.append((None, DISC, p.fonts.text))
    parts.append((result, text_width(result, p.fonts.bold), p.fonts.bold))
    gap = 5
    total = sum(w for _, w, _ in parts) + gap * (len(parts) - 1)
    x = (column.left + column.right - total) / 2
    middle = top + ROW_HEIGHT / 2
    for text, w, chain in reversed(parts) if p.rtl else parts:
        if text is None:
            fill = theme.white_side if cell.colour is Color.WHITE else theme.black_side
            p.draw.ellipse((x, middle - DISC / 2, x + DISC, middle + DISC / 2), fill=fill,
                           outline=theme.side_outline, width=2)
        elif text:
            p.text((x + w / 2, middle), text, chain, theme.text)
        x += w + gap


def _row(p: _Painter, k: int, placed: PlacedRow) -> None:
    theme, row, top = p.theme, placed.row, placed.top
    middle = top + ROW_HEIGHT / 2
    left, right = p.layout.columns[0].left, p.layout.columns[0].right
    for column in p.layout.columns:
        left, right = min(left, column.left), max(right, column.right)
    p.draw.rectangle((left, top, right - 1, top + ROW_HEIGHT - 1),
                     fill=theme.row if k % 2 == 0 else theme.row_alternate)
    podium = _podium(theme, row.rank)
    for column in p.layout.columns:
        match column.kind:
            case ColumnKind.RANK:
                cx = (column.left + column.right) / 2
                if podium is not None:
                    r = ROW_HEIGHT / 2 - 5
                    p.draw.ellipse((cx - r, middle - r, cx + r, middle + r), fill=podium,
                                   outline=theme.side_outline, width=1)
                p.text((cx, middle), str(row.rank), p.fonts.bold, theme.text)
            case ColumnKind.PLAYER:
                chain = p.fonts.bold if podium is not None else p.fonts.text
                x, anchor = p.start(column)
                p.text((x, middle), placed.name, chain, theme.text, anchor)
                if row.on_fire:
                    w = text_width(placed.name, chain) + 6
                    flame_left = x - w - FLAME_WIDTH if p.rtl else x + w
                    draw_flame(p.draw, flame_left, middle, theme)
            case ColumnKind.SCORE:
                p.text(((column.left + column.right) / 2, middle), row.score, p.fonts.bold,
                       theme.text)
            case ColumnKind.TIE_BREAK:
                p.text(((column.left + column.right) / 2, middle),
                       row.tie_breaks[column.index], p.fonts.text, theme.text)
            case ColumnKind.ROUND:
                if column.index < len(placed.cells):
                    _cell(p, column, top, placed.cells[column.index])
            case _ as unreachable:
                assert_never(unreachable)
    p.draw.line((left, top + ROW_HEIGHT - 1, right - 1, top + ROW_HEIGHT - 1),
                fill=theme.grid, width=1)


def _frame(p: _Painter) -> None:
    layout, theme = p.layout, p.theme
    columns = layout.columns
    left = min(c.left for c in columns)
    right = max(c.right for c in columns)
    bottom = layout.header_top + ROW_HEIGHT * (len(layout.rows) + 1)
    p.draw.rectangle((left - 3, layout.header_top - 3, right + 2, bottom + 2), fill=theme.bevel)
    edge = layout.width - MARGIN if p.rtl else MARGIN
    if layout.title:
        p.text((edge, MARGIN + TITLE_HEIGHT / 2 - 4), layout.title, p.fonts.title,
               theme.frame_text, "rm" if p.rtl else "lm", caller_words=True)
    middle = layout.header_top + ROW_HEIGHT / 2
    for column in columns:
        if column.kind is ColumnKind.PLAYER:
            x, anchor = p.start(column)
            p.text((x, middle), column.heading, p.fonts.bold, theme.frame_text, anchor,
                   caller_words=True)
        else:
            p.text(((column.left + column.right) / 2, middle), column.heading, p.fonts.bold,
                   theme.frame_text, caller_words=True)
    for i, note in enumerate(layout.notes):
        y = layout.notes_top + NOTE_HEIGHT * i + NOTE_HEIGHT / 2
        p.text((edge, y), note, p.fonts.text, theme.frame_text, "rm" if p.rtl else "lm",
               caller_words=True)


def render_standings_image(table: StandingsTable,
                           theme: StandingsTheme = DEFAULT_STANDINGS_THEME) -> Image.Image:
    """The standings picture of `table` as an RGB Pillow image, as wide as its columns
    need and one row high per player drawn (see renderer.standings).

    Raises RenderError as `renderer.standings.standings_layout`."""
    layout = standings_layout(table)
    im = Image.new("RGB", (layout.width, layout.height), theme.frame)
    painter = _Painter(im, ImageDraw.Draw(im), layout, fonts(), theme)
    _frame(painter)
    for k, placed in enumerate(layout.rows):
        _row(painter, k, placed)
    for column in layout.columns[1:]:
        x = column.right if painter.rtl else column.left
        top = layout.header_top + ROW_HEIGHT
        painter.draw.line((x, top, x, top + ROW_HEIGHT * len(layout.rows) - 1),
                          fill=theme.grid, width=1)
    return im


def render_standings_png(table: StandingsTable,
                         theme: StandingsTheme = DEFAULT_STANDINGS_THEME) -> bytes:
    """The standings picture of `table` as PNG bytes: 256 colours (a palette made for
    the picture by Pillow's fast octree, without dithering: 0.1 s for 50 rows where a
    median cut and the smallest encoding take 0.6 s, for a file 4 % smaller), no
    metadata, so the same table gives the same bytes on one machine. At most
    `renderer.standings.MAX_ROWS` rows and `MAX_ROUNDS` rounds by default keep it far
    under MAX_BYTES (Discord's limit). CPU work of about 0.1 s: call it from a worker
    thread in async code.

    Raises RenderError as `renderer.standings.standings_layout`."""
    image = render_standings_image(table, theme)
    buffer = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()

