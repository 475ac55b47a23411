"""The tournament service's values: the settings of a new tournament and their checks, what
a tournament, a round and the standings look like to the Discord layer, and the closed
union of what the service posts (`Post`). Frozen values of plain data; nothing of discord
(docs/ARCHITECTURE.md, "Services and their events")."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import assert_never

from bot.messages import VARIANT_NAMES, Conjunction, Listing, Msg
from bot.services.errors import PlayerError
from bot.services.models import MoveTime
from engine import VARIANTS, UnknownVariantError, get_variant
from storage import EntrantStatus, TournamentStatus
from tournaments.model import ByeKind, Colour, Format, Outcome

NAME_LENGTH = range(1, 101)
"""A tournament's name: 1 to 100 characters."""

SWISS_ROUNDS = range(1, 21)
"""A Swiss has 1 to 20 rounds."""

ROUND_ROBIN_CYCLES = range(1, 3)
"""A round robin is single (1 cycle) or double (2)."""

ROUND_ROBIN_MAX_PLAYERS = 16
"""At most 16 players in a round robin (15 or 30 rounds: an evening's or a season's)."""

ARENA_SHORTEST = timedelta(minutes=10)
ARENA_LONGEST = timedelta(hours=24)
"""An arena lasts 10 minutes to 24 hours."""

PLAYER_LIMIT = range(2, 501)
"""A player limit, when set, is 2 to 500."""

START_WITHIN = timedelta(days=30)
"""A start time is in the future, at most 30 days ahead."""

MOVE_TIMES = tuple(
    seconds for seconds in (limit.seconds for limit in MoveTime) if seconds is not None
)
"""The per-move times a tournament's games may have: the game's own choices
(`MoveTime`) but none, since a tournament's games must end."""

MIN_PLAYERS = 2
"""A tournament starts with at least two active entrants."""


@dataclass(frozen=True)
class TournamentSettings:
    """What the organiser chose at `/tournament create`: the `name`, the `format`, the
    variant's registry key or name (`variant`), the Swiss's `rounds` (None for the other
    formats), the round robin's `cycles` (1 or 2; ignored by the other formats), the
    arena's `duration` (None for the other formats), the games' per-move time
    (`move_seconds`), `rated`, the start time (`starts_at`, None: the organiser starts
    it), the `player_limit` (None: none) and the role a player needs to join (`role_id`,
    None: everyone may join)."""

    name: str
    format: Format
    variant: str
    rounds: int | None = None
    cycles: int = 1
    duration: timedelta | None = None
    move_seconds: int = 5 * 60
    rated: bool = True
    starts_at: datetime | None = None
    player_limit: int | None = None
    role_id: int | None = None

    def check(self, now: datetime) -> None:
        """Refuse a bad value, each with its own message. Raises `PlayerError`:
        TOURNAMENT_NAME (not 1-100 characters once trimmed), UNKNOWN_VARIANT,
        TOURNAMENT_ROUNDS (a Swiss without 1-20 rounds), TOURNAMENT_CYCLES (a round robin
        not of 1 or 2 cycles), TOURNAMENT_DURATION (an arena without a duration of
        10 minutes to 24 hours), TOURNAMENT_MOVE_TIME (a per-move time not among
        `MOVE_TIMES`), TOURNAMENT_PLAYER_LIMIT (a limit not 2-500, or above 16 in a round
        robin), TOURNAMENT_START_TIME (a start time not after `now`, or more than 30 days
        after it). The limits are this module's constants."""
        if len(self.name.strip()) not in NAME_LENGTH:
            raise PlayerError(Msg.TOURNAMENT_NAME, longest=NAME_LENGTH[-1])
        try:
            get_variant(self.variant)
        except UnknownVariantError:
            raise PlayerError(
                Msg.UNKNOWN_VARIANT, name=self.variant,
                valid=Listing(tuple(VARIANT_NAMES[key] for key in VARIANTS), Conjunction.OR),
            ) from None
        most_players = PLAYER_LIMIT[-1]
        match self.format:
            case Format.SWISS:
                if self.rounds is None or self.rounds not in SWISS_ROUNDS:
                    raise PlayerError(Msg.TOURNAMENT_ROUNDS, fewest=SWISS_ROUNDS[0],
                                      most=SWISS_ROUNDS[-1])
            case Format.ROUND_ROBIN:
                if self.cycles not in ROUND_ROBIN_CYCLES:
                    raise PlayerError(Msg.TOURNAMENT_CYCLES)
                most_players = ROUND_ROBIN_MAX_PLAYERS
            case Format.ARENA:
                if self.duration is None or not (
                        ARENA_SHORTEST <= self.duration <= ARENA_LONGEST):
                    raise PlayerError(Msg.TOURNAMENT_DURATION,
                                      shortest=int(ARENA_SHORTEST.total_seconds() // 60),
                                      longest=int(ARENA_LONGEST.total_seconds() // 3600))
            case _:
                assert_never(self.format)
        if self.move_seconds not in MOVE_TIMES:
            raise PlayerError(Msg.TOURNAMENT_MOVE_TIME,
                              valid=Listing(tuple(_move_time_text(s) for s in MOVE_TIMES),
                                            Conjunction.OR))
        if self.player_limit is not None and not (
                PLAYER_LIMIT[0] <= self.player_limit <= most_players):
            raise PlayerError(Msg.TOURNAMENT_PLAYER_LIMIT, fewest=PLAYER_LIMIT[0],
                              most=most_players)
        if self.starts_at is not None and not (now < self.starts_at <= now + START_WITHIN):
            raise PlayerError(Msg.TOURNAMENT_START_TIME, days=START_WITHIN.days)

    @property
    def most_players(self) -> int | None:
        """The most entrants the tournament takes: the player limit, and in a round robin
        at most `ROUND_ROBIN_MAX_PLAYERS` (None: no limit)."""
        if self.format is Format.ROUND_ROBIN:
            return min(self.player_limit or ROUND_ROBIN_MAX_PLAYERS, ROUND_ROBIN_MAX_PLAYERS)
        return self.player_limit


def _move_time_text(seconds: int) -> str:
    """The per-move time as its option's text ("40s", "5m"...)."""
    return MoveTime.of_seconds(seconds).value


@dataclass(frozen=True)
class EntrantView:
    """A player of the tournament: `user_id`, `status` (active, left, removed), when they
    joined, from the start their pairing `number` and `rating` (None before), and their
    last known `display_name` (None if never known: the standings picture writes their
    number)."""

    user_id: int
    status: EntrantStatus
    joined_at: datetime
    number: int | None = None
    rating: int | None = None
    display_name: str | None = None


@dataclass(frozen=True)
class TournamentView:
    """What a post or `/tournament info` shows of a tournament: its `id`, server
    (`guild_id`), the channel of its sign-up post (`channel_id`), `name`, `settings` (as
    created, the variant as its registry key), `organiser_id`, `status`, the `entrants`
    in join order (all of them, with their status), its thread (`thread_id`, None before
    it is opened), the sign-up post (`post_message_id`) and Discord scheduled event
    (`event_id`), `started_at`, `ends_at` (an arena's end, moved on by a pause),
    `finished_at`, `current_round` (the last round paired, 0 before the first) and
    `total_rounds` (a Swiss's rounds; a round robin's once started, from its entrants;
    None for an arena and for a round robin before the start)."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    settings: TournamentSettings
    organiser_id: int
    status: TournamentStatus
    entrants: tuple[EntrantView, ...]
    thread_id: int | None
    post_message_id: int | None
    event_id: int | None
    created_at: datetime
    started_at: datetime | None
    ends_at: datetime | None
    finished_at: datetime | None
    current_round: int
    total_rounds: int | None

    @property
    def format(self) -> Format:
        return self.settings.format

    @property
    def active_entrants(self) -> tuple[EntrantView, ...]:
        """The entrants still in (neither left nor removed), in join order."""
        return tuple(e for e in self.entrants if e.status is EntrantStatus.ACTIVE)

    def entrant(self, user_id: int) -> EntrantView | None:
        """`user_id`'s entry, None when they never joined."""
        return next((e for e in self.entrants if e.user_id == user_id), None)


@dataclass(frozen=True)
class PairingView:
    """One board of a round: `white` and `black` (user ids), the game's thread and game
    (None until opened and started), and its `outcome` (None while under way; a forfeit's
    outcome when it was not played)."""

    board: int
    white: int
    black: int
    thread_id: int | None
    game_id: int | None
    outcome: Outcome | None


@dataclass(frozen=True)
class ByeView:
    """A player without an opponent in a round: a pairing-allocated bye or not paired
    (`tournaments.ByeKind`)."""

    user_id: int
    kind: ByeKind


@dataclass(frozen=True)
class RoundView:
    """A round: its `number` (from 1; in an arena, one pairing of the players free at
    that moment), its boards and byes, and whether every game has its outcome."""

    number: int
    pairings: tuple[PairingView, ...]
    byes: tuple[ByeView, ...]
    finished: bool


class TieBreak(enum.Enum):
    """A tie-break of the standings, in the order docs/RULES.md ("Tie-breaks and
    standings", "Arena") applies them."""

    BUCHHOLZ_CUT_1 = "buchholz cut 1"
    SONNEBORN_BERGER = "sonneborn-berger"
    DIRECT_ENCOUNTER = "direct encounter"
    PERFORMANCE = "performance"


class Cell(enum.Enum):
    """What one round of a player's row shows: a game's result for the player (a win,
    draw or loss over the board or by forfeit), a game under way, a pairing-allocated
    bye, or a round the player was not paired in."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit win"
    FORFEIT_LOSS = "forfeit loss"
    UNDER_WAY = "under way"
    BYE = "bye"
    NOT_PAIRED = "not paired"


@dataclass(frozen=True)
class ResultCell:
    """A player's round: `round`, what it was (`cell`), the `points` it scored, and for a
    game the opponent (user id and pairing number) and the player's colour."""

    round: int
    cell: Cell
    points: int
    opponent: int | None = None
    opponent_number: int | None = None
    colour: Colour | None = None


@dataclass(frozen=True)
class StandingRow:
    """A row of the standings: `rank` (shared, in a Swiss or round robin, only when the
    score and every tie-break are equal; never in an arena), `user_id`, the pairing
    `number`, the `score` in the tournament's points (win 2, draw 1; docs/RULES.md,
    "Scores", "Arena"), the tie-breaks by name in their order (`tie_breaks`; a value is
    None where it does not apply: direct encounter outside a tie, performance before a
    game), the `status` of the entrant, and per format: the `results` of each round
    (Swiss, round robin), or the arena's `games` played, `wins`, whether the player is
    `on_fire` and the `points` of each game in order."""

    rank: int
    user_id: int
    number: int
    score: int
    tie_breaks: tuple[tuple[TieBreak, int | Fraction | None], ...]
    status: EntrantStatus
    results: tuple[ResultCell, ...] = ()
    games: int = 0
    wins: int = 0
    on_fire: bool = False
    points: tuple[int, ...] = ()


@dataclass(frozen=True)
class StandingsView:
    """A tournament's standings: its id, name and `format`, the `round` shown (the last
    round paired; an arena's number of pairings), whether they are `final` (the
    tournament finished) and the ranked `rows`. Before the start there are no rows."""

    tournament_id: int
    name: str
    format: Format
    round: int
    final: bool
    rows: tuple[StandingRow, ...]

    @property
    def podium(self) -> tuple[StandingRow, ...]:
        """The rows ranked 1 to 3 (more when ranks are shared)."""
        return tuple(row for row in self.rows if row.rank <= 3)


# --- what the service posts -----------------------------------------------------------


class PostKind(enum.StrEnum):
    """The kinds of the claimed-post ledger (`tournament_posts.kind`)."""

    SIGN_UP = "signup"
    STARTED = "started"
    PAIRINGS = "pairings"
    RESULTS = "results"
    PAUSED = "paused"
    RESUMED = "resumed"
    ENDED = "ended"
    CANCELLED = "cancelled"
    REMOVED = "removed"
    FINAL = "final"


@dataclass(frozen=True)
class SignUp:
    """The sign-up post in the tournament's channel: the settings, the entrants, and the
    Join and Leave buttons (kept up to date with `TournamentOutlet.edit_signup`)."""


@dataclass(frozen=True)
class Started:
    """The tournament started (posted in its thread): the entrants by pairing number."""


@dataclass(frozen=True)
class RoundPaired:
    """A round's pairings and byes (posted in the thread; in an arena, each pairing
    of the free players)."""

    round: RoundView


@dataclass(frozen=True)
class RoundResults:
    """A round of a Swiss or round robin is over: its results and the standings after
    it."""

    round: RoundView
    standings: StandingsView


@dataclass(frozen=True)
class Paused:
    """The organiser paused the tournament: games under way go on, no new pairing."""

    revision: int
    """The tournament's revision after the pause (the ledger's key: each pause is
    posted once)."""


@dataclass(frozen=True)
class Resumed:
    """The organiser resumed the tournament (an arena's `ends_at` moved on by the
    pause)."""

    revision: int
    """The tournament's revision after the resumption (the ledger's key)."""


@dataclass(frozen=True)
class Ended:
    """The organiser ended the tournament early: games under way finish, no new pairing,
    then the final standings."""


@dataclass(frozen=True)
class Cancelled:
    """The tournament was ended before it started (by the organiser, or at its start
    time with fewer than two players): no games were played."""

    too_few_players: bool
    """Cancelled at its start time with fewer than two players (else by the organiser;
    the ledger's key says which, so a restart posts the same notice)."""


@dataclass(frozen=True)
class PlayerRemoved:
    """The organiser removed a player: paired no more, their games kept."""

    user_id: int


@dataclass(frozen=True)
class Final:
    """The tournament is over: the final standings and the podium."""

    standings: StandingsView


Post = (SignUp | Started | RoundPaired | RoundResults | Paused | Resumed | Ended | Cancelled
        | PlayerRemoved | Final)
"""What the service asks its outlet to post, a closed union (match it with
`typing.assert_never`)."""


@dataclass(frozen=True)
class PostKey:
    """A post's row in the claimed-post ledger: (tournament, `kind`, `key`). The outlet
    derives its message nonce from it, so a post sent again after a crash is the same
    message (docs/ARCHITECTURE.md, "Services and their events")."""

    kind: PostKind
    key: str


def post_key(post: Post) -> PostKey:
    """The ledger key of `post` (each post is made once per key)."""
    match post:
        case SignUp():
            return PostKey(PostKind.SIGN_UP, "")
        case Started():
            return PostKey(PostKind.STARTED, "")
        case RoundPaired(round=round_):
            return PostKey(PostKind.PAIRINGS, str(round_.number))
        case RoundResults(round=round_):
            return PostKey(PostKind.RESULTS, str(round_.number))
        case Paused(revision=revision):
            return PostKey(PostKind.PAUSED, str(revision))
        case Resumed(revision=revision):
            return PostKey(PostKind.RESUMED, str(revision))
        case Ended():
            return PostKey(PostKind.ENDED, "")
        case Cancelled(too_few_players=too_few_players):
            return PostKey(PostKind.CANCELLED, _TOO_FEW if too_few_players else _BY_ORGANISER)
        case PlayerRemoved(user_id=user_id):
            return PostKey(PostKind.REMOVED, str(user_id))
        case Final():
            return PostKey(PostKind.FINAL, "")
        case _:
            assert_never(post)


_TOO_FEW = "too-few-players"
_BY_ORGANISER = "organiser"
"""The ledger's keys of `Cancelled`."""

Notice = Paused | Resumed | Ended | Cancelled | PlayerRemoved
"""A post about a change the organiser (or a start time) made: nothing stored besides
its ledger row says it is owed, so a restart rebuilds it from that row (`notice_of`)."""


def notice_of(kind: str, key: str) -> Notice | None:
    """The notice whose ledger row is (`kind`, `key`), rebuilt from the row alone (the
    inverse of `post_key` for notices); None for a post of another kind (the reconciler
    derives those from the stored rounds and status) or a key no notice has."""
    try:
        post_kind = PostKind(kind)
    except ValueError:
        return None
    match post_kind:
        case PostKind.PAUSED | PostKind.RESUMED | PostKind.REMOVED:
            if not key.isdigit():
                return None
            number = int(key)
            return (Paused(number) if post_kind is PostKind.PAUSED
                    else Resumed(number) if post_kind is PostKind.RESUMED
                    else PlayerRemoved(number))
        case PostKind.ENDED:
            return Ended() if key == "" else None
        case PostKind.CANCELLED:
            known = {_TOO_FEW: True, _BY_ORGANISER: False}
            return Cancelled(too_few_players=known[key]) if key in known else None
        case (PostKind.SIGN_UP | PostKind.STARTED | PostKind.PAIRINGS | PostKind.RESULTS
              | PostKind.FINAL):
            return None
        case _:
            assert_never(post_kind)
