"""The evaluation graph of an analysed game (`engine.analysis.GameAnalysis`) as a PNG.

One point for the start position and one after every ply, from White's side: up is good
for White, down for Black. The values are drawn as winning chances (-1..1, see
`engine.analysis.winning_chances`), so a won position reaches the edge and a man up sits
halfway, and a swing of winning chances (what a judgement measures) is a swing of height.
The area between the curve and the middle line is filled ivory above (White better) and
near-black below (Black better), the colours of the pieces. Inaccuracies, mistakes and
blunders are marked on the point after the ply with a ring in yellow, orange and red, of
growing size, so they differ by size as well as hue.

The axes carry ticks: under the plot the ply numbers at a round step (1, 2 or 5 times a
power of ten) that gives at most 8 intervals, so a 4-ply game shows 0 to 4; at the plot's
left edge the values of 1 and 2 men for either side (+1, +2, -1, -2; 0 is the middle
line), with faint lines across, so a curve that stays near the middle shows how near.

Legibility on a phone: Discord shows an attached picture about 360 pixels wide on a
phone, a third of the default width (1080); the text is 36 px here, 12 px there, and the
marks' rings 9 to 15 px across there.
"""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from engine.analysis import GameAnalysis, Judgement, winning_chances
from renderer.background import font
from renderer.errors import RenderError

WIDTH = 1080
HEIGHT = 540
MIN_WIDTH = 360

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class GraphTheme:
    """The graph's colours (RGB)."""

    background: RGB = (44, 48, 56)
    plot: RGB = (92, 96, 104)
    white_area: RGB = (244, 236, 216)
    black_area: RGB = (24, 20, 16)
    line: RGB = (32, 96, 200)
    middle: RGB = (160, 164, 172)
    grid: RGB = (120, 124, 132)
    text: RGB = (236, 236, 240)
    inaccuracy: RGB = (240, 200, 40)
    mistake: RGB = (244, 128, 24)
    blunder: RGB = (220, 36, 28)


DEFAULT_GRAPH_THEME = GraphTheme()

_RADIUS = {Judgement.INACCURACY: 14, Judgement.MISTAKE: 18, Judgement.BLUNDER: 23}

MARKS = ("?!", "?", "??")
"""The judgements' annotation marks (inaccuracy, mistake, blunder), written in the legend
instead of the words when the font cannot draw a word (`legend_labels`)."""

_MISSING = "\ue000"
"""A private-use character: no font has a glyph for it, so it draws the missing-glyph box."""


def _glyph(char: str, text_font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> bytes:
    im = Image.new("L", (64, 64))
    ImageDraw.Draw(im).text((8, 8), char, font=text_font, fill=255)
    return im.tobytes()


def drawable(text: str, text_font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> bool:
    """Whether `text_font` has a glyph for every character of `text` (spaces aside): a
    character drawn exactly as the missing-glyph box is missing."""
    missing = _glyph(_MISSING, text_font)
    return all(char.isspace() or _glyph(char, text_font) != missing for char in set(text))


def legend_labels(
    labels: tuple[str, str, str], text_font: ImageFont.FreeTypeFont | ImageFont.ImageFont
) -> tuple[str, str, str]:
    """The legend's words, or the judgements' marks (`MARKS`) when the font cannot draw
    one of the words: the bundled font has Latin letters without accents only, so Arabic,
    Turkish or French words would show as boxes."""
    if all(drawable(label, text_font) for label in labels):
        return labels
    return MARKS


@dataclass(frozen=True, slots=True)
class GraphLayout:
    """Where the plot sits in a picture of `width` x `height` pixels."""

    width: int
    height: int

    @property
    def scale(self) -> float:
        return self.width / WIDTH

    @property
    def left(self) -> int:
        return round(24 * self.scale)

    @property
    def right(self) -> int:
        return self.width - round(24 * self.scale)

    @property
    def top(self) -> int:
        return round(76 * self.scale)

    @property
    def bottom(self) -> int:
        return self.height - round(64 * self.scale)

    def x(self, index: int, count: int) -> float:
        """Horizontal position of point `index` of `count` points."""
        if count <= 1:
            return (self.left + self.right) / 2
        return self.left + (self.right - self.left) * index / (count - 1)

    def y(self, score: int) -> float:
        """Vertical position of a value from White's side (a man = 100)."""
        middle = (self.top + self.bottom) / 2
        return middle - winning_chances(score) * (self.bottom - self.top) / 2


MAX_PLY_INTERVALS = 8
"""At most this many intervals between the ply ticks."""

SCORE_TICKS = (200, 100, -100, -200)
"""Values (a man = 100) ticked at the plot's left edge, from the top (see the docstring)."""


def ply_ticks(plies: int) -> tuple[int, ...]:
    """The ply numbers to tick under a graph of `plies` plies (0 for the start position
    included): multiples of the smallest step among 1, 2, 5, 10, 20, 50... that leaves at
    most MAX_PLY_INTERVALS intervals.

    Raises ValueError for a negative `plies`."""
    if plies < 0:
        raise ValueError(f"a game has 0 plies or more, not {plies}")
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            if plies <= step * MAX_PLY_INTERVALS:
                return tuple(range(0, plies + 1, step))
        magnitude *= 10


def graph_points(analysis: GameAnalysis, layout: GraphLayout) -> list[tuple[float, float]]:
    """The curve's points: one for the start position and one after every ply."""
    count = len(analysis.evaluations)
    return [(layout.x(i, count), layout.y(v)) for i, v in enumerate(analysis.evaluations)]


def _with_crossings(
    points: list[tuple[float, float]], middle: float
) -> list[tuple[float, float]]:
    out = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if (y0 - middle) * (y1 - middle) < 0:
            t = (middle - y0) / (y1 - y0)
            out.append((x0 + t * (x1 - x0), middle))
        out.append((x1, y1))
    return out


def _colour(judgement: Judgement, theme: GraphTheme) -> RGB:
    return {
        Judgement.INACCURACY: theme.inaccuracy,
        Judgement.MISTAKE: theme.mistake,
        Judgement.BLUNDER: theme.blunder,
    }[judgement]


def render_graph_image(
    analysis: GameAnalysis,
    *,
    width: int = WIDTH,
    labels: tuple[str, str, str] = ("inaccuracy", "mistake", "blunder"),
    theme: GraphTheme = DEFAULT_GRAPH_THEME,
) -> Image.Image:
    """The graph as a Pillow image `width` pixels wide (half as high). `labels`: the
    legend's words for the three judgements (the caller's language; the marks ?!, ?, ??
    instead when the font cannot draw them, `legend_labels`).

    Raises RenderError for a width below MIN_WIDTH or an analysis without points."""
    if width < MIN_WIDTH:
        raise RenderError(f"the graph must be at least {MIN_WIDTH} pixels wide, not {width}")
    if not analysis.evaluations:
        raise RenderError("the analysis has no evaluations to draw")
    layout = GraphLayout(width, width // 2)
    s = layout.scale
    im = Image.new("RGB", (layout.width, layout.height), theme.background)
    draw = ImageDraw.Draw(im)
    draw.rectangle((layout.left, layout.top, layout.right, layout.bottom), fill=theme.plot)
    middle = (layout.top + layout.bottom) / 2
    points = graph_points(analysis, layout)
    if len(points) == 1:
        points = [(layout.left, points[0][1]), (layout.right, points[0][1])]
    # Areas: above the middle ivory, below near-black, clipped by the curve (with the
    # points where it crosses the middle, so each area stops exactly there).
    crossed = _with_crossings(points, middle)
    upper = [(layout.left, middle), *[(x, min(y, middle)) for x, y in crossed],
             (layout.right, middle)]
    lower = [(layout.left, middle), *[(x, max(y, middle)) for x, y in crossed],
             (layout.right, middle)]
    draw.polygon(upper, fill=theme.white_area)
    draw.polygon(lower, fill=theme.black_area)
    for score in SCORE_TICKS:
        ty = layout.y(score)
        draw.line((layout.left, ty, layout.right, ty), fill=theme.grid, width=max(1, round(s)))
    draw.line((layout.left, middle, layout.right, middle), fill=theme.middle,
              width=max(1, round(2 * s)))
    draw.line(points, fill=theme.line, width=max(2, round(5 * s)), joint="curve")
    count = len(analysis.evaluations)
    for ply in analysis.plies:
        if ply.judgement is None:
            continue
        x, y = layout.x(ply.ply, count), layout.y(ply.after)
        r = _RADIUS[ply.judgement] * s
        draw.ellipse((x - r, y - r, x + r, y + r), fill=_colour(ply.judgement, theme),
                     outline=theme.background, width=max(1, round(3 * s)))
    # Legend on top, ply numbers below.
    text_font = font(max(12, round(36 * s)))
    x = float(layout.left)
    for judgement, label in zip(Judgement, legend_labels(labels, text_font), strict=True):
        r = _RADIUS[judgement] * s
        cy = layout.top / 2
        draw.ellipse((x, cy - r, x + 2 * r, cy + r), fill=_colour(judgement, theme))
        x += 2 * r + 10 * s
        draw.text((x, cy), label, fill=theme.text, font=text_font, anchor="lm")
        x += draw.textlength(label, font=text_font) + 36 * s
    _draw_score_ticks(draw, layout, theme)
    for n in ply_ticks(count - 1):
        tx = layout.x(n, count)
        draw.line((tx, layout.bottom, tx, layout.bottom + 8 * s), fill=theme.text,
                  width=max(1, round(2 * s)))
        anchor = "la" if n == 0 else ("ra" if tx > layout.right - 30 * s else "ma")
        draw.text((tx, layout.bottom + 12 * s), str(n), fill=theme.text, font=text_font,
                  anchor=anchor)
    return im


def _draw_score_ticks(draw: ImageDraw.ImageDraw, layout: GraphLayout,
                      theme: GraphTheme) -> None:
    """The SCORE_TICKS values in men ("+1", "-2") at the plot's left edge, each on a small
    dark tab so it reads over the ivory and the near-black areas alike."""
    s = layout.scale
    tick_font = font(max(12, round(28 * s)))
    pad = 6 * s
    for score in SCORE_TICKS:
        label = f"{score // 100:+d}"
        ty = layout.y(score)
        box = draw.textbbox((layout.left + 2 * pad, ty), label, font=tick_font, anchor="lm")
        draw.rounded_rectangle((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad),
                               radius=pad, fill=theme.background)
        draw.text((layout.left + 2 * pad, ty), label, fill=theme.text, font=tick_font,
                  anchor="lm")


def render_graph_png(
    analysis: GameAnalysis,
    *,
    width: int = WIDTH,
    labels: tuple[str, str, str] = ("inaccuracy", "mistake", "blunder"),
    theme: GraphTheme = DEFAULT_GRAPH_THEME,
) -> bytes:
    """`render_graph_image` as PNG bytes."""
    buffer = io.BytesIO()
    render_graph_image(analysis, width=width, labels=labels, theme=theme).save(
        buffer, "PNG", optimize=True
    )
    return buffer.getvalue()
