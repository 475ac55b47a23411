"""The computer queue's policy (bot.computer_queue): budgets under load, admission, the
estimated wait. Expected values are worked out by hand from the rules in the module's
docstring (fair share B * W / n, the wait counted against B, the minimum, the limit)."""

from __future__ import annotations

import pytest

from bot.computer_queue import (
    MINIMUM_BUDGET_SECONDS,
    QUEUE_LIMIT_PER_WORKER,
    Admission,
    ComputerBusyError,
    MovingAverage,
    QueueLoad,
    QueuePolicy,
)
from bot.config import ConfigError, settings_from

POLICY = QueuePolicy(limit=8, minimum_budget=0.2)


@pytest.mark.parametrize(
    ("requested", "workers", "in_system", "waited", "expected"),
    [
        (2.0, 2, 1, 0.0, 2.0),  # a worker for everyone: the full budget
        (2.0, 2, 2, 0.0, 2.0),
        (2.0, 2, 4, 0.0, 1.0),  # four searches on two workers: half each
        (2.0, 2, 8, 0.0, 0.5),
        (2.0, 2, 32, 0.0, 0.2),  # 0.125 is below the minimum
        (2.0, 1, 1, 1.5, 0.5),  # waited 1.5 s of its 2 s
        (2.0, 1, 1, 3.0, 0.2),  # waited longer than its budget: the minimum
        (2.0, 2, 4, 0.5, 1.0),  # the share (1.0) is less than what is left (1.5)
        (2.0, 2, 4, 1.5, 0.5),  # what is left (0.5) is less than the share (1.0)
        (0.1, 2, 32, 0.0, 0.1),  # asked for less than the minimum: never raised
        (0.1, 1, 1, 5.0, 0.1),
    ],
)
def test_budget_is_the_fair_share_less_the_wait_never_below_the_minimum(
    requested: float, workers: int, in_system: int, waited: float, expected: float
) -> None:
    assert POLICY.budget(requested, workers, in_system, waited) == pytest.approx(expected)


def test_the_unbounded_policy_never_shrinks_nor_refuses() -> None:
    old = QueuePolicy.unbounded()
    assert old.budget(2.0, 2, 100, waited=30.0) == 2.0
    assert not old.refuses(Admission.WHEN_ROOM, running=2, waiting=10_000, workers=2)


def test_default_policy_scales_the_limit_with_the_workers() -> None:
    policy = QueuePolicy.for_workers(2)
    assert policy.limit == 2 * QUEUE_LIMIT_PER_WORKER
    assert policy.minimum_budget == MINIMUM_BUDGET_SECONDS
    assert QueuePolicy.for_workers(2, limit=5).limit == 5


def test_only_refusable_requests_are_refused_and_only_when_the_queue_is_full() -> None:
    assert POLICY.refuses(Admission.WHEN_ROOM, running=2, waiting=8, workers=2)
    assert not POLICY.refuses(Admission.WHEN_ROOM, running=2, waiting=7, workers=2)
    assert not POLICY.refuses(Admission.ALWAYS, running=2, waiting=8, workers=2)
    assert not POLICY.refuses(Admission.ALWAYS, running=2, waiting=1000, workers=2)


def test_limit_zero_refuses_unless_a_worker_is_free() -> None:
    policy = QueuePolicy(limit=0)
    assert not policy.refuses(Admission.WHEN_ROOM, running=1, waiting=0, workers=2)
    assert policy.refuses(Admission.WHEN_ROOM, running=2, waiting=0, workers=2)


@pytest.mark.parametrize(("limit", "minimum"), [(-1, 0.2), (4, 0.0), (4, -0.5)])
def test_bad_policies_are_refused(limit: int, minimum: float) -> None:
    with pytest.raises(ValueError, match="must be"):
        QueuePolicy(limit, minimum)


def test_moving_average_weighs_the_newest_value() -> None:
    average = MovingAverage(weight=0.25)
    assert average.value is None
    average.add(1.0)
    assert average.value == 1.0
    average.add(2.0)
    assert average.value == pytest.approx(1.25)  # 1 + 0.25 * (2 - 1)
    average.add(1.25)
    assert average.value == pytest.approx(1.25)
    with pytest.raises(ValueError, match="weight"):
        MovingAverage(weight=0.0)


def test_estimated_wait_counts_every_search_ahead_at_its_budget_and_measured_speed() -> None:
    # 2 running + 5 waiting + this one = 8 searches on 2 workers, each 2 * 2 / 8 = 0.5 s
    # of budget: 4 rounds of 0.5 s.
    unmeasured = QueueLoad(workers=2, running=2, waiting=5, policy=POLICY,
                           seconds_per_budget=None)
    assert unmeasured.estimated_wait(2.0) == pytest.approx(2.0)
    # Searches measured at 1.5 s of wall time per second of budget: 4 rounds of 0.75 s.
    measured = QueueLoad(2, 2, 5, POLICY, seconds_per_budget=1.5)
    assert measured.estimated_wait(2.0) == pytest.approx(3.0)
    assert not measured.full
    # A full queue: 2 + 8 + 1 = 11 searches at the minimum 0.2 s (share 0.36 s): 5.5
    # rounds of 0.364 s.
    full = QueueLoad(2, 2, 8, POLICY, seconds_per_budget=1.0)
    assert full.full
    assert full.estimated_wait(2.0) == pytest.approx(11 / 2 * (2.0 * 2 / 11))


def test_busy_error_carries_the_wait_in_whole_seconds() -> None:
    error = QueueLoad(2, 2, 8, POLICY, seconds_per_budget=1.4).busy_error(2.0)
    assert isinstance(error, ComputerBusyError)
    assert error.wait_seconds == 3  # 11 / 2 rounds of 4 / 11 s at 1.4: 2.8 s, rounded up
    assert (error.waiting, error.limit) == (8, 8)
    assert "busy" in str(error) and "3 s" in str(error)
    # A tiny estimate still says at least one second.
    assert QueueLoad(2, 2, 8, POLICY, seconds_per_budget=0.01).busy_error(2.0).wait_seconds == 1


def test_queue_limit_setting() -> None:
    assert settings_from({}).computer_queue_limit is None  # 16 per worker
    assert settings_from({"DAMA_COMPUTER_QUEUE_LIMIT": "40"}).computer_queue_limit == 40
    assert settings_from({"DAMA_COMPUTER_QUEUE_LIMIT": "0"}).computer_queue_limit == 0
    for value in ("-1", "many"):
        with pytest.raises(ConfigError, match="DAMA_COMPUTER_QUEUE_LIMIT"):
            settings_from({"DAMA_COMPUTER_QUEUE_LIMIT": value})
