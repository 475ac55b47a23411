"""The bot's client (`bot/client.py`): the real `DamaBot` in this process, against the local
Discord stand-in over real sockets (login, gateway, command registration, interactions,
uploads) and against `FakeDiscord` across restarts and stops."""

from __future__ import annotations

import asyncio
import socket
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import bot.client
from bot.client import DamaBot
from bot.discord_endpoint import apply_discord_url, restore_endpoint
from bot.services.web_access import WebAddress, WebSettings
from bot.sync import command_schema
from engine import Position, get_variant
from standin import MessageRecord, StandIn
from storage import NewGame, Seat, Storage
from tests.support.clock import FakeClock
from tests.support.discord_harness import (
    PNG,
    Harness,
    OpenBot,
    challenge_and_accept,
    resign,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import GUILD_ID, FakeDiscord, option, user_option
from tests.support.services import ALICE, BOB, CHANNEL


async def followups(standin: StandIn, interaction_id: int) -> tuple[MessageRecord, ...]:
    """The follow-ups of an interaction, waiting up to 10 s for the first."""
    for _ in range(200):
        found = standin.interaction(interaction_id).followups
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError("no follow-up")


async def test_a_game_over_real_sockets(tmp_path: Path) -> None:
    async with StandIn() as standin:
        await standin.add_guild("Dama Club", channels=("games",))
        previous = apply_discord_url(standin.url)
        bot = DamaBot(settings_for(tmp_path / "db.sqlite3", token=standin.token),
                      run_scheduler=False)
        runner = asyncio.create_task(bot.start(standin.token))
        try:
            await standin.wait_until_connected(timeout=30)
            registered = await standin.wait_for_commands(["challenge", "move"], timeout=30)
            ours = await command_schema(bot.tree)
            assert {c["name"] for c in registered} == {c["name"] for c in ours}
            by_name = {c["name"]: c for c in registered}
            for command in ours:
                options = [o["name"] for o in command.get("options", [])]
                assert [o["name"] for o in by_name[command["name"]].get("options", [])] == options

            made = await standin.slash("alice", "games", "challenge",
                                       {"opponent": "bob", "variant": "italian",
                                        "color": "white", "rated": True})
            assert not made.ephemeral
            stranger = await standin.press("carol", made.reply, "Accept")
            assert stranger.ephemeral and "only they can accept" in stranger.reply.content
            started = await standin.press("bob", made.reply, "Accept")
            assert "accepted" in started.reply.embeds[0]["description"]
            board = (await followups(standin, started.interaction_id))[0]
            assert board.attachments[0].filename == "board.png"
            assert board.attachments[0].data.startswith(PNG)

            choices = await standin.autocomplete("alice", "games", "move", {"move": "22"})
            # Italian numeric squares (docs/RULES.md, "Coordinates and notation"): 22 = d3,
            # 18 = c4, 19 = e4.
            assert {c.value for c in choices} == {"d3-c4", "d3-e4"}
            # Numeric first by default for Italian, algebraic beside it.
            assert {c.name for c in choices} == {"22-18 (d3-c4)", "22-19 (d3-e4)"}
            nothing = await standin.autocomplete("bob", "games", "move", {"move": ""})
            assert nothing == ()
            moved = await standin.slash("alice", "games", "move", {"move": "22-18"})
            assert not moved.ephemeral and "played **22-18**" in moved.reply.content
            assert moved.reply.attachments[0].data.startswith(PNG)
            wrong = await standin.slash("alice", "games", "move", {"move": "21-17"})
            assert wrong.ephemeral and "not your turn" in wrong.reply.content

            # Two moves by each side, so the result is rated (docs/RULES.md).
            for user, move in (("bob", "11-15"), ("alice", "21-17"), ("bob", "15-19")):
                played = await standin.slash(user, "games", "move", {"move": move})
                assert not played.ephemeral, played.reply.content
            question = await standin.press("bob", played.reply, "Resign")
            assert question.ephemeral and "Resign game #" in question.reply.content
            resigned = await standin.press("bob", question.reply, "Resign")
            assert "wins (1-0)" in resigned.reply.content
            assert [b.label for b in resigned.reply.buttons] == ["Rematch", "Replay", "Analyze"]
            leaderboard = await standin.slash("bob", "games", "leaderboard",
                                              {"variant": "italian"})
            assert "Your place: **2** of 2" in leaderboard.reply.embeds[0]["description"]
        finally:
            await bot.close()
            await asyncio.gather(runner, return_exceptions=True)
            restore_endpoint(previous)
        assert not standin.internal_errors


async def test_restart_keeps_game_and_buttons(tmp_path: Path, open_bot: OpenBot) -> None:
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    h = await open_bot(settings_for(path), clock=clock)
    _, board = await challenge_and_accept(h)
    calls = await run(h, slash(h, "move", [option("move", "a3-a4")]))
    board = response_message_id(h, calls[0])
    await h.bot.close()
    h = await open_bot(settings_for(path), clock=clock)
    assert h.bot.services.games.current(CHANNEL).ply == 1
    calls = await run(h, slash(h, "move", [option("move", "a6-a5")], user=BOB))
    assert not calls[0].ephemeral
    board = response_message_id(h, calls[0])
    calls = await resign(h, user=ALICE, board=board)
    assert f"<@{BOB}> wins (0-1)" in calls[0].content
    # After another restart /rematch still finds the channel's finished game (storage).
    await h.bot.close()
    h = await open_bot(settings_for(path), clock=clock)
    [made] = await run(h, slash(h, "rematch", user=ALICE))
    assert made.callback_type == 4 and not made.ephemeral, made.content
    [rematch] = await h.bot.services.storage.challenges.pending()
    assert (rematch.challenger_id, rematch.challenged_id) == (ALICE, BOB)


async def test_storage_ranks_by_the_bots_leaderboard_rule(harness: Harness) -> None:
    # The rule is a property of the database's rankings; any other rule means a slow scan.
    assert harness.bot.services.storage.leaderboard_rule == harness.bot.settings.eligibility


async def test_the_computer_queue_limit_setting_reaches_the_pool(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", computer_workers=1,
                                    computer_queue_limit=40), sync=False)
    assert h.bot.services.computer is not None and h.bot.services.computer.policy.limit == 40


async def test_pending_challenge_expiry_is_scheduled_exactly_after_restart(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    settings = settings_for(tmp_path / "db.sqlite3", challenge_expiry=timedelta(seconds=5))
    clock = FakeClock()
    h = await open_bot(settings, clock=clock, sync=False)
    opponent, resolved = user_option("opponent", BOB)
    [answer] = await run(h, slash(h, "challenge", [opponent, option("variant", "arab")],
                                  resolved=resolved))
    assert answer.callback_type == 4
    await h.bot.close()
    h = await open_bot(settings, clock=clock, sync=False)
    expiry = h.bot.services.challenges.next_expiry()
    assert expiry == clock() + timedelta(seconds=5)
    # The scheduler sleeps until then, not until its 30-second poll.
    assert h.bot.services.deadlines.seconds_to_next() == 5.0


async def test_a_stop_lets_the_move_being_answered_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_bot: OpenBot
) -> None:
    # Nothing is lost across a restart: a stop (SIGTERM -> close) while a move's board is
    # being posted waits for it, so the new board's message id is stored and its buttons
    # work after the restart.
    path = tmp_path / "db.sqlite3"
    h = await open_bot(settings_for(path), sync=False)
    client = h.bot
    await challenge_and_accept(h)
    render = client.presenter.board_png

    async def slow(state: Any, *view: Any) -> bytes:
        await asyncio.sleep(0.5)
        return await render(state, *view)

    monkeypatch.setattr(client.presenter, "board_png", slow)
    payload = slash(h, "move", [option("move", "a3-a4")])
    client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await asyncio.sleep(0.1)  # the move is committed, its board is being drawn
    await client.close()
    answers = [c for c in h.discord.calls if c.callback_type == 4 and c.files]
    assert answers and "played **a3-a4**" in answers[-1].content
    storage = await Storage.open(str(path))
    try:
        [game] = await storage.games.active()
    finally:
        await storage.close()
    assert game.ply_count == 1
    assert game.board_message_id == response_message_id(h, answers[-1])


async def test_a_bot_stopped_before_its_start_closes_without_services(tmp_path: Path) -> None:
    """A login that fails (a bad token) stops the bot before `setup_hook` built anything:
    it closes all the same, and says that it has no services yet."""
    # As `bot.app` runs it: the context closes the bot whatever happened inside.
    async with DamaBot(settings_for(tmp_path / "db.sqlite3"), clock=FakeClock()) as bot:
        assert bot.language_choices is None
        with pytest.raises(RuntimeError, match="setup_hook"):
            _ = bot.services
    assert bot.is_closed()


async def test_the_bot_holds_one_value_of_its_services(harness: Harness) -> None:
    services = harness.bot.services
    assert harness.bot.language_choices is services.preferences
    assert harness.bot.presenter is services.announcer.presenter
    assert services.computer_turns is not None  # the bot always plays the computer's turns


async def test_a_stop_during_the_start_closes_what_the_start_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SIGTERM while setup_hook opens the database (a slow PostgreSQL, a long migration):
    # the services composed after the stop are closed all the same, and nothing starts.
    opening, resume = asyncio.Event(), asyncio.Event()
    open_storage = Storage.open

    async def slow_open(*args: Any, **kwargs: Any) -> Storage:
        opening.set()
        await resume.wait()
        return await open_storage(*args, **kwargs)

    monkeypatch.setattr(Storage, "open", slow_open)
    fake = FakeDiscord()
    with fake.installed():
        client = DamaBot(settings_for(tmp_path / "db.sqlite3"), clock=FakeClock())
        start = asyncio.create_task(client.login("fake-token"))
        await opening.wait()
        stop = asyncio.create_task(client.close())
        await asyncio.sleep(0.05)
        resume.set()
        await stop
        await asyncio.gather(start, return_exceptions=True)
        alive = {task.get_name() for task in asyncio.all_tasks() if not task.done()}
        assert not alive & {"dama-deadlines", "dama-daily-puzzle"}, alive
        with pytest.raises(RuntimeError, match="closed"):
            await client.services.storage.games.active()


async def test_the_move_work_process_is_started_with_the_bot(harness: Harness) -> None:
    """The bot starts its move-work process at start-up, in the background, so the first
    heavy position of the process does not wait for it (bot.move_work)."""
    move_work = harness.bot.services.move_work
    async with asyncio.timeout(60):
        while not move_work.ready:
            await asyncio.sleep(0.05)
    assert move_work.in_process_calls == 0  # started by the warm-up, not by a position


async def test_boards_owed_past_the_first_ones_are_posted_once_connected(
    tmp_path: Path, open_bot: OpenBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start posts the first `OWED_BEFORE_CONNECT` owed boards; the others are posted
    once the bot is connected (`on_ready`), in the background."""
    path = tmp_path / "db.sqlite3"
    variant = get_variant("turkish")
    storage = await Storage.open(str(path))
    try:
        for channel in (CHANNEL, CHANNEL + 1):
            game = await storage.games.create(NewGame(
                variant="turkish", channel_id=channel, guild_id=GUILD_ID,
                white=Seat.human(ALICE), black=Seat.human(BOB),
                start_fen=Position.start(variant).to_fen(variant)))
            await storage.games.append_move(game.id, ply=1, text="a3-a4")  # board owed
    finally:
        await storage.close()
    monkeypatch.setattr(bot.client, "OWED_BEFORE_CONNECT", 1)

    def posted() -> set[str]:
        return {c.path for c in h.discord.calls if c.method == "POST"
                and c.path in (f"/channels/{CHANNEL}/messages",
                               f"/channels/{CHANNEL + 1}/messages")}

    h = await open_bot(settings_for(path))
    assert posted() == {f"/channels/{CHANNEL}/messages"} and h.bot.services.games.owed_left
    await h.bot.on_ready()
    async with asyncio.timeout(30):
        while len(posted()) < 2:
            await asyncio.sleep(0.05)
    assert not h.bot.services.games.owed_left


async def test_the_game_pages_are_served_beside_the_bot_until_it_closes(
        tmp_path: Path, open_bot: OpenBot) -> None:
    web = WebSettings(address=WebAddress("127.0.0.1", 0), url="https://dama.example.org")
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=web), sync=False)
    server = h.bot.web
    assert server is not None and server.port
    async with aiohttp.ClientSession() as client:
        answer = await client.get(f"http://127.0.0.1:{server.port}/health")
        assert await answer.text() == "ok"
        await h.bot.close()
        with pytest.raises(aiohttp.ClientConnectionError):
            await client.get(f"http://127.0.0.1:{server.port}/health")


async def test_a_taken_web_address_leaves_the_bot_running_without_pages(
        tmp_path: Path, open_bot: OpenBot) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        web = WebSettings(address=WebAddress("127.0.0.1", taken.getsockname()[1]),
                          url="https://dama.example.org")
        h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=web), sync=False)
        assert h.bot.web is None
        assert h.bot.services.announcer.links is not None  # the buttons still link
