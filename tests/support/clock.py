"""A clock the test moves by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class FakeClock:
    """A clock the test moves by hand (aware UTC)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta
