"""The standings picture: the tournament service's `StandingsView` as the renderer's
`StandingsTable` (`renderer.standings`), worded in the reader's language, drawn by
`renderer.render_standings_png`. Blocking (about 0.1 s for 50 rows): call
`standings_png` in a worker thread."""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from bot.language import Direction, Language, from_locale
from bot.messages import Msg, text
from bot.services.tournaments import Cell, ResultCell, StandingRow, StandingsView, TieBreak
from bot.ui.tournament_texts import number_text, round_under_way
from engine import Color
from renderer import (
    CellResult,
    RoundCell,
    StandingsHeadings,
    StandingsRow,
    StandingsTable,
    TextDirection,
    render_standings_png,
)
from renderer.standings import MAX_ROUNDS, MAX_ROWS
from tournaments.model import Colour, Format

SHORT_TIE_BREAKS: dict[TieBreak, Msg] = {
    TieBreak.BUCHHOLZ_CUT_1: Msg.TIEBREAK_SHORT_BUCHHOLZ_CUT_1,
    TieBreak.SONNEBORN_BERGER: Msg.TIEBREAK_SHORT_SONNEBORN_BERGER,
    TieBreak.DIRECT_ENCOUNTER: Msg.TIEBREAK_SHORT_DIRECT_ENCOUNTER,
    TieBreak.PERFORMANCE: Msg.TIEBREAK_SHORT_PERFORMANCE,
}
"""Each tie-break's column heading."""

ARENA_WIN, ARENA_DRAW = 2, 1
"""An arena game's points off a streak; on one they count double (docs/RULES.md,
"Arena")."""


def cell_result(cell: Cell) -> CellResult:
    """The renderer's kind of a round cell."""
    match cell:
        case Cell.WIN:
            return CellResult.WIN
        case Cell.DRAW:
            return CellResult.DRAW
        case Cell.LOSS:
            return CellResult.LOSS
        case Cell.FORFEIT_WIN:
            return CellResult.FORFEIT_WIN
        case Cell.FORFEIT_LOSS:
            return CellResult.FORFEIT_LOSS
        case Cell.UNDER_WAY:
            return CellResult.UNDER_WAY
        case Cell.BYE:
            return CellResult.BYE
        case Cell.NOT_PAIRED:
            return CellResult.NOT_PAIRED
        case _:
            assert_never(cell)


def _colour(colour: Colour | None) -> Color | None:
    if colour is None:
        return None
    return Color.WHITE if colour is Colour.WHITE else Color.BLACK


def round_cells(results: tuple[ResultCell, ...], rounds: int) -> tuple[RoundCell, ...]:
    """A Swiss or round-robin player's rounds 1 to `rounds`, a round they were not in
    (joined later, or none yet) as not paired, so every row has a cell per round."""
    by_round = {result.round: result for result in results}
    cells = []
    for number in range(1, rounds + 1):
        result = by_round.get(number)
        if result is None:
            cells.append(RoundCell(CellResult.NOT_PAIRED))
            continue
        shown = result.cell not in (Cell.UNDER_WAY, Cell.NOT_PAIRED)
        cells.append(RoundCell(cell_result(result.cell), opponent=result.opponent_number,
                               colour=_colour(result.colour),
                               points=str(result.points) if shown else ""))
    return tuple(cells)


def arena_cells(points: tuple[int, ...]) -> tuple[RoundCell, ...]:
    """An arena player's games from their points in order: on a streak (after two wins
    in a row) a game counts double, a win 4 and a draw 2, and the cell is lit."""
    cells = []
    wins_in_a_row = 0
    for scored in points:
        doubled = wins_in_a_row >= 2
        base = scored // 2 if doubled else scored
        result = (CellResult.WIN if base >= ARENA_WIN else
                  CellResult.DRAW if base == ARENA_DRAW else CellResult.LOSS)
        cells.append(RoundCell(result, points=str(scored), doubled=doubled))
        wins_in_a_row = wins_in_a_row + 1 if result is CellResult.WIN else 0
    return tuple(cells)


def _row(standings: StandingsView, row: StandingRow, names: Mapping[int, str],
         rounds: int, locale: str) -> StandingsRow:
    arena = standings.format is Format.ARENA
    return StandingsRow(
        rank=row.rank, number=row.number, name=names.get(row.user_id) or f"#{row.number}",
        score=str(row.score),
        tie_breaks=tuple("" if value is None else number_text(value, locale)
                         for _, value in row.tie_breaks),
        cells=arena_cells(row.points) if arena else round_cells(row.results, rounds),
        on_fire=row.on_fire)


def standings_table(standings: StandingsView, names: Mapping[int, str],
                    locale: str) -> StandingsTable:
    """The picture's input: the title, the headings and notes in `locale`, one row per
    player with their name (`names` by user id; a player without one: their number)."""
    arena = standings.format is Format.ARENA
    rounds = max((r.round for row in standings.rows for r in row.results), default=0)
    rounds = max(rounds, 0 if arena else standings.round)
    cells = max((len(row.points) for row in standings.rows), default=0) if arena else rounds
    tie_breaks = standings.rows[0].tie_breaks if standings.rows else ()
    headings = StandingsHeadings(
        player=text(Msg.TOURNAMENT_PICTURE_PLAYER, locale),
        score=text(Msg.TOURNAMENT_PICTURE_SCORE, locale),
        tie_breaks=tuple(text(SHORT_TIE_BREAKS[name], locale) for name, _ in tie_breaks),
        more_players=text(Msg.TOURNAMENT_PICTURE_MORE_PLAYERS, locale,
                          count=max(len(standings.rows) - MAX_ROWS, 0)),
        earlier_rounds=text(Msg.TOURNAMENT_PICTURE_EARLIER_GAMES if arena
                            else Msg.TOURNAMENT_PICTURE_EARLIER_ROUNDS, locale,
                            count=max(cells - MAX_ROUNDS, 0)))
    title = (text(Msg.TOURNAMENT_STANDINGS_TITLE, locale, name=standings.name)
             if arena or standings.round == 0
             else text(Msg.TOURNAMENT_PICTURE_TITLE_DURING if round_under_way(standings)
                       else Msg.TOURNAMENT_PICTURE_TITLE, locale, name=standings.name,
                       round=standings.round))
    language = from_locale(locale) or Language.ENGLISH
    return StandingsTable(
        title=title, headings=headings,
        rows=tuple(_row(standings, row, names, rounds, locale) for row in standings.rows),
        direction=(TextDirection.RIGHT_TO_LEFT if language.direction is Direction.RIGHT_TO_LEFT
                   else TextDirection.LEFT_TO_RIGHT),
        round_numbers=not arena)


def standings_png(standings: StandingsView, names: Mapping[int, str], locale: str) -> bytes:
    """The standings picture as PNG bytes (blocking). Raises `renderer.RenderError` for a
    table it cannot draw."""
    return render_standings_png(standings_table(standings, names, locale))
