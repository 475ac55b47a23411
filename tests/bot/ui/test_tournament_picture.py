"""The standings picture's input (`bot/ui/tournament_picture.py`): the service's
standings as the renderer's table, in the reader's language, and drawn."""

from __future__ import annotations

from dataclasses import replace

from bot.services.tournaments import Cell, ResultCell, StandingRow, StandingsView, TieBreak
from bot.tournament_display import arena_cells, round_cells
from bot.ui.tournament_picture import standings_png, standings_table
from engine import Color
from renderer import CellResult, TextDirection
from storage import EntrantStatus
from tests.support.tournament_views import PLAYERS, standings_after_one
from tournaments.model import Colour, Format

PNG = b"\x89PNG\r\n\x1a\n"


def test_swiss_rows_have_a_cell_per_round_a_missed_round_not_paired() -> None:
    results = (ResultCell(2, Cell.WIN, 2, opponent=PLAYERS[1], opponent_number=2,
                          colour=Colour.BLACK),
               ResultCell(3, Cell.UNDER_WAY, 0, opponent=PLAYERS[2], opponent_number=3,
                          colour=Colour.WHITE))
    first, second, third = round_cells(results, 3)
    assert first.result is CellResult.NOT_PAIRED  # joined after round 1
    assert (second.result, second.opponent, second.colour, second.points) == (
        CellResult.WIN, 2, Color.BLACK, "2")
    assert (third.result, third.points) == (CellResult.UNDER_WAY, "")  # no points yet


def test_an_arena_streak_is_read_from_the_points() -> None:
    # Two wins light the streak: a win then counts 4, a draw 2 and ends it.
    cells = arena_cells((2, 2, 4, 2, 1, 0))
    assert [(c.result, c.doubled) for c in cells] == [
        (CellResult.WIN, False), (CellResult.WIN, False), (CellResult.WIN, True),
        (CellResult.DRAW, True), (CellResult.DRAW, False), (CellResult.LOSS, False)]


def test_the_table_is_worded_in_the_readers_language_with_the_players_names() -> None:
    standings = standings_after_one()
    names = {PLAYERS[0]: "Alice", PLAYERS[1]: "Bob"}
    table = standings_table(standings, names, "en")
    assert table.title == "Friday Swiss: standings after round 1"
    assert table.headings.tie_breaks == ("Bu-1", "SB", "DE")
    assert [row.name for row in table.rows] == ["Alice", "#3", "Bob"]  # no name: number
    assert table.rows[0].tie_breaks == ("0", "1.5", "")  # direct encounter not applying
    assert table.round_numbers and table.direction is TextDirection.LEFT_TO_RIGHT
    assert standings_table(standings, names, "ar").direction is TextDirection.RIGHT_TO_LEFT
    table.check()  # the renderer's own check of the table
    assert standings_png(standings, names, "en").startswith(PNG)


def test_an_arena_table_lists_each_players_games() -> None:
    row = StandingRow(1, PLAYERS[0], 1, 8, ((TieBreak.PERFORMANCE, 1650),),
                      EntrantStatus.ACTIVE, games=3, wins=3, on_fire=True, points=(2, 2, 4))
    standings = StandingsView(7, "Blitz", Format.ARENA, 2, False, (row,))
    table = standings_table(standings, {}, "en")
    assert not table.round_numbers and table.title == "Blitz: standings"
    assert table.rows[0].on_fire and len(table.rows[0].cells) == 3
    assert standings_png(replace(standings, final=True), {}, "en").startswith(PNG)


def test_a_round_under_way_is_not_called_over_in_the_title() -> None:
    """While a game of the last round is under way the standings are not "after" it."""
    standings = standings_after_one()
    first = standings.rows[0]
    playing = replace(first, results=(ResultCell(1, Cell.UNDER_WAY, 0, opponent=PLAYERS[1],
                                                 opponent_number=2, colour=Colour.WHITE),))
    during = replace(standings, rows=(playing, *standings.rows[1:]))
    assert standings_table(during, {}, "en").title == (
        "Friday Swiss: standings during round 1")
