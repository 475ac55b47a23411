"""Where a game page's live updates come from: the feeds behind `LiveSource`.

A feed tells each watcher of a game its stored ply count whenever it changes, and ends
the watch once the game is over (docs/ARCHITECTURE.md, "The web face"). Two feeds, one
contract (`watch`, `close`):

- `BusFeed` listens to the process's `EventBus` (`TurnChanged`, `GameEnded`): for the
  web server beside a bot process that owns every shard, so every move of every game is
  published in this process. Its listeners only wake waiters (no I/O: a listener runs
  while the game's channel lock is held).
- `PollingFeed` reads the database: every `interval` seconds, one query
  (`GameRepository.progress`) for the games watched right now, none when nobody
  watches. For `dama-bot web`, a process of its own, and for a bot process that does
  not own every shard (another process commits the moves of the others' games).

Every watch starts with the game's progress as stored (one read), so a watcher that
registers between a move and its event still sees it; a waiter holds only the latest
progress, so a slow watcher skips to the newest ply instead of queueing every one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Collection

from bot.services.events import EventBus, GameEnded, TurnChanged
from storage import GameProgress, GameRepository, GameStatus, StorageError

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5
"""How often `PollingFeed` reads the watched games' progress by default."""


class _Waiter:
    """One watch of one game: the latest progress told and the event that wakes it."""

    __slots__ = ("changed", "over", "plies")

    def __init__(self) -> None:
        self.changed = asyncio.Event()
        self.plies = -1
        self.over = False

    def tell(self, plies: int, over: bool) -> None:
        """Wake the watch if this is news: more plies, or the end."""
        if self.over or (plies <= self.plies and not over):
            return
        self.plies = max(plies, self.plies)
        self.over = over
        self.changed.set()


WAKE_BATCH = 64
"""Waiters woken in one turn of the event loop (`Watchers.tell`)."""


def _wake(waiters: list[_Waiter], plies: int, over: bool) -> None:
    for waiter in waiters[:WAKE_BATCH]:
        waiter.tell(plies, over)
    if len(waiters) > WAKE_BATCH:
        asyncio.get_running_loop().call_soon(_wake, waiters[WAKE_BATCH:], plies, over)


class Watchers:
    """The waiters of each watched game (one registry per feed)."""

    def __init__(self) -> None:
        self._by_game: dict[int, set[_Waiter]] = {}
        self.closed = False

    def add(self, game_id: int) -> _Waiter:
        waiter = _Waiter()
        self._by_game.setdefault(game_id, set()).add(waiter)
        return waiter

    def remove(self, game_id: int, waiter: _Waiter) -> None:
        waiters = self._by_game.get(game_id)
        if waiters is None:
            return
        waiters.discard(waiter)
        if not waiters:
            del self._by_game[game_id]

    def tell(self, game_id: int, plies: int, over: bool) -> None:
        """Tell every waiter of `game_id` (none: nothing happens), `WAKE_BATCH` at a
        time: the rest in the event loop's next turns, so a game with a thousand viewers
        does not hold the loop while all their events are written (other work, such as
        the bot's moves, runs between the batches)."""
        waiters = list(self._by_game.get(game_id, ()))
        _wake(waiters, plies, over)

    def game_ids(self) -> list[int]:
        """The games watched now."""
        return list(self._by_game)

    def count(self) -> int:
        """How many watches are open, over every game."""
        return sum(len(waiters) for waiters in self._by_game.values())

    def close(self) -> None:
        """End every watch: each wakes and returns."""
        self.closed = True
        for waiters in self._by_game.values():
            for waiter in waiters:
                waiter.changed.set()


def _is_over(status: GameStatus) -> bool:
    return status is not GameStatus.ACTIVE


async def watch_game(watchers: Watchers, games: GameRepository,
                     game_id: int) -> AsyncGenerator[int, None]:
    """The watch both feeds give: registers a waiter, reads the game's stored progress
    and yields its ply count at once, then again whenever a feed tells a change, and a
    last time when the game is over; returns then, when the game does not exist, or
    when the feed closes. The waiter is removed however the watch ends (close it with
    `contextlib.aclosing`). Raises `StorageError` when the first read fails."""
    if watchers.closed:
        return
    waiter = watchers.add(game_id)
    try:
        stored = (await games.progress([game_id])).get(game_id)
        if stored is None:
            return
        waiter.tell(stored.plies, _is_over(stored.status))
        while not watchers.closed:
            waiter.changed.clear()
            plies, over = waiter.plies, waiter.over
            yield plies
            if over:
                return
            await waiter.changed.wait()
    finally:
        watchers.remove(game_id, waiter)


class BusFeed:
    """`LiveSource` from the process's `EventBus`: every move and end published here."""

    def __init__(self, bus: EventBus, games: GameRepository) -> None:
        self._games = games
        self.watchers = Watchers()
        bus.subscribe(TurnChanged, self._turn)
        bus.subscribe(GameEnded, self._ended)

    def _turn(self, event: TurnChanged) -> None:
        self.watchers.tell(event.state.game_id, event.state.ply, False)

    def _ended(self, event: GameEnded) -> None:
        self.watchers.tell(event.state.game_id, event.state.ply, True)

    def watch(self, game_id: int) -> AsyncGenerator[int, None]:
        """See `watch_game`."""
        return watch_game(self.watchers, self._games, game_id)

    async def close(self) -> None:
        """End every watch; the bus's later events wake nobody."""
        self.watchers.close()


class PollingFeed:
    """`LiveSource` from the database: one query every `interval` seconds for the games
    watched right now (`GameRepository.progress`), while anyone watches."""

    def __init__(self, games: GameRepository, *, interval: float = POLL_SECONDS) -> None:
        if interval <= 0:
            raise ValueError(f"a polling interval must be positive, not {interval}")
        self._games = games
        self._interval = interval
        self.watchers = Watchers()
        self._poller: asyncio.Task[None] | None = None
        self.polls = 0
        """How many queries were made (for tests and benchmarks)."""

    def watch(self, game_id: int) -> AsyncGenerator[int, None]:
        """See `watch_game`; starts the poller if it is not running."""
        if self._poller is None and not self.watchers.closed:
            self._poller = asyncio.get_running_loop().create_task(
                self._poll(), name="web live polling")
        return watch_game(self.watchers, self._games, game_id)

    async def _poll(self) -> None:
        while not self.watchers.closed:
            await asyncio.sleep(self._interval)
            watched = self.watchers.game_ids()
            if not watched:
                continue
            try:
                found = await self._read(watched)
            except StorageError as error:  # unreachable for a moment: try again
                log.warning("reading the watched games' progress failed: %s", error)
                continue
            except Exception:  # a bug must not stop every page's updates
                log.exception("reading the watched games' progress failed")
                continue
            for game_id in watched:
                progress = found.get(game_id)
                if progress is None:  # gone: end its watches
                    self.watchers.tell(game_id, 0, True)
                else:
                    self.watchers.tell(game_id, progress.plies, _is_over(progress.status))

    async def _read(self, game_ids: Collection[int]) -> dict[int, GameProgress]:
        self.polls += 1
        return await self._games.progress(game_ids)

    async def close(self) -> None:
        """Stop polling and end every watch."""
        self.watchers.close()
        if self._poller is not None:
            self._poller.cancel()
            await asyncio.gather(self._poller, return_exceptions=True)
