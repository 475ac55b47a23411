"""A player's games under way everywhere (`/games`): plain values read from the database,
so a game another shard plays is listed too.

`games_under_way` turns the stored records of one player's active games into
`GameUnderWay` values, sorted as `/games` shows them: the games where it is the player's
turn first, then by the nearest deadline, then by game number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

import engine
from bot.services.models import color_of
from engine import Color, Position
from storage import GameRecord, Seat

GAMES_SHOWN = 10
"""The most games `/games` lists; the others are counted ("and N more")."""


@dataclass(frozen=True)
class GameUnderWay:
    """One of a player's active games as `/games` lists it: its number and variant key,
    where it is played (`guild_id` None: a direct message or group DM), its last board
    message (None: none recorded), the player's colour, the opponent's seat, whose turn
    it is (`turn` None: the stored start position does not read) and the deadline of the
    player to move (the per-move time or the clock's, as stored; without one, the
    inactivity limit's)."""

    game_id: int
    variant: str
    guild_id: int | None
    channel_id: int
    board_message_id: int | None
    color: Color
    opponent: Seat
    turn: Color | None
    deadline: datetime

    @property
    def players_turn(self) -> bool:
        """Whether it is the listed player's turn."""
        return self.turn is self.color


@dataclass(frozen=True)
class GamesUnderWay:
    """What `/games` shows: at most `GAMES_SHOWN` games (`games`, in order) and how many
    more the player has (`more`)."""

    games: tuple[GameUnderWay, ...]
    more: int


@lru_cache(maxsize=64)
def _start_turn(variant: str, start_fen: str) -> Color | None:
    try:
        return Position.from_fen(start_fen, engine.get_variant(variant)).turn
    except engine.DamaError:
        return None


def game_under_way(record: GameRecord, user_id: int, last_activity: datetime,
                   inactivity_limit: timedelta) -> GameUnderWay | None:
    """`record` as player `user_id`'s game under way, None when they do not play in it.
    Its deadline is the stored clock's; a game without one is lost by the player to move
    once `inactivity_limit` has passed since `last_activity` (its last move, or its
    start; docs/RULES.md, "Project-wide game rules", Time)."""
    side = record.side_of(user_id)
    if side is None:
        return None
    start = _start_turn(record.variant, record.start_fen)
    turn = None if start is None else (start if record.ply_count % 2 == 0 else start.opponent)
    deadline = record.clock.deadline
    return GameUnderWay(
        game_id=record.id, variant=record.variant, guild_id=record.guild_id,
        channel_id=record.channel_id, board_message_id=record.board_message_id,
        color=color_of(side), opponent=record.seat(side.opponent), turn=turn,
        deadline=deadline if deadline is not None else last_activity + inactivity_limit,
    )


def _order(game: GameUnderWay) -> tuple[bool, datetime, int]:
    return not game.players_turn, game.deadline, game.game_id


def games_under_way(records: Iterable[GameRecord], user_id: int, *,
                    last_activity: Mapping[int, datetime], inactivity_limit: timedelta,
                    limit: int = GAMES_SHOWN) -> GamesUnderWay:
    """Player `user_id`'s games among `records` (their active games), sorted: the player's
    turn first, then the nearest deadline, then the game number; the first `limit` of
    them, and how many more there are. `last_activity`: each game's last move (or start)
    by game id, for the deadline of a game without a clock (`game_under_way`; a game
    missing from it counts from its creation)."""
    found = [game for record in records
             if (game := game_under_way(record, user_id,
                                        last_activity.get(record.id, record.created_at),
                                        inactivity_limit)) is not None]
    found.sort(key=_order)
    return GamesUnderWay(tuple(found[:limit]), max(0, len(found) - limit))
