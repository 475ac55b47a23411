"""Rows of the tournament tables as values (`storage.tournament_models`), and the checks
of what `storage.tournaments` is given before it writes (a `ValueError` with a clear
message where the schema would refuse it with its own)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from storage.clock import from_ms, opt_from_ms
from storage.models import GameResult, GameStatus
from storage.sql import Row
from storage.tournament_models import (
    BYE_KINDS,
    FORMATS,
    ByeRecord,
    EntrantRecord,
    EntrantStatus,
    NewTournament,
    PairingRecord,
    TournamentPost,
    TournamentRecord,
    TournamentRoundRecord,
    TournamentStatus,
)
from storage.tournament_repository import BoardPairing, RoundBye

PAIRINGS = (
    "SELECT p.*, g.status AS game_status, g.result AS game_result, "
    "g.ply_count AS game_ply_count, g.finished_at AS game_finished_at, "
    "g.termination AS game_termination "
    "FROM tournament_pairings p LEFT JOIN games g ON g.id = p.game_id "
)
ENTRANTS = (
    "SELECT e.*, pl.display_name AS display_name FROM tournament_entrants e "
    "JOIN players pl ON pl.user_id = e.user_id "
)


def tournament_from_row(row: Row) -> TournamentRecord:
    """A `TournamentRecord` from a `SELECT * FROM tournaments` row."""
    return TournamentRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        post_message_id=row["post_message_id"], thread_id=row["thread_id"],
        event_id=row["event_id"], organiser_id=row["organiser_id"], name=row["name"],
        format=row["format"], variant=row["variant"], rounds=row["rounds"],
        duration_seconds=row["duration_seconds"], move_seconds=row["move_seconds"],
        rated=bool(row["rated"]), starts_at=opt_from_ms(row["starts_at"]),
        player_limit=row["player_limit"], role_id=row["role_id"],
        status=TournamentStatus(row["status"]), started_at=opt_from_ms(row["started_at"]),
        ends_at=opt_from_ms(row["ends_at"]), paused_at=opt_from_ms(row["paused_at"]),
        finished_at=opt_from_ms(row["finished_at"]), seed=row["seed"],
        revision=row["revision"], created_at=from_ms(row["created_at"]),
        updated_at=from_ms(row["updated_at"]),
    )


def entrant_from_row(row: Row) -> EntrantRecord:
    return EntrantRecord(
        tournament_id=row["tournament_id"], user_id=row["user_id"],
        display_name=row["display_name"], joined_at=from_ms(row["joined_at"]),
        status=EntrantStatus(row["status"]), left_at=opt_from_ms(row["left_at"]),
        rating=row["rating"], number=row["number"],
    )


def pairing_from_row(row: Row) -> PairingRecord:
    """A `PairingRecord` from a row of `PAIRINGS` (the pairing joined with its game)."""
    status, result = row["game_status"], row["game_result"]
    return PairingRecord(
        tournament_id=row["tournament_id"], round=row["round"], board=row["board"],
        white_user_id=row["white_user_id"], black_user_id=row["black_user_id"],
        thread_id=row["thread_id"], game_id=row["game_id"], forfeit=row["forfeit"],
        game_status=None if status is None else GameStatus(status),
        result=None if result is None else GameResult(result),
        ply_count=row["game_ply_count"], finished_at=opt_from_ms(row["game_finished_at"]),
        termination=row["game_termination"],
    )


def bye_from_row(row: Row) -> ByeRecord:
    return ByeRecord(row["tournament_id"], row["round"], row["user_id"], row["kind"])


def round_from_row(row: Row, pairings: Iterable[PairingRecord],
                    byes: Iterable[ByeRecord]) -> TournamentRoundRecord:
    return TournamentRoundRecord(
        tournament_id=row["tournament_id"], number=row["number"],
        paired_at=from_ms(row["paired_at"]), finished_at=opt_from_ms(row["finished_at"]),
        pairings_message_id=row["pairings_message_id"],
        results_message_id=row["results_message_id"],
        pairings=tuple(pairings), byes=tuple(byes),
    )


def post_from_row(row: Row) -> TournamentPost:
    return TournamentPost(row["tournament_id"], row["kind"], row["key"], row["message_id"],
                          from_ms(row["created_at"]))


def validate_new_tournament(new: NewTournament) -> None:
    """Raise `ValueError` for a tournament the schema would refuse, with a clear message."""
    if not 1 <= len(new.name) <= 100:
        raise ValueError(f"a tournament's name has 1 to 100 characters, not {len(new.name)}")
    if new.format not in FORMATS:
        raise ValueError(f"unknown tournament format {new.format!r}: one of {sorted(FORMATS)}")
    if not new.variant:
        raise ValueError("a tournament needs a variant key")
    arena = new.format == "arena"
    if arena != (new.duration_seconds is not None) or arena != (new.rounds is None):
        raise ValueError("an arena has a duration and no rounds; Swiss and round robin "
                         "have rounds and no duration")
    if new.rounds is not None and new.rounds < 1:
        raise ValueError(f"a tournament plays at least 1 round, not {new.rounds}")
    if new.format == "round robin" and new.rounds not in (1, 2):
        raise ValueError(f"a round robin has 1 or 2 cycles, not {new.rounds}")
    if new.duration_seconds is not None and new.duration_seconds <= 0:
        raise ValueError(f"an arena lasts a positive time, not {new.duration_seconds} s")
    if new.move_seconds <= 0:
        raise ValueError(f"the move time must be positive, not {new.move_seconds} s")
    if new.player_limit is not None and new.player_limit < 2:
        raise ValueError(f"a player limit is at least 2, not {new.player_limit}")
    if not -(2**63) <= new.seed < 2**63:
        raise ValueError("a tournament's seed is a signed 64-bit integer")


def check_round(number: int, pairings: Sequence[BoardPairing],
                 byes: Sequence[RoundBye]) -> None:
    """Raise `ValueError` for a round that cannot be stored as given (`add_round`)."""
    if number < 1:
        raise ValueError(f"rounds are numbered from 1, not {number}")
    boards = [board for board, _, _ in pairings]
    if len(set(boards)) != len(boards) or any(board < 1 for board in boards):
        raise ValueError(f"boards are numbered from 1, each once: {boards}")
    players = [user for _, white, black in pairings for user in (white, black)]
    players += [user for user, _ in byes]
    if len(set(players)) != len(players):
        raise ValueError("a player is paired or given a bye at most once per round")
    if bad := [kind for _, kind in byes if kind not in BYE_KINDS]:
        raise ValueError(f"unknown bye kind {bad[0]!r}: one of {sorted(BYE_KINDS)}")
