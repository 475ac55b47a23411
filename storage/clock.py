"""Times as storage keeps them: aware UTC datetimes in Python, integer milliseconds in SQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]
"""A source of the current time (aware, UTC). Tests pass a fixed or stepping one."""

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLISECOND = timedelta(milliseconds=1)


def utc_now() -> datetime:
    """The current time, aware, in UTC."""
    return datetime.now(UTC)


def to_ms(moment: datetime) -> int:
    """Milliseconds since the Unix epoch (rounded down). Raises `ValueError` if naive."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"a time must be timezone-aware (UTC), got naive {moment.isoformat()}")
    return (moment - EPOCH) // _MILLISECOND


def from_ms(ms: int) -> datetime:
    """The aware UTC datetime of a millisecond timestamp."""
    return EPOCH + ms * _MILLISECOND


def opt_to_ms(moment: datetime | None) -> int | None:
    return None if moment is None else to_ms(moment)


def opt_from_ms(ms: int | None) -> datetime | None:
    return None if ms is None else from_ms(ms)
