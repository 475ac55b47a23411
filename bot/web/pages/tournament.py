"""A tournament's page (`/tournaments/{id}[/{token}]`): its name, format, variant and
state, the standings table with its tie-breaks and a cell per round (the columns of the
standings picture Discord shows: `bot.tournament_display`), every round's pairings and
results with each game linked, and, while it runs, the games under way (their pages
follow them live). Shown as its server's `web` setting says
(`bot.web.access.visible_tournament`). Read from the storage alone, as the tournament
service reads it (`Snapshot`, `standings_at`): the web process runs no tournament."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import assert_never

from aiohttp import web

from bot.messages import Msg
from bot.services.tournaments import (
    ByeView,
    PairingView,
    RoundView,
    StandingRow,
    StandingsView,
)
from bot.services.tournaments.advance import standings_at
from bot.services.tournaments.core import Snapshot
from bot.tournament_display import (
    RESULTS,
    SHORT_TIE_BREAKS,
    arena_cells,
    number_text,
    round_cells,
    round_under_way,
    settings_line,
    status_text,
)
from bot.web.access import signed, visible_tournament
from bot.web.context import CONTEXT, WebContext
from bot.web.language import reader_language
from bot.web.pages.player import player_name
from bot.web.paths import TOURNAMENTS
from bot.web.templates import render_page
from engine import Color
from renderer import RoundCell
from renderer.standings import cell_text
from storage import TournamentRecord, TournamentStatus
from tournaments.arena_scores import ArenaRules
from tournaments.model import ByeKind, Format

ARENA_RULES = ArenaRules()
"""The arena's rules, as the bot composes its tournament service (`bot.composition`:
the defaults)."""

UNDER_WAY_MARK = "\u2026"
"""A result not known yet, as the standings picture writes it."""


@dataclass(frozen=True)
class PlayerLink:
    """A player as the page names them: name and page."""

    name: str
    url: str


@dataclass(frozen=True)
class CellLine:
    """One round of a standings row (an arena: one game): the opponent's pairing number
    ("–" for a bye or a round not paired), the side played (None: no game), the result
    (points, a forfeit's + or −, "…" under way), and whether it counted double (an arena
    streak)."""

    opponent: str
    side: Msg | None
    result: str
    doubled: bool


@dataclass(frozen=True)
class StandingLine:
    """One row of the standings: rank, pairing number, player, points, tie-break values
    (in the headings' order, empty where one does not apply), the rounds' cells, and
    whether an arena player is on a streak."""

    rank: int
    number: int
    player: PlayerLink
    score: str
    tie_breaks: tuple[str, ...]
    cells: tuple[CellLine, ...]
    on_fire: bool


@dataclass(frozen=True)
class StandingsTable:
    """The standings: the caption's message and round (`caption`, `round`), the
    tie-breaks' headings, the rounds shown as columns (`rounds`: their numbers; empty in
    an arena, whose games are one column), and the rows."""

    caption: Msg
    round: int
    tie_breaks: tuple[Msg, ...]
    rounds: tuple[int, ...]
    arena: bool
    rows: tuple[StandingLine, ...]


@dataclass(frozen=True)
class GameLink:
    """One board of a round: the players, the result as crosstables write it ("2-0",
    "+/-"; "…" while under way), the game's page (None: no game was started, a forfeit
    or not yet), and whether it is under way."""

    board: int
    white: PlayerLink
    black: PlayerLink
    result: str
    url: str | None
    under_way: bool


@dataclass(frozen=True)
class ByeLine:
    """A player without a game in a round: a pairing-allocated bye (`bye`) or not
    paired."""

    player: PlayerLink
    bye: bool


@dataclass(frozen=True)
class RoundLines:
    """A round: its number, its boards and its byes."""

    number: int
    games: tuple[GameLink, ...]
    byes: tuple[ByeLine, ...]


@dataclass(frozen=True)
class TournamentPage:
    """What the tournament's page shows: name, the settings in words, the state in
    words (`signing_up`: still in sign-up, so "not started yet" is true), the standings
    (None before the start), the rounds (the latest first), and the games under way."""

    tournament_id: int
    name: str
    settings: str
    status: str
    signing_up: bool
    standings: StandingsTable | None
    rounds: tuple[RoundLines, ...]
    under_way: tuple[GameLink, ...]


def _side(colour: Color | None) -> Msg | None:
    if colour is None:
        return None
    return Msg.COLOR_WHITE if colour is Color.WHITE else Msg.COLOR_BLACK


def cell_line(cell: RoundCell) -> CellLine:
    """The page's cell of one of the picture's round cells (`renderer.standings.cell_text`
    writes both)."""
    opponent, result = cell_text(cell)
    return CellLine(opponent, _side(cell.colour), result, cell.doubled)


def standings_table(standings: StandingsView, players: Mapping[int, PlayerLink],
                    locale: str) -> StandingsTable:
    """The standings as the page's table: the picture's columns
    (`bot.ui.tournament_picture.standings_table` draws the same), every row."""
    arena = standings.format is Format.ARENA
    rounds = max((r.round for row in standings.rows for r in row.results), default=0)
    rounds = 0 if arena else max(rounds, standings.round)
    tie_breaks = standings.rows[0].tie_breaks if standings.rows else ()
    caption = (Msg.TOURNAMENT_STANDINGS_TITLE if arena or standings.round == 0
               else Msg.TOURNAMENT_PICTURE_TITLE_DURING if round_under_way(standings)
               else Msg.TOURNAMENT_PICTURE_TITLE)
    return StandingsTable(
        caption=caption, round=standings.round,
        tie_breaks=tuple(SHORT_TIE_BREAKS[name] for name, _ in tie_breaks),
        rounds=tuple(range(1, rounds + 1)), arena=arena,
        rows=tuple(_standing_line(row, players, rounds, arena, locale)
                   for row in standings.rows))


def _standing_line(row: StandingRow, players: Mapping[int, PlayerLink], rounds: int,
                   arena: bool, locale: str) -> StandingLine:
    cells = arena_cells(row.points) if arena else round_cells(row.results, rounds)
    return StandingLine(
        rank=row.rank, number=row.number, player=players[row.user_id],
        score=number_text(row.score, locale),
        tie_breaks=tuple("" if value is None else number_text(value, locale)
                         for _, value in row.tie_breaks),
        cells=tuple(cell_line(cell) for cell in cells),
        on_fire=row.on_fire)


def game_url(context: WebContext, game_id: int, *, by_link: bool) -> str:
    """The page of a tournament's game: signed when the tournament's page was reached by
    its signed link (its server is the tournament's, whose setting lets that page be
    shown, so the game's page may be shown too), by its id when the page was reached by
    its id (PUBLIC: anyone may read it, and the link must stop opening once the server's
    setting is no longer PUBLIC)."""
    links = context.access.links
    return links.signed_game(game_id) if by_link else links.public_game(game_id)


def _game(context: WebContext, pairing: PairingView,
          players: Mapping[int, PlayerLink], by_link: bool) -> GameLink:
    under_way = pairing.outcome is None and pairing.game_id is not None
    return GameLink(
        board=pairing.board, white=players[pairing.white], black=players[pairing.black],
        result=UNDER_WAY_MARK if pairing.outcome is None else RESULTS[pairing.outcome],
        url=None if pairing.game_id is None else game_url(context, pairing.game_id,
                                                          by_link=by_link),
        under_way=under_way)


def _bye(bye: ByeView, players: Mapping[int, PlayerLink]) -> ByeLine:
    match bye.kind:
        case ByeKind.PAIRING_ALLOCATED:
            return ByeLine(players[bye.user_id], bye=True)
        case ByeKind.NOT_PAIRED:
            return ByeLine(players[bye.user_id], bye=False)
        case _:
            assert_never(bye.kind)


def round_lines(context: WebContext, round_: RoundView,
                players: Mapping[int, PlayerLink], *, by_link: bool) -> RoundLines:
    """A round's boards (each game linked, `game_url`) and byes."""
    return RoundLines(round_.number,
                      tuple(_game(context, p, players, by_link) for p in round_.pairings),
                      tuple(_bye(b, players) for b in round_.byes))


async def read_snapshot(context: WebContext, record: TournamentRecord) -> Snapshot:
    """The tournament with its entrants and rounds, as the tournament service reads it.
    Raises what the storage raises."""
    repo = context.storage.tournaments
    entrants = await repo.entrants(record.id)
    rounds = await repo.rounds(record.id)
    return Snapshot(record, tuple(entrants), tuple(rounds))


async def tournament_page(context: WebContext, record: TournamentRecord,
                          locale: str, *, by_link: bool) -> TournamentPage:
    """The page of the tournament `record` in `locale`'s language, reached by its signed
    link (`by_link`) or by its id (its games linked so, `game_url`). Raises what the
    storage raises."""
    snapshot = await read_snapshot(context, record)
    view = snapshot.view
    links = context.access.links
    players = {entrant.user_id: PlayerLink(
        player_name(None, entrant.user_id, locale) if entrant.display_name is None
        else entrant.display_name, links.player(entrant.user_id))
        for entrant in view.entrants}
    standings = None
    if record.started_at is not None:
        # Tens of milliseconds for a long arena or a large Swiss: off the event loop.
        shown = await asyncio.to_thread(standings_at, snapshot, context.clock(), ARENA_RULES)
        standings = standings_table(shown, players, locale)
    rounds = tuple(round_lines(context, round_, players, by_link=by_link)
                   for round_ in reversed(snapshot.round_views))
    under_way = tuple(game for round_ in rounds for game in round_.games if game.under_way)
    return TournamentPage(
        tournament_id=record.id, name=record.name, settings=settings_line(view, locale),
        status=status_text(view, locale, can_join=False),
        signing_up=record.status is TournamentStatus.SIGNUP, standings=standings, rounds=rounds,
        under_way=under_way)


async def tournament(request: web.Request) -> web.Response:
    """GET `/tournaments/{id}[/{token}]`: the page, or the 404 page."""
    record = await visible_tournament(request)
    locale = reader_language(request).code
    page = await tournament_page(request.app[CONTEXT], record, locale,
                                 by_link=signed(request))
    return render_page(request, "tournament.html", view=page)


def add_routes(router: web.UrlDispatcher) -> None:
    """Register the tournament's page, by id and by signed link."""
    for path in TOURNAMENTS:
        router.add_get(path, tournament)
