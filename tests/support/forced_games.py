"""Short games that end by the rules (no pieces or no legal move), found with the engine.

The side to move first plays the capture that takes the most pieces; the other side plays
the move after which its opponent can take the most (it gives its pieces away). Ties are
broken by a seeded random choice; seeds are tried until a game ends by the rules with a
win for the first side. The engine is the referee here; the test then checks that the bot,
fed the same moves as slash commands, ends the game the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import engine
from engine import Color, Move, Position, Termination, Variant, apply_move, legal_moves

RULE_ENDINGS = (Termination.NO_PIECES, Termination.NO_LEGAL_MOVE)


@dataclass(frozen=True)
class ForcedGame:
    """The moves (with the position before each), the winner and how the game ended."""

    variant: Variant
    moves: tuple[tuple[Position, Move], ...]
    winner: Color
    termination: Termination


def _most_taken(position: Position, variant: Variant) -> int:
    return max((len(m.captured) for m in legal_moves(position, variant)), default=0)


def forced_game(variant: Variant, *, max_plies: int = 120, seeds: int = 400) -> ForcedGame:
    """The shortest such game over `seeds` seeds (at most `max_plies` plies).

    Raises `LookupError` when no seed gives one.
    """
    best: ForcedGame | None = None
    start = Position.start(variant)
    winner = start.turn
    for seed in range(seeds):
        rng = random.Random(seed)
        game = engine.Game(variant)
        played: list[tuple[Position, Move]] = []
        while game.outcome is None and len(played) < max_plies:
            position = game.position
            moves = legal_moves(position, variant)
            if position.turn is winner:
                top = max(len(m.captured) for m in moves)
                pool = [m for m in moves if len(m.captured) == top]
            else:
                scored = [(_most_taken(apply_move(position, m, variant), variant), m)
                          for m in moves]
                top = max(score for score, _ in scored)
                pool = [m for score, m in scored if score == top]
            move = rng.choice(pool)
            played.append((position, move))
            game.play(move)
        outcome = game.outcome
        if (outcome is not None and outcome.winner is winner
                and outcome.termination in RULE_ENDINGS
                and (best is None or len(played) < len(best.moves))):
            best = ForcedGame(variant, tuple(played), winner, outcome.termination)
    if best is None:
        raise LookupError(f"no forced game found for {variant.name}")
    return best
