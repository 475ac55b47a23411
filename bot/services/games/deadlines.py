"""`GameDeadlines`: acting on the games whose deadline passed (docs/RULES.md,
"Project-wide game rules", Time).

A game with a per-move time (`move_seconds`) has a stored deadline for the side to move;
when it passes and someone listens to `AbsentPlayerTurn`, the computer plays for the
absent player, up to `GameRules.computer_moves_before_forfeit` moves in a row; without a
listener, or after that many, the player loses on time. A correspondence game (a move
time of a day or more, `is_correspondence_time`) is lost on time as soon as its deadline
passes: nobody plays for a player who has days to move (lichess's correspondence rule).
A game with clocks (`storage.TimeControl`, `bot.services.games.clock`) has the player to
move's remaining time as its deadline: when it passes, that player loses on time at once
(FIDE Laws of Chess art. 6.9), the computer's seat too. A game whose time limit does not
count (none, or the computer is moving: `GameTable.time_limit_counts`) is lost on time by
the player to move after `GameRules.inactivity_limit` without a move; a time limit that
counts governs alone (the inactivity limit never ends a game before its move time could).
The per-move deadline of a computer seat does not count (the computer moves as soon as it
has chosen).
"""

from __future__ import annotations

import logging
from datetime import datetime

from bot.services.events import AbsentPlayerTurn, DeadlinesChanged
from bot.services.games.core import GameCore
from bot.services.games.values import Announce
from bot.services.models import EndReason, GameUpdate, UpdateKind, is_correspondence_time
from engine import Color

log = logging.getLogger(__name__)


class GameDeadlines:
    """Runs the passed deadlines (`run`, called by the `DeadlineScheduler`)."""

    def __init__(self, core: GameCore) -> None:
        self._core = core

    async def run(
        self, now: datetime | None = None, *, announce: Announce | None = None
    ) -> list[GameUpdate]:
        """Act on every game whose deadline is at or before `now` (default: the clock):
        a passed per-move deadline hands the turn to the computer (`AbsentPlayerTurn`; it
        moves later, without this call waiting), or the player loses on time (always in a
        correspondence game; see the module docstring); a passed inactivity limit (a game
        whose time limit does not count) makes the player to move lose on time.
        Returns the games ended here, each also announced. A game whose deadline fails is
        logged and the others still run."""
        moment = self._core.clock() if now is None else now
        updates = []
        for record in self._core.table.due(moment):
            channel_id, game_id = record.channel_id, record.id
            try:
                update = await self._run_one(channel_id, game_id, moment, announce)
            except Exception:
                log.exception("deadline of game %s in channel %s failed", game_id, channel_id)
                continue
            if update is not None:
                updates.append(update)
        return updates

    async def _run_one(
        self, channel_id: int, game_id: int, now: datetime, announce: Announce | None
    ) -> GameUpdate | None:
        core = self._core
        table = core.table
        async with table.hold(channel_id):
            live = table.get(channel_id, game_id)
            if live is None or table.deadline(live) > now:
                return None  # ended or moved meanwhile
            record = live.record
            color = live.game.position.turn
            previous = record.board_message_id
            if not table.time_limit_counts(live):  # the inactivity limit passed
                state = await core.finish(live, EndReason.INACTIVITY, color.opponent)
                return await core.announce(
                    GameUpdate(UpdateKind.ENDED, state, None, None, previous), announce
                )
            done = (record.clock.white_computer_moves if color is Color.WHITE
                    else record.clock.black_computer_moves)
            if (record.time_control is not None
                    or is_correspondence_time(record.move_seconds)
                    or not core.events.listened(AbsentPlayerTurn)
                    or done >= table.rules.computer_moves_before_forfeit):
                state = await core.finish(live, EndReason.TIME_FORFEIT, color.opponent)
                return await core.announce(
                    GameUpdate(UpdateKind.ENDED, state, None, None, previous), announce
                )
            table.set_absent(game_id, True)
            core.events.publish(DeadlinesChanged())
            core.events.publish(AbsentPlayerTurn(table.state(live)))
            return None
