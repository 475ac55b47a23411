"""renderer.standings_draw: the standings picture's pixels (read back, not hashed)."""

from __future__ import annotations

import dataclasses

from PIL import Image

from engine import Color
from renderer.standings import (
    ROW_HEIGHT,
    CellResult,
    ColumnKind,
    RoundCell,
    StandingsHeadings,
    StandingsRow,
    StandingsTable,
    TextDirection,
    standings_layout,
)
from renderer.standings_draw import (
    DEFAULT_STANDINGS_THEME as THEME,
)
from renderer.standings_draw import (
    MAX_BYTES,
    render_standings_image,
    render_standings_png,
)
from renderer.standings_samples import arena
from tests.renderer.pixels import decode, near, pixel

RGB = tuple[int, int, int]


def row(rank: int, name: str = "", cells: tuple[RoundCell, ...] = (),
        on_fire: bool = False) -> StandingsRow:
    return StandingsRow(rank, rank, name or f"Player {rank}", str(10 - rank), (), cells,
                        on_fire)


def table(*rows: StandingsRow, direction: TextDirection = TextDirection.LEFT_TO_RIGHT
          ) -> StandingsTable:
    return StandingsTable("Cup", StandingsHeadings(), rows, direction)


def count(im: Image.Image, box: tuple[int, int, int, int], colour: RGB, tol: int = 10) -> int:
    """Pixels of `colour` (within `tol`) in `box` (left, top, right, bottom)."""
    crop = im.crop(box)
    found = crop.getcolors(crop.width * crop.height)
    assert found is not None
    return sum(n for n, value in found if isinstance(value, tuple)
               and near((value[0], value[1], value[2]), colour, tol))


def band(im: Image.Image, top: int) -> tuple[int, int, int, int]:
    return (0, top, im.width, top + ROW_HEIGHT)


def test_the_podium_disc_sits_at_the_reading_start_of_the_row() -> None:
    rows = (row(1), row(2), row(3), row(4))
    for direction in TextDirection:
        t = table(*rows, direction=direction)
        im, layout = render_standings_image(t), standings_layout(t)
        top = layout.rows[0].top
        half = im.width // 2
        left = count(im, (0, top, half, top + ROW_HEIGHT), THEME.gold)
        right = count(im, (half, top, im.width, top + ROW_HEIGHT), THEME.gold)
        if direction is TextDirection.LEFT_TO_RIGHT:
            assert left > 100 and right == 0
        else:
            assert right > 100 and left == 0


def test_ranks_one_to_three_get_gold_silver_and_bronze_and_the_fourth_none() -> None:
    t = table(row(1), row(2), row(3), row(4))
    im, layout = render_standings_image(t), standings_layout(t)
    rank = layout.column(ColumnKind.RANK)
    for placed, colour in zip(layout.rows, (THEME.gold, THEME.silver, THEME.bronze),
                              strict=False):
        assert count(im, (rank.left, placed.top, rank.right, placed.top + ROW_HEIGHT),
                     colour, 4) > 100
    fourth = layout.rows[3].top
    for colour in (THEME.gold, THEME.silver, THEME.bronze):
        assert count(im, (rank.left, fourth, rank.right, fourth + ROW_HEIGHT), colour, 4) == 0


def test_a_name_no_font_draws_is_drawn_as_the_players_number_not_as_boxes() -> None:
    undrawable = render_standings_image(table(row(1), row(3, "\ue000\ue001")))
    number = render_standings_image(table(row(1), row(3, "#3")))
    assert undrawable.tobytes() == number.tobytes()


def test_a_cut_name_stays_inside_its_column() -> None:
    first = "Étienne Dupont-Lefèvre de la Rochefoucauld-Montmorency-Laval"
    second = "Bartholomew Wolfeschlegelsteinhausenbergerdorff the Younger"
    a = render_standings_image(table(row(5, first)))
    b = render_standings_image(table(row(5, second)))
    layout = standings_layout(table(row(5, first)))
    assert layout.rows[0].name != standings_layout(table(row(5, second))).rows[0].name
    player = layout.column(ColumnKind.PLAYER)
    top = layout.rows[0].top
    # Everything right of the name column is the same: neither name spilt over.
    beyond = (player.right, top, a.width, top + ROW_HEIGHT)
    assert a.crop(beyond).tobytes() == b.crop(beyond).tobytes()
    inside = (player.left, top, player.right, top + ROW_HEIGHT)
    assert a.crop(inside).tobytes() != b.crop(inside).tobytes()


def test_a_player_on_a_streak_has_the_flame_and_the_others_not() -> None:
    t = table(row(1, "Ann", on_fire=True), row(2, "Bob"))
    im, layout = render_standings_image(t), standings_layout(t)
    player = layout.column(ColumnKind.PLAYER)
    hot, cold = layout.rows
    assert count(im, (player.left, hot.top, player.right, hot.top + ROW_HEIGHT),
                 THEME.flame, 4) > 30
    assert count(im, (player.left, cold.top, player.right, cold.top + ROW_HEIGHT),
                 THEME.flame, 4) == 0


def test_round_cells_are_tinted_by_result_and_show_the_side_of_a_played_game() -> None:
    cells = (RoundCell(CellResult.WIN, 2, Color.WHITE, "2"),
             RoundCell(CellResult.LOSS, 3, Color.BLACK, "0"),
             RoundCell(CellResult.FORFEIT_WIN, 4, None, "2"),
             RoundCell(CellResult.WIN, 5, Color.WHITE, "4", doubled=True))
    t = table(row(1, cells=cells))
    im, layout = render_standings_image(t), standings_layout(t)
    top = layout.rows[0].top
    boxes = [(c.left, top, c.right, top + ROW_HEIGHT)
             for c in layout.columns if c.kind is ColumnKind.ROUND]
    corner = [pixel(im, (box[0] + 5, box[1] + 5)) for box in boxes]
    assert near(corner[0], THEME.win, 2) and near(corner[1], THEME.loss, 2)
    assert near(corner[3], THEME.doubled, 2)
    assert count(im, boxes[0], THEME.white_side, 2) > 20  # the ivory disc: White
    assert count(im, boxes[1], THEME.black_side, 2) > 20
    assert count(im, boxes[2], THEME.hatch, 2) > 50  # a forfeit is hatched ...
    assert count(im, boxes[2], THEME.white_side, 2) == 0  # ... and has no side
    assert count(im, boxes[0], THEME.hatch, 2) == 0


def test_the_png_is_the_pictures_size_and_far_under_discords_limit() -> None:
    big = arena()  # 60 players, up to 18 games each: capped at 50 rows, 12 games
    data = render_standings_png(big)
    im = decode(data)
    layout = standings_layout(big)
    assert im.format == "PNG" and im.size == (layout.width, layout.height)
    assert len(data) < MAX_BYTES // 20
    assert render_standings_png(big) == data  # the same table, the same bytes
    small = dataclasses.replace(big, rows=big.rows[:5])
    assert decode(render_standings_png(small)).height < im.height
