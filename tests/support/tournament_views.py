"""Tournament service values as the Discord layer receives them (`TournamentView`,
`RoundView`, `StandingsView`), built by hand for the tests of `bot/ui/tournament_*.py`."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction

from bot.services.tournaments import (
    ByeView,
    EntrantView,
    PairingView,
    RoundView,
    StandingRow,
    StandingsView,
    TieBreak,
    TournamentSettings,
    TournamentView,
)
from storage import EntrantStatus, TournamentStatus
from tournaments.model import ByeKind, Format, Outcome

GUILD = 4_000_000_000_000_001
CHANNEL = 4_000_000_000_000_002
ORGANISER = 4_000_000_000_000_003
PLAYERS = tuple(4_000_000_000_000_100 + n for n in range(1, 6))
CREATED = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)


def swiss_view(*, status: TournamentStatus = TournamentStatus.SIGNUP, players: int = 3,
               thread_id: int | None = None, post_message_id: int | None = None,
               name: str = "Friday Swiss", **settings: object) -> TournamentView:
    """A 5-round Swiss in Turkish draughts, 5 minutes a move, rated, with `players` of
    `PLAYERS` joined in order (more: made up)."""
    chosen = TournamentSettings(name=name, format=Format.SWISS, variant="turkish", rounds=5)
    chosen = replace(chosen, **settings)  # type: ignore[arg-type]
    users = [*PLAYERS, *(5_000_000_000_000_000 + n for n in range(max(0, players - 5)))]
    entrants = tuple(
        EntrantView(user_id, EntrantStatus.ACTIVE, CREATED + timedelta(minutes=n),
                    number=None if status is TournamentStatus.SIGNUP else n + 1,
                    rating=None if status is TournamentStatus.SIGNUP else 1500 - n)
        for n, user_id in enumerate(users[:players]))
    return TournamentView(
        id=7, guild_id=GUILD, channel_id=CHANNEL, name=name, settings=chosen,
        organiser_id=ORGANISER, status=status, entrants=entrants, thread_id=thread_id,
        post_message_id=post_message_id, event_id=None, created_at=CREATED,
        started_at=None if status is TournamentStatus.SIGNUP else CREATED,
        ends_at=None, finished_at=None,
        current_round=0 if status is TournamentStatus.SIGNUP else 1, total_rounds=5)


def arena_view(**fields: object) -> TournamentView:
    """An arena of one hour, 40 seconds a move, in sign-up."""
    view = swiss_view()
    settings = replace(view.settings, format=Format.ARENA, rounds=None,
                       duration=timedelta(hours=1), move_seconds=40)
    return replace(view, settings=settings, total_rounds=None, **fields)  # type: ignore[arg-type]


def round_one() -> RoundView:
    """Round 1 of three players: board 1 won by White, the third player's bye."""
    return RoundView(1, (PairingView(1, PLAYERS[0], PLAYERS[1], 9001, 31, Outcome.WHITE_WINS),),
                     (ByeView(PLAYERS[2], ByeKind.PAIRING_ALLOCATED),), finished=True)


def standings_after_one(final: bool = False) -> StandingsView:
    """The standings after `round_one`: the winner and the bye share 2 points."""
    def row(rank: int, user: int, score: int, buchholz: int) -> StandingRow:
        return StandingRow(rank, user, PLAYERS.index(user) + 1, score,
                           ((TieBreak.BUCHHOLZ_CUT_1, buchholz),
                            (TieBreak.SONNEBORN_BERGER, Fraction(3, 2)),
                            (TieBreak.DIRECT_ENCOUNTER, None)),
                           EntrantStatus.ACTIVE)
    return StandingsView(7, "Friday Swiss", Format.SWISS, 1, final,
                         (row(1, PLAYERS[0], 2, 0), row(2, PLAYERS[2], 2, 0),
                          row(3, PLAYERS[1], 0, 2)))
