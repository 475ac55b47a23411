"""Answering interactions (`bot/ui/answer.py`): an answer that may take over 2 seconds is
deferred, whether the slow part is storage or the picture, for commands and buttons."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import bot.messages
import bot.services.games
import bot.ui.answer
from tests.support.discord_harness import (
    Harness,
    challenge_and_accept,
    press,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import option, user_option
from tests.support.services import BOB, CHANNEL


async def test_slow_answer_is_deferred(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await challenge_and_accept(h)
    monkeypatch.setattr(bot.ui.answer, "DEFER_AFTER", 0.05)
    render = h.bot.presenter.board_png

    async def slow(state: Any, *view: Any) -> bytes:
        await asyncio.sleep(0.3)
        return await render(state, *view)

    monkeypatch.setattr(h.bot.presenter, "board_png", slow)
    calls = await run(h, slash(h, "move", [option("move", "a3-a4")]))
    assert calls[0].callback_type == 5
    edit = calls[1]
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    assert edit.files[0][0] == "board.png" and "played **a3-a4**" in edit.content
    board = h.bot.services.games.current(CHANNEL).board_message_id
    assert board == int(h.discord._originals[edit.path.split("/")[3]])


async def test_slow_work_before_any_answer_is_deferred(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The interaction is deferred whenever the answer could take over 2 seconds, also
    # when the slow part comes before the bot starts building its answer (storage).
    h = harness
    monkeypatch.setattr(bot.ui.answer, "DEFER_AFTER", 0.05)
    create = h.bot.services.challenges.create

    async def slow_create(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await create(*args, **kwargs)

    monkeypatch.setattr(h.bot.services.challenges, "create", slow_create)
    bob, resolved = user_option("opponent", BOB)
    calls = await run(h, slash(h, "challenge", [bob, option("variant", "arab")],
                               resolved=resolved))
    assert calls[0].callback_type == 5
    edit = calls[1]
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    cid = edit.custom_ids[0].split(":")[2]
    stored = await h.bot.services.challenges.get(int(cid))
    message = int(h.discord._originals[edit.path.split("/")[3]])
    assert stored is not None and stored.message_id == message


async def test_a_slow_button_press_is_acknowledged_without_a_dangling_thinking_message(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    bob, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [bob, option("variant", "arab")],
                                resolved=resolved))
    message = response_message_id(h, made)
    cid = made.custom_ids[0].split(":")[2]
    monkeypatch.setattr(bot.ui.answer, "DEFER_AFTER", 0.05)
    decline = h.bot.services.challenges.decline

    async def slow_decline(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await decline(*args, **kwargs)

    monkeypatch.setattr(h.bot.services.challenges, "decline", slow_decline)
    calls = await run(h, press(h, message, f"dama:decline:{cid}", user=BOB))
    # Acknowledged in time (deferred update: no new "thinking" message), then the
    # challenge message itself says it was declined and loses its buttons.
    assert calls[0].callback_type == 6
    assert len(calls) == 2 and calls[1].method == "PATCH"
    assert calls[1].path.endswith("/messages/@original")  # the pressed message
    assert "declined" in calls[1].body["embeds"][0]["description"]
    assert calls[1].body["components"] == []
