"""The one answer to a failed interaction (`bot/ui/errors.py`): unexpected errors logged
with their ids and answered privately; refusals that fit a Discord message; a failed
autocomplete logged with the command and answered with no choices."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.messages import Msg
from bot.services import PlayerError
from tests.support.discord_harness import Harness, challenge_and_accept, run, slash
from tests.support.fake_discord import option
from tests.support.services import ALICE, CHANNEL


async def test_unexpected_error_is_logged_and_answered(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    await challenge_and_accept(h)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(h.bot.games, "play", broken)
    with caplog.at_level(logging.ERROR):
        [reply] = await run(h, slash(h, "move", [option("move", "a3-a4")]))
    assert reply.ephemeral and "went wrong on my side" in reply.content
    [record] = [r for r in caplog.records if "interaction failed" in r.getMessage()]
    assert f"user={ALICE}" in record.getMessage() and f"channel={CHANNEL}" in record.getMessage()
    assert "command=move" in record.getMessage()
    assert record.exc_info is not None


async def test_a_very_long_refusal_still_fits_a_discord_message(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Discord refuses content over 2000 characters; the player must still get an answer.
    h = harness
    await challenge_and_accept(h)
    routes = ", ".join(f"e1xe3xc3xa3xa6xe6xe2xh2xh4xh8xf8xb8xb3xg3xg7xc7x{i}" for i in range(60))

    async def ambiguous(*args: Any, **kwargs: Any) -> Any:
        raise PlayerError(Msg.MOVE_AMBIGUOUS, text="e1xc1", candidates=routes)

    monkeypatch.setattr(h.bot.games, "play", ambiguous)
    [reply] = await run(h, slash(h, "move", [option("move", "e1xc1")]))
    assert reply.ephemeral and "matches several moves" in reply.content
    assert len(reply.content) <= 2000


async def test_a_failed_autocomplete_is_logged_with_the_command(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    await challenge_and_accept(h)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("broken")

    monkeypatch.setattr(h.bot.games, "suggestion_source", broken)
    with caplog.at_level(logging.ERROR):
        [auto] = await run(h, h.discord.interaction(4, {
            "id": "1", "name": "move", "type": 1,
            "options": [option("move", "", focused=True)]}, user_id=ALICE, channel_id=CHANNEL))
    assert auto.callback_type == 8 and auto.payload["data"]["choices"] == []
    [record] = [r for r in caplog.records if "autocomplete failed" in r.getMessage()]
    assert "command=move" in record.getMessage() and f"user={ALICE}" in record.getMessage()
