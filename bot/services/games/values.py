"""The game service's own values: the `Announce` callback, the flow's rules, a live game,
a computer's turn, a game to start, the resign question and a rematch."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import engine
from bot.services.errors import ComputerRef, UserRef
from bot.services.models import GameUpdate
from engine import Color
from storage import (
    ColorChoice,
    GameRecord,
    GameResult,
    PlaceKind,
    RatingValue,
    Seat,
    TimeControl,
)

Announce = Callable[[GameUpdate], Awaitable[int | None]]
"""Called inside the channel lock after a change is committed; returns the id of the
board message it posted, or None. Raises `BoardOwed` when it cannot show the board now."""


class BoardOwed(Exception):
    """Raised by an `Announce` callback that cannot show a step now: a game in an
    INTERACTIONS place with no interaction to answer (docs/ARCHITECTURE.md, "Places").
    The step's board stays owed (`GameRecord.board_owed`) until a board of the game is
    recorded."""

RESIGN_QUESTION_LIFETIME = timedelta(minutes=1)
"""How long the question "Resign game #7 against @bob?" may be answered (it lapses
sooner when the game moves on)."""


@dataclass(frozen=True)
class GameRules:
    """The flow's settings (docs/RULES.md, "Project-wide game rules", Time): the
    inactivity limit, and how many moves in a row the computer may make for an absent
    player before that player loses on time."""

    inactivity_limit: timedelta = timedelta(days=3)
    computer_moves_before_forfeit: int = 3


@dataclass
class LiveGame:
    """An active game in memory: its stored record, the engine game, the players' ratings
    when it started, when the last move was made (or the game created), and the short text
    of the last move. Mutable: changed only under its channel's lock."""

    record: GameRecord
    game: engine.Game
    ratings: dict[Color, RatingValue | None]
    last_activity: datetime
    last_move_text: str | None
    advancing: bool = False
    """A move is being played on `game` in a worker thread: readers that take no lock
    leave the game alone meanwhile (its position and move list may disagree)."""


@dataclass(frozen=True)
class ComputerTurn:
    """A turn the computer is to play: in `channel_id`'s game `game_id` at `ply`, a copy
    of the engine game (safe to search while the real game goes on), and the computer
    seat's `level`, or None when the computer moves for an absent person; in a game with
    clocks, the time left on the computer's clock (`time_left`, None: no clock)."""

    channel_id: int
    game_id: int
    ply: int
    game: engine.Game
    level: int | None
    time_left: timedelta | None = None


@dataclass(frozen=True)
class GameStart:
    """A game to start in `channel_id` (of `guild_id`, None in direct messages): the
    variant's registry key, the two seats (`first`: the challenger, or the player of a
    `/play` game; `second`: their opponent), `first`'s colour (RANDOM: drawn at the
    start), rated or casual, the per-move time (None: none) or the players' clocks
    (`time_control`, None: none; never both), the start position (`start_fen`, None: the
    variant's own), who started it (`actor`, the user id the STARTED update names) and
    the kind of place it is played in (`place`: how its boards are shown,
    docs/ARCHITECTURE.md, "Places")."""

    channel_id: int
    guild_id: int | None
    variant: str
    first: Seat
    second: Seat
    color: ColorChoice = ColorChoice.RANDOM
    rated: bool = False
    move_seconds: int | None = None
    start_fen: str | None = None
    actor: int | None = None
    time_control: TimeControl | None = None
    place: PlaceKind = PlaceKind.CHANNEL


@dataclass(frozen=True)
class ResignQuestion:
    """What the resign question asks about: game `game_id` at `ply`, against
    `opponent`."""

    game_id: int
    ply: int
    opponent: UserRef | ComputerRef


@dataclass(frozen=True)
class Rematch:
    """The game to start again after game `game_id` (finished): same `variant`, `rated`,
    `move_seconds` and `time_control`, the asker's `color` the one they did not have, against
    `opponent` (a person's user id) or the computer at `level`."""

    game_id: int
    variant: str
    rated: bool
    move_seconds: int | None
    color: Color
    opponent: int | None
    level: int | None
    time_control: TimeControl | None = None


def result_of(winner: Color | None) -> GameResult:
    """The stored result of a game won by `winner` (None: drawn)."""
    if winner is None:
        return GameResult.DRAW
    return GameResult.WHITE_WINS if winner is Color.WHITE else GameResult.BLACK_WINS


def winner_of(result: GameResult | None) -> Color | None:
    """The winner of a stored `result` (None: drawn, or no result)."""
    if result is GameResult.WHITE_WINS:
        return Color.WHITE
    if result is GameResult.BLACK_WINS:
        return Color.BLACK
    return None
