"""The one answer to a failed interaction (`bot/ui/errors.py`): unexpected errors logged
with their ids and answered privately; refusals that fit a Discord message; a failed
autocomplete logged with the command and answered with no choices."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.messages import Msg, text
from bot.services import PlayerError
from storage import Cause, GameStatus, StorageUnavailableError
from tests.support.discord_harness import (
    Harness,
    challenge_and_accept,
    press,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import Call, option
from tests.support.services import ALICE, CHANNEL


async def test_unexpected_error_is_logged_and_answered(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    await challenge_and_accept(h)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(h.bot.services.games, "play", broken)
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

    monkeypatch.setattr(h.bot.services.games, "play", ambiguous)
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

    monkeypatch.setattr(h.bot.services.games, "suggestion_source", broken)
    with caplog.at_level(logging.ERROR):
        [auto] = await run(h, h.discord.interaction(4, {
            "id": "1", "name": "move", "type": 1,
            "options": [option("move", "", focused=True)]}, user_id=ALICE, channel_id=CHANNEL))
    assert auto.callback_type == 8 and auto.payload["data"]["choices"] == []
    [record] = [r for r in caplog.records if "autocomplete failed" in r.getMessage()]
    assert "command=move" in record.getMessage() and f"user={ALICE}" in record.getMessage()


async def _refuse_writes(h: Harness, refuse: bool = True) -> None:
    """Make the bot's real SQLite connection refuse every write (`PRAGMA query_only`:
    SQLite answers SQLITE_READONLY, as for a file that became unwritable; the tests run as
    root, whom file permissions do not stop, see tests/support/restricted.py)."""
    async with h.bot.services.storage.db.read() as conn:
        await conn.fetchval(f"PRAGMA query_only = {int(refuse)}")


async def test_a_refused_write_tells_the_player_the_server_cannot_save(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    await challenge_and_accept(h)
    # The resign question changes nothing; its Resign is the write.
    [question] = await run(h, slash(h, "resign"))
    confirm = press(h, response_message_id(h, question), question.custom_ids[0], user=ALICE)
    await _refuse_writes(h)
    for payload in (slash(h, "move", [option("move", "a3-a4")]), confirm, slash(h, "draw")):
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            [reply] = await run(h, payload)
        assert reply.ephemeral
        assert reply.content == text(Msg.STORAGE_UNAVAILABLE)
        assert "cannot save moves right now" in reply.content
        assert "nothing of yours was lost" in reply.content.lower()
        [record] = [r for r in caplog.records if "interaction not saved" in r.getMessage()]
        line = record.getMessage()
        assert f"user={ALICE}" in line and f"channel={CHANNEL}" in line
        assert "cannot write to the database" in line and Cause.NOT_WRITABLE.value in line
    state = h.bot.services.games.current(CHANNEL)
    assert state.ply == 0 and state.draw_offer_by is None
    stored = await h.bot.services.storage.games.get(state.game_id)
    assert stored is not None and stored.ply_count == 0 and stored.draw_offer_by is None
    assert stored.status is GameStatus.ACTIVE
    # Once the database takes writes again, the same move is played.
    await _refuse_writes(h, False)
    answer = (await run(h, slash(h, "move", [option("move", "a3-a4")])))[0]
    assert not answer.ephemeral and "played **a3-a4**" in answer.content
    assert h.bot.services.games.current(CHANNEL).ply == 1


async def test_a_write_refused_after_the_commit_brings_no_error_message(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The move is committed, then the database refuses the next write (the board's
    message id) while the board is being posted: the player sees the board and no error
    saying nothing was changed or nothing was saved; the log says why."""
    h = harness
    await challenge_and_accept(h)
    payload = slash(h, "move", [option("move", "a3-a4")])
    callback = f"/interactions/{payload['id']}/{payload['token']}/callback"

    async def refuse_when_answered(call: Call) -> None:
        if call.path == callback:
            await _refuse_writes(h)

    h.discord.observers.append(refuse_when_answered)
    with caplog.at_level(logging.ERROR):
        calls = await run(h, payload)
    answer = calls[0]
    assert answer.path == callback and not answer.ephemeral and answer.files
    assert "played **a3-a4**" in answer.content
    for call in calls:
        assert "nothing was changed" not in call.content
        assert text(Msg.STORAGE_UNAVAILABLE) not in call.content
    state = h.bot.services.games.current(CHANNEL)
    stored = await h.bot.services.storage.games.get(state.game_id)
    assert state.ply == 1 and stored is not None and stored.ply_count == 1
    [record] = [r for r in caplog.records if "shown but not recorded" in r.getMessage()]
    assert "cannot write to the database" in record.getMessage()


def test_no_error_message_claims_that_nothing_was_changed() -> None:
    """The generic answer may follow a committed step: it must not say nothing changed."""
    assert "nothing was changed" not in text(Msg.UNEXPECTED).lower()


async def test_a_read_the_database_cannot_answer_is_refused_as_a_refused_write(
    harness: Harness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await challenge_and_accept(h)

    async def unreachable(*args: object, **kwargs: object) -> object:
        # What storage.postgres raises when the server is gone during a read.
        raise StorageUnavailableError("postgresql://db/dama", Cause.UNREACHABLE,
                                      "connection was closed")

    monkeypatch.setattr(h.bot.services.stats, "game_history", unreachable)
    with caplog.at_level(logging.ERROR):
        [reply] = await run(h, slash(h, "history"))
    assert reply.ephemeral
    assert reply.content == text(Msg.STORAGE_UNAVAILABLE)
    [record] = [r for r in caplog.records if "interaction not saved" in r.getMessage()]
    assert f"user={ALICE}" in record.getMessage() and record.exc_info is None
