"""renderer.standings: the standings picture's layout (columns, rows, caps, names)."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from engine import Color
from renderer.errors import RenderError
from renderer.fonts import font_chain
from renderer.standings import (
    ELLIPSIS,
    FONT_PX,
    PAD,
    ROW_HEIGHT,
    CellResult,
    ColumnKind,
    RoundCell,
    StandingsHeadings,
    StandingsRow,
    StandingsTable,
    TextDirection,
    cell_text,
    standings_layout,
    text_width,
)

HEADINGS = StandingsHeadings("#", "Player", "Points", ("Bu-1", "SB"))


def row(rank: int, name: str = "", rounds: int = 4) -> StandingsRow:
    cells = tuple(RoundCell(CellResult.WIN, opponent=(rank + r) % 9 + 1,
                            colour=Color.WHITE if r % 2 else Color.BLACK, points="2")
                  for r in range(rounds))
    return StandingsRow(rank, rank, name or f"Player {rank}", str(20 - rank),
                        (str(30 - rank), str(40 - rank)), cells)


def table(count: int, **changes: object) -> StandingsTable:
    base = StandingsTable("Friday Swiss", HEADINGS, tuple(row(n) for n in range(1, count + 1)))
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_the_picture_grows_a_row_height_per_player() -> None:
    heights = [standings_layout(table(n)).height for n in (2, 3, 8)]
    assert heights[1] - heights[0] == ROW_HEIGHT
    assert heights[2] - heights[1] == 5 * ROW_HEIGHT


def test_the_columns_are_rank_player_score_tie_breaks_then_rounds_from_the_left() -> None:
    layout = standings_layout(table(4))
    kinds = [(c.kind, c.index) for c in layout.columns]
    assert kinds == [(ColumnKind.RANK, 0), (ColumnKind.PLAYER, 0), (ColumnKind.SCORE, 0),
                     (ColumnKind.TIE_BREAK, 0), (ColumnKind.TIE_BREAK, 1),
                     *((ColumnKind.ROUND, i) for i in range(4))]
    lefts = [c.left for c in layout.columns]
    assert lefts == sorted(lefts)
    assert all(a.right == b.left for a, b in itertools.pairwise(layout.columns))
    assert [c.heading for c in layout.columns[-4:]] == ["1", "2", "3", "4"]


def test_right_to_left_mirrors_every_column() -> None:
    ltr = standings_layout(table(4))
    rtl = standings_layout(table(4, direction=TextDirection.RIGHT_TO_LEFT))
    assert rtl.width == ltr.width
    for a, b in zip(ltr.columns, rtl.columns, strict=True):
        assert (a.kind, a.index, a.width) == (b.kind, b.index, b.width)
        assert b.left == ltr.width - a.right
    rights = [c.right for c in rtl.columns]
    assert rights == sorted(rights, reverse=True)  # the rank rightmost, round 4 leftmost


def test_a_long_name_is_cut_with_an_ellipsis_inside_its_column() -> None:
    long = "Étienne Dupont-Lefèvre de la Rochefoucauld-Montmorency"
    layout = standings_layout(table(1, rows=(row(5, long),)))
    placed = layout.rows[0]
    assert placed.name.endswith(ELLIPSIS)
    assert long.startswith(placed.name[:-1])
    column = layout.column(ColumnKind.PLAYER)
    assert text_width(placed.name, font_chain(FONT_PX)) <= column.width - 2 * PAD


def test_a_name_no_font_draws_is_written_as_the_players_number() -> None:
    layout = standings_layout(table(1, rows=(dataclasses.replace(row(1), number=7,
                                                                 name="\ue000\ue001"),)))
    assert layout.rows[0].name == "#7"


def test_the_row_cap_keeps_the_top_rows_and_says_how_many_more() -> None:
    layout = standings_layout(table(60, max_rows=50))
    assert [p.row.rank for p in layout.rows] == list(range(1, 51))
    assert layout.notes == ("and 10 more",)
    capped = standings_layout(table(50))
    assert layout.height > capped.height  # the note's line, nothing else
    assert standings_layout(table(50, max_rows=50)).notes == ()


def test_the_round_cap_keeps_the_last_rounds_and_says_how_many_are_left_out() -> None:
    headings = dataclasses.replace(HEADINGS, earlier_rounds="{count} left out, {shown} shown")
    rows = tuple(row(n, rounds=15) for n in range(1, 5))
    layout = standings_layout(table(4, rows=rows, headings=headings, max_rounds=12))
    rounds = [c for c in layout.columns if c.kind is ColumnKind.ROUND]
    assert [c.heading for c in rounds] == [str(n) for n in range(4, 16)]
    assert all(p.cells == p.row.cells[3:] for p in layout.rows)
    assert layout.notes == ("3 left out, 12 shown",)


def test_an_arena_heads_its_game_columns_with_nothing() -> None:
    layout = standings_layout(table(3, round_numbers=False))
    assert {c.heading for c in layout.columns if c.kind is ColumnKind.ROUND} == {""}


def test_a_heading_no_font_draws_becomes_a_neutral_one() -> None:
    headings = StandingsHeadings("\ue000", "\ue000", "\ue000", ("\ue000", "SB"),
                                 "\ue000 {count}")
    layout = standings_layout(table(60, headings=headings))
    assert [c.heading for c in layout.columns[:5]] == ["#", "", "\u03a3", "1", "SB"]
    assert layout.notes == ("+10",)


def test_a_title_keeps_what_the_font_draws() -> None:
    assert standings_layout(table(2, title="\U0001f3c6 Cup")).title == "Cup"
    assert standings_layout(table(2, title="\ue000")).title == ""


def test_a_row_with_another_count_of_tie_breaks_is_refused() -> None:
    bad = dataclasses.replace(row(1), tie_breaks=("1",))
    with pytest.raises(RenderError, match="tie-break"):
        standings_layout(table(1, rows=(bad,)))
    with pytest.raises(RenderError, match="caps"):
        standings_layout(table(1, max_rows=0))
    uneven = (row(1, rounds=4), row(2, rounds=3))
    with pytest.raises(RenderError, match="a cell per round"):
        standings_layout(table(2, rows=uneven))
    assert len(standings_layout(table(2, rows=uneven, round_numbers=False)).rows) == 2


def test_a_table_without_players_has_its_title_and_headings() -> None:
    layout = standings_layout(table(0))
    assert layout.rows == () and layout.notes == ()
    assert [c.kind for c in layout.columns][:3] == [ColumnKind.RANK, ColumnKind.PLAYER,
                                                    ColumnKind.SCORE]
    assert layout.height == standings_layout(table(1)).height - ROW_HEIGHT


def test_a_title_is_one_line() -> None:
    assert standings_layout(table(1, title="Friday\nSwiss ")).title == "Friday Swiss"


@pytest.mark.parametrize(("cell", "texts"), [
    (RoundCell(CellResult.WIN, 3, Color.WHITE, "2"), ("3", "2")),
    (RoundCell(CellResult.DRAW, 3, Color.BLACK), ("3", "=")),
    (RoundCell(CellResult.LOSS, 3, Color.BLACK), ("3", "\u2212")),
    (RoundCell(CellResult.FORFEIT_WIN, 4, None, "2"), ("4", "+")),
    (RoundCell(CellResult.FORFEIT_LOSS, 4, None, "0"), ("4", "\u2212")),
    (RoundCell(CellResult.BYE, None, None, "2"), ("\u2013", "2")),
    (RoundCell(CellResult.NOT_PAIRED, None, None, "0"), ("\u2013", "0")),
    (RoundCell(CellResult.UNDER_WAY, 6, Color.WHITE), ("6", ELLIPSIS)),
    (RoundCell(CellResult.WIN, None, None, "4", doubled=True), ("", "4")),
])
def test_a_round_cell_writes_the_opponent_and_the_result(
        cell: RoundCell, texts: tuple[str, str]) -> None:
    assert cell_text(cell) == texts
