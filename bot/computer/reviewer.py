"""The analyses' positions searched by the process pool: `PoolReviewer`, the
`PositionReviewer` of `bot.services.analysis` on top of `bot.computer.player`."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from bot.computer.player import ComputerPlayer
from engine.analysis import PositionReview


class PoolReviewer:
    """The analyses' `PositionReviewer` (`bot.services.analysis`) on top of a
    `ComputerPlayer`: each position is searched in a worker process as background work,
    after every game's move (`Admission.BACKGROUND`)."""

    def __init__(self, computer: ComputerPlayer) -> None:
        self.computer = computer

    async def review(
        self, fen: str, variant_key: str, *, history: Sequence[str], no_progress_plies: int,
        nodes: int, key: Hashable,
    ) -> PositionReview:
        """`engine.analysis.review_position` of `fen` in a worker process."""
        return await self.computer.review(
            fen, variant_key, history=history, no_progress_plies=no_progress_plies,
            nodes=nodes, key=key,
        )
