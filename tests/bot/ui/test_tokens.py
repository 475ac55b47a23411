"""Games in INTERACTIONS places (docs/ARCHITECTURE.md, "Places"; `bot.ui.tokens`,
`GameAnnouncer`): a DM between two users, where the app is no member and can only answer
interactions. Through discord.py's own code paths against `FakeDiscord`, which refuses
every channel request there (403 Missing Access), as Discord does."""

from __future__ import annotations

import copy
import dataclasses
from datetime import timedelta
from typing import Any

import pytest

import bot.ui.answer
import engine
from bot.services import GameUpdate, UpdateKind
from bot.ui.tokens import GameTokens
from storage import GameStatus, PlaceKind
from tests.support.discord_harness import (
    Harness,
    computer_done,
    pick,
    press,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import Call, option, user_option
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, start_game

DM = 9101
"""A DM between Alice and Bob; only Alice installed the app (to her account)."""
THERE: dict[str, Any] = dict(guild_id=None, context=2, owners={1: ALICE}, channel=DM)
"""An interaction in that DM."""


def in_dm(h: Harness) -> None:
    h.discord.memberless_channels.add(DM)


def channel_requests(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.path.startswith(f"/channels/{DM}/")]


def move_select(call: Call) -> list[dict[str, Any]]:
    return [c for row in call.body.get("components") or [] for c in row["components"]
            if str(c.get("custom_id", "")).startswith("dama:move:")]


async def test_a_challenge_in_a_dm_between_users_is_played_in_one_message(
        harness: Harness) -> None:
    h = harness
    in_dm(h)
    opponent, resolved = user_option("opponent", BOB)
    [posted] = await run(h, slash(h, "challenge", [opponent, option("variant", "turkish"),
                                                   option("color", "white")],
                                  resolved=resolved, **THERE))
    challenge_id = posted.custom_ids[0].split(":")[2]
    # Bob has not installed the app: he uses the buttons of Alice's messages.
    calls = await run(h, press(h, response_message_id(h, posted),
                               f"dama:accept:{challenge_id}", user=BOB, guild_id=None,
                               context=2, owners={1: ALICE}))
    board_call = calls[-1]
    [select] = move_select(board_call)
    state = h.bot.services.games.current(DM)
    assert state.place is PlaceKind.INTERACTIONS and state.guild_id is None
    assert select["custom_id"] == f"dama:move:{state.game_id}:0"
    legal = engine.legal_moves(state.position, state.variant)
    assert len(select["options"]) == len(legal) <= 25
    board = response_message_id(h, board_call)

    # Alice picks her move in the select: the board is edited in place.
    value = select["options"][0]["value"]
    calls = await run(h, pick(h, board, select["custom_id"], value, user=ALICE,
                              guild_id=None, context=2, owners={1: ALICE}))
    [update] = [c for c in calls if c.callback_type is not None]
    assert update.callback_type == 7, update.payload
    [select] = move_select(update)
    assert select["custom_id"] == f"dama:move:{state.game_id}:1"
    after = h.bot.services.games.current(DM)
    assert after.ply == 1 and after.board_message_id == board

    # Bob answers from the same message.
    calls += await run(h, pick(h, board, select["custom_id"], select["options"][0]["value"],
                               user=BOB, guild_id=None, context=2, owners={1: ALICE}))
    assert h.bot.services.games.current(DM).ply == 2
    assert channel_requests(calls) == [], "never a channel request where the app is no member"


async def test_an_old_select_is_answered_out_of_date_and_plays_nothing(
        harness: Harness) -> None:
    h = harness
    in_dm(h)
    [start] = await run(h, slash(h, "play", [option("variant", "turkish"),
                                             option("color", "white")], **THERE))
    board = response_message_id(h, start)
    [select] = move_select(start)
    first, second = select["options"][0]["value"], select["options"][1]["value"]
    seen = copy.deepcopy(h.discord.messages[board])
    await run(h, slash(h, "move", [option("move", first)], **THERE))
    # The old board lost its components through the token of the /play that sent it.
    assert h.discord.messages[board]["components"] == []
    ply = h.bot.services.games.current(DM).ply
    calls = await run(h, pick(h, board, select["custom_id"], second, user=ALICE,
                              snapshot=seen, guild_id=None, context=2, owners={1: ALICE}))
    assert h.bot.services.games.current(DM).ply == ply
    assert any(c.ephemeral and "out of date" in c.content for c in calls), [
        c.content for c in calls]
    # Its components go through the press itself (UPDATE_MESSAGE), never the channel.
    [retired] = [c for c in calls if c.callback_type == 7]
    assert retired.body["components"] == [] and "embeds" not in retired.body
    await h.bot.services.announcer.drain()
    assert channel_requests(h.discord.calls) == [], "never a channel request there"


async def test_the_computers_reply_follows_up_the_last_interaction_while_its_token_lasts(
        computer_harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = computer_harness
    in_dm(h)
    await run(h, slash(h, "play", [option("variant", "turkish"), option("level", 1, 4),
                                   option("color", "black")], **THERE))
    since = len(h.discord.calls)
    await computer_done(h)
    later = h.discord.calls[since:]
    [reply] = [c for c in later if c.method == "POST"]
    assert reply.path.startswith("/webhooks/") and "Computer (level 1) played" in reply.content
    assert move_select(reply) and channel_requests(later) == []
    state = h.bot.services.games.current(DM)
    assert state.ply == 1

    # Tokens past their lifetime: the next reply cannot be sent, it is owed.
    monkeypatch.setattr(bot.ui.answer, "TOKEN_LIFETIME", 0.0)
    move = engine.legal_moves(state.position, state.variant)[0]
    text = engine.format_move(move, state.position, state.variant)
    await run(h, slash(h, "move", [option("move", text)], **THERE))
    since = len(h.discord.calls)
    await computer_done(h)
    assert [c for c in h.discord.calls[since:] if c.method == "POST"] == []
    owed = h.bot.services.games.current(DM)
    assert owed.ply == 3
    record = await h.bot.services.storage.games.get(owed.game_id)
    assert record is not None and record.board_owed

    # The next interaction in the game shows the owed board first, then its own answer.
    monkeypatch.setattr(bot.ui.answer, "TOKEN_LIFETIME", 15 * 60.0)
    move = engine.legal_moves(owed.position, owed.variant)[0]
    text = engine.format_move(move, owed.position, owed.variant)
    calls = await run(h, slash(h, "move", [option("move", text)], **THERE))
    shown = [c for c in calls if c.callback_type == 4 or c.path.startswith("/webhooks/")]
    assert "Computer (level 1) played" in shown[0].content and not shown[0].custom_ids
    assert f"<@{ALICE}> played" in shown[1].content and move_select(shown[1])
    assert channel_requests(calls) == []
    await computer_done(h)
    record = await h.bot.services.storage.games.get(owed.game_id)
    assert record is not None and not record.board_owed


async def test_owed_boards_of_interactions_places_are_not_posted_at_start_up(
        harness: Harness) -> None:
    h = harness
    in_dm(h)
    await run(h, slash(h, "play", [option("variant", "turkish"), option("color", "white")],
                       **THERE))
    game = h.bot.services.games.current(DM)
    move = engine.legal_moves(game.position, game.variant)[0]
    # A move stored with no board shown (as when killed between the two).
    await h.bot.services.games.play(DM, ALICE, engine.format_move(move, game.position,
                                                                  game.variant))
    since = len(h.discord.calls)
    posted = await h.bot.services.games.post_owed_boards(h.bot.services.announcer.announce_owed)
    assert posted == [] and h.discord.calls[since:] == []
    record = await h.bot.services.storage.games.get(game.game_id)
    assert record is not None and record.board_owed


async def test_an_interaction_with_no_follow_up_left_leaves_the_board_owed(
        computer_harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = computer_harness
    in_dm(h)
    monkeypatch.setattr(bot.ui.answer, "FOLLOW_UPS", 0)  # Discord allows 5; none left here
    await run(h, slash(h, "play", [option("variant", "turkish"), option("level", 1, 4),
                                   option("color", "black")], **THERE))
    since = len(h.discord.calls)
    await computer_done(h)
    assert [c for c in h.discord.calls[since:] if c.method == "POST"] == []
    state = h.bot.services.games.current(DM)
    record = await h.bot.services.storage.games.get(state.game_id)
    assert state.ply == 1 and record is not None and record.board_owed


async def test_an_expired_challenge_is_shown_through_the_token_that_posted_it(
        harness: Harness) -> None:
    h = harness
    in_dm(h)
    opponent, resolved = user_option("opponent", BOB)
    [posted] = await run(h, slash(h, "challenge", [opponent, option("variant", "turkish")],
                                  resolved=resolved, **THERE))
    message = response_message_id(h, posted)
    h.clock.advance(timedelta(hours=1))
    [expired] = await h.bot.services.challenges.expire_due()
    since = len(h.discord.calls)
    await h.bot.services.announcer.challenge_expired(expired)
    [edit] = h.discord.calls[since:]
    assert edit.method == "PATCH" and edit.path.endswith(f"/messages/{message}")
    assert edit.path.startswith("/webhooks/") and edit.body["components"] == []
    assert "expired" in edit.embeds[0]["description"]


async def test_a_challenge_in_a_dm_between_users_expiring_after_a_restart_sends_nothing(
        harness: Harness) -> None:
    h = harness
    in_dm(h)
    opponent, resolved = user_option("opponent", BOB)
    await run(h, slash(h, "challenge", [opponent, option("variant", "turkish")],
                       resolved=resolved, **THERE))
    h.bot.services.announcer.tokens = GameTokens()  # a restart: no token, no memory
    h.clock.advance(timedelta(hours=1))
    [expired] = await h.bot.services.challenges.expire_due()
    since = len(h.discord.calls)
    await h.bot.services.announcer.challenge_expired(expired)
    assert channel_requests(h.discord.calls[since:]) == [], "never a channel request there"


async def test_an_ended_games_owed_board_is_not_kept_waiting(
    open_services: OpenServices,
) -> None:
    # No interaction ever comes for an ended game: its owed board would wait for ever.
    s = await open_services()
    await start_game(s, "turkish")
    playing = s.games.current(CHANNEL)
    tokens = GameTokens()
    tokens.owe(GameUpdate(UpdateKind.COMPUTER_MOVED, playing))
    ended = dataclasses.replace(playing, status=GameStatus.FINISHED)
    tokens.owe(GameUpdate(UpdateKind.ENDED, ended))
    assert tokens.take_owed(playing.game_id) is None
    tokens.owe(GameUpdate(UpdateKind.COMPUTER_MOVED, playing))
    assert tokens.take_owed(playing.game_id) is not None
