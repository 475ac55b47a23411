"""Pace: one message per interval, slowed down after a 429 (at least its retry_after,
the interval doubling up to the limit) and eased back by the messages that go."""

from __future__ import annotations

from datetime import timedelta

from bot.services.notifications import Pace
from tests.support.clock import DEFAULT_START

NOW = DEFAULT_START


def test_one_message_per_interval() -> None:
    pace = Pace(per_second=5, max_backoff=16)
    assert pace.wait(NOW) == 0
    pace.sent(NOW)
    assert pace.wait(NOW) == 0.2
    assert pace.wait(NOW + timedelta(seconds=0.2)) == 0


def test_a_rate_limit_waits_its_retry_after_and_slows_down_then_eases() -> None:
    pace = Pace(per_second=5, max_backoff=4)
    pace.limited(NOW, retry_after=3)
    assert pace.wait(NOW) == 3 and pace.backoff == 2
    for _ in range(5):
        pace.limited(NOW, retry_after=0)
    assert pace.backoff == 4  # never slower than the limit
    later = NOW + timedelta(seconds=10)
    pace.sent(later)
    assert pace.backoff == 2 and pace.wait(later) == 0.4
    pace.sent(later)
    pace.sent(later)
    assert pace.backoff == 1 and pace.wait(later) == 0.2
