"""Values the repositories take and return: enums and frozen dataclasses.

Conventions: Discord ids (users, guilds, channels, messages) are ints; times are
timezone-aware `datetime`s in UTC, stored to the millisecond (a naive datetime raises
`ValueError`); a variant is its key text ("turkish", ...), a position is FEN text and a
move is its notation text: storage knows nothing of the rules. Ratings are on the Glicko
scale (1500 = starting rating), deviations in rating points.

Plies are numbered from 1: ply 1 is the first move of the game, ply n the n-th move made
from the start position, whichever side made it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta


class Side(enum.Enum):
    """A side of the board. Storage has its own enum: it does not import the engine."""

    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class GameStatus(enum.Enum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


class PlaceKind(enum.Enum):
    """Where a game is played, which decides how its boards are shown
    (docs/ARCHITECTURE.md, "Places"); stored as text on `games.place` (migration 0012)."""

    CHANNEL = "channel"
    """The bot posts messages there: a server channel or thread where the bot is
    installed, or the bot's own DM with a player."""
    INTERACTIONS = "interactions"
    """The bot only answers interactions there: a DM or group DM between users, or a
    server where only the player installed the app."""


class GameResult(enum.Enum):
    """A finished game's result in PDN notation."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"

    def score_of(self, side: Side) -> float:
        """1.0 for a win of `side`, 0.5 for a draw, 0.0 for a loss."""
        if self is GameResult.DRAW:
            return 0.5
        winner = Side.WHITE if self is GameResult.WHITE_WINS else Side.BLACK
        return 1.0 if side is winner else 0.0


class ChallengeStatus(enum.Enum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class ColorChoice(enum.Enum):
    """The colour a challenger asks for."""

    WHITE = "white"
    BLACK = "black"
    RANDOM = "random"


@dataclass(frozen=True)
class Seat:
    """Who plays one side: a Discord user, or the computer at a level (exactly one)."""

    user_id: int | None = None
    computer_level: int | None = None

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.computer_level is None):
            raise ValueError("a seat is either a user id or a computer level, exactly one")

    @classmethod
    def human(cls, user_id: int) -> Seat:
        return cls(user_id=user_id)

    @classmethod
    def computer(cls, level: int) -> Seat:
        return cls(computer_level=level)

    @property
    def is_computer(self) -> bool:
        return self.computer_level is not None


@dataclass(frozen=True)
class Player:
    """A Discord user the bot has seen: id and last known display name (None if never seen)."""

    user_id: int
    display_name: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class TimeControl:
    """A clock per player with an increment (Fischer), written "5+3": each player starts
    with `base_seconds` and gains `increment_seconds` after each of their own moves, as in
    the FIDE Laws of Chess, article 6.1 ("the cumulative mode": a time to complete all
    moves, with an increment added after each move). Raises `ValueError` for a base that
    is not positive or a negative increment."""

    base_seconds: int
    increment_seconds: int

    def __post_init__(self) -> None:
        if self.base_seconds <= 0:
            raise ValueError(f"a clock needs a positive starting time, not {self.base_seconds}")
        if self.increment_seconds < 0:
            raise ValueError(f"an increment cannot be negative, not {self.increment_seconds}")

    @property
    def base(self) -> timedelta:
        return timedelta(seconds=self.base_seconds)

    @property
    def increment(self) -> timedelta:
        return timedelta(seconds=self.increment_seconds)


@dataclass(frozen=True)
class NewGame:
    """What `GameRepository.create` needs. `rated` requires two different human seats.

    `move_seconds` is the per-move time limit in seconds (None: no limit); `time_control`
    the players' clocks (None: none; exclusive with `move_seconds`, each player starts
    with its base); `deadline`, if given, is when the side to move first runs out of time.
    """

    variant: str
    channel_id: int
    guild_id: int | None
    white: Seat
    black: Seat
    start_fen: str
    rated: bool = False
    move_seconds: int | None = None
    deadline: datetime | None = None
    time_control: TimeControl | None = None
    place: PlaceKind = PlaceKind.CHANNEL


@dataclass(frozen=True)
class RatingChange:
    """One side's rating and deviation before and after a rated game."""

    rating_before: float
    deviation_before: float
    rating_after: float
    deviation_after: float

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


@dataclass(frozen=True)
class ClockState:
    """Per-move clock of a game (docs/RULES.md, "Project-wide game rules", Time): when the
    side to move runs out, and how many moves in a row the computer has made for each side
    on behalf of an absent player. In a game with a `TimeControl`, also each player's
    remaining time as of the game's last step (`white_left`, `black_left`; None without a
    clock): the player to move's clock runs from that step, and `deadline` is that step's
    time plus their remaining time."""

    deadline: datetime | None
    white_computer_moves: int = 0
    black_computer_moves: int = 0
    white_left: timedelta | None = None
    black_left: timedelta | None = None


@dataclass(frozen=True)
class GameRecord:
    """A stored game. `ply_count` is how many moves are stored (the next ply is +1)."""

    id: int
    variant: str
    guild_id: int | None
    channel_id: int
    white: Seat
    black: Seat
    rated: bool
    move_seconds: int | None
    start_fen: str
    status: GameStatus
    result: GameResult | None
    termination: str | None
    ply_count: int
    board_message_id: int | None
    draw_offer_by: Side | None
    clock: ClockState
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    white_rating: RatingChange | None
    black_rating: RatingChange | None
    time_control: TimeControl | None = None
    board_owed: bool = False
    """The board of the game's last step is owed to its channel: stored, not yet shown
    (set by the step's own transaction, cleared when its board message is recorded)."""
    quarantined: bool = False
    """The game's stored moves no longer replay: it is kept as it is and takes no more
    steps (marked at start-up by `GameService.restore`)."""
    place: PlaceKind = PlaceKind.CHANNEL
    """Where the game is played, which decides how its boards are shown."""

    def seat(self, side: Side) -> Seat:
        return self.white if side is Side.WHITE else self.black

    def side_of(self, user_id: int) -> Side | None:
        """The side `user_id` plays (White if they play both), None if not in this game."""
        if self.white.user_id == user_id:
            return Side.WHITE
        if self.black.user_id == user_id:
            return Side.BLACK
        return None


@dataclass(frozen=True)
class GameProgress:
    """How far a stored game has got: its stored plies and its status
    (`GameRepository.progress`, what a live page's poller compares)."""

    plies: int
    status: GameStatus


@dataclass(frozen=True)
class MoveRecord:
    """One stored move: `ply` from 1, `text` in the game's notation; in a game with a
    clock, the players' remaining times after it (increment included)."""

    game_id: int
    ply: int
    text: str
    played_at: datetime
    by_computer: bool
    white_left: timedelta | None = None
    black_left: timedelta | None = None


@dataclass(frozen=True)
class NewChallenge:
    """What `ChallengeRepository.create` needs. `challenged_id` None: open to anyone."""

    challenger_id: int
    challenged_id: int | None
    guild_id: int | None
    channel_id: int
    variant: str
    expires_at: datetime
    rated: bool = False
    color: ColorChoice = ColorChoice.RANDOM
    move_seconds: int | None = None
    time_control: TimeControl | None = None


@dataclass(frozen=True)
class Challenge:
    id: int
    challenger_id: int
    challenged_id: int | None
    guild_id: int | None
    channel_id: int
    variant: str
    rated: bool
    color: ColorChoice
    move_seconds: int | None
    created_at: datetime
    expires_at: datetime
    message_id: int | None
    status: ChallengeStatus
    game_id: int | None
    updated_at: datetime
    time_control: TimeControl | None = None


@dataclass(frozen=True)
class RatingValue:
    """Glicko-2 triple on the Glicko scale: rating, deviation (points), volatility."""

    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True)
class RatingUpdate:
    """One side's rating as a rating calculator saw it before a game (a new player's start
    values, or the stored ones with any growth of the deviation for inactivity applied) and
    after it."""

    before: RatingValue
    after: RatingValue


@dataclass(frozen=True)
class Rating:
    """A user's stored rating in one variant, with counts of rated games."""

    user_id: int
    variant: str
    rating: float
    deviation: float
    volatility: float
    rated_games: int
    wins: int
    losses: int
    draws: int
    last_rated_at: datetime | None

    @property
    def value(self) -> RatingValue:
        return RatingValue(self.rating, self.deviation, self.volatility)


@dataclass(frozen=True)
class Eligibility:
    """Who appears on the leaderboards: at least `min_games` rated games in the variant and
    a stored deviation strictly below `max_deviation` (by default: not provisional).

    One rule per database, given to `Storage.open`; changing it recomputes who is ranked
    at the next start. The stored deviation is the one after the player's last rated game
    (it does not grow with inactivity while stored).
    """

    min_games: int = 10
    max_deviation: float = 110.0

    def __post_init__(self) -> None:
        if self.min_games < 0:
            raise ValueError("the minimum number of rated games cannot be negative")
        if not self.max_deviation > 0:
            raise ValueError("the deviation threshold must be positive")

    def admits(self, rated_games: int, deviation: float) -> bool:
        return rated_games >= self.min_games and deviation < self.max_deviation


DEFAULT_ELIGIBILITY = Eligibility()
"""10 rated games, deviation under 110 (not provisional)."""


@dataclass(frozen=True)
class LeaderboardEntry:
    """One leaderboard line: 1-based `rank`, the rating row, the last known display name."""

    rank: int
    rating: Rating
    display_name: str | None


# --- puzzles ----------------------------------------------------------------------


@dataclass(frozen=True)
class PuzzleRating:
    """A player's puzzle rating in one variant, with their record: `attempts` rated,
    `solved` of them, the current `streak` of puzzles solved in a row and the best one."""

    user_id: int
    variant: str
    value: RatingValue
    attempts: int
    solved: int
    streak: int
    best_streak: int


@dataclass(frozen=True)
class PuzzleStats:
    """A puzzle's own rating (it "plays" every solver) and how often it was solved."""

    puzzle_id: str
    variant: str
    value: RatingValue
    attempts: int
    solved: int


@dataclass(frozen=True)
class PuzzleAttempt:
    """One rated attempt at a puzzle: `solved` (found every move with no wrong answer, no
    hint and no reveal), whether a hint was asked (`hinted`) or the solution shown
    (`revealed`)."""

    user_id: int
    puzzle_id: str
    variant: str
    solved: bool
    hinted: bool
    revealed: bool


@dataclass(frozen=True)
class PuzzleResult:
    """What recording an attempt stored: the player's and the puzzle's ratings before and
    after, and the player's record after."""

    player_before: RatingValue
    player: PuzzleRating
    puzzle_before: RatingValue
    puzzle: PuzzleStats


@dataclass(frozen=True)
class PuzzleSession:
    """The puzzle a solver has under way, as stored: the puzzle (`puzzle_id`, `variant`,
    its `solution` line as it was given), `plies` of that line played so far, whether the
    attempt is `rated`, whether a wrong answer was given (`failed`: its rated loss is then
    already recorded) or a hint asked (`hinted`), when it started, and its `revision`
    (changed by every write; a write must name the revision it was computed from)."""

    user_id: int
    puzzle_id: str
    variant: str
    solution: tuple[str, ...]
    plies: int
    rated: bool
    failed: bool
    hinted: bool
    started_at: datetime
    revision: int


@dataclass(frozen=True)
class DailyPuzzleSetting:
    """A server's daily puzzle: posted in `channel_id`, of `variant` (None: a different
    variant each day), set by the user `set_by`; `last_posted`: the UTC day (ISO date)
    of the last post, None before the first."""

    guild_id: int
    channel_id: int
    variant: str | None
    set_by: int
    last_posted: str | None
@dataclass(frozen=True)
class StoredAnalysis:
    """A finished game's analysis as stored: `game_id`, `plies` (the game's length when
    analysed), `nodes` (the search budget per position), `body` (the analysis as text,
    written and read by the bot) and `created_at`."""

    game_id: int
    plies: int
    nodes: int
    body: str
    created_at: datetime


@dataclass(frozen=True)
class AnalysisUnderWay:
    """An analysis running, as stored while it runs (`analyses_under_way`, migration
    0010): its own `id`, the game, who asked (`requester_id`), where its progress message
    is (`guild_id`, None in direct messages; `channel_id`; `message_id`, None until the
    message was sent), the `locale` its requester reads and `started_at`."""

    id: int
    game_id: int
    requester_id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    locale: str
    started_at: datetime
