"""`TournamentScheduler`: what advances a tournament without anyone asking. A game's end
(`GameEnded`) advances its tournament; a background task wakes every `poll` to start
the tournaments whose start time came (read from the database each time, so a start time
set before a restart, or by another process, is kept) and to advance the running arenas
(pairings as players come free, the end); `restore` advances, at start-up, every
tournament under way of the servers this process owns, and every one that owes a post
(a finished one its final, any a claimed notice), and refreshes their sign-up posts
(`ShardScope`: another process never pairs them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

from bot.faults import FaultPoint, reach
from bot.services.events import EventBus, GameEnded
from bot.services.tournaments.core import TournamentCore
from bot.services.tournaments.posting import refresh_signup
from bot.services.tournaments.values import START_WITHIN
from storage import TournamentStatus
from tournaments.model import Format

log = logging.getLogger(__name__)

POLL = timedelta(seconds=5)
"""How often the scheduler looks at the start times and the arenas (an arena's pairing
waits `ArenaRules.pairing_wait`, 10 seconds, for more players to come free)."""

INTEREST_POLL = timedelta(minutes=1)
"""How often `interest` is called for each tournament in sign-up that has a Discord
scheduled event (besides once just before its start)."""

Interest = Callable[[int], Coroutine[Any, Any, None]]
"""Signs up the players interested in a tournament's scheduled event (the Discord layer's
`bot.ui.tournament_events`); given the tournament's id; must not raise."""

STOP_GRACE = 2.0
"""Seconds `stop` lets the advances under way finish before cancelling them."""


class TournamentScheduler:
    """Advances tournaments in the background (see the module docstring); `advance` is
    the reconciler it calls."""

    def __init__(self, core: TournamentCore, advance: Callable[[int], Awaitable[None]],
                 *, poll: timedelta = POLL) -> None:
        self._core = core
        self._advance = advance
        self._poll = poll
        self._task: asyncio.Task[None] | None = None
        self.interest: Interest | None = None
        """Called with a tournament's id before its start time starts it and every
        `INTEREST_POLL` in sign-up, for a tournament with a scheduled event."""
        self._interest_read: datetime | None = None

    def listen(self, events: EventBus) -> None:
        """Advance a game's tournament when the game ends."""
        events.subscribe(GameEnded, lambda event: self._core.spawn(
            self._game_ended(event.state.game_id), name=f"tournament-game-{event.state.game_id}"))

    async def _game_ended(self, game_id: int) -> None:
        pairing = await self._core.repo.by_game(game_id)
        if pairing is None:
            return
        reach(FaultPoint.TOURNAMENT_GAME_ENDED)
        await self._advance(pairing.tournament_id)

    async def restore(self) -> None:
        """Advance every tournament under way of the servers this process owns, and every
        one that owes a post whatever its status (`posts_owed`: a finished one whose
        final post is not recorded, killed between the finish and that post; any with a
        claim not recorded, such as a notice claimed with its status change), then show
        each on its sign-up post (the edit after a change a kill cut off)."""
        core = self._core
        records = {record.id: record for record in
                   [*await core.repo.running(), *await core.repo.posts_owed()]}
        for record in sorted(records.values(), key=lambda record: record.id):
            if core.owns(record):
                await self._advance(record.id)
                snapshot = await core.read(record.id)
                if snapshot is not None:
                    await refresh_signup(core, snapshot.view)

    async def tick(self, now: datetime | None = None) -> None:
        """Start the tournaments of this process's servers whose start time came by
        `now` (default: the clock's) and advance their running arenas."""
        now = now if now is not None else self._core.now()
        await self._read_interest(now)
        for record in await self._core.repo.due_to_start(now):
            if self._core.owns(record):
                if self.interest is not None and record.event_id is not None:
                    await self.interest(record.id)  # the last sign-ups, before numbering
                await self._advance(record.id)
        for record in await self._core.repo.running():
            if (record.format == Format.ARENA.value and record.status is TournamentStatus.RUNNING
                    and self._core.owns(record)):
                await self._advance(record.id)

    async def _read_interest(self, now: datetime) -> None:
        """Every `INTEREST_POLL`: `interest` in the background for each tournament in
        sign-up with a scheduled event (all have a start time, so `due_to_start` of the
        furthest start time finds them)."""
        if self.interest is None or (self._interest_read is not None
                                     and now - self._interest_read < INTEREST_POLL):
            return
        self._interest_read = now
        for record in await self._core.repo.due_to_start(now + START_WITHIN):
            if record.event_id is not None and self._core.owns(record):
                # In the background: many sign-ups at once (each edits the sign-up
                # post) must not hold up the other tournaments' starts and pairings.
                self._core.spawn(self.interest(record.id),
                                 name=f"tournament-interest-{record.id}")

    def start(self) -> None:
        """Start the loop: `restore` first (the games are restored by then), then a
        `tick` every `poll`."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="dama-tournaments")

    async def stop(self) -> None:
        """Stop the loop; the advances under way in the background get `STOP_GRACE`
        seconds to finish, then are cancelled (the next start's `restore` takes up what
        they left)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._core.idle(), timeout=STOP_GRACE)
        await self._core.cancel()

    async def _run(self) -> None:
        try:
            await self.restore()
        except Exception:
            log.exception("restoring the tournaments under way failed; the ticks go on")
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("the tournaments' tick failed; trying again later")
            await asyncio.sleep(self._poll.total_seconds())
