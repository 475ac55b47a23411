"""Channels the stand-in creates on request: the bot's DM channel with a user, the DMs and
group DMs between users (where only a user-installed app answers interactions), and
threads (Discord docs, Create DM and Start Thread); the REST routes and the driver both
use them."""

from __future__ import annotations

from .core import Core
from .gateway import Intent
from .model import Channel, ChannelType


def _people_key(people: list[int]) -> str:
    """The name a private channel's id is derived from: its people's ids, sorted."""
    return ",".join(str(person) for person in sorted(people))


def dm_channel(core: Core, user_id: int) -> Channel:
    """The DM channel between the bot and a user (created on first use; with a seeded
    stand-in its id is derived from the user's, so it is the same in every run)."""
    world = core.world
    existing = world.dm_channels.get(user_id)
    if existing is not None:
        return world.channels[existing]
    channel = Channel(
        id=world.ids.named("bot-dm", str(user_id)), type=ChannelType.DM, name="",
        recipient_ids=[user_id, core.bot_id],
    )
    world.channels[channel.id] = channel
    world.dm_channels[user_id] = channel.id
    return channel


def user_dm(core: Core, first: int, second: int) -> Channel:
    """The DM channel between two users (created on first use; the bot is no member).
    With a seeded stand-in its id is derived from the two users' ids, so it is the same
    in every run, whoever of them opens it (`SnowflakeFactory.named`)."""
    world = core.world
    key = frozenset((first, second))
    existing = world.user_dms.get(key)
    if existing is not None:
        return world.channels[existing]
    channel = Channel(
        id=world.ids.named("dm", _people_key([first, second])), type=ChannelType.DM,
        name="", recipient_ids=[first, second],
    )
    world.channels[channel.id] = channel
    world.user_dms[key] = channel.id
    return channel


def group_dm(core: Core, owner: int, others: list[int], name: str = "") -> Channel:
    """A new group DM of `owner` with `others` (the bot is no member). With a seeded
    stand-in the id of the first group DM of these people is derived from their ids, so
    it is the same in every run; a second one of the same people in a run is another
    group DM, with a new id, as on Discord."""
    world = core.world
    channel = Channel(
        id=world.ids.named("group-dm", _people_key([owner, *others])),
        type=ChannelType.GROUP_DM,
        name=name,
        owner_id=owner,
        recipient_ids=[owner, *others],
    )
    world.channels[channel.id] = channel
    return channel


async def create_thread(
    core: Core,
    parent: Channel,
    name: str,
    *,
    owner_id: int,
    kind: ChannelType = ChannelType.PUBLIC_THREAD,
    thread_id: int | None = None,
    auto_archive_duration: int = 1440,
) -> Channel:
    """Create a thread under `parent` and dispatch THREAD_CREATE (newly created)."""
    world = core.world
    thread = Channel(
        id=thread_id or world.ids.next(),
        type=kind,
        name=name,
        guild_id=parent.guild_id,
        parent_id=parent.id,
        owner_id=owner_id,
        auto_archive_duration=auto_archive_duration,
        thread_member_ids=[owner_id] + ([core.bot_id] if owner_id != core.bot_id else []),
    )
    world.channels[thread.id] = thread
    if parent.guild_id is not None:
        world.guilds[parent.guild_id].channel_ids.append(thread.id)
    payload = core.payloads.channel(thread)
    payload["newly_created"] = True
    await core.hub.dispatch("THREAD_CREATE", lambda s: payload if s.wants(Intent.GUILDS) else None)
    return thread
