"""The computer player: moves chosen by `engine.search` in a pool of worker processes, so
the bot's event loop never waits on a search. One module per job:

- `player`: `ComputerPlayer`, the process pool and its queue (budgets that shrink under
  load, refusals, cancellation; the policy itself is `bot.computer_queue`), and
  `workers_per_process`;
- `worker`: what runs in each worker process (`think`, `review`) and its result value
  `ComputerMove`;
- `move_chooser`: `PoolMoveChooser`, the computer's moves in games for
  `bot.services.computer_turns`;
- `reviewer`: `PoolReviewer`, the analyses' positions for `bot.services.analysis`.

The names the rest of the bot uses are importable from here.

Usage::

    async with ComputerPlayer() as computer:
        text = await computer.choose_move(fen, "italian", level=5, budget_seconds=2.0)
"""

from __future__ import annotations

from bot.computer.move_chooser import PoolMoveChooser
from bot.computer.player import ComputerPlayer, workers_per_process
from bot.computer.reviewer import PoolReviewer
from bot.computer.worker import ComputerMove

__all__ = [
    "ComputerMove",
    "ComputerPlayer",
    "PoolMoveChooser",
    "PoolReviewer",
    "workers_per_process",
]
