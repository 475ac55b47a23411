"""The computer's moves in games: `PoolMoveChooser`, the `MoveChooser` of
`bot.services.computer_turns` on top of the process pool (`bot.computer.player`)."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

from bot.computer.player import ComputerPlayer
from bot.computer_queue import Admission
from engine import Game, GameOverError, Move, parse_move


class PoolMoveChooser:
    """Chooses the computer's moves in games (for `/play` seats and absent players alike):
    the `MoveChooser` of `bot.services.computer_turns` on top of a `ComputerPlayer`.

    `choose_move(game, level, budget_seconds=..., key=...)` searches the game's current
    position with its earlier positions as history and its no-progress count (so it avoids
    or seeks repetitions and the no-progress draw knowingly) and returns the legal `Move`;
    `game` is not modified. `cancel(key)` stops the searches of `key`. `admission` (default
    `Admission.ALWAYS`: queued, never refused; under load its budget may shrink) is
    `Admission.WHEN_ROOM` for a computer seat's move, refused with `ComputerBusyError` (and
    the estimated wait) when the queue is full. `check_room(level, budget_seconds)` raises
    that error at once, before a game starts. Raises GameOverError when the side to move has
    no legal move, ValueError for a level outside 1..5 or a negative budget.
    """

    def __init__(self, computer: ComputerPlayer) -> None:
        self.computer = computer

    async def choose_move(
        self,
        game: Game,
        level: int,
        *,
        budget_seconds: float | None,
        key: Hashable,
        admission: Admission = Admission.ALWAYS,
    ) -> Move:
        """A legal move of the side to move in `game` at `level`."""
        variant = game.variant
        position = game.position
        if game.is_over or not game.legal_moves():
            raise GameOverError("the side to move has no legal move; the game is over")
        history = [p.to_fen(variant) for p in game.positions()[:-1]]
        text = await self.computer.choose_move(
            position.to_fen(variant), variant.key, level, budget_seconds,
            history=history, key=key, admission=admission, playable=True,
            no_progress_plies=game.no_progress_plies,
        )
        # Reading the answer lists the position's moves: off the event loop.
        return await asyncio.to_thread(parse_move, text, position, variant)

    def check_room(self, level: int, budget_seconds: float | None) -> None:
        """Return quietly if a computer seat's move (`Admission.WHEN_ROOM`) at `level`
        thinking `budget_seconds` would be queued now; else raise its `ComputerBusyError`
        (see `ComputerPlayer.check_room`)."""
        self.computer.check_room(level, budget_seconds)

    def cancel(self, key: Hashable) -> int:
        """Stop every search started with `key`; returns how many were stopped."""
        return self.computer.cancel(key)
