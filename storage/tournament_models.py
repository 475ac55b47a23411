"""The values of tournaments as stored (`TournamentRepository`; migration 0011): enums and
frozen dataclasses, with the conventions of `storage.models` (ids are ints, times are
timezone-aware UTC `datetime`s to the millisecond).

Storage knows nothing of the tournament rules: a format, a forfeit and a bye's kind are
the text values of `tournaments.Format`, of the forfeits of `tournaments.Outcome` and of
`tournaments.ByeKind` (the service maps them; `FORMATS`, `FORFEITS` and `BYE_KINDS` list
what the schema accepts). Kept apart from `storage.models` only for its length; every
name here is exported by `storage` as well.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from storage.models import GameResult, GameStatus

FORMATS = frozenset({"arena", "swiss", "round robin"})
"""The values of `tournaments.Format` the schema accepts."""

FORFEITS = frozenset({"+/-", "-/+", "-/-"})
"""A pairing's forfeit: White wins by forfeit, Black wins by forfeit, both lose (the
forfeit values of `tournaments.Outcome`)."""

BYE_KINDS = frozenset({"U", "Z"})
"""A bye's kind: "U" pairing-allocated, "Z" not paired (`tournaments.ByeKind`)."""


class TournamentStatus(enum.Enum):
    """Where a tournament is in its life: sign-up, running (or paused), then finished or
    cancelled (cancelled: ended before its end, from sign-up or under way)."""

    SIGNUP = "signup"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EntrantStatus(enum.Enum):
    """An entrant plays on (`ACTIVE`), left by themselves (`LEFT`) or was removed by the
    organiser (`REMOVED`); neither of the last two is paired again."""

    ACTIVE = "active"
    LEFT = "left"
    REMOVED = "removed"


@dataclass(frozen=True)
class NewTournament:
    """What `TournamentRepository.create` needs. `format` is a value of `FORMATS`;
    `rounds`: Swiss its number of rounds, round robin its cycles (1 or 2), arena None;
    `duration_seconds`: the arena's length (None otherwise); `move_seconds` the games'
    per-move time; `starts_at` None: the organiser starts it; `player_limit` None: no
    limit (else at least 2); `role_id` None: everyone may join; `seed` the draws' seed
    (a signed 64-bit int)."""

    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    format: str
    variant: str
    rounds: int | None
    duration_seconds: int | None
    move_seconds: int
    rated: bool
    seed: int
    starts_at: datetime | None = None
    player_limit: int | None = None
    role_id: int | None = None


@dataclass(frozen=True)
class TournamentRecord:
    """A stored tournament: what `NewTournament` gave, where it shows (`post_message_id`:
    its sign-up post, `thread_id`: its thread, `event_id`: its Discord scheduled event;
    each None until made), its `status` and times (`ends_at`: the arena's end, moved on by
    a pause), and its `revision` (changed by every write of the tournament, its entrants
    or its rounds: a conditional write names the revision it was computed from)."""

    id: int
    guild_id: int
    channel_id: int
    post_message_id: int | None
    thread_id: int | None
    event_id: int | None
    organiser_id: int
    name: str
    format: str
    variant: str
    rounds: int | None
    duration_seconds: int | None
    move_seconds: int
    rated: bool
    starts_at: datetime | None
    player_limit: int | None
    role_id: int | None
    status: TournamentStatus
    started_at: datetime | None
    ends_at: datetime | None
    paused_at: datetime | None
    finished_at: datetime | None
    seed: int
    revision: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class EntrantRecord:
    """A player who joined a tournament, with their last known `display_name` (None if
    never seen), `rating` and pairing `number` (both None before the start)."""

    tournament_id: int
    user_id: int
    display_name: str | None
    joined_at: datetime
    status: EntrantStatus
    left_at: datetime | None
    rating: int | None
    number: int | None


@dataclass(frozen=True)
class PairingRecord:
    """A board of a round: White and Black, the game's thread and game once made, a
    forfeit (a value of `FORFEITS`) if the game was never played, and, read from the
    linked game's row, its `game_status`, `result`, `ply_count`, `finished_at` and
    `termination` (all None without a game; `result` None until the game is finished).
    The game's row is the only record of a played game's result."""

    tournament_id: int
    round: int
    board: int
    white_user_id: int
    black_user_id: int
    thread_id: int | None
    game_id: int | None
    forfeit: str | None
    game_status: GameStatus | None
    result: GameResult | None
    ply_count: int | None
    finished_at: datetime | None
    termination: str | None


@dataclass(frozen=True)
class ByeRecord:
    """A player a round did not pair, and how (`kind`: a value of `BYE_KINDS`)."""

    tournament_id: int
    round: int
    user_id: int
    kind: str


@dataclass(frozen=True)
class TournamentRoundRecord:
    """A round (in an arena: one pairing batch) with its pairings by board and its byes
    by user id; `finished_at` None while games are under way; the messages that posted
    its pairings and results (None until recorded)."""

    tournament_id: int
    number: int
    paired_at: datetime
    finished_at: datetime | None
    pairings_message_id: int | None
    results_message_id: int | None
    pairings: tuple[PairingRecord, ...]
    byes: tuple[ByeRecord, ...]


@dataclass(frozen=True)
class TournamentPost:
    """A post of the tournament's ledger: its `kind` and `key` (("round", "3"), say),
    the message that carries it (None until recorded) and when it was claimed."""

    tournament_id: int
    kind: str
    key: str
    message_id: int | None
    created_at: datetime
