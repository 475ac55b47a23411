"""Showing the services' updates (`bot/ui/announcer.py`): a move or accept is committed
before the answer, so a failing picture or a dead interaction still shows the board."""

from __future__ import annotations

import logging
from typing import Any

import pytest

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


async def test_a_board_that_cannot_be_shown_does_not_claim_nothing_changed(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The move is committed before the answer; if the picture then fails, the player
    # must not be told "nothing was changed": a move is committed before the bot
    # answers, and an unexpected error after that is logged with the ids.
    h = harness
    await challenge_and_accept(h)

    async def broken(state: Any, *view: Any) -> bytes:
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
