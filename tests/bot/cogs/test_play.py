"""The real bot's command tree and buttons, driven by gateway-shaped interaction payloads,
with every request the bot makes captured at the HTTP boundary (`FakeDiscord`)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

import bot.ui.answer
from bot.client import DamaBot
from tests.bot.conftest import Harness, settings_for
from tests.support.fake_discord import MODERATOR, Call, FakeDiscord, option, user_option
from tests.support.services import FakeClock

ALICE, BOB, CAROL = 1001, 1002, 1003
CHANNEL = 600
PNG = b"\x89PNG\r\n\x1a\n"

GAME_COMMANDS = {"challenge", "move", "board", "resign", "draw", "abort", "play"}
INFO_COMMANDS = {"rating", "leaderboard", "history", "export", "rules", "help"}


def slash(h: Harness, name: str, options: list[dict[str, Any]] | None = None, *,
          user: int = ALICE, resolved: dict[str, Any] | None = None,
          channel: int = CHANNEL, **kwargs: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"id": "1", "name": name, "type": 1, "options": options or []}
    if resolved:
        data["resolved"] = resolved
    return h.discord.interaction(2, data, user_id=user, channel_id=channel, **kwargs)


def press(h: Harness, message_id: int, custom_id: str, *, user: int,
          snapshot: dict[str, Any] | None = None) -> dict[str, Any]:
    message = snapshot if snapshot is not None else h.discord.messages[message_id]
    channel = int(message["channel_id"])
    return h.discord.interaction(3, {"custom_id": custom_id, "component_type": 2},
                                 user_id=user, channel_id=channel, message=message)


def new_calls(h: Harness, since: int) -> list[Call]:
    return h.discord.calls[since:]


async def run(h: Harness, payload: dict[str, Any]) -> list[Call]:
    since = len(h.discord.calls)
    await h.dispatch(payload)
    await h.bot.table.drain()
    return new_calls(h, since)


def response_message_id(h: Harness, call: Call) -> int:
    """The id FakeDiscord gave the message a callback or webhook call created."""
    ids = [int(m["id"]) for m in h.discord.messages.values()
           if m["content"] == (call.body.get("content") or "")
           and m["embeds"] == (call.body.get("embeds") or [])]
    return ids[-1]


async def challenge_and_accept(h: Harness, variant: str = "turkish",
                               rated: bool = True) -> tuple[int, int]:
    """Alice (White) challenges Bob, Bob accepts; returns (challenge message, board message)."""
    opponent, resolved = user_option("opponent", BOB)
    calls = await run(h, slash(h, "challenge", [
        opponent, option("variant", variant), option("color", "white"),
        option("rated", rated, 5)], resolved=resolved))
    [answer] = calls
    assert answer.callback_type == 4 and not answer.ephemeral
    challenge_id = answer.custom_ids[0].split(":")[2]
    assert answer.custom_ids == [f"dama:accept:{challenge_id}", f"dama:decline:{challenge_id}",
                                 f"dama:cancel:{challenge_id}"]
    assert f"<@{BOB}>" in answer.content
    message_id = response_message_id(h, answer)
    calls = await run(h, press(h, message_id, f"dama:accept:{challenge_id}", user=BOB))
    update, board = calls
    assert update.callback_type == 7 and update.custom_ids == []
    assert "accepted" in update.embeds[0]["description"]
    assert board.method == "POST" and board.path.startswith("/webhooks/")
    return message_id, response_message_id(h, board)


async def test_command_schema(harness: Harness) -> None:
    [sync] = [c for c in harness.discord.calls if c.method == "PUT"]
    commands = {c["name"]: c for c in sync.payload}
    assert set(commands) == GAME_COMMANDS | INFO_COMMANDS
    for command in commands.values():
        assert command["description"]
        for opt in command.get("options", []):
            assert opt["description"], (command["name"], opt["name"])
    for name in GAME_COMMANDS:
        assert commands[name]["contexts"] == [0], name
    for name in INFO_COMMANDS:
        assert sorted(commands[name]["contexts"]) == [0, 1, 2], name
    challenge = {o["name"]: o for o in commands["challenge"]["options"]}
    assert list(challenge) == ["opponent", "variant", "rated", "color", "move_time"]
    assert challenge["opponent"]["type"] == 6 and challenge["opponent"]["required"]
    assert [c["value"] for c in challenge["variant"]["choices"]] == [
        "turkish", "arab", "moroccan", "italian"]
    assert challenge["rated"]["type"] == 5 and not challenge["rated"].get("required")
    assert [c["value"] for c in challenge["color"]["choices"]] == ["white", "black", "random"]
    assert [c["value"] for c in challenge["move_time"]["choices"]] == [
        "none", "40s", "5m", "1h", "1d"]
    [move] = commands["move"]["options"]
    assert move["name"] == "move" and move["autocomplete"] and move["required"]
    scope = {o["name"]: o for o in commands["leaderboard"]["options"]}["scope"]
    assert [c["value"] for c in scope["choices"]] == ["server", "global"]
    export = commands["export"]["options"][0]
    assert export["type"] == 4 and export["min_value"] == 1


async def test_command_sync_only_when_changed(tmp_path: Path) -> None:
    fake = FakeDiscord()
    with fake.installed():
        for expected in (1, 1):
            bot = DamaBot(settings_for(tmp_path / "db.sqlite3"), clock=FakeClock(),
                          run_scheduler=False)
            await bot.login("fake-token")
            await bot.close()
            assert sum(c.method == "PUT" for c in fake.calls) == expected
        bot = DamaBot(settings_for(tmp_path / "db.sqlite3", dev_guild=77), clock=FakeClock(),
                      run_scheduler=False)
        await bot.login("fake-token")
        await bot.close()
    puts = [c.path for c in fake.calls if c.method == "PUT"]
    assert puts[-1].endswith("/guilds/77/commands")


async def test_whole_game_through_discord(harness: Harness) -> None:
    h = harness
    challenge_message, board_message = await challenge_and_accept(h)
    board = h.discord.messages[board_message]
    assert board["components"][0]["components"][0]["custom_id"].startswith("dama:resign:")
    embed = board["embeds"][0]
    assert embed["image"]["url"] == "attachment://board.png"
    assert "Turkish draughts" in embed["title"] and "rated" in embed["title"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["White"] == f"<@{ALICE}> (1500?)" and fields["Black"] == f"<@{BOB}> (1500?)"
    assert fields["Move"] == "1"
    assert f"<@{ALICE}> to move" in board["content"]
    # Autocomplete: Alice gets her moves, Bob (not his turn) nothing.
    [auto] = await run(h, h.discord.interaction(4, {
        "id": "1", "name": "move", "type": 1,
        "options": [option("move", "a3", focused=True)]}, user_id=ALICE, channel_id=CHANNEL))
    assert auto.callback_type == 8
    assert auto.payload["data"]["choices"] == [{"name": "a3-a4", "value": "a3-a4"}]
    [auto] = await run(h, h.discord.interaction(4, {
        "id": "1", "name": "move", "type": 1,
        "options": [option("move", "", focused=True)]}, user_id=BOB, channel_id=CHANNEL))
    assert auto.payload["data"]["choices"] == []
    # A legal move: the new board is the public answer, with the picture; the old board
    # loses its buttons.
    old_board = dict(h.discord.messages[board_message])
    calls = await run(h, slash(h, "move", [option("move", "a3-a4")]))
    answer = calls[0]
    assert answer.callback_type == 4 and not answer.ephemeral
    assert answer.files[0][0] == "board.png" and answer.files[0][1].startswith(PNG)
    assert f"<@{ALICE}> played **a3-a4**" in answer.content
    assert f"<@{BOB}> to move" in answer.content
    retire = [c for c in calls if c.method == "PATCH" and c.path.endswith(f"/{board_message}")]
    assert retire and retire[0].body["components"] == []
    new_board = response_message_id(h, answer)
    # Mistakes are answered privately and change nothing.
    for user, text, expected in [
        (ALICE, "b3-b4", "not your turn"),
        (BOB, "a6-a3", "can't be played"),
        (BOB, "zz", "can't read that move"),
        (CAROL, "a6-a5", "not playing in this game"),
    ]:
        [reply] = await run(h, slash(h, "move", [option("move", text)], user=user))
        assert reply.ephemeral and expected in reply.content, reply.content
    # A stranger presses Resign; a player presses Resign on the old board.
    game_id = h.bot.games.current(CHANNEL).game_id
    [reply] = await run(h, press(h, new_board, f"dama:resign:{game_id}", user=CAROL))
    assert reply.ephemeral and "not playing" in reply.content
    # A press on the old board (as a client still showing its buttons would send it):
    # answered privately, the game goes on, and its buttons are removed again.
    calls = await run(h, press(h, board_message, f"dama:resign:{game_id}", user=BOB,
                               snapshot=old_board))
    assert calls[0].ephemeral and "out of date" in calls[0].content
    assert calls[1].method == "PATCH" and calls[1].body["components"] == []
    assert h.bot.games.current(CHANNEL).game_id == game_id
    # Black resigns with the button on the current board: final board, no buttons,
    # ratings changed once.
    calls = await run(h, press(h, new_board, f"dama:resign:{game_id}", user=BOB))
    final = calls[0]
    assert not final.ephemeral and final.custom_ids == []
    assert f"<@{ALICE}> wins (1-0)" in final.content and "resigned" in final.content
    changes = {f["name"]: f["value"] for f in final.embeds[0]["fields"]}["Rating changes"]
    assert f"<@{ALICE}>: 1500 →" in changes and "(+" in changes
    rating = await h.bot.storage.ratings.get(ALICE, "turkish")
    assert rating is not None and rating.rated_games == 1
    [reply] = await run(h, slash(h, "move", [option("move", "a6-a5")], user=BOB))
    assert reply.ephemeral and "in this channel" in reply.content and "is over" in reply.content
    assert challenge_message in h.discord.messages


async def test_draw_by_button_and_command(harness: Harness) -> None:
    h = harness
    _, board = await challenge_and_accept(h, "italian", rated=False)
    game_id = h.bot.games.current(CHANNEL).game_id
    [offer] = await run(h, press(h, board, f"dama:draw:{game_id}", user=ALICE))
    assert not offer.ephemeral and "offers a draw" in offer.content
    calls = await run(h, slash(h, "draw", user=BOB))
    assert "Draw (½-½)" in calls[0].content and "agreed" in calls[0].content


async def test_challenge_refusals_decline_cancel(harness: Harness) -> None:
    h = harness
    me, resolved = user_option("opponent", ALICE)
    [reply] = await run(h, slash(h, "challenge", [me, option("variant", "arab")],
                                 resolved=resolved))
    assert reply.ephemeral and "can't challenge yourself" in reply.content
    robot, resolved = user_option("opponent", 4242, bot=True)
    [reply] = await run(h, slash(h, "challenge", [robot, option("variant", "arab")],
                                 resolved=resolved))
    assert reply.ephemeral and "is a bot" in reply.content
    bob, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [bob, option("variant", "arab")],
                                resolved=resolved))
    message = response_message_id(h, made)
    cid = made.custom_ids[0].split(":")[2]
    [reply] = await run(h, press(h, message, f"dama:accept:{cid}", user=CAROL))
    assert reply.ephemeral and f"for <@{BOB}>" in reply.content
    [reply] = await run(h, press(h, message, f"dama:cancel:{cid}", user=BOB))
    assert reply.ephemeral and "Only" in reply.content
    snapshot = dict(h.discord.messages[message])
    [closed] = await run(h, press(h, message, f"dama:decline:{cid}", user=BOB))
    assert closed.callback_type == 7 and closed.custom_ids == []
    assert "declined" in closed.embeds[0]["description"]
    reply, strip = await run(h, press(h, message, f"dama:accept:{cid}", user=BOB,
                                      snapshot=snapshot))
    assert reply.ephemeral and "no longer open" in reply.content
    assert strip.method == "PATCH" and strip.body["components"] == []
    # A game in the channel: a new challenge is refused with a thread suggestion.
    await challenge_and_accept(h)
    carol, resolved = user_option("opponent", CAROL)
    [reply] = await run(h, slash(h, "challenge", [carol, option("variant", "arab")],
                                 user=1004, resolved=resolved))
    assert reply.ephemeral and "thread" in reply.content


async def test_abort_needs_rights_after_both_moved(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    await run(h, slash(h, "move", [option("move", "a3-a4")]))
    await run(h, slash(h, "move", [option("move", "a6-a5")], user=BOB))
    [reply] = await run(h, slash(h, "abort", user=ALICE))
    assert reply.ephemeral and "can't be aborted" in reply.content
    calls = await run(h, slash(h, "abort", user=CAROL, permissions=MODERATOR))
    assert "aborted" in calls[0].content.lower() and f"<@{CAROL}>" in calls[0].content


async def test_two_moves_at_once_apply_one(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    since = len(h.discord.calls)
    first = slash(h, "move", [option("move", "a3-a4")])
    second = slash(h, "move", [option("move", "b3-b4")])
    h.bot._connection.parse_interaction_create(first)  # type: ignore[arg-type]
    h.bot._connection.parse_interaction_create(second)  # type: ignore[arg-type]
    await h.settle()
    await h.bot.table.drain()
    answers = [c for c in new_calls(h, since) if c.callback_type == 4]
    assert len(answers) == 2
    assert sum(not c.ephemeral for c in answers) == 1
    assert sum(c.ephemeral and "not your turn" in c.content for c in answers) == 1
    state = h.bot.games.current(CHANNEL)
    assert state.ply == 1
    assert len(await h.bot.storage.games.moves(state.game_id)) == 1


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


async def test_slow_answer_is_deferred(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await challenge_and_accept(h)
    monkeypatch.setattr(bot.ui.answer, "DEFER_AFTER", 0.05)
    render = h.bot.presenter.board_png

    async def slow(state: Any) -> bytes:
        await asyncio.sleep(0.3)
        return await render(state)

    monkeypatch.setattr(h.bot.presenter, "board_png", slow)
    calls = await run(h, slash(h, "move", [option("move", "a3-a4")]))
    assert calls[0].callback_type == 5
    edit = calls[1]
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    assert edit.files[0][0] == "board.png" and "played **a3-a4**" in edit.content
    board = h.bot.games.current(CHANNEL).board_message_id
    assert board == int(h.discord._originals[edit.path.split("/")[3]])


async def test_restart_keeps_game_and_buttons(tmp_path: Path) -> None:
    fake = FakeDiscord()
    clock = FakeClock()
    path = tmp_path / "db.sqlite3"
    with fake.installed():
        first = DamaBot(settings_for(path), clock=clock, run_scheduler=False)
        await first.login("fake-token")
        h = Harness(first, fake, clock)
        _, board = await challenge_and_accept(h)
        calls = await run(h, slash(h, "move", [option("move", "a3-a4")]))
        board = response_message_id(h, calls[0])
        game_id = first.games.current(CHANNEL).game_id
        await first.close()
        second = DamaBot(settings_for(path), clock=clock, run_scheduler=False)
        await second.login("fake-token")
        h = Harness(second, fake, clock)
        assert second.games.current(CHANNEL).ply == 1
        calls = await run(h, slash(h, "move", [option("move", "a6-a5")], user=BOB))
        assert not calls[0].ephemeral
        board = response_message_id(h, calls[0])
        calls = await run(h, press(h, board, f"dama:resign:{game_id}", user=ALICE))
        assert f"<@{BOB}> wins (0-1)" in calls[0].content
        await second.close()


async def test_deadlines_post_to_the_channel(harness: Harness) -> None:
    h = harness
    bob, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [bob, option("variant", "moroccan")],
                                resolved=resolved))
    challenge_message = response_message_id(h, made)
    from datetime import timedelta

    h.clock.advance(timedelta(minutes=10))
    since = len(h.discord.calls)
    await h.bot.scheduler.run_once()
    [edit] = new_calls(h, since)
    assert edit.method == "PATCH" and edit.path.endswith(f"/messages/{challenge_message}")
    assert "expired" in edit.body["embeds"][0]["description"] and edit.body["components"] == []
    await challenge_and_accept(h, "moroccan")
    h.clock.advance(timedelta(days=3))
    since = len(h.discord.calls)
    await h.bot.scheduler.run_once()
    await h.bot.table.drain()
    posted = [c for c in new_calls(h, since) if c.method == "POST"]
    assert posted[0].path == f"/channels/{CHANNEL}/messages"
    assert "did not move for 3 days" in posted[0].content
    assert posted[0].files[0][1].startswith(PNG)


async def test_information_commands(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    game_id = h.bot.games.current(CHANNEL).game_id
    await run(h, slash(h, "resign", user=BOB))
    [board] = await run(h, slash(h, "leaderboard", [option("variant", "turkish")]))
    description = board.embeds[0]["description"]
    assert description.index(f"<@{ALICE}>") < description.index(f"<@{BOB}>")
    assert "Your place: **1** of 2" in description
    [rating] = await run(h, slash(h, "rating", guild_id=None, channel=9))
    assert "Turkish draughts" in rating.embeds[0]["description"]
    [history] = await run(h, slash(h, "history", user=BOB, guild_id=None, channel=9))
    assert f"#{game_id}" in history.embeds[0]["description"]
    [export] = await run(h, slash(h, "export", [option("game", game_id, 4)]))
    name, data = export.files[0]
    assert name.endswith(".pdn") and b'[Result "1-0"]' in data
    [rules] = await run(h, slash(h, "rules", [option("variant", "italian")]))
    assert rules.files[0][1].startswith(PNG) and "ladder" in rules.embeds[0]["description"]
    [guild_only] = await run(h, slash(h, "board", guild_id=None, channel=9))
    assert guild_only.ephemeral
