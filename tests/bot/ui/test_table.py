"""The adapter between interactions and services (`bot/ui/table.py`): a move or accept is
committed before the answer, so a failing picture or a dead interaction still shows the
board; autocomplete within Discord's time; errors logged with their ids; answers that fit."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest

import bot.messages
import bot.services.games
import bot.ui.answer
import bot.ui.table
import engine
from bot.messages import Msg
from bot.services import PlayerError
from tests.support.discord_harness import (
    Harness,
    challenge_and_accept,
    press,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import option, user_option
from tests.support.services import ALICE, BOB, CHANNEL


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


async def test_a_board_that_cannot_be_shown_does_not_claim_nothing_changed(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The move is committed before the answer; if the picture then fails, the player
    # must not be told "nothing was changed": a move is committed before the bot
    # answers, and an unexpected error after that is logged with the ids.
    h = harness
    await challenge_and_accept(h)

    async def broken(state: Any) -> bytes:
        raise RuntimeError("renderer broke")

    monkeypatch.setattr(h.bot.presenter, "board_png", broken)
    with caplog.at_level(logging.ERROR):
        [answer] = await run(h, slash(h, "move", [option("move", "a3-a4")]))
    assert h.bot.games.current(CHANNEL).ply == 1
    assert not answer.ephemeral
    assert "nothing was changed" not in answer.content
    assert f"<@{ALICE}> played **a3-a4**" in answer.content and "/board" in answer.content
    assert any(f"channel={CHANNEL}" in r.getMessage() and r.exc_info for r in caplog.records)
    monkeypatch.undo()
    calls = await run(h, slash(h, "board", user=BOB))
    assert calls[0].files and not calls[0].ephemeral


async def test_a_move_whose_interaction_died_still_shows_the_board_in_the_channel(
    harness: Harness,
) -> None:
    # The move is committed; if Discord refuses the interaction answer (e.g. the token
    # expired while the bot was busy), the channel must still see the new board.
    h = harness
    await challenge_and_accept(h)
    payload = slash(h, "move", [option("move", "a3-a4")])
    h.discord.fail_paths.add(f"/interactions/{payload['id']}/{payload['token']}/callback")
    calls = await run(h, payload)
    posted = [c for c in calls if c.method == "POST" and c.path == f"/channels/{CHANNEL}/messages"]
    assert len(posted) == 1 and posted[0].files[0][0] == "board.png"
    assert "played **a3-a4**" in posted[0].content
    state = h.bot.games.current(CHANNEL)
    assert state.ply == 1
    assert state.board_message_id == response_message_id(h, posted[0])


async def test_an_accept_whose_interaction_died_still_starts_and_shows_the_game(
    harness: Harness,
) -> None:
    h = harness
    bob, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [bob, option("variant", "arab")],
                                resolved=resolved))
    message = response_message_id(h, made)
    cid = made.custom_ids[0].split(":")[2]
    payload = press(h, message, f"dama:accept:{cid}", user=BOB)
    h.discord.fail_paths.add(f"/interactions/{payload['id']}/{payload['token']}/callback")
    calls = await run(h, payload)
    state = h.bot.games.current(CHANNEL)
    posted = [c for c in calls if c.method == "POST" and c.path == f"/channels/{CHANNEL}/messages"]
    assert len(posted) == 1 and posted[0].files[0][0] == "board.png"
    assert "the game begins" in posted[0].content
    assert state.board_message_id == response_message_id(h, posted[0])
    stripped = [c for c in calls if c.method == "PATCH" and c.path.endswith(f"/{message}")]
    assert stripped and stripped[0].body["components"] == []
    assert not any("went wrong" in (c.content or "") for c in calls)


async def test_slow_autocomplete_answers_in_time_without_stalling_the_loop(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A position with thousands of capture routes takes seconds to format: the
    # autocomplete must still answer within Discord's 3 seconds (here: a 0.3 s budget)
    # and the event loop must keep serving other games meanwhile.
    h = harness
    await challenge_and_accept(h)
    monkeypatch.setattr(bot.ui.table, "SUGGEST_BUDGET", 0.3)
    real_format = engine.format_move

    def slow_format(*args: Any, **kwargs: Any) -> str:
        time.sleep(0.15)
        return real_format(*args, **kwargs)

    monkeypatch.setattr(bot.services.games, "format_move", slow_format)
    gaps: list[float] = []

    async def ticker() -> None:
        last = time.monotonic()
        for _ in range(40):
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    started = time.monotonic()
    [auto] = await run(h, h.discord.interaction(4, {
        "id": "1", "name": "move", "type": 1,
        "options": [option("move", "", focused=True)]}, user_id=ALICE, channel_id=CHANNEL))
    elapsed = time.monotonic() - started
    await ticking
    assert auto.callback_type == 8 and auto.payload["data"]["choices"] == []
    assert elapsed < 1.5
    assert max(gaps) < 0.5
    await asyncio.sleep(1.5)  # let the worker finish before the test ends


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
