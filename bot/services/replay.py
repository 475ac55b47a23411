"""A stored game replayed: its record and moves -> the engine's `Game`.

The game service's adapter from storage's records to the engine's `Game.replay` (the one
replay, which local play and the end-to-end tests also use when they read what the bot
stored). Pure (no storage access, no Discord).
"""

from __future__ import annotations

from collections.abc import Sequence

import engine
from engine import format_move
from storage import GameRecord, MoveRecord


def replay_game(record: GameRecord, moves: Sequence[MoveRecord]) -> engine.Game:
    """The engine game that `moves` (in ply order) make from `record`'s variant and start
    position (`engine.Game.replay`), with the draw rules enforced as in play
    (docs/RULES.md), so a game the rules ended stands ended. Raises an `engine.DamaError`:
    `UnknownVariantError` for a variant this engine does not know, `PositionError` for a
    bad start FEN, `IllegalMoveError` (or another move error) when a stored move does not
    replay, `GameOverError` for a stored move after the rules ended the game."""
    return engine.Game.replay(record.variant, record.start_fen, (move.text for move in moves))


def last_move_text(game: engine.Game) -> str | None:
    """The last move of `game` written as the bot shows it (the shortest unambiguous form,
    `engine.format_move`), or None before the first move."""
    if not game.moves:
        return None
    return format_move(game.moves[-1], game.positions()[-2], game.variant)
