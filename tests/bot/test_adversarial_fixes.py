"""Regression tests for defects found by driving the bot as players and admins would
(issue 5): the leaderboard rule the database is opened with, challenge expiries pending
across a restart, and /history's reasons from the message catalog."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.messages
import bot.services.games
import bot.ui.answer
import bot.ui.table
import engine
from bot.client import DamaBot
from bot.config import ConfigError, settings_from
from bot.discord_endpoint import apply_discord_url, restore_endpoint
from bot.messages import ENGLISH, Msg
from bot.services import EndReason, PlayerError
from bot.standin import StandIn
from bot.ui.info import reason_text
from storage import Storage
from tests.bot.conftest import Harness, settings_for
from tests.support.fake_discord import FakeDiscord, option, user_option
from tests.support.services import FakeClock
from tests.bot.cogs.test_play import (
    ALICE,
    BOB,
    CHANNEL,
    challenge_and_accept,
    press,
    response_message_id,
    run,
    slash,
)


async def test_storage_ranks_by_the_bots_leaderboard_rule(harness: Harness) -> None:
    # The rule is a property of the database's rankings; any other rule means a slow scan.
    assert harness.bot.storage.leaderboard_rule == harness.bot.settings.eligibility


async def test_pending_challenge_expiry_is_scheduled_exactly_after_restart(
    tmp_path: Path,
) -> None:
    fake = FakeDiscord()
    clock = FakeClock()
    path = tmp_path / "db.sqlite3"
    with fake.installed():
        bot = DamaBot(settings_for(path, challenge_expiry=timedelta(seconds=5)), clock=clock,
                      run_scheduler=False, sync=False)
        await bot.login("fake-token")
        from tests.bot.conftest import Harness as H

        h = H(bot, fake, clock)
        opponent, resolved = user_option("opponent", BOB)
        [answer] = await run(h, slash(h, "challenge", [opponent, option("variant", "arab")],
                                      resolved=resolved))
        assert answer.callback_type == 4
        await bot.close()
        bot = DamaBot(settings_for(path, challenge_expiry=timedelta(seconds=5)), clock=clock,
                      run_scheduler=False, sync=False)
        await bot.login("fake-token")
        try:
            expiry = bot.challenges.next_expiry()
            assert expiry == clock() + timedelta(seconds=5)
            # The scheduler sleeps until then, not until its 30-second poll.
            assert bot.scheduler.seconds_to_next() == 5.0
        finally:
            await bot.close()


def test_every_history_reason_comes_from_the_catalog() -> None:
    expected = {
        EndReason.NO_PIECES: Msg.SHORT_NO_PIECES,
        EndReason.NO_LEGAL_MOVE: Msg.SHORT_NO_LEGAL_MOVE,
        EndReason.REPETITION: Msg.SHORT_REPETITION,
        EndReason.ONE_PIECE_EACH: Msg.SHORT_ONE_PIECE_EACH,
        EndReason.MOVE_LIMIT: Msg.SHORT_MOVE_LIMIT,
        EndReason.RESIGNATION: Msg.SHORT_RESIGNATION,
        EndReason.AGREEMENT: Msg.SHORT_AGREEMENT,
        EndReason.TIME_FORFEIT: Msg.SHORT_TIME_FORFEIT,
        EndReason.INACTIVITY: Msg.SHORT_INACTIVITY,
        EndReason.ABORTED: Msg.SHORT_ABORTED,
    }
    for reason, key in expected.items():
        assert reason_text(reason.value, "en-US") == ENGLISH[key]
    assert reason_text("something-else", None) == ENGLISH[Msg.SHORT_OTHER]
    assert reason_text(None, None) == ENGLISH[Msg.SHORT_OTHER]


async def test_history_shows_the_catalog_reason(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    await run(h, slash(h, "resign", user=BOB))
    [answer] = await run(h, slash(h, "history", user=ALICE))
    line = answer.embeds[0]["description"]
    assert ENGLISH[Msg.SHORT_RESIGNATION] in line
    assert "_" not in line


async def test_a_board_that_cannot_be_shown_does_not_claim_nothing_changed(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The move is committed before the answer; if the picture then fails, the player
    # must not be told "nothing was changed" (the issue: a move is committed before the
    # bot answers; unexpected errors are logged with the ids).
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


async def test_durations_statuses_and_variant_names_come_from_the_catalog(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every player-facing text comes from the message catalog in the reader's locale:
    # a test catalog for "fr" must show up in durations, challenge statuses and /export.
    h = harness
    french = dict(ENGLISH)
    french.update({Msg.DAYS_MANY: "{count} jours", Msg.STATUS_DECLINED: "refusé"})
    monkeypatch.setattr(bot.messages, "CATALOGS", {"en": ENGLISH, "fr": french})
    [answer] = await run(h, slash(h, "help", locale="fr"))
    assert "3 jours" in answer.embeds[0]["description"]
    bob, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [bob, option("variant", "arab")],
                                resolved=resolved))
    message = response_message_id(h, made)
    cid = made.custom_ids[0].split(":")[2]
    snapshot = dict(h.discord.messages[message])
    await run(h, press(h, message, f"dama:decline:{cid}", user=BOB))
    payload = press(h, message, f"dama:accept:{cid}", user=BOB, snapshot=snapshot)
    payload["locale"] = "fr"
    reply, _strip = await run(h, payload)
    assert reply.ephemeral and "refusé" in reply.content and "declined" not in reply.content
    await challenge_and_accept(h)
    [export] = await run(h, slash(h, "export"))
    assert "Turkish draughts" in export.content and "(turkish)" not in export.content


@pytest.mark.parametrize("value", ["99999999999d", "1e300d", "400d", "99999999h"])
def test_huge_durations_are_one_line_config_errors(value: str) -> None:
    # Config errors are one line naming the setting, never a traceback (OverflowError).
    for name in ("DAMA_CHALLENGE_EXPIRY", "DAMA_INACTIVITY_LIMIT"):
        with pytest.raises(ConfigError) as caught:
            settings_from({name: value})
        message = str(caught.value)
        assert name in message and "\n" not in message


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


async def test_slow_work_before_any_answer_is_deferred(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The interaction is deferred whenever the answer could take over 2 seconds, also
    # when the slow part comes before the bot starts building its answer (storage).
    h = harness
    monkeypatch.setattr(bot.ui.answer, "DEFER_AFTER", 0.05)
    create = h.bot.challenges.create

    async def slow_create(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await create(*args, **kwargs)

    monkeypatch.setattr(h.bot.challenges, "create", slow_create)
    bob, resolved = user_option("opponent", BOB)
    calls = await run(h, slash(h, "challenge", [bob, option("variant", "arab")],
                               resolved=resolved))
    assert calls[0].callback_type == 5
    edit = calls[1]
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    cid = edit.custom_ids[0].split(":")[2]
    stored = await h.bot.challenges.get(int(cid))
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
    decline = h.bot.challenges.decline

    async def slow_decline(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await decline(*args, **kwargs)

    monkeypatch.setattr(h.bot.challenges, "decline", slow_decline)
    calls = await run(h, press(h, message, f"dama:decline:{cid}", user=BOB))
    # Acknowledged in time (deferred update: no new "thinking" message), then the
    # challenge message itself says it was declined and loses its buttons.
    assert calls[0].callback_type == 6
    assert len(calls) == 2 and calls[1].method == "PATCH"
    assert calls[1].path.endswith("/messages/@original")  # the pressed message
    assert "declined" in calls[1].body["embeds"][0]["description"]
    assert calls[1].body["components"] == []


async def test_a_development_guild_the_bot_is_not_in_is_a_one_line_config_error(
    tmp_path: Path,
) -> None:
    # Discord answers 50001 Missing Access to a guild command sync for a guild the bot is
    # not in; the operator gets the ConfigError line (bot.__main__ prints it), not a
    # traceback of discord.Forbidden.
    async with StandIn() as standin:
        await standin.add_guild("Dama Club", channels=("games",))
        previous = apply_discord_url(standin.url)
        client = DamaBot(settings_for(tmp_path / "db.sqlite3", token=standin.token,
                                      dev_guild=123456789), run_scheduler=False)
        try:
            with pytest.raises(ConfigError) as caught:
                await asyncio.wait_for(client.start(standin.token), timeout=30)
        finally:
            await client.close()
            restore_endpoint(previous)
    message = str(caught.value)
    assert "DAMA_DEV_GUILD" in message and "123456789" in message and "\n" not in message


async def test_stopping_the_scheduler_mid_transaction_ends_it_quietly(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Seen in the real process: a SIGTERM stop cancelled `expire_due` inside a database
    # transaction, the rollback failed, and the loop logged a traceback and went on.
    h = harness
    entered = asyncio.Event()

    async def interrupted(now: Any = None) -> Any:
        entered.set()
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            raise sqlite3.OperationalError("cannot rollback - no transaction is active") from None

    monkeypatch.setattr(h.bot.challenges, "expire_due", interrupted)
    h.bot.scheduler.start()
    await asyncio.wait_for(entered.wait(), timeout=5)
    with caplog.at_level(logging.ERROR):
        await asyncio.wait_for(h.bot.scheduler.stop(), timeout=5)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_discord_out_of_reach_is_one_line(tmp_path: Path) -> None:
    # Nothing listens on port 1: the operator gets one line saying what to check, not an
    # aiohttp traceback.
    from tests.bot.test_main import _bot, _env

    env = _env(tmp_path, DISCORD_TOKEN="x", DAMA_DISCORD_URL="http://127.0.0.1:1")
    code, _, err = await _bot(env, tmp_path)
    assert code == 2 and "Traceback" not in err
    assert "cannot connect to Discord at 127.0.0.1:1" in err.strip().splitlines()[-1]


async def test_a_stop_lets_the_move_being_answered_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing is lost across a restart: a stop (SIGTERM -> close) while a move's board is
    # being posted waits for it, so the new board's message id is stored and its buttons
    # work after the restart.
    fake = FakeDiscord()
    clock = FakeClock()
    path = tmp_path / "db.sqlite3"
    with fake.installed():
        client = DamaBot(settings_for(path), clock=clock, run_scheduler=False, sync=False)
        await client.login("fake-token")
        h = Harness(client, fake, clock)
        await challenge_and_accept(h)
        render = client.presenter.board_png

        async def slow(state: Any) -> bytes:
            await asyncio.sleep(0.5)
            return await render(state)

        monkeypatch.setattr(client.presenter, "board_png", slow)
        payload = slash(h, "move", [option("move", "a3-a4")])
        client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await asyncio.sleep(0.1)  # the move is committed, its board is being drawn
        await client.close()
        answers = [c for c in fake.calls if c.callback_type == 4 and c.files]
        assert answers and "played **a3-a4**" in answers[-1].content
        storage = await Storage.open(str(path))
        try:
            [game] = await storage.games.active()
        finally:
            await storage.close()
        assert game.ply_count == 1
        assert game.board_message_id == response_message_id(h, answers[-1])
