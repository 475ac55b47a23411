"""The resign question, the early-results rule, rematch and the messages that point to
the next step (`bot/cogs/play.py`), through the real command tree and buttons
(`FakeDiscord`). Rules: docs/RULES.md, "Early results"."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import engine
from bot.services.games import RESIGN_QUESTION_LIFETIME
from renderer import render_png
from storage import ChallengeStatus, ColorChoice, GameStatus
from tests.support.discord_harness import (
    PNG,
    Harness,
    OpenBot,
    button_id,
    challenge_and_accept,
    play_plies,
    press,
    press_button,
    resign,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import option, user_option
from tests.support.services import ALICE, BOB, CAROL, CHANNEL

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
    assert final.custom_ids == [f"dama:rematch:{first.game_id}"]
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
    state = h.bot.services.games._ended[CHANNEL]
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
