"""The evaluation graph (renderer.graph): one point per ply and the start, marks where
the judged plies are, the axes' ticks, the sizes, bad input."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import Color
from engine.analysis import GameAnalysis, Judgement, PlayerSummary, PlyAnalysis
from renderer.errors import RenderError
from renderer.graph import (
    DEFAULT_GRAPH_THEME,
    MIN_WIDTH,
    GraphLayout,
    graph_points,
    ply_ticks,
    render_graph_image,
    render_graph_png,
)


def _analysis(evaluations: list[int], blunder_at: int | None = None) -> GameAnalysis:
    plies = []
    for i in range(1, len(evaluations)):
        color = Color.WHITE if i % 2 else Color.BLACK
        judgement = Judgement.BLUNDER if i == blunder_at else None
        plies.append(PlyAnalysis(i, color, "a3-b4", evaluations[i - 1], evaluations[i],
                                 False, 0.0, 100.0, judgement, None, ()))
    white = PlayerSummary(Color.WHITE, 0, 0, 0, 0, None)
    black = PlayerSummary(Color.BLACK, 0, 0, 0, 0, None)
    return GameAnalysis("italian", tuple(evaluations), tuple(plies), white, black)


def test_one_point_per_ply_and_the_start() -> None:
    analysis = _analysis([0, 10, -20, 300, 250, -900, 0])
    layout = GraphLayout(1080, 540)
    points = graph_points(analysis, layout)
    assert len(points) == len(analysis.plies) + 1
    xs = [x for x, _ in points]
    assert xs == sorted(xs) and xs[0] == layout.left and xs[-1] == layout.right
    middle = (layout.top + layout.bottom) / 2
    # From White's side: White better is above the middle line, Black better below.
    assert points[0][1] == middle
    assert points[3][1] < middle < points[5][1]


def test_a_blunder_is_marked_in_red_on_its_point() -> None:
    analysis = _analysis([0, 0, 0, -400, -400], blunder_at=3)
    im = render_graph_image(analysis)
    layout = GraphLayout(im.width, im.height)
    x, y = graph_points(analysis, layout)[3]
    assert im.getpixel((round(x), round(y))) == DEFAULT_GRAPH_THEME.blunder
    # No mark on an unjudged point.
    x1, y1 = graph_points(analysis, layout)[1]
    assert im.getpixel((round(x1), round(y1))) != DEFAULT_GRAPH_THEME.blunder


def test_png_size_and_minimum_width() -> None:
    data = render_graph_png(_analysis([0, 50]), width=MIN_WIDTH)
    with Image.open(io.BytesIO(data)) as im:
        assert im.size == (MIN_WIDTH, MIN_WIDTH // 2)
    with pytest.raises(RenderError, match="at least"):
        render_graph_png(_analysis([0, 50]), width=MIN_WIDTH - 1)


def test_a_game_without_moves_still_draws() -> None:
    with Image.open(io.BytesIO(render_graph_png(_analysis([0])))) as im:
        assert im.size == (1080, 540)


@pytest.mark.parametrize("labels", [
    ("خطأ طفيف", "خطأ", "خطأ فادح"),          # Arabic
    ("küçük hata", "hata", "büyük hata"),       # Turkish
    ("imprécision", "erreur", "gaffe"),         # French
])
def test_a_legend_the_font_cannot_draw_shows_the_marks(labels: tuple[str, str, str]) -> None:
    # The bundled font has no accented or Arabic letters: words with them would be drawn
    # as rows of missing-glyph boxes, so the legend writes the judgements' marks instead.
    analysis = _analysis([0, 0, 0, -400, -400], blunder_at=3)
    shown = render_graph_image(analysis, labels=labels)
    marks = render_graph_image(analysis, labels=("?!", "?", "??"))
    assert shown.tobytes() == marks.tobytes()


def test_a_legend_the_font_draws_keeps_its_words() -> None:
    analysis = _analysis([0, 0, 0, -400, -400], blunder_at=3)
    words = render_graph_image(analysis, labels=("imprecisione", "errore", "errore grave"))
    marks = render_graph_image(analysis, labels=("?!", "?", "??"))
    assert words.tobytes() != marks.tobytes()


@pytest.mark.parametrize(("plies", "ticks"), [
    (0, (0,)),
    (1, (0, 1)),
    (4, (0, 1, 2, 3, 4)),
    (8, tuple(range(9))),
    (9, (0, 2, 4, 6, 8)),
    (17, (0, 5, 10, 15)),
    (40, (0, 5, 10, 15, 20, 25, 30, 35, 40)),
    (41, (0, 10, 20, 30, 40)),
    (1000, (0, 200, 400, 600, 800, 1000)),
])
def test_ply_ticks_are_round_steps_with_at_most_eight_intervals(
        plies: int, ticks: tuple[int, ...]) -> None:
    assert ply_ticks(plies) == ticks


def test_ply_ticks_refuse_a_negative_count() -> None:
    with pytest.raises(ValueError, match="0 plies or more"):
        ply_ticks(-1)


def _has_colour_near(im: Image.Image, x: float, y: float, colour: tuple[int, int, int]) -> bool:
    return any(im.getpixel((round(x) + dx, round(y) + dy)) == colour
               for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def test_a_four_ply_game_has_a_tick_under_every_ply() -> None:
    analysis = _analysis([0, 10, -20, 30, 5])
    im = render_graph_image(analysis)
    layout = GraphLayout(im.width, im.height)
    for ply in range(5):
        x = layout.x(ply, 5)
        assert _has_colour_near(im, x, layout.bottom + 4, DEFAULT_GRAPH_THEME.text), ply
    # Nothing ticked between two plies.
    between = (layout.x(0, 5) + layout.x(1, 5)) / 2
    assert not _has_colour_near(im, between, layout.bottom + 4, DEFAULT_GRAPH_THEME.text)


def test_one_and_two_men_for_either_side_are_lined_and_labelled() -> None:
    # A short game near equality: the lines at +-1 and +-2 men show the curve's scale.
    analysis = _analysis([0, 10, -20, 30, 5])
    im = render_graph_image(analysis)
    layout = GraphLayout(im.width, im.height)
    x_line = layout.right - 20
    for score in (200, 100, -100, -200):
        y = layout.y(score)
        assert _has_colour_near(im, x_line, y, DEFAULT_GRAPH_THEME.grid), score
        # Its label sits on a dark tab at the left edge, in the text colour.
        tab = im.crop((layout.left, round(y) - 20, layout.left + 60, round(y) + 20))
        colours = {c for _, c in tab.getcolors(60 * 40) or []}
        assert DEFAULT_GRAPH_THEME.background in colours, score
        assert DEFAULT_GRAPH_THEME.text in colours, score
    # No line halfway between the middle and one man.
    assert not _has_colour_near(im, x_line, layout.y(50), DEFAULT_GRAPH_THEME.grid)
