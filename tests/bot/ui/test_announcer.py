"""Showing the services' updates (`bot/ui/announcer.py`): a move or accept is committed
before the answer, so a failing picture or a dead interaction still shows the board."""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest

from bot.ui.present import Perspective, render_board
from engine import Color
from tests.support.discord_harness import (
    Harness,
    button_id,
    challenge_and_accept,
    press,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import option, user_option
from tests.support.services import ALICE, BOB, CAROL, CHANNEL


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
    assert h.bot.services.games.current(CHANNEL).ply == 1
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
    state = h.bot.services.games.current(CHANNEL)
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
    state = h.bot.services.games.current(CHANNEL)
    posted = [c for c in calls if c.method == "POST" and c.path == f"/channels/{CHANNEL}/messages"]
    assert len(posted) == 1 and posted[0].files[0][0] == "board.png"
    assert "the game begins" in posted[0].content
    assert state.board_message_id == response_message_id(h, posted[0])
    stripped = [c for c in calls if c.method == "PATCH" and c.path.endswith(f"/{message}")]
    assert stripped and stripped[0].body["components"] == []
    assert not any("went wrong" in (c.content or "") for c in calls)


async def test_a_challenge_that_could_not_be_shown_does_not_block_the_next_one(
    harness: Harness,
) -> None:
    # Discord refuses the answer that would show the challenge: nobody sees it, so it must
    # not stay pending (the "try again" would be refused as a duplicate of a challenge
    # that has no message and no Cancel button).
    h = harness
    bob, resolved = user_option("opponent", BOB)
    payload = slash(h, "challenge", [bob, option("variant", "arab")], resolved=resolved)
    h.discord.fail_paths.add(f"/interactions/{payload['id']}/{payload['token']}/callback")
    await run(h, payload)
    assert await h.bot.services.storage.challenges.pending_for_user(BOB) == []
    [again] = await run(h, slash(h, "challenge", [bob, option("variant", "arab")],
                                 resolved=resolved))
    assert not again.ephemeral and again.custom_ids[0].startswith("dama:accept:")


def expected_png(h: Harness, side: Color, numbers: bool) -> bytes:
    """The picture of the channel's game drawn from `side` (with or without numbers)."""
    state = h.bot.services.games.current(CHANNEL)
    return render_board(state.position, state.variant, last_move=state.last_move,
                        before=state.before, size=h.bot.settings.board_size,
                        view=Perspective(side, numbers))


def picture(call: Any) -> bytes:
    [(name, data)] = call.files
    assert name == "board.png"
    return bytes(data)


async def test_each_board_is_drawn_from_the_side_of_its_reader(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h, "italian")  # Alice White, Bob Black
    # After Alice's move Bob must answer: Black's side, Italian squares numbered.
    moved = (await run(h, slash(h, "move", [option("move", "22-18")])))[0]
    black, white = expected_png(h, Color.BLACK, True), expected_png(h, Color.WHITE, True)
    assert black != white
    assert picture(moved) == black
    # /board is the caller's: Alice plays White, Bob Black, a spectator sees the side to
    # move.
    assert picture((await run(h, slash(h, "board", user=ALICE)))[0]) == white
    assert picture((await run(h, slash(h, "board", user=BOB)))[0]) == black
    assert picture((await run(h, slash(h, "board", user=CAROL)))[0]) == black
    # A preference overrides the side played.
    await run(h, slash(h, "settings", [option("board_side", "black")], user=ALICE))
    assert picture((await run(h, slash(h, "board", user=ALICE)))[0]) == black
    # Algebraic readers get no numbers on the picture.
    await run(h, slash(h, "settings", [option("notation", "algebraic")], user=BOB))
    assert picture((await run(h, slash(h, "board", user=BOB)))[0]) == expected_png(
        h, Color.BLACK, False)


ATTACH_FILES, EMBED_LINKS = 1 << 15, 1 << 14
"""Discord's permission bits (API v10, "Permissions")."""
ALL = (1 << 50) - 1


async def test_a_channel_without_attach_files_gets_a_text_board(harness: Harness) -> None:
    h = harness
    _, first_board = await challenge_and_accept(h)  # Turkish, Alice White
    old = copy.deepcopy(h.discord.messages[first_board])  # with its buttons, as drawn
    denied = str(ALL & ~ATTACH_FILES)
    calls = await run(h, slash(h, "move", [option("move", "a3-a4")], app_permissions=denied))
    answer = calls[0]
    assert answer.files == [] and answer.embeds == []
    assert "This channel denies me the Attach Files permission" in answer.content
    assert "played **a3-a4**" in answer.content
    # Bob is to move: the board as text from Black's side (rank 1 on top, file h on the
    # left), the Turkish men on ranks 2-3 and 6-7 (docs/RULES.md), a3's man on a4.
    board = answer.content.split("```\n")[1].split("\n```")[0].splitlines()
    assert board == [
        "    h  g  f  e  d  c  b  a",
        " 1  .  .  .  .  .  .  .  .  1",
        " 2  w  w  w  w  w  w  w  w  2",
        " 3  w  w  w  w  w  w  w  .  3",
        " 4  .  .  .  .  .  .  .  w  4",
        " 5  .  .  .  .  .  .  .  .  5",
        " 6  b  b  b  b  b  b  b  b  6",
        " 7  b  b  b  b  b  b  b  b  7",
        " 8  .  .  .  .  .  .  .  .  8",
        "    h  g  f  e  d  c  b  a",
    ]
    # The buttons still work without a picture.
    assert any(c.startswith("dama:resign:") for c in answer.custom_ids)
    both = str(ALL & ~ATTACH_FILES & ~EMBED_LINKS)
    shown = (await run(h, slash(h, "board", user=BOB, app_permissions=both)))[0]
    assert shown.files == [] and "Attach Files and Embed Links" in shown.content
    # A press on an out-of-date board is answered privately with the current one, as text.
    stale = h.discord.interaction(
        3, {"custom_id": button_id(old, "resign"), "component_type": 2}, user_id=BOB,
        channel_id=CHANNEL, message=old, app_permissions=denied)
    answer = (await run(h, stale))[0]
    assert answer.ephemeral and answer.files == [] and "```" in answer.content
    assert "out of date" in answer.content
    # With both permissions the picture is back.
    assert picture((await run(h, slash(h, "board", user=BOB)))[0]).startswith(b"\x89PNG")
