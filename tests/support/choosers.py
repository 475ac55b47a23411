"""Move choosers for the service tests (`bot.services.computer_turns.MoveChooser`):
fakes that answer at once or when a test lets them, and positions whose one move ends
the game (`FORCED`)."""

from __future__ import annotations

import asyncio

import engine
from bot.computer_queue import Admission

FORCED = {
    "turkish": ("W:Wd4,a2:Bd5", "d4xd6"),
    "arab": ("W:Wd4,a2:Bd5", "d4xd6"),
    "moroccan": ("W:Wd3,h1:Be4", "d3xf5"),
    "italian": ("W:Wd3,h1:Be4", "d3xf5"),
}
"""By variant, a position (FEN) and its one capture that takes Black's last piece: White
wins by NO_PIECES (engine-checked by hand: the only legal move of the Turkish/Arab
position is d4xd6, of the diagonal ones d3xf5)."""

PATIENCE = 60.0
"""Seconds a test waits before failing (a hang guard, not a measure)."""


class FirstMove:
    """A move chooser that plays the first legal move. With `hold` set, each search waits
    until `hold` is released; `searching` is set once a search has started."""

    def __init__(self, *, hold: bool = False) -> None:
        self.calls = 0
        self.levels: list[int] = []
        self.hold = asyncio.Event()
        if not hold:
            self.hold.set()
        self.searching = asyncio.Event()

    async def choose_move(
        self, game: engine.Game, level: int, *, budget_seconds: float | None, key: object,
        admission: Admission = Admission.ALWAYS,
    ) -> engine.Move:
        self.calls += 1
        self.levels.append(level)
        self.searching.set()
        await self.hold.wait()
        return game.legal_moves()[0]

    def cancel(self, key: object) -> int:
        return 0
