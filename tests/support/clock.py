"""A clock the test moves by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
"""The storage tests' starting time."""

DEFAULT_START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
"""Where a `FakeClock` starts when not told."""


class FakeClock:
    """A clock the test moves by hand (aware UTC): it moves only by `advance`, or by
    `step` at every reading (zero by default)."""

    def __init__(self, start: datetime | None = None, step: timedelta = timedelta(0)) -> None:
        self.now = start or DEFAULT_START
        self.step = step

    def __call__(self) -> datetime:
        current = self.now
        self.now += self.step
        return current

    def advance(self, delta: timedelta) -> None:
        self.now += delta
