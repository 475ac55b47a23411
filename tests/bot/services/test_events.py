"""The event bus of the services (`bot.services.events`): several listeners per event,
in subscription order; a failing listener does not stop the others nor the publisher."""

from __future__ import annotations

import logging

import pytest

from bot.services import DeadlinesChanged, EventBus, GameEnded, TurnChanged


def test_every_listener_of_an_event_kind_is_called_in_order() -> None:
    bus = EventBus()
    heard: list[str] = []
    bus.subscribe(DeadlinesChanged, lambda event: heard.append("first"))
    bus.subscribe(DeadlinesChanged, lambda event: heard.append("second"))
    bus.subscribe(GameEnded, lambda event: heard.append("other kind"))
    bus.publish(DeadlinesChanged())
    assert heard == ["first", "second"]
    assert bus.listened(DeadlinesChanged) and bus.listened(GameEnded)
    assert not bus.listened(TurnChanged)


def test_a_failing_listener_is_logged_and_the_others_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = EventBus()
    heard: list[DeadlinesChanged] = []

    def broken(event: DeadlinesChanged) -> None:
        raise RuntimeError("listener broke")

    bus.subscribe(DeadlinesChanged, broken)
    bus.subscribe(DeadlinesChanged, heard.append)
    with caplog.at_level(logging.ERROR, logger="bot.services.events"):
        bus.publish(DeadlinesChanged())  # does not raise
    assert heard == [DeadlinesChanged()]
    assert "DeadlinesChanged" in caplog.text and "listener broke" in caplog.text


def test_publishing_without_listeners_does_nothing() -> None:
    EventBus().publish(DeadlinesChanged())
