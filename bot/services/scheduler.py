"""`DeadlineScheduler`: wakes up for challenge expiries and game deadlines.

One background task sleeps until the earliest known deadline (or at most `poll`, so that
challenges from before a restart expire too), then runs the services' `expire_due` and
`run_deadlines`, handing what happened to a `DeadlineListener`. `poke()` makes it look
again at once; `listen(events)` subscribes it to `DeadlinesChanged` (a new challenge, a
move). Errors are logged; the loop goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import date, timedelta
from typing import Protocol

from bot.services.challenges import ChallengeService
from bot.services.errors import PlayerError
from bot.services.events import DeadlinesChanged, EventBus
from bot.services.games import GameService
from bot.services.models import GameUpdate
from bot.services.puzzles import PuzzleService
from bot.services.shards import EVERY_SHARD, ShardScope
from puzzles import Puzzle
from storage import Challenge, utc_now
from storage.clock import Clock
from storage.models import DailyPuzzleSetting
from storage.repositories import PuzzleRepository

log = logging.getLogger(__name__)

STOP_GRACE = 2.0
"""Seconds `stop` lets a run of the deadlines being acted on finish (a game ended on time is
stored before it is announced) before cancelling it."""


class DeadlineListener(Protocol):
    """Tells the players what the deadlines did (the Discord layer implements it)."""

    async def challenge_expired(self, challenge: Challenge) -> None: ...

    async def announce(self, update: GameUpdate) -> int | None:
        """Announce a timed-out game's update; returns the board message id posted."""
        ...


class DeadlineScheduler:
    """Runs deadlines in the background. `start()` once the listener is ready; `stop()`."""

    def __init__(
        self,
        games: GameService,
        challenges: ChallengeService,
        listener: DeadlineListener,
        *,
        clock: Clock = utc_now,
        poll: timedelta = timedelta(seconds=30),
    ) -> None:
        self._games = games
        self._challenges = challenges
        self._listener = listener
        self._clock = clock
        self._poll = poll
        self._wake = asyncio.Event()
        self._between = asyncio.Event()
        """Set while the loop is not acting on deadlines (`run_once`)."""
        self._between.set()
        self._task: asyncio.Task[None] | None = None

    def listen(self, events: EventBus) -> None:
        """Look again whenever a deadline may have moved (`DeadlinesChanged`)."""
        events.subscribe(DeadlinesChanged, lambda event: self.poke())

    def poke(self) -> None:
        """Re-read the deadlines now."""
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="dama-deadlines")

    async def stop(self) -> None:
        """Stop the loop. A run of the deadlines under way gets `STOP_GRACE` seconds to
        finish, so a result it stored is also announced."""
        task, self._task = self._task, None
        if task is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._between.wait(), timeout=STOP_GRACE)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def run_once(self) -> None:
        """Expire due challenges and act on due game deadlines, as of the clock's now."""
        now = self._clock()
        for challenge in await self._challenges.expire_due(now):
            try:
                await self._listener.challenge_expired(challenge)
            except Exception:
                log.exception("announcing the expiry of challenge %s failed", challenge.id)
        await self._games.run_deadlines(now, announce=self._listener.announce)

    def seconds_to_next(self) -> float:
        """Seconds until the next known deadline, at most the poll interval."""
        now = self._clock()
        candidates = [now + self._poll]
        for moment in (self._games.next_deadline(), self._challenges.next_expiry()):
            if moment is not None:
                candidates.append(moment)
        return max(0.0, (min(candidates) - now).total_seconds())

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            self._between.clear()
            try:
                await self.run_once()
            except Exception:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    # Stopping: a cancellation that surfaced as another error (e.g. from a
                    # database transaction it interrupted) ends the loop, quietly.
                    raise asyncio.CancelledError from None
                log.exception("running deadlines failed; trying again later")
            finally:
                self._between.set()
            delay = self.seconds_to_next()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=delay)


# --- the daily puzzle ---------------------------------------------------------------


class DailyChannelGone(Exception):
    """The channel of a server's daily puzzle no longer exists (a poster raises it)."""


class DailyPuzzlePoster(Protocol):
    """Posts a daily puzzle (the Discord layer implements it)."""

    async def post_daily(self, setting: DailyPuzzleSetting, puzzle: Puzzle, day: date) -> None:
        """Post `puzzle` in `setting`'s channel. Raises `DailyChannelGone` when that
        channel no longer exists."""
        ...


class DailyPuzzleScheduler:
    """Posts each server's daily puzzle once per UTC day: every `poll` it reads the
    settings, and for each server this process owns (`scope.owns`, the one ownership
    predicate of `bot.services.shards`) whose puzzle of today is not posted,
    claims the day in the database (`PuzzleRepository.claim_daily`: exactly one claimer
    wins, across processes and restarts), then posts. A post that fails after the claim is
    logged, not retried: a day is never posted twice. A channel that no longer exists
    (`DailyChannelGone`) stops that server's daily puzzle, rather than failing every day."""

    def __init__(self, puzzles: PuzzleService, repository: PuzzleRepository,
                 poster: DailyPuzzlePoster, *, scope: ShardScope = EVERY_SHARD,
                 clock: Clock = utc_now, poll: timedelta = timedelta(minutes=5)) -> None:
        self._puzzles = puzzles
        self._repo = repository
        self._poster = poster
        self._scope = scope
        self._clock = clock
        self._poll = poll
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="dama-daily-puzzle")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def run_once(self) -> list[int]:
        """Post today's puzzle where it is due; returns the guild ids posted to."""
        day = self._clock().date()
        posted: list[int] = []
        for setting in await self._repo.daily_all():
            if setting.last_posted == day.isoformat() or not self._scope.owns(setting.guild_id):
                continue
            try:
                puzzle = self._puzzles.daily_puzzle(day, setting.variant)
            except PlayerError:
                log.warning("no daily puzzle for guild %s: its variant has no puzzles",
                            setting.guild_id)
                continue
            if not await self._repo.claim_daily(setting.guild_id, day.isoformat()):
                continue
            try:
                await self._poster.post_daily(setting, puzzle, day)
                posted.append(setting.guild_id)
            except DailyChannelGone:
                log.warning("the daily puzzle channel %s of guild %s is gone: its daily "
                            "puzzle is stopped", setting.channel_id, setting.guild_id)
                await self._repo.clear_daily(setting.guild_id)
            except Exception:
                log.exception("posting the daily puzzle of guild %s failed", setting.guild_id)
        return posted

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("the daily puzzle run failed; trying again later")
            await asyncio.sleep(self._poll.total_seconds())
