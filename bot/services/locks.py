"""One `asyncio.Lock` per channel: the check-then-act of a game runs under its channel's lock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class ChannelLocks:
    """Locks by channel id, created on first use. Not reentrant: a coroutine holding a
    channel's lock must not ask for it again."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    @asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's lock for the block. Locks nobody waits for are dropped."""
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        self._users[channel_id] = self._users.get(channel_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[channel_id] -= 1
            if self._users[channel_id] == 0:
                del self._users[channel_id]
                del self._locks[channel_id]

    def locked(self, channel_id: int) -> bool:
        """Whether someone holds the channel's lock now."""
        lock = self._locks.get(channel_id)
        return lock is not None and lock.locked()
