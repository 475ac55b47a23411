"""`Pace`: how long the sender waits before its next message, all players together: one
message per `1 / per_second` seconds, slowed down after each rate limit (429) and sped up
again, step by step, by the messages that go through."""

from __future__ import annotations

from datetime import datetime, timedelta


class Pace:
    """The global pace of one process's notification messages. `wait(now)`: seconds to
    wait before the next; `sent(now)` after a message went; `limited(now, retry_after)`
    after a 429 (the next waits at least `retry_after`, and the interval doubles up to
    `max_backoff` times the normal one)."""

    def __init__(self, per_second: float, max_backoff: float) -> None:
        self._interval = 1.0 / per_second
        self._max_backoff = max_backoff
        self.backoff = 1.0
        """The factor the normal interval is multiplied by now (1: no backoff)."""
        self._next: datetime | None = None

    def wait(self, now: datetime) -> float:
        """Seconds to wait from `now` before the next message (0: go)."""
        if self._next is None:
            return 0.0
        return max(0.0, (self._next - now).total_seconds())

    def sent(self, now: datetime) -> None:
        """A message went: the next after the interval; the backoff eases by half."""
        self.backoff = max(1.0, self.backoff / 2)
        self._next = now + timedelta(seconds=self._interval * self.backoff)

    def limited(self, now: datetime, retry_after: float) -> None:
        """Discord answered 429: wait `retry_after` at least, and slow down."""
        self.backoff = min(self._max_backoff, self.backoff * 2)
        pause = max(retry_after, self._interval * self.backoff)
        self._next = max(self._next or now, now + timedelta(seconds=pause))
