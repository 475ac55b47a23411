"""renderer.standings_samples: the gallery's crosstables are consistent tables."""

from __future__ import annotations

from renderer.standings import CellResult, StandingsTable, TextDirection
from renderer.standings_samples import arena, round_robin, swiss, swiss_arabic

_MIRROR = {CellResult.WIN: CellResult.LOSS, CellResult.LOSS: CellResult.WIN,
           CellResult.DRAW: CellResult.DRAW, CellResult.FORFEIT_WIN: CellResult.FORFEIT_LOSS,
           CellResult.FORFEIT_LOSS: CellResult.FORFEIT_WIN}


def _check_crosstable(table: StandingsTable, players: int, rounds: int) -> None:
    assert len(table.rows) == players
    by_rank = {row.rank: row for row in table.rows}
    assert len(by_rank) == players  # the samples have no shared rank
    for row in table.rows:
        assert len(row.cells) == rounds
        for r, cell in enumerate(row.cells):
            assert cell.opponent is not None
            other = by_rank[cell.opponent].cells[r]
            assert other.opponent == row.rank and other.result is _MIRROR[cell.result]
    scores = [int(row.score) for row in table.rows]
    assert scores == sorted(scores, reverse=True)
    assert sum(scores) == 2 * rounds * players // 2  # every game gives out 2 points


def test_the_swiss_and_the_round_robin_are_reciprocal_crosstables() -> None:
    _check_crosstable(swiss(), 8, 4)
    _check_crosstable(round_robin(), 6, 5)
    assert swiss_arabic().direction is TextDirection.RIGHT_TO_LEFT
    assert swiss_arabic().rows == swiss().rows


def test_the_arena_has_more_rows_and_games_than_a_picture_draws() -> None:
    table = arena()
    assert len(table.rows) > table.max_rows
    assert max(len(row.cells) for row in table.rows) > table.max_rounds
    assert any(row.on_fire for row in table.rows[:table.max_rows])
    assert any(cell.doubled for row in table.rows for cell in row.cells)
    for row in table.rows:
        assert int(row.score) == sum(int(cell.points) for cell in row.cells)
