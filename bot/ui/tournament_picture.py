"""The standings picture: the tournament service's `StandingsView` as the renderer's
`StandingsTable` (`renderer.standings`), worded in the reader's language, drawn by
`renderer.render_standings_png`. Blocking (about 0.1 s for 50 rows): call
`standings_png` in a worker thread."""

from __future__ import annotations

from collections.abc import Mapping

from bot.language import Direction, Language, from_locale
from bot.messages import Msg, text
from bot.services.tournaments import StandingRow, StandingsView
from bot.tournament_display import (
    SHORT_TIE_BREAKS,
    arena_cells,
    number_text,
    round_cells,
    round_under_way,
)
from renderer import (
    StandingsHeadings,
    StandingsRow,
    StandingsTable,
    TextDirection,
    render_standings_png,
)
from renderer.standings import MAX_ROUNDS, MAX_ROWS
from tournaments.model import Format


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
