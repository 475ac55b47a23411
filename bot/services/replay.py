"""A stored game replayed: its record and moves -> the engine's `Game`.

The one place a stored game becomes an engine game again: `GameService` does it when it
loads a game into memory, local play and the end-to-end tests when they read what the bot
stored. Pure (no storage, no Discord).
"""

from __future__ import annotations

from collections.abc import Sequence

import engine
from engine import Position, format_move, get_variant
from storage import GameRecord, MoveRecord


def replay_game(record: GameRecord, moves: Sequence[MoveRecord]) -> engine.Game:
    """The engine game that `moves` (in ply order) make from `record`'s variant and start
    position, with the draw rules enforced as in play (docs/RULES.md), so a game the rules
    ended stands ended. Raises an `engine.DamaError`: `UnknownVariantError` for a variant
    this engine does not know, `PositionError` for a bad start FEN, `IllegalMoveError`
    (or another move error) when a stored move does not replay."""
    variant = get_variant(record.variant)
    game = engine.Game(variant, Position.from_fen(record.start_fen, variant))
    for move in moves:
        game.play(move.text)
    return game


def last_move_text(game: engine.Game) -> str | None:
    """The last move of `game` written as the bot shows it (the shortest unambiguous form,
    `engine.format_move`), or None before the first move."""
    if not game.moves:
        return None
    return format_move(game.moves[-1], game.positions()[-2], game.variant)
