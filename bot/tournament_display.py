"""The tournament service's values as the Discord layer and the web pages both show them,
with nothing of discord: results as crosstables write them, scores and tie-break values
as numbers, the format and settings in words, and each standings row's rounds as the
renderer's cells (`renderer.standings.RoundCell`: the opponent, the side, the result).
`bot.ui.tournament_texts` and `bot.ui.tournament_picture` build on it for Discord,
`bot.web.pages.tournament` for the tournament's page."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from typing import assert_never

from bot.messages import Msg, decimal, text, variant_name
from bot.messages.durations import duration_text
from bot.services.tournaments import Cell, ResultCell, StandingsView, TieBreak, TournamentView
from engine import Color
from renderer import CellResult, RoundCell
from storage import TournamentStatus
from tournaments.model import Colour, Format, Outcome

RESULTS: dict[Outcome, str] = {
    Outcome.WHITE_WINS: "2-0",
    Outcome.DRAW: "1-1",
    Outcome.BLACK_WINS: "0-2",
    Outcome.WHITE_WINS_BY_FORFEIT: "+/-",
    Outcome.BLACK_WINS_BY_FORFEIT: "-/+",
    Outcome.DOUBLE_FORFEIT: "-/-",
}
"""A game's result as draughts crosstables write it on the win-2 scale of the tournament's
scores (docs/RULES.md, "Scores"), a forfeit as FIDE's TRF writes it: the same in every
language, like notation."""

def number_text(value: int | Fraction, locale: str | None) -> str:
    """A score or tie-break value as the reader's language writes a number: whole numbers
    plain, with no thousands separator (a performance rating is a rating, and ratings stay
    plain integers: docs/LANGUAGES.md), a fraction (Sonneborn-Berger with half points)
    with its decimals."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return decimal(round(float(value), 2), locale)
    return str(int(value))


def format_text(view: TournamentView, locale: str | None) -> str:
    """The format with its length: "Swiss system, 5 rounds", "Arena, 1 hour"..."""
    settings = view.settings
    match settings.format:
        case Format.ARENA:
            return text(Msg.TOURNAMENT_FORMAT_ARENA, locale,
                        duration=duration_text(settings.duration or timedelta(), locale))
        case Format.SWISS:
            return text(Msg.TOURNAMENT_FORMAT_SWISS, locale, count=settings.rounds or 0)
        case Format.ROUND_ROBIN:
            return text(Msg.TOURNAMENT_FORMAT_DOUBLE_ROUND_ROBIN if settings.cycles == 2
                        else Msg.TOURNAMENT_FORMAT_ROUND_ROBIN, locale)
        case _:
            assert_never(settings.format)


def settings_line(view: TournamentView, locale: str | None) -> str:
    """"Swiss system, 5 rounds · Turkish draughts · 5 minutes per move · rated"."""
    settings = view.settings
    return text(Msg.TOURNAMENT_SETTINGS_LINE, locale, format=format_text(view, locale),
                variant=variant_name(settings.variant, locale),
                move_time=text(Msg.TOURNAMENT_PER_MOVE, locale, duration=duration_text(
                    timedelta(seconds=settings.move_seconds), locale)),
                rated=text(Msg.TOURNAMENT_RATED if settings.rated
                           else Msg.TOURNAMENT_CASUAL, locale))


def round_under_way(standings: StandingsView) -> bool:
    """Whether a game of the standings' last round is still under way (a Swiss or round
    robin read during a round: its games count as they end)."""
    return any(result.round == standings.round and result.cell is Cell.UNDER_WAY
               for row in standings.rows for result in row.results)


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


def status_text(view: TournamentView, locale: str | None, *, live: bool = True,
                can_join: bool = True) -> str:
    """Where the tournament stands, in a sentence that says what its reader can do.
    `live`: the text is read now (an answer, a page), so it may name the round under way;
    the sign-up post is edited only when the status changes, so it does not. `can_join`:
    the reader has the Join button (Discord); a web page's reader has not, so sign-up and a
    running arena are told without it."""
    arena = view.format is Format.ARENA
    match view.status:
        case TournamentStatus.SIGNUP:
            if not can_join:
                return text(Msg.WEB_TOURNAMENT_SIGNUP, locale)
            return text(Msg.TOURNAMENT_STATUS_SIGNUP_ARENA if arena
                        else Msg.TOURNAMENT_STATUS_SIGNUP, locale)
        case TournamentStatus.RUNNING:
            if arena and can_join:
                return text(Msg.TOURNAMENT_STATUS_RUNNING_ARENA, locale)
            if arena or not live:
                return text(Msg.TOURNAMENT_STATUS_UNDER_WAY, locale)
            return text(Msg.TOURNAMENT_STATUS_RUNNING, locale, round=view.current_round,
                        rounds=view.total_rounds or view.current_round)
        case TournamentStatus.PAUSED:
            return text(Msg.TOURNAMENT_STATUS_PAUSED, locale)
        case TournamentStatus.FINISHED:
            return text(Msg.TOURNAMENT_STATUS_FINISHED, locale)
        case TournamentStatus.CANCELLED:
            return text(Msg.TOURNAMENT_STATUS_CANCELLED, locale)
        case _:
            assert_never(view.status)
