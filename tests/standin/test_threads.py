"""Threads as a real discord.py bot uses them: started from a message and without one,
posted in, archived and locked, refused as Discord refuses (Discord developer docs,
Topics > Threads; Resources > Channel, Start Thread, Modify Channel).

Expectations come from Discord's documentation and discord.py's documented API, never
from the stand-in's output.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import discord
import pytest

from standin import ChannelType, GuildInfo, Permission, StandIn, StandInError
from standin.openapi import OpenApiCheck
from tests.support.discord_spec import checked_by_spec
from tests.support.standin_probe_bot import ProbeBot, running


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    """discord.py's requests and the stand-in's answers both meet Discord's specification."""
    yield from checked_by_spec()


def _text_channel(bot: ProbeBot, standin: StandIn, name: str) -> discord.TextChannel:
    channel = bot.get_channel(standin.channel(name).id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_threads_from_a_message_and_without_one(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        games = _text_channel(bot, standin, "games")
        created = asyncio.ensure_future(bot.wait_for("thread_create", timeout=10))
        announcement = await games.send("Round 1 pairings")
        thread = await announcement.create_thread(name="Round 1", auto_archive_duration=60)
        assert thread.id == announcement.id  # a thread shares its start message's id
        assert thread.type is discord.ChannelType.public_thread
        assert thread.parent_id == games.id and thread.owner_id == standin.bot.id
        assert thread.auto_archive_duration == 60 and not thread.archived
        assert (await created).id == thread.id
        with pytest.raises(discord.HTTPException) as again:
            await announcement.create_thread(name="Round 1 again")
        assert again.value.code == 160004

        standings = await games.create_thread(
            name="Standings", type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
        assert standings.type is discord.ChannelType.public_thread
        assert standings.auto_archive_duration == 10080
        info = standin.channel(standings.id)
        assert info.kind is ChannelType.PUBLIC_THREAD and info.parent_id == games.id

        active = await games.guild.active_threads()
        assert sorted(t.name for t in active) == ["Round 1", "Standings"]
        with pytest.raises(discord.HTTPException) as nested:
            await bot.http.start_thread_without_message(
                standings.id, name="nested", auto_archive_duration=60, type=11
            )
        assert nested.value.code == 50024  # threads live under text channels only


async def test_posting_archiving_and_unarchiving(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        games = _text_channel(bot, standin, "games")
        thread = await games.create_thread(name="Round 1", type=discord.ChannelType.public_thread)
        sent = await thread.send("1. alice - bob")
        assert [m.id for m in standin.messages(thread.id)] == [sent.id]

        updated = asyncio.ensure_future(bot.wait_for("thread_update", timeout=10))
        archived = await thread.edit(archived=True)  # the creator may archive its thread
        assert archived.archived
        before, after = await updated
        assert not before.archived and after.archived
        assert await games.guild.active_threads() == []
        with pytest.raises(discord.Forbidden) as edit_refused:
            await sent.edit(content="1. alice - carol")
        assert edit_refused.value.code == 50083  # nothing happens in an archived thread
        with pytest.raises(StandInError, match="archived thread"):
            await standin.slash("alice", thread.id, "move", {"move": "22-18"})

        # A message unarchives it, as Discord does for a thread that is not locked.
        reopened = asyncio.ensure_future(bot.wait_for("thread_join", timeout=10))
        second = await thread.send("2. alice - carol")
        assert second.channel.id == thread.id
        assert not (await reopened).archived
        assert [t.id for t in await games.guild.active_threads()] == [thread.id]

        await standin.edit_thread(thread.id, by=standin.bot.id, archived=True)
        said = await standin.say("alice", thread.id, "good luck")  # a user's message too
        assert said.channel_id == thread.id
        fetched = await bot.fetch_channel(thread.id)
        assert isinstance(fetched, discord.Thread) and not fetched.archived


async def test_locking_takes_manage_threads(standin: StandIn, guild: GuildInfo) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        games = _text_channel(bot, standin, "games")
        thread = await games.create_thread(name="Final", type=discord.ChannelType.public_thread)
        with pytest.raises(discord.Forbidden) as refused:
            await thread.edit(locked=True)
        assert refused.value.code == 50013
        created = asyncio.ensure_future(bot.wait_for("thread_create", timeout=10))
        await standin.add_thread("games", "alice's table", owner="alice")
        theirs = await created
        with pytest.raises(discord.Forbidden) as not_creator:
            await theirs.edit(archived=True)  # archiving another's thread: MANAGE_THREADS
        assert not_creator.value.code == 50013

        # A moderator locks it: the bot, without MANAGE_THREADS, may no longer post.
        moderators = await standin.add_role(guild, "moderators", int(Permission.MANAGE_THREADS))
        await standin.give_role(guild, "mona", moderators)
        await standin.edit_thread(thread.id, by="mona", locked=True)
        with pytest.raises(discord.Forbidden) as locked:
            await thread.send("result: 1-0")
        assert locked.value.code == 160005
        await standin.edit_thread(thread.id, by="mona", archived=True)
        with pytest.raises(discord.Forbidden) as archived:
            await thread.send("result: 1-0")
        assert archived.value.code == 50083
        with pytest.raises(discord.Forbidden):
            await thread.edit(archived=False)  # a locked thread is unarchived by moderators
        with pytest.raises(StandInError, match="Thread is archived"):
            await standin.say("alice", thread.id, "let me in")

        # With MANAGE_THREADS the bot unarchives, posts, locks and archives itself.
        await standin.give_role(guild, standin.bot, moderators)
        reopened = await thread.edit(archived=False, locked=False)
        assert not reopened.archived and not reopened.locked
        await reopened.send("result: 1-0")
        closed = await reopened.edit(archived=True, locked=True)
        assert closed.archived and closed.locked
        assert standin.channel(thread.id).kind is ChannelType.PUBLIC_THREAD


async def test_thread_permissions_are_refused(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        games = _text_channel(bot, standin, "games")
        thread = await games.create_thread(name="Round 1", type=discord.ChannelType.public_thread)
        await standin.set_permissions(
            "games", standin.bot, deny=int(Permission.SEND_MESSAGES_IN_THREADS)
        )
        with pytest.raises(discord.Forbidden) as no_send:
            await thread.send("1. alice - bob")
        assert no_send.value.code == 50013
        await standin.set_permissions(  # replaces the overwrite above
            "games",
            standin.bot,
            deny=int(Permission.CREATE_PUBLIC_THREADS | Permission.CREATE_PRIVATE_THREADS),
        )
        start = await games.send("Round 2 pairings")  # SEND_MESSAGES still allowed
        with pytest.raises(discord.Forbidden) as no_public:
            await start.create_thread(name="Round 2")
        assert no_public.value.code == 50013
        with pytest.raises(discord.Forbidden) as no_private:
            await games.create_thread(name="Arbiters", type=discord.ChannelType.private_thread)
        assert no_private.value.code == 50013
        await thread.send("1. alice - bob")  # SEND_MESSAGES_IN_THREADS allowed again
