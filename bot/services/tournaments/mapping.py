"""Stored tournaments read as the rules' values and as the service's views: a record's
settings, a pairing's outcome (the game's row for a played game, the pairing's forfeit
for one not played: docs/ARCHITECTURE.md, "Services and their events"), the rounds as
`tournaments.model.Round`s, the numbered entrants as `Entrant`s, and the views."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import assert_never

from bot.services.tournaments.values import (
    ByeView,
    EntrantView,
    PairingView,
    RoundView,
    TournamentSettings,
    TournamentView,
)
from storage import (
    EntrantRecord,
    GameStatus,
    PairingRecord,
    TournamentRecord,
    TournamentRoundRecord,
)
from tournaments.model import Bye, ByeKind, Entrant, Format, Game, Outcome, Round
from tournaments.round_robin import rounds_per_cycle


def settings_of(record: TournamentRecord) -> TournamentSettings:
    """The settings a stored tournament was created with (its `rounds` column holds a
    Swiss's rounds and a round robin's cycles)."""
    format_ = Format(record.format)
    return TournamentSettings(
        name=record.name, format=format_, variant=record.variant,
        rounds=record.rounds if format_ is Format.SWISS else None,
        cycles=(record.rounds or 1) if format_ is Format.ROUND_ROBIN else 1,
        duration=(None if record.duration_seconds is None
                  else timedelta(seconds=record.duration_seconds)),
        move_seconds=record.move_seconds, rated=record.rated, starts_at=record.starts_at,
        player_limit=record.player_limit, role_id=record.role_id,
    )


def outcome_of(pairing: PairingRecord) -> Outcome | None:
    """How the pairing's game ended: its forfeit, else the finished game's result (the
    game's row is the one record of it), else None (not started, under way, or aborted
    and not yet settled as a forfeit)."""
    if pairing.forfeit is not None:
        return Outcome(pairing.forfeit)
    if pairing.game_status is GameStatus.FINISHED and pairing.result is not None:
        return Outcome(pairing.result.value)
    return None


def model_round(round_: TournamentRoundRecord) -> Round:
    """The stored round as the rules read it."""
    return Round(
        number=round_.number,
        games=tuple(Game(round_.number, p.board, p.white_user_id, p.black_user_id,
                         outcome_of(p)) for p in round_.pairings),
        byes=tuple(Bye(round_.number, b.user_id, ByeKind(b.kind)) for b in round_.byes),
    )


def numbered(entrants: Sequence[EntrantRecord]) -> tuple[Entrant, ...]:
    """The entrants with a pairing number (every player since the start, whatever their
    status now), as the rules read them; a missing rating reads as 0 (never stored:
    `start` writes every rating)."""
    return tuple(Entrant(e.user_id, e.rating or 0, e.number) for e in entrants
                 if e.number is not None)


def round_view(round_: TournamentRoundRecord) -> RoundView:
    """The stored round as the Discord layer shows it."""
    pairings = tuple(
        PairingView(p.board, p.white_user_id, p.black_user_id, p.thread_id, p.game_id,
                    outcome_of(p))
        for p in round_.pairings)
    return RoundView(
        number=round_.number, pairings=pairings,
        byes=tuple(ByeView(b.user_id, ByeKind(b.kind)) for b in round_.byes),
        finished=all(p.outcome is not None for p in pairings),
    )


def total_rounds(record: TournamentRecord, entrants: Sequence[EntrantRecord]) -> int | None:
    """A Swiss's rounds; a round robin's from its numbered entrants (None before the
    start); None for an arena."""
    format_ = Format(record.format)
    match format_:
        case Format.SWISS:
            return record.rounds
        case Format.ROUND_ROBIN:
            count = sum(1 for e in entrants if e.number is not None)
            if count < 2:
                return None
            return rounds_per_cycle(count) * (record.rounds or 1)
        case Format.ARENA:
            return None
        case _:
            assert_never(format_)


def tournament_view(record: TournamentRecord, entrants: Sequence[EntrantRecord],
                    current_round: int) -> TournamentView:
    """The tournament as posts and `/tournament info` show it."""
    return TournamentView(
        id=record.id, guild_id=record.guild_id, channel_id=record.channel_id,
        name=record.name, settings=settings_of(record), organiser_id=record.organiser_id,
        status=record.status,
        entrants=tuple(EntrantView(e.user_id, e.status, e.joined_at, e.number, e.rating,
                                   e.display_name)
                       for e in entrants),
        thread_id=record.thread_id, post_message_id=record.post_message_id,
        event_id=record.event_id, created_at=record.created_at,
        started_at=record.started_at, ends_at=record.ends_at,
        finished_at=record.finished_at, current_round=current_round,
        total_rounds=total_rounds(record, entrants),
    )
