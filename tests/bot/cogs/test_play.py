"""The real bot's command tree and buttons, driven by gateway-shaped interaction payloads,
with every request the bot makes captured at the HTTP boundary (`FakeDiscord`)."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest

import bot.cogs.play
import bot.services.games
import engine
from tests.support.discord_harness import (
    PNG,
    Harness,
    challenge_and_accept,
    new_calls,
    play_plies,
    press,
    press_button,
    resign,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import MODERATOR, option, user_option
from tests.support.services import ALICE, BOB, CAROL, CHANNEL


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
        (BOB, "zz", "can't read **zz** as a move"),
        (CAROL, "a6-a5", "not playing in this game"),
    ]:
        [reply] = await run(h, slash(h, "move", [option("move", text)], user=user))
        assert reply.ephemeral and expected in reply.content, reply.content
    # A stranger presses Resign; a player presses Resign on the old board.
    game_id = h.bot.services.games.current(CHANNEL).game_id
    [reply] = await run(h, press_button(h, new_board, "resign", user=CAROL))
    assert reply.ephemeral and "not playing" in reply.content
    # A press on the old board (as a client still showing its buttons would send it):
    # answered privately with the current board, the game goes on, and its buttons are
    # removed again.
    calls = await run(h, press_button(h, board_message, "resign", user=BOB,
                                      snapshot=old_board))
    [stale] = [c for c in calls if c.callback_type is not None]
    assert stale.ephemeral and "out of date" in stale.content
    assert stale.files and stale.files[0][1].startswith(PNG) and stale.custom_ids == []
    [strip] = [c for c in calls if c.method == "PATCH"]
    assert strip.path.endswith(f"/{board_message}") and strip.body["components"] == []
    assert h.bot.services.games.current(CHANNEL).game_id == game_id
    # Two moves by each side, so the result counts for ratings (docs/RULES.md).
    await play_plies(h, 3)
    current_board = h.bot.services.games.current(CHANNEL).board_message_id
    assert current_board is not None
    # Black presses Resign on the current board: first a private question, then the
    # question's Resign ends the game: final board with only Rematch and Analyze, ratings
    # changed once.
    calls = await resign(h, user=BOB, board=current_board)
    final = calls[0]
    assert not final.ephemeral and final.custom_ids == [f"dama:rematch:{game_id}",
                                                      f"dama:analyze:{game_id}"]
    assert f"<@{ALICE}> wins (1-0)" in final.content and "resigned" in final.content
    changes = {f["name"]: f["value"] for f in final.embeds[0]["fields"]}["Rating changes"]
    assert f"<@{ALICE}>: 1500 →" in changes and "(+" in changes
    rating = await h.bot.services.storage.ratings.get(ALICE, "turkish")
    assert rating is not None and rating.rated_games == 1
    [reply] = await run(h, slash(h, "move", [option("move", "a6-a5")], user=BOB))
    assert reply.ephemeral and "in this channel" in reply.content and "is over" in reply.content
    assert challenge_message in h.discord.messages


async def test_draw_by_button_and_command(harness: Harness) -> None:
    h = harness
    _, board = await challenge_and_accept(h, "italian", rated=False)
    offer = (await run(h, press_button(h, board, "draw", user=ALICE)))[0]
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
    await h.bot.services.announcer.drain()
    answers = [c for c in new_calls(h, since) if c.callback_type == 4]
    assert len(answers) == 2
    assert sum(not c.ephemeral for c in answers) == 1
    assert sum(c.ephemeral and "not your turn" in c.content for c in answers) == 1
    state = h.bot.services.games.current(CHANNEL)
    assert state.ply == 1
    assert len(await h.bot.services.storage.games.moves(state.game_id)) == 1


async def test_deadlines_post_to_the_channel(harness: Harness) -> None:
    h = harness
    bob, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [bob, option("variant", "moroccan")],
                                resolved=resolved))
    challenge_message = response_message_id(h, made)

    h.clock.advance(timedelta(minutes=10))
    since = len(h.discord.calls)
    await h.bot.services.deadlines.run_once()
    [edit] = new_calls(h, since)
    assert edit.method == "PATCH" and edit.path.endswith(f"/messages/{challenge_message}")
    assert "expired" in edit.body["embeds"][0]["description"] and edit.body["components"] == []
    await challenge_and_accept(h, "moroccan")
    h.clock.advance(timedelta(days=3))
    since = len(h.discord.calls)
    await h.bot.services.deadlines.run_once()
    await h.bot.services.announcer.drain()
    posted = [c for c in new_calls(h, since) if c.method == "POST"]
    assert posted[0].path == f"/channels/{CHANNEL}/messages"
    assert "did not move for 3 days" in posted[0].content
    assert posted[0].files[0][1].startswith(PNG)


async def test_commands_after_the_game_ended_say_it_is_over(harness: Harness) -> None:
    # A wrong /move is answered with why, "game over" among the reasons; the
    # channel's game has just ended, so "there is no game here" would be wrong.
    h = harness
    _, board_message = await challenge_and_accept(h)
    game_id = h.bot.services.games.current(600).game_id
    calls = await resign(h, user=BOB, board=board_message)
    assert not calls[0].ephemeral
    for name, options in [("move", [option("move", "a6-a5")]), ("resign", []), ("draw", []),
                          ("board", [])]:
        [reply] = await run(h, slash(h, name, options, user=BOB))
        assert reply.ephemeral, name
        content = reply.content
        assert "no game in this channel" not in content, (name, content)
        assert "over" in content and f"#{game_id}" in content, (name, content)
        assert f"<@{ALICE}> wins (1-0)" in content and "resigned" in content, (name, content)
        assert "/challenge" in content and "/play" in content, (name, content)
        assert "/rematch" in content, (name, content)


async def test_slow_autocomplete_answers_in_time_without_stalling_the_loop(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A position with thousands of capture routes takes seconds to format: the
    # autocomplete must still answer within Discord's 3 seconds (here: a 0.3 s budget)
    # and the event loop must keep serving other games meanwhile.
    h = harness
    await challenge_and_accept(h)
    monkeypatch.setattr(bot.cogs.play, "SUGGEST_BUDGET", 0.3)
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
