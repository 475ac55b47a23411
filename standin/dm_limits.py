"""The bot's budget of direct messages: DM channels opened and messages sent to DMs per
window of time, refused beyond it with 429 as Discord rate-limits them (Topics > Rate
Limits: a 429 with `retry_after`, the `X-RateLimit-*` headers and `X-RateLimit-Scope`).

Discord does not publish its DM limits (they are per bot, and it may also quarantine a bot
that opens many DMs); `DmLimit` makes them a setting so that tests choose them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .errors import RateLimited


@dataclass(frozen=True)
class DmLimit:
    """At most `opens` DM channels opened (POST /users/@me/channels) and `sends` messages
    sent to DM channels (POST /channels/{dm}/messages) in any `window` seconds."""

    opens: int
    sends: int
    window: float


@dataclass(frozen=True)
class DmCounts:
    """What the bot did with DMs so far: `opened` and `sent` the requests let through,
    `refused` those answered 429."""

    opened: int
    sent: int
    refused: int


class _Bucket:
    """A sliding window of the times of the requests let through."""

    def __init__(self, name: str, limit: int, window: float) -> None:
        self.name = name
        self.limit = limit
        self.window = window
        self.times: deque[float] = deque()

    def take(self, now: float) -> None:
        """Count one request at `now`; `RateLimited` when the window is full."""
        while self.times and self.times[0] <= now - self.window:
            self.times.popleft()
        if len(self.times) >= self.limit:
            raise RateLimited(self.times[0] + self.window - now, bucket=self.name,
                              limit=self.limit)
        self.times.append(now)


class DmBudget:
    """The DM counts and, with a `DmLimit`, the 429s beyond it; `now` is the stand-in's
    clock (seconds)."""

    def __init__(self, limit: DmLimit | None, now: Callable[[], float]) -> None:
        self.limit = limit
        self._now = now
        self._opened = self._sent = self._refused = 0
        self._opens = _Bucket("dm-open", limit.opens, limit.window) if limit else None
        self._sends = _Bucket("dm-send", limit.sends, limit.window) if limit else None

    @property
    def counts(self) -> DmCounts:
        """The counts so far."""
        return DmCounts(self._opened, self._sent, self._refused)

    def _take(self, bucket: _Bucket | None) -> None:
        if bucket is None:
            return
        try:
            bucket.take(self._now())
        except RateLimited:
            self._refused += 1
            raise

    def open(self) -> None:
        """A DM channel is opened; raises `RateLimited` beyond the budget."""
        self._take(self._opens)
        self._opened += 1

    def send(self) -> None:
        """A message is sent to a DM; raises `RateLimited` beyond the budget."""
        self._take(self._sends)
        self._sent += 1
