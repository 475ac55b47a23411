"""Guild scheduled events through a real discord.py bot and over plain REST: the routes,
the permissions, the gateway events under their intent, and users pressing "Interested".

Expectations come from Discord's developer docs (Resources > Guild Scheduled Event;
Topics > Gateway Events) and discord.py's documented API, never from the stand-in's output.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Iterator

import discord
import pytest

from standin import (
    GuildInfo,
    Permission,
    ScheduledEventEntityType,
    ScheduledEventStatus,
    StandIn,
    StandInError,
)
from standin.openapi import OpenApiCheck
from tests.support.discord_spec import checked_by_spec
from tests.support.standin_probe_bot import ProbeBot, running


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    """discord.py's requests and the stand-in's answers both meet Discord's specification."""
    yield from checked_by_spec()


def _intents(*, scheduled_events: bool = True) -> discord.Intents:
    """discord.py's defaults (GUILD_SCHEDULED_EVENTS among them) and the members intent,
    so that the users who press "Interested" are in the bot's cache."""
    intents = discord.Intents.default()
    intents.members = True
    intents.guild_scheduled_events = scheduled_events
    return intents


async def _allow_events(standin: StandIn, guild: GuildInfo) -> None:
    role = await standin.add_role(guild, "events", int(Permission.CREATE_EVENTS))
    await standin.give_role(guild, standin.bot, role)


def _times() -> tuple[datetime.datetime, datetime.datetime]:
    start = discord.utils.utcnow() + datetime.timedelta(hours=1)
    return start, start + datetime.timedelta(hours=3)


async def _create(guild: discord.Guild, name: str = "Spring Swiss") -> discord.ScheduledEvent:
    start, end = _times()
    return await guild.create_scheduled_event(
        name=name,
        start_time=start,
        end_time=end,
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location="#games",
        description="Five rounds, Swiss pairing",
    )


async def test_creating_an_event_needs_the_create_events_permission(
    standin: StandIn, guild: GuildInfo
) -> None:
    bot = ProbeBot(intents=_intents())
    async with running(standin, bot):
        server = bot.get_guild(guild.id)
        assert server is not None
        with pytest.raises(discord.Forbidden) as refused:
            await _create(server)
        assert refused.value.status == 403 and refused.value.code == 50013
        assert standin.scheduled_events(guild) == []
        await _allow_events(standin, guild)
        event = await _create(server)
        assert event.name == "Spring Swiss" and event.location == "#games"
        assert event.entity_type is discord.EntityType.external
        assert event.status is discord.EventStatus.scheduled
        assert event.creator_id == standin.bot.id
        [info] = standin.scheduled_events(guild)
        assert info.id == event.id and info.location == "#games"
        assert info.entity_type is ScheduledEventEntityType.EXTERNAL
        assert info.status is ScheduledEventStatus.SCHEDULED


async def test_interest_reaches_the_bot_and_lists_the_users(
    standin: StandIn, guild: GuildInfo
) -> None:
    await _allow_events(standin, guild)
    bot = ProbeBot(intents=_intents())
    async with running(standin, bot):
        server = bot.get_guild(guild.id)
        assert server is not None
        created = asyncio.ensure_future(bot.wait_for("scheduled_event_create", timeout=10))
        event = await _create(server)
        assert (await created).id == event.id
        assert server.get_scheduled_event(event.id) is not None

        added = asyncio.ensure_future(bot.wait_for("scheduled_event_user_add", timeout=10))
        await standin.mark_interested("alice", event.id)
        seen_event, seen_user = await added
        assert seen_event.id == event.id and seen_user.id == standin.user("alice").id
        with pytest.raises(StandInError, match="bot account"):
            await standin.mark_interested(standin.bot, event.id)
        info = await standin.mark_interested("bob", event.id)
        again = await standin.mark_interested("bob", event.id)  # pressing twice: no change
        assert info.interested_ids == again.interested_ids
        assert info.interested_ids == (standin.user("alice").id, standin.user("bob").id)

        fetched = await server.fetch_scheduled_event(event.id, with_counts=True)
        assert fetched.user_count == 2
        users = [u.id async for u in fetched.users()]
        assert users == sorted([standin.user("alice").id, standin.user("bob").id])

        removed = asyncio.ensure_future(bot.wait_for("scheduled_event_user_remove", timeout=10))
        await standin.unmark_interested("alice", event.id)
        seen_event, seen_user = await removed
        assert seen_event.id == event.id and seen_user.id == standin.user("alice").id
        assert [u.id async for u in fetched.users()] == [standin.user("bob").id]


async def test_an_event_starts_ends_and_is_then_final(standin: StandIn, guild: GuildInfo) -> None:
    await _allow_events(standin, guild)
    bot = ProbeBot(intents=_intents())
    async with running(standin, bot):
        server = bot.get_guild(guild.id)
        assert server is not None
        event = await _create(server)
        updated = asyncio.ensure_future(bot.wait_for("scheduled_event_update", timeout=10))
        started = await event.start()
        assert started.status is discord.EventStatus.active
        before, after = await updated
        assert before.status is discord.EventStatus.scheduled
        assert after.status is discord.EventStatus.active
        renamed = await started.edit(name="Spring Swiss, round 2")
        assert renamed.name == "Spring Swiss, round 2"
        ended = await renamed.end()
        assert ended.status is discord.EventStatus.completed
        with pytest.raises(discord.HTTPException) as final:
            await ended.edit(name="too late")
        assert final.value.code == 180000
        with pytest.raises(StandInError, match="COMPLETED"):
            await standin.mark_interested("alice", event.id)
        # A finished event leaves the guild's list, and the next login's GUILD_CREATE.
        assert await server.fetch_scheduled_events() == []
        assert standin.scheduled_events(guild) == []
        assert standin.scheduled_event(event.id).status is ScheduledEventStatus.COMPLETED


async def test_deleting_an_event(standin: StandIn, guild: GuildInfo) -> None:
    await _allow_events(standin, guild)
    bot = ProbeBot(intents=_intents())
    async with running(standin, bot):
        server = bot.get_guild(guild.id)
        assert server is not None
        event = await _create(server)
        deleted = asyncio.ensure_future(bot.wait_for("scheduled_event_delete", timeout=10))
        await event.delete()
        assert (await deleted).id == event.id
        with pytest.raises(discord.NotFound) as unknown:
            await server.fetch_scheduled_event(event.id)
        assert unknown.value.code == 10070
        with pytest.raises(StandInError, match="no scheduled event"):
            await standin.mark_interested("alice", event.id)


async def test_events_reach_only_sessions_with_the_intent(
    standin: StandIn, guild: GuildInfo
) -> None:
    await _allow_events(standin, guild)
    bot = ProbeBot(intents=_intents(scheduled_events=False))
    async with running(standin, bot):
        server = bot.get_guild(guild.id)
        assert server is not None
        event = await _create(server)
        await standin.mark_interested("alice", event.id)
        bot.message_seen.clear()
        await standin.say("alice", "general", f"<@{standin.bot.id}> marker")
        await asyncio.wait_for(bot.message_seen.wait(), 10)
        # Events arrive in order: had GUILD_SCHEDULED_EVENT_CREATE been sent, it would
        # have put the event in the guild's cache before this message arrived.
        assert list(server.scheduled_events) == []
        assert [e.id for e in await server.fetch_scheduled_events()] == [event.id]


async def test_the_guild_create_lists_the_unfinished_events(
    standin: StandIn, guild: GuildInfo
) -> None:
    await _allow_events(standin, guild)
    first = ProbeBot(intents=_intents())
    async with running(standin, first):
        server = first.get_guild(guild.id)
        assert server is not None
        kept = await _create(server, "Spring Swiss")
        await (await _create(server, "Cancelled cup")).cancel()
    second = ProbeBot(intents=_intents())
    async with running(standin, second):
        await asyncio.wait_for(second.wait_until_ready(), 10)
        server = second.get_guild(guild.id)
        assert server is not None
        assert [(e.id, e.name, e.location) for e in server.scheduled_events] == [
            (kept.id, "Spring Swiss", "#games")
        ]
