"""Values the services return: what a game looks like now, and what just happened.

Plain values only (engine and storage types, ints for Discord ids), never discord
objects. The Discord layer renders them with the message catalog and the renderer.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine import Color, Move, Position, Termination, Variant
from storage import (
    ClockState,
    GameRecord,
    GameRepository,
    GameResult,
    GameStatus,
    PlaceKind,
    RatingChange,
    RatingValue,
    Seat,
    Side,
    TimeControl,
)


def side_of(color: Color) -> Side:
    """The storage `Side` of an engine `Color`."""
    return Side.WHITE if color is Color.WHITE else Side.BLACK


def color_of(side: Side) -> Color:
    """The engine `Color` of a storage `Side`."""
    return Color.WHITE if side is Side.WHITE else Color.BLACK


DAY_SECONDS = 24 * 60 * 60
CORRESPONDENCE_MOVE_SECONDS = DAY_SECONDS
"""A game with at least this many seconds a move is a correspondence game
(docs/RULES.md, "Project-wide game rules", Time)."""


def is_correspondence_time(move_seconds: int | None) -> bool:
    """Whether a game of `move_seconds` a move (None: no limit) is a correspondence game:
    a day or more a move, lost on time when the move time passes (docs/RULES.md,
    "Project-wide game rules", Time)."""
    return move_seconds is not None and move_seconds >= CORRESPONDENCE_MOVE_SECONDS


class MoveTime(enum.Enum):
    """The per-move time limits a game can have (docs/RULES.md, "Project-wide game
    rules", Time): 40 seconds as on the Turkish rule page, 5 minutes, 1 hour, 1, 2, 3, 5,
    7 or 14 days (correspondence, `is_correspondence`), or none. The value is the text of
    the setting and of the command option."""

    NONE = "none"
    SECONDS_40 = "40s"
    MINUTES_5 = "5m"
    HOUR_1 = "1h"
    DAY_1 = "1d"
    DAYS_2 = "2d"
    DAYS_3 = "3d"
    DAYS_5 = "5d"
    DAYS_7 = "7d"
    DAYS_14 = "14d"

    @property
    def seconds(self) -> int | None:
        """The limit in seconds, None for no limit."""
        return _MOVE_SECONDS[self]

    @property
    def is_correspondence(self) -> bool:
        """Whether a game with this limit is a correspondence game: a day or more a move
        (`is_correspondence_time`)."""
        return is_correspondence_time(self.seconds)

    @classmethod
    def of_seconds(cls, seconds: int | None) -> MoveTime:
        """The limit of `seconds` (None: no limit). Raises `ValueError` for a number of
        seconds that is none of the limits."""
        for limit, value in _MOVE_SECONDS.items():
            if value == seconds:
                return limit
        raise ValueError(f"no per-move time limit of {seconds} seconds")


_MOVE_SECONDS = {
    MoveTime.NONE: None,
    MoveTime.SECONDS_40: 40,
    MoveTime.MINUTES_5: 5 * 60,
    MoveTime.HOUR_1: 60 * 60,
    MoveTime.DAY_1: DAY_SECONDS,
    MoveTime.DAYS_2: 2 * DAY_SECONDS,
    MoveTime.DAYS_3: 3 * DAY_SECONDS,
    MoveTime.DAYS_5: 5 * DAY_SECONDS,
    MoveTime.DAYS_7: 7 * DAY_SECONDS,
    MoveTime.DAYS_14: 14 * DAY_SECONDS,
}


class EndReason(enum.Enum):
    """Why a game ended: the engine's terminations, plus inactivity and abort. The value is
    the termination text stored with the game."""

    NO_PIECES = Termination.NO_PIECES.value
    NO_LEGAL_MOVE = Termination.NO_LEGAL_MOVE.value
    REPETITION = Termination.REPETITION.value
    ONE_PIECE_EACH = Termination.ONE_PIECE_EACH.value
    MOVE_LIMIT = Termination.MOVE_LIMIT.value
    ENDGAME_LIMIT = Termination.ENDGAME_LIMIT.value
    RESIGNATION = Termination.RESIGNATION.value
    AGREEMENT = Termination.AGREEMENT.value
    TIME_FORFEIT = Termination.TIME_FORFEIT.value
    INACTIVITY = "inactivity"
    ABORTED = "aborted"

    @classmethod
    def of(cls, termination: Termination) -> EndReason:
        return cls(termination.value)


OWN_MOVES_TO_RATE = 2
"""A rated game changes ratings only when each side has made at least this many moves of
its own (the computer's moves for an absent player do not count; docs/RULES.md, "Early
results")."""


ENDINGS_LEFT_UNRATED_WHEN_EARLY = frozenset({
    EndReason.RESIGNATION, EndReason.AGREEMENT, EndReason.TIME_FORFEIT, EndReason.INACTIVITY,
})
"""The endings a player or the clock decides (`GameCore.finish`), the ones an early game
keeps unrated (`counts_for_rating`); an ending by the rules comes from a move and is rated
(docs/RULES.md, "Early results")."""


def counts_for_rating(by_computer: Sequence[bool], first: Color) -> bool:
    """Whether a rated game whose moves were `by_computer` (one flag a ply, in order: True
    for a move the computer made for an absent player) changes ratings, `first` having
    made the first ply: a game that ends (by resignation, agreed draw, time-out or
    inactivity) before each side has made two moves of its own keeps its result but is
    left unrated (docs/RULES.md, "Early results")."""
    own = {first: 0, first.opponent: 0}
    for ply, computer in enumerate(by_computer):
        if not computer:
            side = first if ply % 2 == 0 else first.opponent
            own[side] += 1
    return min(own.values()) >= OWN_MOVES_TO_RATE


async def too_early_to_rate(games: GameRepository, record: GameRecord,
                            variant: Variant) -> bool:
    """Whether the moves stored for game `record` (of `variant`) are too few for its result
    to change ratings (`counts_for_rating`, docs/RULES.md "Early results"). Raises what
    `games.moves` raises."""
    moves = await games.moves(record.id)
    first = Position.from_fen(record.start_fen, variant).turn
    return not counts_for_rating([m.by_computer for m in moves], first)


@dataclass(frozen=True)
class Ending:
    """How a game ended: the reason, the winner (None: a draw, or no result when aborted),
    the result (None when aborted) and who aborted it (when aborted by a user).
    `unrated_early`: a rated game whose result was left unrated because it ended before
    each side had made two moves of its own (`counts_for_rating`)."""

    reason: EndReason
    winner: Color | None
    result: GameResult | None
    by_user: int | None = None
    unrated_early: bool = False

    @property
    def loser(self) -> Color | None:
        return None if self.winner is None else self.winner.opponent


@dataclass(frozen=True)
class SeatView:
    """One side of a game: who plays it, their rating in the variant when the game started
    (None: computer, or never rated and the game is casual), and for a finished rated game
    the rating change."""

    seat: Seat
    color: Color
    rating: RatingValue | None
    change: RatingChange | None = None

    @property
    def user_id(self) -> int | None:
        return self.seat.user_id


@dataclass(frozen=True)
class BoardState:
    """A game as it stands: everything a board message shows.

    `ply` counts the moves played; `move_number` is the number of the current move pair
    (1 for White's first move and Black's reply). `last_move_text` is the short notation of
    the last move, `before` the position before it. `deadline`: when the side to move runs
    out of time (per-move clock, or the inactivity limit, whichever is first; None while the
    game is over). `time_control`: the players' clocks (None: none), and `clock` their
    remaining times as of the last step with the running one's deadline. `place`: the kind
    of place the game is played in, which decides how its boards are shown
    (docs/ARCHITECTURE.md, "Places").
    """

    game_id: int
    channel_id: int
    guild_id: int | None
    variant: Variant
    rated: bool
    move_seconds: int | None
    status: GameStatus
    position: Position
    before: Position | None
    last_move: Move | None
    last_move_text: str | None
    ply: int
    white: SeatView
    black: SeatView
    draw_offer_by: Color | None
    deadline: datetime | None
    ending: Ending | None
    board_message_id: int | None
    time_control: TimeControl | None = None
    clock: ClockState | None = None
    place: PlaceKind = PlaceKind.CHANNEL

    @property
    def turn(self) -> Color:
        return self.position.turn

    @property
    def is_over(self) -> bool:
        return self.status is not GameStatus.ACTIVE

    @property
    def move_number(self) -> int:
        return self.ply // 2 + 1

    def seat(self, color: Color) -> SeatView:
        return self.white if color is Color.WHITE else self.black

    @property
    def to_move(self) -> SeatView:
        return self.seat(self.turn)


class UpdateKind(enum.Enum):
    """What a `GameUpdate` announces."""

    STARTED = "started"
    MOVED = "moved"
    COMPUTER_MOVED = "computer_moved"
    DRAW_OFFERED = "draw_offered"
    ENDED = "ended"
    SHOWN = "shown"
    """Nothing changed: the board is shown again (`/board`)."""


@dataclass(frozen=True)
class GameUpdate:
    """Something that changed a game, to announce in its channel.

    `state`: the game after the change. `kind`: what happened (a move that ended the game
    is `ENDED` with `move_text` set). `actor`: the user who acted (None: the bot itself,
    e.g. a deadline). `previous_board_message_id`: the board message that is now out of
    date (its buttons should go). `absent_moves`: for a move the computer played for an
    absent player, (how many such moves in a row now, how many are allowed before that
    player loses on time); None otherwise.
    """

    kind: UpdateKind
    state: BoardState
    actor: int | None = None
    move_text: str | None = None
    previous_board_message_id: int | None = None
    absent_moves: tuple[int, int] | None = None

    @property
    def shows_board(self) -> bool:
        """Whether this update is answered with a (new) board picture."""
        return self.kind is not UpdateKind.DRAW_OFFERED


@dataclass(frozen=True)
class MoveChoice:
    """An autocomplete suggestion: `name` shown, `value` sent back as the move text."""

    name: str
    value: str


@dataclass(frozen=True)
class BoardRef:
    """The board whose button was pressed: its game and the ply it was drawn for (from
    the button's custom_id). A press acts only when both are the game's current ones."""

    game_id: int
    ply: int
