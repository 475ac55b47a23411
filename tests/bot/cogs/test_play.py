"""The game commands and buttons (`bot/cogs/play.py`): the real bot's command tree and
buttons, driven by gateway-shaped interaction payloads, with every request the bot makes
captured at the HTTP boundary (`FakeDiscord`). Also the resign question, the
early-results rule (docs/RULES.md, "Early results"), rematch, a draw offered with a move,
and the messages that point to the next step."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.cogs.play
import bot.services.move_text
import bot.ui.answer
import engine
from bot.messages import Msg
from bot.messages import text as message_text
from bot.services.games import RESIGN_QUESTION_LIFETIME
from bot.ui.present import Perspective
from bot.ui.replay import replay_gif
from renderer import render_png
from storage import ChallengeStatus, ColorChoice, GameStatus, TimeControl
from tests.support.discord_harness import (
    PNG,
    Harness,
    OpenBot,
    button_id,
    challenge_and_accept,
    new_calls,
    play_plies,
    press,
    press_button,
    resign,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import GUILD_ID, MODERATOR, Call, option, user_option
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
    # question's Resign ends the game: final board with only Rematch, Replay and Analyze,
    # ratings changed once.
    calls = await resign(h, user=BOB, board=current_board)
    final = calls[0]
    assert not final.ephemeral and final.custom_ids == [f"dama:rematch:{game_id}",
                                                      f"dama:replay:{game_id}",
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


async def _expired_challenge(h: Harness, variant: str) -> Call:
    """Alice challenges Bob to `variant`, nobody answers for 10 minutes, the deadlines run:
    the one request they make, the challenge message's edit."""
    bob, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [bob, option("variant", variant)],
                                resolved=resolved))
    challenge_message = response_message_id(h, made)
    h.clock.advance(timedelta(minutes=10))
    since = len(h.discord.calls)
    await h.bot.services.deadlines.run_once()
    [edit] = new_calls(h, since)
    assert edit.method == "PATCH" and edit.path.endswith(f"/messages/{challenge_message}")
    return edit


async def test_an_expired_challenge_is_shown_in_the_servers_language(harness: Harness) -> None:
    h = harness
    await h.bot.services.preferences.update_guild(GUILD_ID, language="tr")
    edit = await _expired_challenge(h, "turkish")
    description = edit.body["embeds"][0]["description"]
    assert message_text(Msg.CHALLENGE_EXPIRED, "tr") in description
    assert message_text(Msg.CHALLENGE_EXPIRED, "en") not in description


async def test_deadlines_post_to_the_channel(harness: Harness) -> None:
    h = harness
    edit = await _expired_challenge(h, "moroccan")
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

    monkeypatch.setattr(bot.services.move_text, "format_move", slow_format)
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


def _first_move(h: Harness) -> str:
    state = h.bot.services.games.current(CHANNEL)
    move = engine.legal_moves(state.position, state.variant)[0]
    return engine.format_move(move, state.position, state.variant)


def _offer_text(h: Harness, calls: list[Any]) -> int:
    """The message id of the draw offer's text among `calls` (it carries Accept draw)."""
    [offer] = [c for c in calls if c.method == "POST" and not c.embeds and any(
        i.startswith("dama:draw:") for i in c.custom_ids)]
    return response_message_id(h, offer)


async def test_a_draw_offered_with_a_move_stands_and_stale_offers_lose_their_button(
    harness: Harness,
) -> None:
    h = harness
    await challenge_and_accept(h)
    # Alice offers a draw before moving, then moves: that offer lapses with her move...
    first_offer = _offer_text(h, await run(h, slash(h, "draw", user=ALICE)))
    # ...and she offers it again with the move, as players do.
    calls = await run(h, slash(h, "move", [option("move", _first_move(h)),
                                           option("draw", True, 5)], user=ALICE))
    assert h.discord.messages[first_offer]["components"] == []
    offer = _offer_text(h, calls)
    state = h.bot.services.games.current(CHANNEL)
    assert state.ply == 1 and state.draw_offer_by is engine.Color.WHITE
    assert h.discord.messages[offer]["components"] != []
    # Bob plays on: the offer's text (drawn for ply 1) loses its button, the offer stands
    # and Bob may still take it.
    await run(h, slash(h, "move", [option("move", _first_move(h))], user=BOB))
    assert h.discord.messages[offer]["components"] == []
    assert h.bot.services.games.current(CHANNEL).draw_offer_by is engine.Color.WHITE
    await run(h, slash(h, "draw", user=BOB))
    assert not h.bot.services.games.is_active(state.game_id)


async def test_a_draw_offered_with_a_move_is_not_made_on_the_opponents_reply(
    harness: Harness, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The offer goes with the move it was asked with, or not at all: when the opponent
    answers (and offers a draw) between the move and the offer, the offer is not made,
    so it cannot accept the opponent's offer unseen, and the player is told."""
    h = harness
    await challenge_and_accept(h)
    games = h.bot.services.games
    play = games.play

    async def answered_at_once(channel_id: int, user_id: int, text: str,
                               **kwargs: Any) -> Any:
        update = await play(channel_id, user_id, text, **kwargs)
        if user_id == ALICE:
            await play(channel_id, BOB, _first_move(h))
            await games.draw(channel_id, BOB)
        return update

    monkeypatch.setattr(games, "play", answered_at_once)
    calls = await run(h, slash(h, "move", [option("move", _first_move(h)),
                                           option("draw", True, 5)], user=ALICE))
    state = games.current(CHANNEL)
    assert state.ply == 2 and state.draw_offer_by is engine.Color.BLACK
    [told] = [c for c in calls if c.ephemeral]
    assert "no draw was offered" in told.content and "/draw" in told.content


async def test_a_draw_cannot_be_offered_with_a_move_against_the_computer(
    harness: Harness,
) -> None:
    h = harness
    await run(h, slash(h, "play", [option("variant", "turkish"), option("color", "white")]))
    state = h.bot.services.games.current(CHANNEL)
    [refused] = await run(h, slash(h, "move", [option("move", _first_move(h)),
                                               option("draw", True, 5)], user=ALICE))
    assert refused.ephemeral and h.bot.services.games.current(CHANNEL).ply == state.ply


OTHER_CHANNEL = 601


def _fields(body: dict[str, Any]) -> dict[str, str]:
    """The embed fields of a message body, by name."""
    return {f["name"]: f["value"] for f in body["embeds"][0]["fields"]}


# --- the resign question -----------------------------------------------------------------

async def test_resign_asks_first_and_keep_playing_changes_nothing(harness: Harness) -> None:
    h = harness
    _, board = await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    # The Resign button asks privately; nothing else happens.
    [question] = await run(h, press_button(h, board, "resign", user=ALICE))
    assert question.callback_type == 4 and question.ephemeral
    assert question.content.startswith(f"Resign game #{game_id} against <@{BOB}>?")
    asked = int(h.clock().timestamp())
    assert question.custom_ids == [f"dama:resignyes:{game_id}:0:{asked}:{ALICE}",
                                   f"dama:keep:{game_id}:0"]
    assert h.bot.services.games.has_game(CHANNEL)
    # /resign asks the same way.
    [again] = await run(h, slash(h, "resign", user=BOB))
    assert again.ephemeral and f"against <@{ALICE}>?" in again.content
    # Keep playing closes the question (the same message, no buttons); the game goes on.
    [kept] = await run(h, press(h, response_message_id(h, question),
                                f"dama:keep:{game_id}:0", user=ALICE))
    assert kept.callback_type == 7 and kept.custom_ids == []
    assert "You play on" in kept.content
    assert h.bot.services.games.current(CHANNEL).status is GameStatus.ACTIVE


async def test_only_the_asked_player_confirms_and_the_question_lapses(harness: Harness) -> None:
    h = harness
    _, board = await challenge_and_accept(h)
    [question] = await run(h, slash(h, "resign", user=ALICE))
    message = response_message_id(h, question)
    confirm = question.custom_ids[0]
    # Someone else pressing it (a client that should not see it): refused, nothing done.
    for user in (BOB, CAROL):
        [reply] = await run(h, press(h, message, confirm, user=user))
        assert reply.ephemeral and f"asked of <@{ALICE}>" in reply.content
    assert h.bot.services.games.has_game(CHANNEL)
    # After a minute it lapses, and says so.
    h.clock.advance(RESIGN_QUESTION_LIFETIME + timedelta(seconds=1))
    [lapsed] = await run(h, press(h, message, confirm, user=ALICE))
    assert lapsed.ephemeral and "lapsed" in lapsed.content and "nothing was done" in lapsed.content
    assert h.bot.services.games.current(CHANNEL).status is GameStatus.ACTIVE
    # Asked again, then the game moves on: the old question does nothing, and says why.
    [question] = await run(h, slash(h, "resign", user=ALICE))
    await run(h, slash(h, "move", [option("move", "a3-a4")]))
    [moved_on] = await run(h, press(h, response_message_id(h, question),
                                    question.custom_ids[0], user=ALICE))
    assert moved_on.ephemeral and "moved on" in moved_on.content
    assert h.bot.services.games.current(CHANNEL).ply == 1
    # Within the minute and at the same ply, Resign resigns: the final board is public.
    calls = await resign(h, user=ALICE)
    assert not calls[0].ephemeral and f"<@{ALICE}> resigned" in calls[0].content
    assert not h.bot.services.games.has_game(CHANNEL)
    assert board in h.discord.messages


# --- early results -----------------------------------------------------------------------

async def test_a_resignation_after_one_move_is_kept_but_not_rated(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    await play_plies(h, 1)
    final = (await resign(h, user=BOB))[0]
    assert f"<@{ALICE}> wins (1-0)" in final.content and "Not rated" in final.content
    assert "Rating changes" not in _fields(final.body)
    for user in (ALICE, BOB):
        assert await h.bot.services.storage.ratings.get(user, "turkish") is None
    # /board-like readers see it too: the embed's result says it.
    assert "Not rated" in final.embeds[0]["description"]


async def test_an_agreed_draw_after_two_plies_is_not_rated(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    await play_plies(h, 2)
    await run(h, slash(h, "draw", user=ALICE))
    calls = await run(h, slash(h, "draw", user=BOB))
    assert "Draw (½-½)" in calls[0].content and "Not rated" in calls[0].content
    for user in (ALICE, BOB):
        assert await h.bot.services.storage.ratings.get(user, "turkish") is None


async def test_two_moves_by_each_side_make_a_result_rated(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    await play_plies(h, 3)
    final = (await resign(h, user=ALICE))[0]  # Alice (White) is to move after three plies
    assert "Not rated" in final.content  # three plies: Black has made only one move
    await challenge_and_accept(h)
    await play_plies(h, 4)
    final = (await resign(h, user=ALICE))[0]
    assert "Not rated" not in final.content and "Rating changes" in _fields(final.body)
    rating = await h.bot.services.storage.ratings.get(BOB, "turkish")
    assert rating is not None and rating.rated_games == 1 and rating.wins == 1


async def test_inactivity_before_any_move_is_not_rated(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    h.clock.advance(timedelta(days=3))
    await h.bot.services.deadlines.run_once()
    await h.bot.services.announcer.drain()
    posted = [c for c in h.discord.calls if c.method == "POST"
              and c.path == f"/channels/{CHANNEL}/messages"]
    assert "did not move for 3 days" in posted[-1].content
    assert "Not rated" in posted[-1].content
    assert await h.bot.services.storage.ratings.get(ALICE, "turkish") is None


async def test_a_time_out_after_one_move_is_not_rated(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    # No computer moves for an absent player here: the first passed deadline loses.
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", computer_moves_before_forfeit=0))
    opponent, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [opponent, option("variant", "moroccan"),
                                                 option("color", "white"),
                                                 option("move_time", "40s")],
                                resolved=resolved))
    challenge_id = made.custom_ids[0].split(":")[2]
    await run(h, press(h, response_message_id(h, made), f"dama:accept:{challenge_id}",
                       user=BOB))
    await play_plies(h, 1)
    h.clock.advance(timedelta(seconds=41))
    await h.bot.services.deadlines.run_once()
    await h.bot.services.announcer.drain()
    posted = [c for c in h.discord.calls if c.method == "POST"
              and c.path == f"/channels/{CHANNEL}/messages"]
    assert f"<@{BOB}> ran out of time" in posted[-1].content
    assert "Not rated" in posted[-1].content
    assert await h.bot.services.storage.ratings.get(BOB, "moroccan") is None


# --- rematch -----------------------------------------------------------------------------

async def test_rematch_challenges_the_same_opponent_with_colours_swapped(
    harness: Harness,
) -> None:
    h = harness
    opponent, resolved = user_option("opponent", BOB)
    await run(h, slash(h, "challenge", [opponent, option("variant", "italian"),
                                        option("color", "white"), option("rated", False, 5),
                                        option("move_time", "1h")], resolved=resolved))
    challenge = await h.bot.services.storage.challenges.get(1)
    assert challenge is not None and challenge.message_id is not None
    await run(h, press(h, challenge.message_id, "dama:accept:1", user=BOB))
    first = h.bot.services.games.current(CHANNEL)
    final = (await resign(h, user=BOB))[0]
    final_board = response_message_id(h, final)
    assert final.custom_ids == [f"dama:rematch:{first.game_id}",
                                f"dama:replay:{first.game_id}"]
    # A stranger cannot ask for it.
    [refused] = await run(h, press_button(h, final_board, "rematch", user=CAROL))
    assert refused.ephemeral and "Only the players" in refused.content
    # Bob (Black before) asks: a challenge to Alice, Bob White, the same settings.
    [made] = await run(h, press_button(h, final_board, "rematch", user=BOB))
    assert made.callback_type == 4 and not made.ephemeral
    assert f"<@{ALICE}>" in made.content
    [rematch] = await h.bot.services.storage.challenges.pending()
    assert (rematch.challenger_id, rematch.challenged_id) == (BOB, ALICE)
    assert rematch.color is ColorChoice.WHITE and rematch.variant == "italian"
    assert not rematch.rated and rematch.move_seconds == 3600
    # Alice accepts as usual: Bob has White.
    challenge_id = made.custom_ids[0].split(":")[2]
    await run(h, press(h, response_message_id(h, made), f"dama:accept:{challenge_id}",
                       user=ALICE))
    second = h.bot.services.games.current(CHANNEL)
    assert (second.white.user_id, second.black.user_id) == (BOB, ALICE)
    assert second.move_seconds == 3600 and not second.rated
    closed = await h.bot.services.storage.challenges.get(int(challenge_id))
    assert closed is not None and closed.status is ChallengeStatus.ACCEPTED
    # While that game is on, a rematch of the first is refused, truthfully.
    [busy] = await run(h, press_button(h, final_board, "rematch", user=ALICE))
    assert busy.ephemeral and "already playing the game in this channel" in busy.content


async def test_rematch_command_and_against_the_computer_at_once(harness: Harness) -> None:
    h = harness
    [none] = await run(h, slash(h, "rematch"))
    assert none.ephemeral and "no finished game in this channel" in none.content
    assert "/play" in none.content
    await run(h, slash(h, "play", [option("variant", "arab"), option("level", 2, 4),
                                   option("color", "white")]))
    game = h.bot.services.games.current(CHANNEL)
    await resign(h, user=ALICE)
    calls = await run(h, slash(h, "rematch"))
    assert any(c.callback_type == 4 and not c.ephemeral for c in calls)
    again = h.bot.services.games.current(CHANNEL)
    assert again.game_id != game.game_id and again.variant.key == "arab"
    assert again.black.user_id == ALICE and again.white.seat.computer_level == 2


# --- messages that point to the next step ----------------------------------------------

async def test_no_game_here_points_to_play_and_to_the_callers_game(harness: Harness) -> None:
    h = harness
    [reply] = await run(h, slash(h, "move", [option("move", "a3-a4")], channel=OTHER_CHANNEL))
    assert reply.ephemeral and "/play" in reply.content and "/challenge" in reply.content
    await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    for name in ("move", "board", "resign", "draw"):
        options = [option("move", "a3-a4")] if name == "move" else []
        [reply] = await run(h, slash(h, name, options, channel=OTHER_CHANNEL))
        assert reply.ephemeral, name
        assert f"#{game_id}" in reply.content and f"<#{CHANNEL}>" in reply.content, reply.content
        assert "/play" in reply.content
    # Someone without a game there is not told about others' games.
    [reply] = await run(h, slash(h, "board", user=CAROL, channel=OTHER_CHANNEL))
    assert f"#{game_id}" not in reply.content and "/play" in reply.content


async def test_challenging_a_bot_suggests_play(harness: Harness) -> None:
    h = harness
    robot, resolved = user_option("opponent", 4242, bot=True)
    [reply] = await run(h, slash(h, "challenge", [robot, option("variant", "turkish")],
                                 resolved=resolved))
    assert reply.ephemeral and "can't play" in reply.content and "/play" in reply.content


async def test_after_a_draw_offer_the_button_reads_accept_draw(harness: Harness) -> None:
    h = harness
    _, board = await challenge_and_accept(h)
    assert [c["label"] for c in h.discord.messages[board]["components"][0]["components"]] \
        == ["Resign", "Offer draw"]
    calls = await run(h, press_button(h, board, "draw", user=ALICE))
    [offer] = [c for c in calls if c.callback_type == 4]
    assert not offer.ephemeral and "press Accept draw" in offer.content
    # The offer carries the button, and the board's draw button is relabelled.
    offer_message = h.discord.messages[response_message_id(h, offer)]
    assert [c["label"] for c in offer_message["components"][0]["components"]] \
        == ["Accept draw"]
    [relabel] = [c for c in calls if c.method == "PATCH" and c.path.endswith(f"/{board}")]
    assert [c["label"] for c in relabel.body["components"][0]["components"]] \
        == ["Resign", "Accept draw"]
    calls = await run(h, press(h, int(offer_message["id"]),
                               button_id(offer_message, "draw"), user=BOB))
    assert "Draw (½-½)" in calls[0].content


async def test_unreadable_moves_are_one_sentence_and_name_the_off_board_square(
    harness: Harness,
) -> None:
    h = harness
    await challenge_and_accept(h)
    [off] = await run(h, slash(h, "move", [option("move", "d3-d9")]))
    assert off.ephemeral and "d9 is not a square" in off.content
    for text in ("d3-d9", "zz", " "):
        [reply] = await run(h, slash(h, "move", [option("move", text)]))
        content = reply.content
        assert content.startswith(("I can't read **", "The move is empty")), content
        assert content.endswith("."), content
        assert content.replace("e.g. ", "").count(". ") == 0, content  # one sentence


async def test_a_finished_board_shows_no_side_to_move(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    final = (await resign(h, user=BOB))[0]
    assert "to move" not in final.content
    assert "to move" not in final.embeds[0]["description"]
    state = h.bot.services.games.table.last_ended(CHANNEL)
    assert state is not None
    png = final.files[0][1]
    assert png.startswith(PNG)
    # The picture is the position without the side-to-move marker.
    variant = engine.get_variant("turkish")
    size = h.bot.presenter.board_size
    assert png == render_png(state.position, variant, size=size, show_turn=False)
    assert png != render_png(state.position, variant, size=size)


async def test_the_resign_question_of_a_game_lost_on_time_says_the_game_is_over(
    harness: Harness,
) -> None:
    h = harness
    await challenge_and_accept(h)
    # Alice asks twice and lets her clock run out: she loses on time.
    questions = []
    for _ in range(2):
        [question] = await run(h, slash(h, "resign", user=ALICE))
        questions.append((question, response_message_id(h, question)))
    h.clock.advance(timedelta(days=3))
    [ended] = await h.bot.services.games.run_deadlines(h.clock())
    assert ended.state.is_over and not h.bot.services.games.has_game(CHANNEL)
    # Her late answers (Resign on one, Keep playing on the other) must not claim the game
    # goes on.
    for (question, message), custom_id in zip(questions, ("dama:resignyes:", "dama:keep:"),
                                              strict=True):
        [pressed] = [c for c in question.custom_ids if c.startswith(custom_id)]
        reply, *_ = await run(h, press(h, message, pressed, user=ALICE))
        assert reply.ephemeral
        assert "goes on" not in reply.content, (custom_id, reply.content)
        assert "This game is over" in reply.content, (custom_id, reply.content)


# --- replay ------------------------------------------------------------------------------

async def test_replay_on_a_finished_board_answers_the_presser_with_the_game_as_a_gif(
    harness: Harness,
) -> None:
    h = harness
    await challenge_and_accept(h, "italian", rated=False)
    game = h.bot.services.games.current(CHANNEL)
    await play_plies(h, 4)
    final_board = response_message_id(h, (await resign(h, user=BOB))[0])
    _, played = await h.bot.services.games.game_of(game.game_id)
    assert len(played.moves) == 4
    before = dict(h.discord.messages[final_board])
    for presser, side in ((BOB, engine.Color.BLACK), (CAROL, engine.Color.WHITE)):
        calls = await run(h, press_button(h, final_board, "replay", user=presser))
        [answer] = calls  # one private answer; the board is not edited
        assert answer.ephemeral and answer.callback_type == 4
        assert answer.content == f"Game #{game.game_id} (Italian draughts), move by move."
        [(name, data)] = answer.files
        assert name == f"dama-italian-{game.game_id}.gif"
        # From the side the presser played (a spectator: White's), Italian in numbers.
        assert data == replay_gif(played.start, played.moves, played.variant,
                                  view=Perspective(side, numeric=True)), presser
    assert h.discord.messages[final_board] == before


async def test_a_slow_replay_is_deferred_and_sent_privately_as_a_follow_up(
    harness: Harness, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Drawing a long game takes seconds: the press is acknowledged first (Discord's
    # 3-second limit), then the GIF comes as a private follow-up; the board stays as it is.
    h = harness
    await challenge_and_accept(h, "turkish", rated=False)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await play_plies(h, 2)
    final_board = response_message_id(h, (await resign(h, user=ALICE))[0])
    before = dict(h.discord.messages[final_board])
    monkeypatch.setattr(bot.ui.answer, "DEFER_AFTER", 0.0)
    calls = await run(h, press_button(h, final_board, "replay", user=BOB))
    [deferral, follow_up] = calls  # nothing else: no edit of the board, no channel post
    assert deferral.callback_type == 6  # acknowledged without a "thinking" message
    assert "/webhooks/" in follow_up.path and follow_up.ephemeral
    assert follow_up.files[0][0] == f"dama-turkish-{game_id}.gif"
    assert h.discord.messages[final_board] == before


# --- clocks ------------------------------------------------------------------------------

async def test_a_challenge_with_a_clock_is_lost_on_time_and_rematched_with_the_same_clock(
    harness: Harness,
) -> None:
    h = harness
    opponent, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [opponent, option("variant", "turkish"),
                                                 option("color", "white"),
                                                 option("clock", "5+3")], resolved=resolved))
    assert "Clock: 5+3 (minutes for each player + seconds added per move)" in (
        made.embeds[0]["description"])
    challenge_id = made.custom_ids[0].split(":")[2]
    calls = await run(h, press(h, response_message_id(h, made), f"dama:accept:{challenge_id}",
                               user=BOB))
    fields = {f["name"]: f["value"] for f in calls[-1].embeds[0]["fields"]}
    assert fields["Clocks (5+3)"].endswith(f"<@{BOB}>: 5:00")
    h.clock.advance(timedelta(seconds=20))
    await play_plies(h, 1)
    state = h.bot.services.games.current(CHANNEL)
    assert state.clock is not None and state.clock.white_left == timedelta(seconds=283)
    h.clock.advance(timedelta(minutes=5))  # Black's clock runs out
    await h.bot.services.deadlines.run_once()
    await h.bot.services.announcer.drain()
    posted = [c for c in h.discord.calls if c.method == "POST"
              and c.path == f"/channels/{CHANNEL}/messages"]
    assert f"<@{BOB}> ran out of time" in posted[-1].content
    final_board = response_message_id(h, posted[-1])
    [again] = await run(h, press_button(h, final_board, "rematch", user=BOB))
    assert again.callback_type == 4 and not again.ephemeral
    [rematch] = await h.bot.services.storage.challenges.pending()
    assert rematch.time_control == TimeControl(300, 3) and rematch.move_seconds is None
