"""`NotificationService`: turn notifications, owed when a game's turn changes, stored,
sent once, paced, by the process that owns the game's server (docs/ARCHITECTURE.md,
"Notifications").

Two background tasks (`start`): the planner reads the due notifications of this
process's shards, decides with `planner.plan` (drops, postponements, one message per
player and place), claims each message's notifications and puts it in a bounded queue;
the sender takes them one at a time at the global `Pace` and settles them by what the
outlet answers. `run_once` does both once, for tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any, assert_never

from bot.services.events import EventBus, TurnChanged
from bot.services.models import BoardState
from bot.services.notifications.pace import Pace
from bot.services.notifications.planner import owed_for, plan
from bot.services.notifications.values import (
    Delivery,
    Limits,
    NotificationOutlet,
    Outcome,
    SendResult,
)
from bot.services.settings import Notify, PreferenceService
from bot.services.shards import EVERY_SHARD, ShardScope
from storage import GameRecord, GameRepository, NotificationOutcome, utc_now
from storage.clock import Clock
from storage.repositories import NotificationRepository

log = logging.getLogger(__name__)

SEEN_WRITE_EVERY = timedelta(minutes=1)
"""A player's activity is written to the database at most this often (other processes
read it for the quiet rule; this process keeps every sighting in memory)."""

DEFAULT_LIMITS = Limits()
"""The limits when none are given (`bot.config` gives the operator's)."""

KEEP_SETTLED = timedelta(days=30)
"""How long settled notifications are kept: longer than any game can stay at one ply (the
longest move time is 14 days), so a restored game's turn never owes one again."""

TIDY_EVERY = timedelta(hours=1)
"""How often the settled notifications and this process's memory of players are tidied."""

RETRY_AFTER_FAILURE = timedelta(minutes=1)
"""When a message that failed (Discord's 5xx, the network) is tried again."""


class NotificationService:
    """Owes, plans and sends turn notifications. `repository` stores them, `games` is
    read for each game's state at send time, `preferences` for each player's `Notify`
    (and turned to OFF when their direct messages are closed), `outlet` sends. Only the
    games of `scope`'s servers are sent (`ShardScope.owns`). `sleep` waits (seconds;
    tests and benchmarks move a fake clock). `counts`: messages sent, notifications
    dropped, 403s (closed DMs), 429s (answered, and waited out by the HTTP client),
    failures, for the log and the tests."""

    def __init__(self, repository: NotificationRepository, games: GameRepository,
                 preferences: PreferenceService, outlet: NotificationOutlet, *,
                 scope: ShardScope = EVERY_SHARD, clock: Clock = utc_now,
                 limits: Limits = DEFAULT_LIMITS,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._repo = repository
        self._games = games
        self._preferences = preferences
        self._outlet = outlet
        self._scope = scope
        self._clock = clock
        self.limits = limits
        self._sleep = sleep
        self._pace = Pace(limits.per_second, limits.max_backoff)
        self._queue: asyncio.Queue[Delivery] = asyncio.Queue(limits.queue_size)
        self._wake = asyncio.Event()
        self._room = asyncio.Event()
        self._active: dict[int, datetime] = {}
        self._seen_written: dict[int, datetime] = {}
        self._last_sent: dict[int, datetime] = {}
        self._untold: set[int] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._restored = False
        self._tidied: datetime | None = None
        self.counts: Counter[str] = Counter()

    # --- owing ---------------------------------------------------------------------

    def listen(self, events: EventBus) -> None:
        """Owe notifications whenever a game's turn changes (`TurnChanged`)."""
        events.subscribe(TurnChanged, lambda event: self._spawn(self.owe(event.state)))

    async def owe(self, state: BoardState) -> int:
        """Store what `state`'s new turn owes (`planner.owed_for`, by the preference of
        the person to move); returns how many were new. Raises what the repositories
        raise."""
        user = state.to_move.user_id
        if user is None or state.is_over:
            return 0
        notify = (await self._preferences.player(user)).notify
        new = await self._repo.owe(owed_for(state, notify, self._clock(), self.limits))
        if new:
            self._wake.set()
        return new

    # --- the player's activity -----------------------------------------------------

    async def seen(self, user_id: int) -> bool:
        """`user_id` used the bot now (every interaction, reported by the Discord layer):
        their notifications wait until they have been quiet for `limits.quiet`. Returns
        True once (across processes) when they must be told, privately, that their
        direct messages are closed and notifications stopped; the caller tells them."""
        now = self._clock()
        self._active[user_id] = now
        written = self._seen_written.get(user_id)
        if written is None or now - written >= SEEN_WRITE_EVERY:
            self._seen_written[user_id] = now
            self._spawn(self._repo.record_seen(user_id, now))
        if user_id not in self._untold:
            return False
        self._untold.discard(user_id)
        return await self._repo.mark_told(user_id)

    # --- planning ------------------------------------------------------------------

    def _shards(self) -> tuple[int, tuple[int, ...]] | None:
        scope = self._scope
        if scope.everything or scope.shard_count is None or scope.shard_ids is None:
            return None
        return scope.shard_count, tuple(sorted(scope.shard_ids))

    async def restore(self) -> None:
        """Release what a killed process of these shards had claimed and not settled (sent
        again: at most one duplicate, never a loss), and read who must be told of closed
        direct messages. Called once before the first plan."""
        held = [row.id for row in await self._repo.claimed()
                if self._scope.owns(row.guild_id)]
        if held:
            log.warning("%d notifications claimed by a stopped process are sent again",
                        len(held))
            await self._repo.release(held)
        self._untold = set(await self._repo.untold())
        self._restored = True

    async def fill(self) -> int:
        """Plan the due notifications into the queue, as many messages as it has room
        for; returns how many messages were queued."""
        if not self._restored:
            await self.restore()
        room = self._queue.maxsize - self._queue.qsize()
        if room <= 0:
            return 0
        now = self._clock()
        if self._tidied is None or now - self._tidied >= TIDY_EVERY:
            await self._tidy(now)
        rows = await self._repo.due(now, self.limits.batch, self._shards())
        if not rows:
            return 0
        # All that is due to these players, so each gets one digest (their other games'
        # notifications may be further down the due list).
        known = {row.id for row in rows}
        rows += [row for row in await self._repo.due_to(sorted({r.user_id for r in rows}), now)
                 if row.id not in known]
        rows = [row for row in rows if self._scope.owns(row.guild_id)]
        records: dict[int, GameRecord | None] = {}
        for game_id in {row.game_id for row in rows}:
            records[game_id] = await self._games.get(game_id)
        user_ids = sorted({row.user_id for row in rows})
        notify = {user: (await self._preferences.player(user)).notify for user in user_ids}
        users = await self._repo.users(user_ids)
        decided = plan(rows, records, notify, users, now, self.limits, active=self._active,
                       last_sent=self._last_sent, room=room)
        if decided.drop:
            await self._repo.settle(decided.drop, NotificationOutcome.DROPPED)
            self.counts["dropped"] += len(decided.drop)
        later: dict[datetime, list[int]] = defaultdict(list)
        for row_id, until in decided.postpone:
            later[until].append(row_id)
        for until, ids in later.items():
            await self._repo.postpone(ids, until)
        for user in decided.reopen:
            await self._repo.reopen_dms(user)
        queued = 0
        for delivery in decided.deliveries:
            claimed = await self._repo.claim(delivery.ids)
            if sorted(claimed) != sorted(delivery.ids):
                await self._repo.release(claimed)  # another claimer holds some: skip
                continue
            self._queue.put_nowait(delivery)
            queued += 1
        self._untold |= set(await self._repo.untold())
        return queued

    async def _tidy(self, now: datetime) -> None:
        """Delete the notifications settled long ago, and forget the sightings and
        messages too old to hold anyone back (quiet, pace)."""
        self._tidied = now
        pruned = await self._repo.prune(now - KEEP_SETTLED)
        if pruned:
            log.info("notifications: %d settled ones deleted", pruned)
        horizon = now - max(self.limits.quiet, self.limits.user_pace, SEEN_WRITE_EVERY)
        for memory in (self._active, self._seen_written, self._last_sent):
            for user in [user for user, at in memory.items() if at < horizon]:
                del memory[user]

    # --- sending -------------------------------------------------------------------

    async def send_next(self) -> None:
        """Take the next message from the queue, wait for the pace and send it, then
        settle its notifications by the outlet's answer."""
        delivery = await self._queue.get()
        self._room.set()
        wait = self._pace.wait(self._clock())
        if wait > 0:
            await self._sleep(wait)
        try:
            result = await self._outlet.send(delivery)
        except Exception:
            log.exception("sending a notification to %s failed", delivery.user_id)
            result = SendResult(Outcome.FAILED)
        await self._settle(delivery, result)

    async def _settle(self, delivery: Delivery, result: SendResult) -> None:
        now = self._clock()
        user = delivery.user_id
        if result.waited_429:
            self.counts["429"] += result.waited_429
            log.warning("notifications: %d rate limits (429) waited out sending to %s "
                        "(%d in all)", result.waited_429, user, self.counts["429"])
            self._pace.limited(now, 0.0)
        match result.outcome:
            case Outcome.SENT:
                await self._repo.settle(delivery.ids, NotificationOutcome.SENT, sent_to=user)
                self._last_sent[user] = now
                self._pace.sent(now)
                self.counts["sent"] += 1
            case Outcome.DMS_CLOSED:
                self._pace.sent(now)  # a request was made all the same
                await self._repo.settle(delivery.ids, NotificationOutcome.DROPPED)
                self.counts["403"] += 1
                log.warning("notifications: direct messages of %s are closed (403 50007, "
                            "%d in all): stopped", user, self.counts["403"])
                if await self._repo.close_dms(user):
                    self._untold.add(user)
                    if (await self._preferences.player(user)).notify is Notify.DM:
                        await self._preferences.update_player(user, notify=Notify.OFF.value)
            case Outcome.RATE_LIMITED:
                await self._repo.release(
                    delivery.ids, now + timedelta(seconds=result.retry_after))
                self.counts["429"] += 1
                log.warning("notifications: rate limited (429), retry after %.1f s "
                            "(%d in all)", result.retry_after, self.counts["429"])
                self._pace.limited(now, result.retry_after)
            case Outcome.UNREACHABLE:
                self._pace.sent(now)
                await self._repo.settle(delivery.ids, NotificationOutcome.DROPPED)
                self.counts["unreachable"] += 1
                log.warning("notifications: the channel %s is out of reach",
                            delivery.channel_id)
            case Outcome.FAILED:
                self._pace.sent(now)
                await self._repo.release(delivery.ids, now + RETRY_AFTER_FAILURE)
                self.counts["failed"] += 1
            case _:
                assert_never(result.outcome)

    async def run_once(self) -> int:
        """Plan what is due now and send it all (the pace's waits through `sleep`);
        returns how many messages were taken from the queue."""
        await self.fill()
        taken = 0
        while not self._queue.empty():
            await self.send_next()
            taken += 1
        return taken

    # --- the background tasks ------------------------------------------------------

    def start(self) -> None:
        """Start the planner and the sender (once)."""
        if not self._loops:
            self._loops = [asyncio.create_task(self._plan_loop(), name="dama-notify-plan"),
                           asyncio.create_task(self._send_loop(), name="dama-notify-send")]

    async def stop(self) -> None:
        """Stop both tasks; a message being sent is cancelled (its notifications stay
        claimed and are sent again after the next start: `restore`)."""
        loops, self._loops = self._loops, []
        for task in loops:
            task.cancel()
        await asyncio.gather(*loops, return_exceptions=True)

    async def idle(self) -> None:
        """Wait for the writes under way (notifications being owed, activity)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """`stop`, then wait for the writes under way (owed notifications, activity)."""
        await self.stop()
        await self.idle()

    async def _plan_loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.fill()
                delay = await self._delay()
            except Exception:
                log.exception("planning notifications failed; trying again later")
                delay = self.limits.poll.total_seconds()
            if self._queue.full():
                self._room.clear()
                await self._room.wait()
                continue
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=delay)

    async def _delay(self) -> float:
        poll = self.limits.poll.total_seconds()
        due = await self._repo.next_due(self._shards())
        if due is None:
            return poll
        return min(poll, max(1.0, (due - self._clock()).total_seconds()))

    async def _send_loop(self) -> None:
        while True:
            try:
                await self.send_next()
            except Exception:
                log.exception("sending notifications failed; going on")

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a notification write failed", exc_info=task.exception())
