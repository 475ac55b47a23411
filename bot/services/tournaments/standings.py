"""A tournament's standings as the service shows them (`StandingsView`), computed by the
pure core over the results read from the linked games: `tournaments.standings` for a
Swiss and a round robin, `tournaments.arena_scores` for an arena (docs/RULES.md,
"Tournaments")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import assert_never

from bot.services.tournaments.mapping import model_round, outcome_of
from bot.services.tournaments.values import (
    Cell,
    ResultCell,
    StandingRow,
    StandingsView,
    TieBreak,
)
from storage import EntrantStatus, TournamentRoundRecord
from tournaments import arena_scores
from tournaments import standings as bracket
from tournaments.arena_scores import ArenaGame, ArenaRules
from tournaments.model import ByeKind, Entrant, Format, Game
from tournaments.scores import score_system


def cell_of(result: bracket.RoundResult) -> Cell:
    """What one round of a row shows."""
    if result.bye is not None:
        match result.bye:
            case ByeKind.PAIRING_ALLOCATED:
                return Cell.BYE
            case ByeKind.NOT_PAIRED:
                return Cell.NOT_PAIRED
            case _:
                assert_never(result.bye)
    outcome = result.outcome
    if outcome is None:
        return Cell.UNDER_WAY
    winner = outcome.winner()
    if outcome.played:
        if winner is None:
            return Cell.DRAW
        return Cell.WIN if winner is result.colour else Cell.LOSS
    return Cell.FORFEIT_WIN if winner is not None and winner is result.colour \
        else Cell.FORFEIT_LOSS


def bracket_standings(
    tournament_id: int, name: str, format: Format, entrants: Sequence[Entrant],
    statuses: Mapping[int, EntrantStatus], rounds: Sequence[TournamentRoundRecord],
    *, final: bool,
) -> StandingsView:
    """The standings of a Swiss or round robin after `rounds` (games under way show
    without points)."""
    numbers = {entrant.player: entrant.number for entrant in entrants}
    rows = bracket.standings(entrants, [model_round(r) for r in rounds],
                             score_system(format))
    return StandingsView(
        tournament_id=tournament_id, name=name, format=format,
        round=max((r.number for r in rounds), default=0), final=final,
        rows=tuple(
            StandingRow(
                rank=row.rank, user_id=row.player, number=row.number, score=row.score,
                tie_breaks=((TieBreak.BUCHHOLZ_CUT_1, row.buchholz_cut_1),
                            (TieBreak.SONNEBORN_BERGER, row.sonneborn_berger),
                            (TieBreak.DIRECT_ENCOUNTER, row.direct_encounter)),
                status=statuses[row.player],
                results=tuple(
                    ResultCell(
                        round=result.round, cell=cell_of(result), points=result.points,
                        opponent=result.opponent,
                        opponent_number=(None if result.opponent is None
                                         else numbers[result.opponent]),
                        colour=result.colour,
                    )
                    for result in row.results),
            )
            for row in rows),
    )


def arena_games(rounds: Sequence[TournamentRoundRecord]) -> list[ArenaGame]:
    """The arena's games with their outcome, each ended when its game finished (a
    forfeit: when its round was paired), lasting the game's plies over two (a move is
    one turn of each side: docs/RULES.md, "Arena")."""
    games: list[ArenaGame] = []
    for round_ in rounds:
        for pairing in round_.pairings:
            outcome = outcome_of(pairing)
            if outcome is None:
                continue
            ended_at = pairing.finished_at if outcome.played else None
            games.append(ArenaGame(
                Game(round_.number, pairing.board, pairing.white_user_id,
                     pairing.black_user_id, outcome),
                ended_at=ended_at if ended_at is not None else round_.paired_at,
                moves=None if pairing.ply_count is None else pairing.ply_count // 2,
            ))
    return games


def arena_standings(
    tournament_id: int, name: str, entrants: Sequence[Entrant],
    statuses: Mapping[int, EntrantStatus], rounds: Sequence[TournamentRoundRecord],
    rules: ArenaRules, end: datetime, *, final: bool,
) -> StandingsView:
    """The arena's standings counting the games ended by `end` (the arena's end, or now
    while it runs)."""
    rows = arena_scores.standings(entrants, arena_games(rounds), rules, end)
    numbers = {entrant.player: entrant.number for entrant in entrants}
    return StandingsView(
        tournament_id=tournament_id, name=name, format=Format.ARENA,
        round=max((r.number for r in rounds), default=0), final=final,
        rows=tuple(
            StandingRow(
                rank=row.rank, user_id=row.player, number=numbers[row.player],
                score=row.score, tie_breaks=((TieBreak.PERFORMANCE, row.performance),),
                status=statuses[row.player], games=row.games, wins=row.wins,
                on_fire=row.on_fire, points=row.points,
            )
            for row in rows),
    )

