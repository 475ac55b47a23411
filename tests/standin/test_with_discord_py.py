"""A real discord.py bot against the stand-in over loopback sockets.

Every expectation comes from Discord's documented behaviour (interactions, follow-ups,
ephemeral messages, error codes) or from the test bot's own definition, never from the
stand-in's output.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord
import pytest

from bot.discord_endpoint import discord_url
from standin import (
    BotDidNotAnswer,
    CallbackType,
    EventKind,
    GuildInfo,
    MessageOrigin,
    Permission,
    StandIn,
    StandInError,
)
from standin.openapi import OpenApiCheck
from tests.support.discord_spec import checked_by_spec
from tests.support.standin_probe_bot import MOVES, ProbeBot, running


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    """discord.py's requests and the stand-in's answers both meet Discord's specification."""
    yield from checked_by_spec()


def _option_view(options: list[dict[str, Any]]) -> list[tuple[object, ...]]:
    return [
        (
            o["name"],
            o["type"],
            bool(o.get("required", False)),
            bool(o.get("autocomplete", False)),
            tuple((c["name"], c["value"]) for c in o.get("choices", [])),
        )
        for o in options
    ]


async def test_login_registers_the_tree_and_keeps_ids(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        registered = {c["name"]: c for c in standin.commands()}
        expected = {
            c["name"]: c for c in (cmd.to_dict(bot.tree) for cmd in bot.tree.get_commands())
        }
        assert set(registered) == set(expected)
        for name, cmd in expected.items():
            got = registered[name]
            assert got["description"] == cmd["description"]
            assert _option_view(got["options"]) == _option_view(cmd.get("options", []))
            assert got["contexts"] == cmd.get("contexts")
            assert int(got["application_id"]) == standin.application_id
        assert registered["challenge"]["contexts"] == [0]  # guild_only
        # GET back through discord.py: the same ids.
        fetched = await bot.tree.fetch_commands()
        assert {c.name: c.id for c in fetched} == {n: int(c["id"]) for n, c in registered.items()}
        # A second sync keeps every id (bulk overwrite of the same names).
        synced = await bot.tree.sync()
        assert {c.name: c.id for c in synced} == {n: int(c["id"]) for n, c in registered.items()}
        assert bot.user is not None and bot.user.id == standin.bot.id and bot.user.bot
        assert bot.application_id == standin.application_id


async def test_slash_with_options_and_autocomplete(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        result = await standin.slash("alice", "general", "move", {"move": "22-18", "note": "sharp"})
        assert result.callback is CallbackType.CHANNEL_MESSAGE
        assert result.reply.content == "alice plays 22-18 (sharp)"
        assert result.reply.origin is MessageOrigin.INTERACTION_RESPONSE
        assert not result.reply.ephemeral and result.reply.visible_to is None
        assert result.reply.interaction_user_id == standin.user("alice").id
        assert [b.custom_id for b in result.reply.buttons] == [
            "probe:poke",
            "probe:answer",
            "probe:slowpoke",
            "probe:shy",
        ]
        assert result.latency >= 0
        choices = await standin.autocomplete("alice", "general", "move", {"move": "22"})
        assert [c.value for c in choices] == [m for m in MOVES if m.startswith("22")]
        everything = await standin.autocomplete("bob", "general", "move", {"move": ""})
        assert [c.name for c in everything] == list(MOVES)


async def test_deferred_answer_with_file_is_served_back(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        result = await standin.slash("carol", "games", "board")
        assert result.callback is CallbackType.DEFERRED_CHANNEL_MESSAGE
        reply = result.reply
        # The first follow-up after a deferral edits the "thinking" message (Discord docs).
        assert reply.origin is MessageOrigin.INTERACTION_RESPONSE
        assert not reply.loading and reply.edited
        [att] = reply.attachments
        assert att.filename == "board.png" and att.content_type == "image/png"
        assert (att.width, att.height) == (24, 16)
        assert att.data == bot.png == standin.attachment_bytes(att)
        async with aiohttp.ClientSession() as http, http.get(att.url) as resp:
            assert resp.status == 200
            assert await resp.read() == bot.png
        [embed] = reply.embeds
        assert embed["title"] == "Board"
        assert embed["image"]["url"] == att.url  # attachment://board.png resolved
        assert len(standin.messages("games")) == 1


async def test_ephemeral_answer_is_only_for_the_caller(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        result = await standin.slash("dave", "general", "secret")
        reply = result.reply
        assert reply.ephemeral and reply.content == "only for you"
        assert reply.visible_to == reply.interaction_user_id == standin.user("dave").id
        assert standin.messages("general", visible_to="dave") == [reply]
        assert standin.messages("general", visible_to="owner") == []
        channel = bot.get_channel(standin.channel("general").id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.NotFound) as caught:
            await channel.fetch_message(reply.id)
        assert caught.value.code == 10008
        assert [m async for m in channel.history()] == []


async def test_original_response_edits_followups_and_replies(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        mark = standin.event_count
        result = await standin.slash("alice", "general", "chain")
        done = await standin.wait_for_message(
            lambda e: e.message.content == "done", since=mark, timeout=10
        )
        answer = standin.interaction(result.interaction_id)
        first, extra = answer.messages
        assert first.content == f"step 2 of {first.id}" and first.ephemeral and first.edited
        assert extra.origin is MessageOrigin.FOLLOWUP and extra.ephemeral
        assert answer.followups == (extra,)
        assert extra.content == "step 4"
        anchor = standin.messages("general", include_ephemeral=False)[0]
        assert anchor.content == "anchor" and anchor.origin is MessageOrigin.BOT_CHANNEL
        channel = bot.get_channel(done.message.channel_id)
        assert isinstance(channel, discord.TextChannel)
        fetched = await channel.fetch_message(done.message.id)
        assert fetched.type is discord.MessageType.reply
        assert fetched.reference is not None and fetched.reference.message_id == anchor.id
        assert isinstance(fetched.reference.resolved, discord.Message)
        assert fetched.reference.resolved.content == "anchor"


async def test_typing_and_deleting_the_answer(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        mark = standin.event_count
        result = await standin.slash("alice", "general", "vanish")
        gone = await standin.wait_for_message(
            lambda e: e.kind is EventKind.DELETE, since=mark, timeout=10
        )
        assert gone.message.id == result.reply.id and gone.message.deleted
        assert standin.message(result.reply).deleted
        assert standin.messages("general") == []
        assert standin.typing_count("general") == 1


async def test_a_private_answer_after_a_public_deferral_is_the_reply(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        result = await standin.slash("alice", "general", "whisper")
        assert result.reply.content == "only you" and result.ephemeral
        assert [m.deleted for m in standin.interaction(result.interaction_id).messages] == [
            True, False]
        assert standin.messages("general", include_ephemeral=False) == []


async def test_select_menu_on_a_non_persistent_view(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        asked = await standin.slash("alice", "general", "pick")
        picked = await standin.select("bob", asked.reply, "Pick a variant", ["turkish"])
        assert picked.callback is CallbackType.UPDATE_MESSAGE
        assert picked.reply.content == "picked turkish" and picked.reply.components == ()


async def test_member_option_choice_and_boolean(standin: StandIn, guild: GuildInfo) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        result = await standin.slash(
            "alice",
            "general",
            "challenge",
            {"opponent": "bob", "variant": "Italian", "rated": False},
        )
        alice, bob = standin.user("alice"), standin.user("bob")
        assert result.reply.content == (
            f"<@{alice.id}> challenges <@{bob.id}> (bob, bot=False) to italian, rated=False"
        )
        robot = standin.user("robo", bot=True)
        again = await standin.slash(
            "alice", "general", "challenge", {"opponent": robot, "variant": "turkish"}
        )
        assert "(robo, bot=True) to turkish, rated=True" in again.reply.content
        with pytest.raises(StandInError, match="needs option"):
            await standin.slash("alice", "general", "challenge", {"variant": "italian"})
        with pytest.raises(StandInError, match="choices"):
            await standin.slash(
                "alice", "general", "challenge", {"opponent": "bob", "variant": "checkers"}
            )
        with pytest.raises(StandInError, match="no slash command /nothing"):
            await standin.slash("alice", "general", "nothing")
        assert [o["name"] for o in standin.options_of("challenge")] == [
            "opponent",
            "variant",
            "rated",
        ]


async def test_sub_commands_and_integer_ranges(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        shown = await standin.slash("alice", "general", "game show", {"n": "3"})
        assert shown.reply.content == "show 3 (int)"
        assert [o["name"] for o in standin.options_of("game show")] == ["n"]
        with pytest.raises(StandInError, match="between 1 and 9"):
            await standin.slash("alice", "general", "game show", {"n": 10})
        with pytest.raises(StandInError, match="needs a sub-command"):
            await standin.slash("alice", "general", "game")


async def test_persistent_button_press_updates_the_message(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        posted = await standin.slash("alice", "general", "move", {"move": "21-17"})
        pressed = await standin.press("bob", posted.reply, "Poke")
        assert pressed.callback is CallbackType.UPDATE_MESSAGE
        assert pressed.reply.id == posted.reply.id
        assert standin.message(posted.reply).content == "poked by bob"
        by_id = await standin.press("carol", posted.reply, "probe:poke")
        assert by_id.reply.content == "poked by carol"
        answered = await standin.press("dave", posted.reply, "answer")  # label, any case
        assert answered.callback is CallbackType.CHANNEL_MESSAGE
        assert answered.reply.id != posted.reply.id
        assert answered.reply.content == "answer for dave"
        # The handler read @original back and checked it is a reply to the button's message.
        await asyncio.wait_for(bot.answer_checked.wait(), 10)
        with pytest.raises(StandInError, match="no component"):
            await standin.press("carol", posted.reply, "Resign")


async def test_deferred_update_then_edit_and_modal(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        posted = await standin.slash("alice", "general", "move", {"move": "22-18"})
        pressed = await standin.press("bob", posted.reply, "Slowpoke")
        assert pressed.callback is CallbackType.DEFERRED_UPDATE_MESSAGE
        assert pressed.reply.id == posted.reply.id
        assert pressed.reply.content == "slowly poked by bob" and pressed.reply.buttons == ()
        with pytest.raises(StandInError, match="no component"):
            await standin.press("bob", posted.reply, "Poke")
        opened = await standin.slash("alice", "general", "note")
        assert opened.callback is CallbackType.MODAL and opened.messages == ()
        assert opened.modal is not None and opened.modal.title == "Leave a note"
        assert opened.modal.inputs == ("note:text",)
        noted = await standin.submit_modal("alice", opened, {"note:text": "good game"})
        assert noted.reply.content == "noted: good game" and noted.reply.ephemeral


async def test_a_deferred_update_answered_privately_leaves_the_pressed_message_out(
    standin: StandIn,
) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        posted = await standin.slash("alice", "general", "move", {"move": "22-18"})
        pressed = await standin.press("bob", posted.reply, "Shy")
        assert pressed.callback is CallbackType.DEFERRED_UPDATE_MESSAGE
        assert pressed.ephemeral and pressed.reply.content == "only bob sees this"
        assert standin.message(posted.reply).content == posted.reply.content


async def test_manage_messages_is_seen_by_the_bot(standin: StandIn, guild: GuildInfo) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        plain = await standin.slash("erin", "general", "perm")
        assert plain.reply.content == "manage_messages=False"
        with pytest.raises(
            StandInError, match="does not see /sweep: it needs the permission MANAGE_MESSAGES"
        ):
            await standin.slash("erin", "general", "sweep")
        mods = await standin.add_role(guild, "moderators", int(Permission.MANAGE_MESSAGES))
        await standin.give_role(guild, "erin", mods)
        moderated = await standin.slash("erin", "general", "perm")
        assert moderated.reply.content == "manage_messages=True"
        assert (await standin.slash("erin", "general", "sweep")).reply.content == "swept"
        owner = await standin.slash("owner", "general", "perm")
        assert owner.reply.content == "manage_messages=True"


async def test_a_guild_joined_later(standin: StandIn) -> None:
    # discord.py reports guilds arriving before its `ready` as available, later ones as
    # joined; a short guild_ready_timeout makes `ready` come quickly.
    bot = ProbeBot(guild_ready_timeout=0.05)
    async with running(standin, bot):
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        other = await standin.add_guild("Second Club", channels=("lobby",))
        joined = await asyncio.wait_for(bot.joined.get(), 10)
        assert joined.id == other.id and [c.name for c in joined.text_channels] == ["lobby"]
        result = await standin.slash("zoe", "lobby", "move", {"move": "22-18", "note": None})
        assert result.reply.content == "zoe plays 22-18"
        robot = standin.user("robo", bot=True)
        with pytest.raises(StandInError, match="bot account"):
            await standin.slash(robot, "lobby", "move", {"move": "22-18"})


async def test_threads_and_direct_messages(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        thread = await standin.add_thread("general", "alice vs bob", owner="alice")
        result = await standin.slash("alice", thread, "move", {"move": "23-19"})
        assert result.reply.channel_id == thread.id
        assert isinstance(bot.get_channel(thread.id), discord.Thread)
        dm = await standin.dm_channel("frank")
        in_dm = await standin.slash("frank", dm, "rules")
        assert in_dm.reply.content == "rules (dm)" and in_dm.reply.guild_id is None
        with pytest.raises(StandInError, match="direct messages"):
            await standin.slash("frank", dm, "perm")
        # The bot opens a DM and writes there itself.
        user = await bot.fetch_user(standin.user("frank").id)
        sent = await user.send("hello")
        assert standin.messages(dm)[-1].id == sent.id


async def test_gateway_messages_follow_intents(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        bot.message_seen.clear()
        await standin.say("alice", "general", "hello there")
        await asyncio.wait_for(bot.message_seen.wait(), 10)
        # Default intents lack message_content: Discord blanks other users' content.
        assert bot.seen[-1].content == "" and bot.seen[-1].author.name == "alice"
        bot.message_seen.clear()
        await standin.say("alice", "general", f"<@{standin.bot.id}> hi")
        await asyncio.wait_for(bot.message_seen.wait(), 10)
        assert bot.seen[-1].content == f"<@{standin.bot.id}> hi"
        bot.message_seen.clear()
        result = await standin.slash("alice", "general", "move", {"move": "22-19"})
        await asyncio.wait_for(bot.message_seen.wait(), 10)
        assert bot.seen[-1].id == result.reply.id
        assert bot.seen[-1].content == "alice plays 22-19"
        secret = await standin.slash("alice", "general", "secret")
        bot.message_seen.clear()
        marker = await standin.say("alice", "general", f"<@{standin.bot.id}> marker")
        await asyncio.wait_for(bot.message_seen.wait(), 10)
        # Events arrive in order: had the ephemeral answer been sent, it would be here.
        assert bot.seen[-1].id == marker.id
        assert secret.reply.id not in {m.id for m in bot.seen}


async def test_discord_errors_reach_the_bot(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        channel = bot.get_channel(standin.channel("general").id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.NotFound) as unknown:
            await channel.fetch_message(1234567890123456789)
        assert unknown.value.status == 404 and unknown.value.code == 10008
        with pytest.raises(discord.HTTPException) as too_long:
            await channel.send("x" * 2001)
        assert too_long.value.status == 400 and too_long.value.code == 50035
        assert "content" in str(too_long.value)
        with pytest.raises(discord.HTTPException) as empty:
            await channel.send(embeds=[])
        assert empty.value.code == 50006
        await standin.slash("alice", "general", "twice")
        assert await asyncio.wait_for(bot.second_answer_error, 10) == 40060
        sent = await channel.send("to delete")
        await sent.delete()
        assert standin.message(sent.id).deleted


async def test_unanswered_interaction_fails_like_discord() -> None:
    async with StandIn(ack_deadline=0.3) as standin:
        await standin.add_guild("Dama Club")
        bot = ProbeBot()
        async with running(standin, bot):
            with pytest.raises(BotDidNotAnswer, match=r"did not answer /slow within 0\.3 s"):
                await standin.slash("alice", "general", "slow")
            bot.release_slow.set()
            assert await asyncio.wait_for(bot.slow_error, 10) == 10062  # Unknown interaction


async def test_bot_resumes_after_the_gateway_drops(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        await standin.drop_gateway(4000)
        await standin.wait_until_connected(resumes=1)
        assert standin.identify_count == 1
        result = await standin.slash("alice", "general", "move", {"move": "22-18"})
        assert result.reply.content == "alice plays 22-18"
        await standin.request_reconnect()
        await standin.wait_until_connected(resumes=2)
        assert standin.identify_count == 1
        again = await standin.slash("bob", "general", "move", {"move": "21-17"})
        assert again.reply.content == "bob plays 21-17"


async def test_events_missed_while_disconnected_are_replayed(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        await standin.drop_gateway(4000)
        bot.message_seen.clear()
        said = await standin.say("alice", "general", f"<@{standin.bot.id}> still there?")
        await standin.wait_until_connected(resumes=1)
        await asyncio.wait_for(bot.message_seen.wait(), 10)
        assert [m.id for m in bot.seen] == [said.id]


@pytest.mark.slow
async def test_invalidated_session_identifies_again(standin: StandIn) -> None:
    # discord.py waits 5 s before identifying again (its identify rate limit), hence slow.
    bot = ProbeBot()
    async with running(standin, bot):
        await standin.invalidate_sessions()
        await standin.wait_until_connected(identifies=2, timeout=20)
        again = await standin.slash("bob", "general", "move", {"move": "21-17"})
        assert again.reply.content == "bob plays 21-17"


async def test_a_wrong_token_is_a_login_failure(standin: StandIn) -> None:
    bot = ProbeBot()
    with discord_url(standin.url):
        with pytest.raises(discord.LoginFailure):
            await asyncio.wait_for(bot.start("not-the-token"), 10)
        await bot.close()
    assert standin.identify_count == 0


async def test_many_users_at_once(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        results = await asyncio.gather(
            *(standin.slash(f"player{i}", "general", "move", {"move": "22-18"}) for i in range(40))
        )
        assert sorted(r.reply.content for r in results) == sorted(
            f"player{i} plays 22-18" for i in range(40)
        )
        assert len({r.reply.id for r in results}) == 40
        assert len(standin.messages("general")) == 40
