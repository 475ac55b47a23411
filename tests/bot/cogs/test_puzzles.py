"""/puzzle, /solve, the Hint and Reveal buttons and the daily puzzle through discord.py's
own command tree against `FakeDiscord`, with a bank of one hand-made puzzle
(tests/support/puzzles.py): the solver's messages are ephemeral, the channel's game is
untouched, only the solution's move is accepted and the bot plays the forced defence. A
puzzle under way survives a restart (the old message's Hint, `/solve` and its
autocomplete continue it, rated once); a puzzle met before is given again unrated and
says so."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import discord

from bot.messages import Msg, text
from engine import Color, Position, get_variant
from renderer import render_png
from tests.support.clock import FakeClock
from tests.support.discord_harness import (
    OpenBot,
    challenge_and_accept,
    channel_posts,
    embed_description,
    only_answer,
    press,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import option
from tests.support.puzzles import SHOT, shot_puzzle
from tests.support.services import ALICE, BOB, CAROL, CHANNEL, GUILD

PNG = b"\x89PNG\r\n\x1a\n"
MANAGER = str(0x400 | 0x800 | (1 << 31) | 0x20)  # a member who may manage the server


async def test_a_puzzle_is_solved_move_by_move_in_ephemeral_messages(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    _, board = await challenge_and_accept(h)
    game_before = await h.bot.services.storage.games.active_in_channel(CHANNEL)
    assert game_before is not None
    posts_before = len(channel_posts(h.discord.calls))

    calls = await run(h, slash(h, "puzzle", [option("variant", "italian")], user=BOB))
    answer = only_answer(calls)
    assert answer.callback_type == 4 and answer.ephemeral
    assert answer.files[0][0] == "puzzle.png" and answer.files[0][1].startswith(PNG)
    assert "White to move" in embed_description(answer)
    # The buttons name the puzzle their message shows (old messages' carry the user only).
    shown = f"{BOB}:{shot_puzzle().id}"
    assert answer.custom_ids == [f"dama:phint:{shown}", f"dama:preveal:{shown}"]
    puzzle_message = response_message_id(h, answer)

    [auto] = await run(h, h.discord.interaction(4, {
        "id": "1", "name": "solve", "type": 1,
        "options": [option("move", "c4", focused=True)]}, user_id=BOB, channel_id=CHANNEL))
    assert auto.callback_type == 8
    # Bob kept the default notation: Italian in the federation's numbers (docs/RULES.md,
    # "Coordinates and notation": b5 = 13, c4 = 18, d5 = 14, c6 = 10, e4 = 19, f3 = 23).
    assert {(c["name"], c["value"]) for c in auto.payload["data"]["choices"]} == {
        ("18-13 (c4-b5)", "c4-b5"), ("18-14 (c4-d5)", "c4-d5")}

    answer = only_answer(await run(h, slash(h, "solve", [option("move", "f3-e4")], user=BOB)))
    assert answer.ephemeral and "**23-19** is not the winning move" in embed_description(answer)

    answer = only_answer(await run(h, press(h, puzzle_message, f"dama:phint:{shown}",
                                            user=BOB)))
    assert answer.ephemeral and "move the piece on **18**" in embed_description(answer)

    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB)))
    assert answer.ephemeral and "The defence: **10x19**" in embed_description(answer)
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "f3xf7")], user=BOB)))
    assert answer.ephemeral and "solved" in embed_description(answer)
    assert answer.custom_ids == []

    # The channel's game is untouched: same ply, nothing posted in the channel.
    game_after = await h.bot.services.storage.games.active_in_channel(CHANNEL)
    assert game_after == game_before
    assert await h.bot.services.storage.games.moves(game_before.id) == []
    assert len(channel_posts(h.discord.calls)) == posts_before
    assert board in h.discord.messages
    rating = await h.bot.services.storage.puzzles.rating(BOB, "italian")
    assert rating is not None and rating.attempts == 1 and rating.solved == 0


async def test_reveal_shows_the_solution_and_solve_without_a_puzzle_is_refused(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")])))
    assert answer.ephemeral and "no puzzle under way" in answer.content
    answer = only_answer(await run(h, slash(h, "puzzle")))
    message = response_message_id(h, answer)
    answer = only_answer(await run(h, press(h, message, f"dama:preveal:{ALICE}:{shot_puzzle().id}",
                                            user=ALICE)))
    assert answer.ephemeral
    # In the federation's numbers (the default): c4-d5 c6xe4 f3xf7, f7 = 7.
    assert "The solution: 18-14 10x19 23x7" in embed_description(answer)
    assert "Your puzzle rating: 1500? →" in embed_description(answer)


async def test_a_puzzle_is_written_in_the_solvers_notation(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    # Carol reads Italian in algebraic and fixed her boards to Black's side (/settings
    # notation:algebraic board_side:black): every move and square the bot writes to her is
    # algebraic, whatever notation she types; the autocomplete shows her form first; the
    # picture is drawn from Black's side without square numbers. A move she typed that
    # cannot be played is explained in the notation she typed.
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    await run(h, slash(h, "settings", [option("notation", "algebraic"),
                                       option("board_side", "black")], user=CAROL))
    answer = only_answer(await run(h, slash(h, "puzzle", user=CAROL)))
    puzzle_message = response_message_id(h, answer)
    start = Position.from_fen(SHOT, get_variant("italian"))
    numbered = render_png(start, "italian", numbers=True)
    plain = render_png(start, "italian", perspective=Color.BLACK)
    assert answer.files[0][1] == plain != numbered

    [auto] = await run(h, h.discord.interaction(4, {
        "id": "1", "name": "solve", "type": 1,
        "options": [option("move", "18", focused=True)]}, user_id=CAROL, channel_id=CHANNEL))
    assert {(c["name"], c["value"]) for c in auto.payload["data"]["choices"]} == {
        ("c4-b5 (18-13)", "c4-b5"), ("c4-d5 (18-14)", "c4-d5")}

    # Refused text: quoted in the notation typed (numbers here: 18 = c4, 22 = d3).
    [refused] = await run(h, slash(h, "solve", [option("move", "18-22")], user=CAROL))
    assert refused.ephemeral and "18-13, 18-14" in refused.content, refused.content
    [refused] = await run(h, slash(h, "solve", [option("move", "c4-d3")], user=CAROL))
    assert "c4-b5, c4-d5" in refused.content, refused.content

    # Typed in numbers (23-19 = f3-e4), judged in her notation.
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "23-19")], user=CAROL)))
    assert "**f3-e4** is not the winning move" in embed_description(answer)
    carol = f"{CAROL}:{shot_puzzle().id}"
    answer = only_answer(await run(h, press(h, puzzle_message, f"dama:phint:{carol}",
                                            user=CAROL)))
    assert "move the piece on **c4**" in embed_description(answer)
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "18-14")], user=CAROL)))
    assert "**c4-d5** is right. The defence: **c6xe4**" in embed_description(answer)
    answer = only_answer(await run(h, press(h, puzzle_message, f"dama:preveal:{carol}",
                                            user=CAROL)))
    assert "The solution: f3xf7" in embed_description(answer)

    # Bob (the defaults) reads the same puzzle's picture numbered, from the side he solves
    # for (White).
    answer = only_answer(await run(h, slash(h, "puzzle", user=BOB)))
    assert answer.files[0][1] == numbered


async def test_a_manager_sets_a_daily_puzzle_posted_once_a_day(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    resolved: dict[str, Any] = {"channels": {str(CHANNEL): {
        "id": str(CHANNEL), "type": 0, "name": "puzzles", "permissions": MANAGER,
        "guild_id": str(GUILD)}}}
    answer = only_answer(await run(h, slash(
       h, "puzzle-daily", [option("channel", str(CHANNEL), 7)], resolved=resolved,
       permissions=MANAGER)))
    assert answer.ephemeral and f"<#{CHANNEL}>" in answer.content
    # Without a variant, in words (not "any"); with one, its name (not its key).
    assert answer.content.endswith("once a day (the variants in turn)."), answer.content
    italian = only_answer(await run(h, slash(
       h, "puzzle-daily", [option("channel", str(CHANNEL), 7), option("variant", "italian", 3)],
       resolved=resolved, permissions=MANAGER)))
    assert italian.content.endswith("once a day (Italian draughts)."), italian.content
    h.clock.now = datetime(2026, 12, 1, 9, tzinfo=UTC)
    before = len(h.discord.calls)
    assert await h.bot.services.daily_puzzles.run_once() == [GUILD]
    assert await h.bot.services.daily_puzzles.run_once() == []
    [post] = channel_posts(h.discord.calls[before:])
    assert post.files[0][0] == "puzzle.png"
    # Posted for everyone: the default reader's picture, Italian squares numbered.
    assert post.files[0][1] == render_png(Position.from_fen(SHOT, get_variant("italian")),
                                          "italian", numbers=True)
    assert "Daily puzzle, 2026-12-01" in post.body["embeds"][0]["title"]
    assert "Press **Solve it**" in post.body["embeds"][0]["description"]
    assert post.custom_ids == [f"dama:psolve:{shot_puzzle().id}"]
    # Anyone may solve it from the post's button, privately.
    message = response_message_id(h, post)
    answer = only_answer(await run(h, press(h, message, post.custom_ids[0], user=BOB)))
    assert answer.ephemeral and answer.files[0][0] == "puzzle.png"
    # The next day, once more.
    h.clock.now = datetime(2026, 12, 2, 9, tzinfo=UTC)
    assert await h.bot.services.daily_puzzles.run_once() == [GUILD]
    answer = only_answer(await run(h, slash(h, "puzzle-daily-stop", permissions=MANAGER)))
    assert "stopped" in answer.content


async def test_a_daily_puzzle_stopped_and_set_again_is_not_posted_twice_that_day(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    resolved: dict[str, Any] = {"channels": {str(CHANNEL): {
        "id": str(CHANNEL), "type": 0, "name": "puzzles", "permissions": MANAGER,
        "guild_id": str(GUILD)}}}
    await run(h, slash(h, "puzzle-daily", [option("channel", str(CHANNEL), 7)],
                       resolved=resolved, permissions=MANAGER))
    h.clock.now = datetime(2026, 12, 1, 9, tzinfo=UTC)
    assert await h.bot.services.daily_puzzles.run_once() == [GUILD]
    answer = only_answer(await run(h, slash(h, "puzzle-daily-stop", permissions=MANAGER)))
    assert "stopped" in answer.content
    # Set again the same UTC day: that day was posted already.
    answer = only_answer(await run(h, slash(
       h, "puzzle-daily", [option("channel", str(CHANNEL), 7)], resolved=resolved,
       permissions=MANAGER)))
    assert f"<#{CHANNEL}>" in answer.content
    before = len(h.discord.calls)
    assert await h.bot.services.daily_puzzles.run_once() == []
    assert channel_posts(h.discord.calls[before:]) == []
    h.clock.now = datetime(2026, 12, 2, 9, tzinfo=UTC)
    assert await h.bot.services.daily_puzzles.run_once() == [GUILD]


def _cache_server(h: Any, *, everyone: int, bot_allowed_in_channel: int = 0) -> None:
    """Put the server in the bot's cache, as the GUILD_CREATE of the gateway does: the
    @everyone role with the permissions `everyone`, the bot's member (no other role) and
    the daily puzzle's channel, whose overwrite allows the bot `bot_allowed_in_channel`."""
    bot_id = h.bot.user.id
    overwrites = ([{"id": str(bot_id), "type": 1, "allow": str(bot_allowed_in_channel),
                    "deny": "0"}] if bot_allowed_in_channel else [])
    data: dict[str, Any] = {
        "id": str(GUILD), "name": "server", "owner_id": str(CAROL), "features": [],
        "roles": [{"id": str(GUILD), "name": "@everyone", "permissions": str(everyone),
                   "position": 0, "color": 0, "hoist": False, "managed": False,
                   "mentionable": False, "flags": 0}],
        "channels": [{"id": str(CHANNEL), "type": 0, "name": "puzzles", "position": 0,
                      "permission_overwrites": overwrites, "nsfw": False,
                      "parent_id": None, "guild_id": str(GUILD)}],
        "members": [{"user": {"id": str(bot_id), "username": "dama", "discriminator": "0",
                              "avatar": None, "bot": True},
                     "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                     "mute": False, "flags": 0}],
        "member_count": 1, "emojis": [], "stickers": [],
    }
    state = h.bot._connection
    state._add_guild(discord.Guild(data=cast(Any, data), state=state))


async def test_a_daily_puzzle_is_refused_in_a_channel_the_bot_cannot_post_in(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    view, send, embed, attach = 0x400, 0x800, 0x4000, 0x8000
    _cache_server(h, everyone=view | send)
    resolved: dict[str, Any] = {"channels": {str(CHANNEL): {
        "id": str(CHANNEL), "type": 0, "name": "puzzles", "permissions": MANAGER,
        "guild_id": str(GUILD)}}}
    # The interaction's app_permissions (the bot's, where the command is used) are every
    # permission: they say nothing of the chosen channel.
    answer = only_answer(await run(h, slash(
       h, "puzzle-daily", [option("channel", str(CHANNEL), 7)], resolved=resolved,
       permissions=MANAGER)))
    assert answer.ephemeral
    assert "missing Embed Links and Attach Files there" in answer.content
    assert ("needs all of these: View Channel, Send Messages, Embed Links, and Attach Files)"
            in answer.content)
    # The lists are joined as the reader's language joins a list.
    answer = only_answer(await run(h, slash(
       h, "puzzle-daily", [option("channel", str(CHANNEL), 7)], resolved=resolved,
       permissions=MANAGER, locale="fr")))
    assert (f"{text(Msg.PERMISSION_EMBED_LINKS, 'fr')} et "
            f"{text(Msg.PERMISSION_ATTACH_FILES, 'fr')}") in answer.content
    assert await h.bot.services.storage.puzzles.daily(GUILD) is None
    # Allowed in that channel (its overwrite for the bot): accepted.
    _cache_server(h, everyone=view | send, bot_allowed_in_channel=embed | attach)
    answer = only_answer(await run(h, slash(
       h, "puzzle-daily", [option("channel", str(CHANNEL), 7)], resolved=resolved,
       permissions=MANAGER)))
    assert f"will be posted in <#{CHANNEL}>" in answer.content
    assert await h.bot.services.storage.puzzles.daily(GUILD) is not None


async def test_the_daily_puzzle_commands_are_for_server_managers(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"), sync=True,
                       puzzle_banks={"italian": [shot_puzzle()]})
    [sync] = [c for c in h.discord.calls if c.method == "PUT"]
    commands = {c["name"]: c for c in sync.payload}
    assert int(commands["puzzle-daily"]["default_member_permissions"]) == 0x20
    assert int(commands["puzzle-daily-stop"]["default_member_permissions"]) == 0x20
    assert commands["puzzle"].get("default_member_permissions") is None
    solve = {o["name"]: o for o in commands["solve"]["options"]}
    assert solve["move"]["autocomplete"]


async def test_a_puzzle_speaks_the_solvers_language(open_bot: OpenBot, tmp_path: Path) -> None:
    # The variant's name and the puzzle's source are in the solver's language, as the
    # rest of the message is; so is the variant of a refusal.
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    answer = only_answer(await run(h, slash(h, "puzzle", [option("variant", "italian")],
                                            locale="tr")))
    embed = answer.body["embeds"][0]
    assert "İtalyan daması" in embed["title"] and "Italian" not in embed["title"]
    assert "a recorded game" not in embed["description"]
    assert "hand-made.pdn#1" in embed["description"]  # the source's name, as stored
    refused = only_answer(await run(h, slash(h, "puzzle", [option("variant", "turkish")],
                                             locale="fr")))
    assert "de dames turques." in refused.content and "Turkish" not in refused.content


async def test_puzzles_follow_the_readers_chosen_language(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    # Arabic can only be chosen with /settings (Discord has no Arabic client): the puzzle,
    # its answers and its buttons' answers follow that choice, not the English client.
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    await run(h, slash(h, "settings", [option("language", "ar")]))
    answer = only_answer(await run(h, slash(h, "puzzle")))
    assert "الضامة الإيطالية" in answer.body["embeds"][0]["title"]
    message = response_message_id(h, answer)
    answer = only_answer(await run(h, press(h, message, f"dama:phint:{ALICE}:{shot_puzzle().id}",
                                            user=ALICE)))
    assert "تلميح" in embed_description(answer), embed_description(answer)


async def test_the_daily_puzzle_is_posted_in_the_servers_language(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    await run(h, slash(h, "server-settings", [option("language", "tr")], permissions=MANAGER))
    resolved: dict[str, Any] = {"channels": {str(CHANNEL): {
        "id": str(CHANNEL), "type": 0, "name": "puzzles", "permissions": MANAGER,
        "guild_id": str(GUILD)}}}
    await run(h, slash(h, "puzzle-daily", [option("channel", str(CHANNEL), 7)],
                       resolved=resolved, permissions=MANAGER))
    h.clock.now = datetime(2026, 12, 1, 9, tzinfo=UTC)
    before = len(h.discord.calls)
    assert await h.bot.services.daily_puzzles.run_once() == [GUILD]
    [post] = channel_posts(h.discord.calls[before:])
    embed = post.body["embeds"][0]
    assert "Günün bulmacası" in embed["title"] and "**Çöz**" in embed["description"]


async def test_an_old_puzzles_buttons_leave_the_puzzle_under_way_alone(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    # Reveal pressed on the message of a puzzle the solver left for another must not
    # reveal the other one (and record it lost, unseen): it says so, and nothing changes.
    first, second = shot_puzzle(), replace(shot_puzzle(), id="italian-0000000002")
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [first, second]})
    answer = only_answer(await run(h, slash(h, "puzzle")))
    old = response_message_id(h, answer)
    [reveal] = [c for c in answer.custom_ids if c.startswith("dama:preveal:")]
    [hint] = [c for c in answer.custom_ids if c.startswith("dama:phint:")]
    given = first.id if first.id in answer.body["embeds"][0]["title"] else second.id
    other = second.id if given == first.id else first.id
    await h.bot.services.puzzles.start_puzzle(ALICE, other)  # as the daily post's Solve it does
    for custom_id in (reveal, hint):
        answer = only_answer(await run(h, press(h, old, custom_id, user=ALICE)))
        assert answer.ephemeral and "no longer" in answer.content, answer.content
    assert await h.bot.services.storage.puzzles.rating(ALICE, "italian") is None  # nothing recorded
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")])))
    assert "The defence: **10x19**" in embed_description(answer)  # still under way (c6xe4)


async def test_members_without_manage_server_cannot_set_or_stop_the_daily_puzzle(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    # default_permissions only hides the commands: an admin may grant them to others in
    # the server's integration settings, and a client can send them anyway. The commands
    # check Manage Server themselves, as /server-settings does.
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    member = str(0x400 | 0x800)  # view channel, send messages
    resolved: dict[str, Any] = {"channels": {str(CHANNEL): {
        "id": str(CHANNEL), "type": 0, "name": "puzzles", "permissions": member,
        "guild_id": str(GUILD)}}}
    refused = only_answer(await run(h, slash(
       h, "puzzle-daily", [option("channel", str(CHANNEL), 7)], resolved=resolved,
       permissions=member, user=BOB)))
    assert refused.ephemeral and "Manage Server" in refused.content
    assert await h.bot.services.storage.puzzles.daily(GUILD) is None
    await run(h, slash(h, "puzzle-daily", [option("channel", str(CHANNEL), 7)],
                       resolved=resolved, permissions=MANAGER))
    refused = only_answer(await run(h, slash(h, "puzzle-daily-stop", permissions=member,
                                             user=BOB)))
    assert "Manage Server" in refused.content
    assert await h.bot.services.storage.puzzles.daily(GUILD) is not None


async def test_a_deleted_channel_stops_the_daily_puzzle(open_bot: OpenBot, tmp_path: Path) -> None:
    # The channel chosen for the daily puzzle was deleted: the post is refused (404
    # Unknown Channel); the daily puzzle of that server stops instead of failing every day.
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    resolved: dict[str, Any] = {"channels": {str(CHANNEL): {
        "id": str(CHANNEL), "type": 0, "name": "puzzles", "permissions": MANAGER,
        "guild_id": str(GUILD)}}}
    await run(h, slash(h, "puzzle-daily", [option("channel", str(CHANNEL), 7)],
                       resolved=resolved, permissions=MANAGER))
    h.discord.gone_channels.add(CHANNEL)
    h.clock.now = datetime(2026, 12, 1, 9, tzinfo=UTC)
    assert await h.bot.services.daily_puzzles.run_once() == []
    assert await h.bot.services.storage.puzzles.daily(GUILD) is None
    h.clock.now = datetime(2026, 12, 2, 9, tzinfo=UTC)
    before = len(h.discord.calls)
    assert await h.bot.services.daily_puzzles.run_once() == []
    assert channel_posts(h.discord.calls[before:]) == []


async def test_solve_it_on_a_puzzle_met_before_says_it_is_not_rated(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    answer = only_answer(await run(h, slash(h, "puzzle", user=BOB)))
    message = response_message_id(h, answer)
    assert "not rated" not in embed_description(answer)
    await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB))
    solved = only_answer(await run(h, slash(h, "solve", [option("move", "f3xf7")], user=BOB)))
    assert "solved" in embed_description(solved)
    post = {**h.discord.messages[message], "components": [{"type": 1, "components": [
        {"type": 2, "style": 3, "label": "Solve it",
         "custom_id": f"dama:psolve:{shot_puzzle().id}"}]}]}
    again = only_answer(await run(h, press(h, message, f"dama:psolve:{shot_puzzle().id}",
                                           user=BOB, snapshot=post)))
    assert "You have met this puzzle before: this time is not rated." in embed_description(again)


async def test_a_puzzle_continues_after_a_restart_and_is_rated_once(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    path, clock, bank = tmp_path / "db.sqlite3", FakeClock(), {"italian": [shot_puzzle()]}
    h = await open_bot(settings_for(path), clock=clock, puzzle_banks=bank)
    answer = only_answer(await run(h, slash(h, "puzzle", [option("variant", "italian")],
                                            user=BOB)))
    puzzle_message = response_message_id(h, answer)
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB)))
    # Italian texts are numbered by default (c6 = 10, e4 = 19, f3 = 23; docs/RULES.md).
    assert "The defence: **10x19**" in embed_description(answer)
    await h.bot.close()

    h = await open_bot(settings_for(path), clock=clock, puzzle_banks=bank)
    [auto] = await run(h, h.discord.interaction(4, {
        "id": "1", "name": "solve", "type": 1,
        "options": [option("move", "", focused=True)]}, user_id=BOB, channel_id=CHANNEL))
    # The position after 1. c4-d5 c6xe4: the capture is compulsory, f3's is the only one.
    assert [c["value"] for c in auto.payload["data"]["choices"]] == ["f3xf7"]
    # The Hint button of the message posted before the restart names the next piece.
    hint = f"dama:phint:{BOB}:{shot_puzzle().id}"
    answer = only_answer(await run(h, press(h, puzzle_message, hint,
                                            user=BOB)))
    assert answer.ephemeral and "move the piece on **23**" in embed_description(answer)
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "f3xf7")], user=BOB)))
    assert answer.ephemeral and "solved" in embed_description(answer)
    rating = await h.bot.services.storage.puzzles.rating(BOB, "italian")
    assert rating is not None and (rating.attempts, rating.solved) == (1, 0)  # hinted
    await h.bot.close()

    h = await open_bot(settings_for(path), clock=clock, puzzle_banks=bank)
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "f3xf7")], user=BOB)))
    assert answer.ephemeral and "no puzzle under way" in answer.content
    rating = await h.bot.services.storage.puzzles.rating(BOB, "italian")
    assert rating is not None and rating.attempts == 1


async def test_a_puzzle_the_new_bank_lacks_is_ended_with_a_message(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    path, clock = tmp_path / "db.sqlite3", FakeClock()
    h = await open_bot(settings_for(path), clock=clock,
                       puzzle_banks={"italian": [shot_puzzle()]})
    await run(h, slash(h, "puzzle", [option("variant", "italian")], user=BOB))
    await h.bot.close()
    other = shot_puzzle(("c4-d5", "e6xc4", "b3xd5xb7"))
    h = await open_bot(settings_for(path), clock=clock, puzzle_banks={"italian": [other]})
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB)))
    assert answer.ephemeral
    assert f"The puzzle you were solving ({other.id}) was changed or removed" in answer.content
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB)))
    assert "no puzzle under way" in answer.content


async def test_a_provisional_puzzle_rating_is_shown_with_its_question_mark(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    # After one rated attempt the deviation is still 110 or more: the rating the next
    # puzzle shows is provisional, "1234?" as everywhere else (docs/PLAYING.md).
    second = replace(shot_puzzle(), id="italian-0000000002")
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle(), second]})
    await run(h, slash(h, "puzzle", user=BOB))
    wrong = only_answer(await run(h, slash(h, "solve", [option("move", "f3-e4")], user=BOB)))
    assert "is not the winning move" in embed_description(wrong)
    rating = await h.bot.services.storage.puzzles.rating(BOB, "italian")
    assert rating is not None and rating.value.deviation >= 110
    answer = only_answer(await run(h, slash(h, "puzzle", user=BOB)))
    shown = f"Your puzzle rating: {round(rating.value.rating)}?, streak 0."
    assert shown in embed_description(answer), embed_description(answer)
