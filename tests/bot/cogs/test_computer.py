"""`/play` and move clocks through discord.py's own command tree: gateway-shaped
interaction payloads in, every request the real `DamaBot` makes captured at the HTTP
boundary (`FakeDiscord`). The bot builds its own computer player (process pool, one
worker, 0.05 s per move from the settings); nothing asserts how long anything takes."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta
from pathlib import Path

import engine
from tests.support.discord_harness import (
    Harness,
    OpenBot,
    challenge_and_accept,
    channel_posts,
    computer_done,
    press,
    resign,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import Call, option, user_option
from tests.support.services import ALICE, BOB, CHANNEL


async def test_play_schema(computer_harness: Harness) -> None:
    h = computer_harness
    [sync] = [c for c in h.discord.calls if c.method == "PUT"]
    play = {c["name"]: c for c in sync.payload}["play"]
    assert sorted(play["contexts"]) == [0, 1, 2]  # tests/bot/cogs/test_contexts.py: all
    options = {o["name"]: o for o in play["options"]}
    assert list(options) == ["variant", "level", "color", "move_time", "clock"]
    assert options["variant"]["required"]
    assert [c["value"] for c in options["variant"]["choices"]] == [
        "turkish", "arab", "moroccan", "italian", "international", "brazilian", "russian",
        "english"]
    level = options["level"]
    assert level["type"] == 4 and (level["min_value"], level["max_value"]) == (1, 5)
    assert not level.get("required")
    assert [c["value"] for c in options["color"]["choices"]] == ["white", "black", "random"]
    # No correspondence time against the computer (docs/RULES.md, "Project-wide game
    # rules", Time): /challenge offers those too.
    assert [c["value"] for c in options["move_time"]["choices"]] == [
        "none", "40s", "5m", "1h"]
    challenge = {c["name"]: c for c in sync.payload}["challenge"]
    assert {o["name"]: o for o in challenge["options"]}["move_time"]["choices"][:4] == \
        options["move_time"]["choices"]
    assert [c["value"] for c in options["clock"]["choices"]] == ["3+2", "5+3", "10+5", "15+10"]
    assert {o["name"]: o for o in challenge["options"]}["clock"]["choices"] == \
        options["clock"]["choices"]


async def test_play_as_black_the_computer_answers_on_its_own(computer_harness: Harness) -> None:
    h = computer_harness
    calls = await run(h, slash(h, "play", [option("variant", "italian"), option("level", 1, 4),
                                           option("color", "black")]))
    [start] = [c for c in calls if c.callback_type == 4]
    assert not start.ephemeral and f"<@{ALICE}> (Black)" in start.content
    assert "Computer (level 1) (White)" in start.content
    assert "is thinking" in start.embeds[0]["description"]
    first_board = response_message_id(h, start)
    since = len(h.discord.calls)
    await computer_done(h)
    later = h.discord.calls[since:]
    [reply] = channel_posts(later)
    assert "Computer (level 1) played" in reply.content and f"<@{ALICE}>" in reply.content
    assert reply.files and reply.files[0][1].startswith(b"\x89PNG")
    assert {":".join(i.split(":")[:2]) for i in reply.custom_ids} == {"dama:resign"}
    # The start board's buttons go.
    assert any(c.method == "PATCH" and c.path.endswith(f"/messages/{first_board}")
               for c in later)
    state = h.bot.services.games.current(CHANNEL)
    assert state.ply == 1 and state.turn is engine.Color.BLACK

    # The person answers; the computer replies again with a new board.
    move = engine.legal_moves(state.position, state.variant)[0]
    text = engine.format_move(move, state.position, state.variant)
    calls = await run(h, slash(h, "move", [option("move", text)]))
    assert any(c.callback_type == 4 and "is thinking" in c.embeds[0]["description"]
               for c in calls)
    since = len(h.discord.calls)
    await computer_done(h)
    assert len(channel_posts(h.discord.calls[since:])) == 1
    assert h.bot.services.games.current(CHANNEL).ply == 3

    # Resign with the button on the newest board: the game ends, nothing more is posted.
    board = h.bot.services.games.current(CHANNEL).board_message_id
    assert board is not None
    game_id = h.bot.services.games.current(CHANNEL).game_id
    calls = await resign(h, user=ALICE, board=board)
    assert any("resigned" in c.content for c in calls)
    await computer_done(h)
    assert not h.bot.services.games.has_game(CHANNEL)

    # The finished game is in alice's history and exports with the computer as a player.
    [history] = await run(h, slash(h, "history"))
    assert f"#{game_id}" in history.embeds[0]["description"]
    assert "Computer" in history.embeds[0]["description"]
    [export] = await run(h, slash(h, "export", [option("game", game_id, 4)]))
    name, data = export.files[0]
    pdn = data.decode()
    assert name.endswith(".pdn") and "Computer" in pdn and '[Result "1-0"]' in pdn


async def test_play_refused_while_a_game_is_on(computer_harness: Harness) -> None:
    h = computer_harness
    await run(h, slash(h, "play", [option("variant", "turkish"), option("color", "white")]))
    calls = await run(h, slash(h, "play", [option("variant", "turkish")]))
    [answer] = calls
    assert answer.ephemeral and "already playing" in answer.content
    opponent, resolved = user_option("opponent", BOB)
    calls = await run(h, slash(h, "challenge", [opponent, option("variant", "turkish")],
                               resolved=resolved))
    assert calls[-1].ephemeral


async def test_expired_move_clock_posts_the_computers_move_for_the_absent_player(
    computer_harness: Harness
) -> None:
    h = computer_harness
    opponent, resolved = user_option("opponent", BOB)
    calls = await run(h, slash(h, "challenge", [opponent, option("variant", "turkish"),
                                                option("color", "white"),
                                                option("move_time", "40s")],
                               resolved=resolved))
    challenge_id = calls[0].custom_ids[0].split(":")[2]
    message_id = response_message_id(h, calls[0])
    calls = await run(h, press(h, message_id, f"dama:accept:{challenge_id}", user=BOB))
    board = calls[-1]
    deadline = h.bot.services.games.current(CHANNEL).deadline
    assert deadline is not None
    assert f"<t:{int(deadline.timestamp())}:R>" in board.embeds[0]["description"]
    h.clock.advance(timedelta(seconds=40))
    since = len(h.discord.calls)
    await h.bot.services.deadlines.run_once()  # hands White's turn to the computer
    await computer_done(h)
    [post] = channel_posts(h.discord.calls[since:])
    assert f"Time ran out for <@{ALICE}>" in post.content and "in a row: 1/3;" in post.content
    state = h.bot.services.games.current(CHANNEL)
    assert state.ply == 1 and state.turn is engine.Color.BLACK


def _actions(custom_ids: list[str]) -> set[str]:
    return {":".join(i.split(":")[:2]) for i in custom_ids}


async def test_boards_of_games_against_the_computer_offer_no_draw(
    computer_harness: Harness,
) -> None:
    h = computer_harness
    # The computer never takes draws (COMPUTER_NO_DRAW), so an "Offer draw" button on a
    # /play board only leads to a refusal; Resign stays.
    calls = await run(h, slash(h, "play", [option("variant", "turkish"), option("level", 1, 4),
                                           option("color", "black")]))
    [start] = [c for c in calls if c.callback_type == 4]
    assert _actions(start.custom_ids) == {"dama:resign"}
    assert response_message_id(h, start)
    since = len(h.discord.calls)
    await computer_done(h)
    [reply] = channel_posts(h.discord.calls[since:])
    assert _actions(reply.custom_ids) == {"dama:resign"}
    # A game between two people keeps both buttons.
    calls = await resign(h, user=ALICE)
    assert any(c.callback_type == 4 and "resigned" in c.content for c in calls)
    _, board = await challenge_and_accept(h)
    buttons = h.discord.messages[board]["components"][0]["components"]
    assert _actions([b["custom_id"] for b in buttons]) == {"dama:resign", "dama:draw"}


# --- the computer's queue is full ----------------------------------------------------------
# The bot's own pool with one worker and a queue limit of 0 (DAMA_COMPUTER_QUEUE_LIMIT=0),
# held by a long search: a computer seat's move is refused. The wait, worked by hand from
# bot/computer_queue.py: (1 running + 1) / 1 worker * 0.05 s (no shrinking at 0.05 s) *
# ratio 1 (no search finished yet) = 0.1 s, rounded up to 1 second.

START_TURKISH = engine.Position.start(engine.get_variant("turkish")).to_fen(
    engine.get_variant("turkish"))


async def occupy(h: Harness) -> asyncio.Task[str]:
    computer = h.bot.services.computer
    assert computer is not None
    blocker = asyncio.create_task(computer.choose_move(
        START_TURKISH, "turkish", 5, 30.0, key="blocker"))
    while computer.load.running == 0:
        await asyncio.sleep(0.01)
    return blocker


async def release(h: Harness, blocker: asyncio.Task[str]) -> None:
    computer = h.bot.services.computer
    assert computer is not None and computer.cancel("blocker") == 1
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(blocker, 60)
    while computer.load.running:
        await asyncio.sleep(0.01)


async def posted(h: Harness, since: int, words: str) -> Call:
    while True:
        found = [c for c in channel_posts(h.discord.calls[since:]) if words in c.content]
        if found:
            return found[0]
        await asyncio.sleep(0.01)


async def test_play_and_the_computers_moves_when_the_computer_is_full(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", computer_budget=0.05,
                                    computer_workers=1, computer_queue_limit=0))
    blocker = await occupy(h)
    calls = await run(h, slash(h, "play", [option("variant", "turkish"),
                                           option("color", "white")]))
    [answer] = calls
    assert answer.ephemeral and answer.content == (
        "The computer is busy with many other games right now. Try again in about 1 second.")
    assert h.bot.services.games.players_in(CHANNEL) is None
    await release(h, blocker)

    calls = await run(h, slash(h, "play", [option("variant", "turkish"),
                                           option("color", "white")]))
    assert any(c.callback_type == 4 and not c.ephemeral for c in calls)
    blocker = await occupy(h)
    state = h.bot.services.games.current(CHANNEL)
    move = engine.legal_moves(state.position, state.variant)[0]
    since = len(h.discord.calls)
    await run(h, slash(h, "move", [option("move", engine.format_move(
        move, state.position, state.variant))]))
    notice = await asyncio.wait_for(posted(h, since, "busy"), 60)
    assert notice.content == (
        "The computer is busy with many other games: it will move here in about 1 second.")
    await release(h, blocker)
    await computer_done(h)
    later = channel_posts(h.discord.calls[since:])
    assert [c.content for c in later].count(notice.content) == 1
    assert any("Computer (level 3) played" in c.content for c in later)
    assert h.bot.services.games.current(CHANNEL).ply == 2


async def test_play_with_a_clock_shows_both_clocks_and_the_computer_plays_within_its_own(
    computer_harness: Harness,
) -> None:
    h = computer_harness
    calls = await run(h, slash(h, "play", [option("variant", "turkish"), option("level", 1, 4),
                                           option("color", "white"), option("clock", "3+2")]))
    [start] = [c for c in calls if c.callback_type == 4]
    fields = {f["name"]: f["value"] for f in start.embeds[0]["fields"]}
    state = h.bot.services.games.current(CHANNEL)
    assert state.deadline is not None and state.move_seconds is None
    assert fields["Clocks (3+2)"] == (
        f"<@{ALICE}>: 3:00 when this turn began; runs out <t:{int(state.deadline.timestamp())}:R>"
        "\nComputer (level 1): 3:00")
    await run(h, slash(h, "move", [option("move", "a3-a4")]))
    await computer_done(h)
    state = h.bot.services.games.current(CHANNEL)
    assert state.ply == 2 and state.clock is not None
    assert state.clock.black_left is not None
    assert timedelta(seconds=180) < state.clock.black_left <= timedelta(seconds=182)


async def test_a_clock_and_a_time_per_move_together_are_refused(
    computer_harness: Harness,
) -> None:
    h = computer_harness
    [answer] = await run(h, slash(h, "play", [option("variant", "turkish"),
                                              option("move_time", "40s"),
                                              option("clock", "5+3")]))
    assert answer.ephemeral and "a clock or a time per move, not both" in answer.content
    assert not h.bot.services.games.has_game(CHANNEL)
