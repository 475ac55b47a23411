"""Loading a stored game into a `LiveGame`, and the engine work on copies of games.

Replaying a stored game generates moves, and a position may have tens of thousands of
capture states (docs/RULES.md, set-up positions): it runs through `bot.move_work.MoveWork`,
in a worker thread or a worker process, never on the event loop. The functions handed to
it are module-level, so a worker process can run them.
"""

from __future__ import annotations

from collections.abc import Sequence

import engine
from bot.move_work import MoveWork
from bot.services.games.values import LiveGame
from bot.services.models import side_of
from bot.services.replay import last_move_text, replay_game
from engine import Color, Move, Position, Variant
from storage import GameRecord, MoveRecord, RatingValue, Storage


def _loaded(
    record: GameRecord, moves: Sequence[MoveRecord]
) -> tuple[engine.Game, str | None]:
    """The engine game replayed from its stored moves and its last move's text."""
    game = replay_game(record, moves)
    return game, last_move_text(game)


def start_of(record: GameRecord) -> list[tuple[Position, Variant]]:
    """The start position of a stored game, for `MoveWork` to weigh (a set-up position
    may be heavy); none when it does not read (replaying it raises the error)."""
    try:
        variant = engine.get_variant(record.variant)
        return [(Position.from_fen(record.start_fen, variant), variant)]
    except engine.DamaError:
        return []


def replayed(game: engine.Game, plies: int) -> engine.Game:
    """A new engine game: `game`'s first `plies` moves played again from its start."""
    copy = engine.Game(game.variant, game.start)
    for move in game.moves[:plies]:
        copy.play(move)
    return copy


def played(game: engine.Game, move: Move) -> engine.Game:
    """`game` after `move` (run in the worker process, on a copy of the live game)."""
    game.play(move)
    return game


async def load_game(storage: Storage, move_work: MoveWork, game_id: int) -> LiveGame:
    """Stored game `game_id` as a live game, replayed off the event loop, with its
    players' current ratings. Raises `engine.DamaError` when its stored moves no longer
    replay, and what `storage.games.load` raises for an unknown game."""
    record, moves = await storage.games.load(game_id)
    game, last_text = await move_work.run(start_of(record), _loaded, record, moves)
    ratings = {
        color: await _rating(storage, record, color) for color in (Color.WHITE, Color.BLACK)
    }
    last = moves[-1].played_at if moves else record.created_at
    return LiveGame(record, game, ratings, last, last_text)


async def _rating(storage: Storage, record: GameRecord, color: Color) -> RatingValue | None:
    user_id = record.seat(side_of(color)).user_id
    if user_id is None:
        return None
    stored = await storage.ratings.get(user_id, record.variant)
    return None if stored is None else stored.value
