"""The stand-in's directory: users, guilds, channels, threads, roles, members (the world API).

`Directory` creates and looks up the entities of the fake Discord and tells a connected bot
about changes with the gateway events Discord sends (GUILD_CREATE, CHANNEL_CREATE,
THREAD_CREATE, GUILD_MEMBER_ADD with the members intent, ...). References accept the
frozen `*Info` records, ids, or names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .channels import create_thread, dm_channel
from .core import Core
from .errors import ApiError, StandInError
from .gateway import Intent
from .model import (
    DEFAULT_EVERYONE,
    Channel,
    ChannelType,
    Guild,
    Json,
    Member,
    Overwrite,
    OverwriteType,
    Role,
    ScheduledEvent,
    ScheduledEventEntityType,
    ScheduledEventStatus,
    User,
    World,
)
from .payloads import Payloads
from .records import MessageRecord
from .scheduled_events import ScheduledEvents
from .snowflakes import SnowflakeFactory, on_shard
from .threads import edit_thread as apply_thread_edit


@dataclass(frozen=True)
class UserInfo:
    """A user of the stand-in."""

    id: int
    name: str
    bot: bool


@dataclass(frozen=True)
class GuildInfo:
    """A guild (server) of the stand-in."""

    id: int
    name: str


@dataclass(frozen=True)
class ChannelInfo:
    """A text channel, thread or DM channel of the stand-in."""

    id: int
    name: str
    guild_id: int | None
    kind: ChannelType
    parent_id: int | None


@dataclass(frozen=True)
class RoleInfo:
    """A role of a guild."""

    id: int
    guild_id: int
    name: str
    permissions: int


@dataclass(frozen=True)
class ScheduledEventInfo:
    """A guild scheduled event as it stands: `interested_ids` the users who pressed
    "Interested", in the order they did."""

    id: int
    guild_id: int
    name: str
    status: ScheduledEventStatus
    entity_type: ScheduledEventEntityType
    location: str | None
    scheduled_start_time: str
    scheduled_end_time: str | None
    creator_id: int
    interested_ids: tuple[int, ...]


UserRef = UserInfo | int | str
GuildRef = GuildInfo | int | str
ChannelRef = ChannelInfo | int | str
MessageRef = MessageRecord | int
ScheduledEventRef = ScheduledEventInfo | int


def username_for(display: str) -> str:
    """A Discord-style username for a display name: lower case letters, digits, `_` and `.`.

    "Rossi Mario" -> "rossi_mario", "Émile" -> "emile"; at most 32 characters.
    """
    ascii_text = unicodedata.normalize("NFKD", display).encode("ascii", "ignore").decode()
    name = re.sub(r"[^a-z0-9_.]+", "_", ascii_text.lower()).strip("_")
    return (name or "user")[:32]


def create_user(
    world: World, ids: SnowflakeFactory, name: str, *, bot: bool = False, locale: str = "en-US"
) -> User:
    """A new user shown as `name` (1-32 characters; spaces allowed in this display name).

    A person's username is `username_for(name)` (bots keep `name`: bot accounts still have
    legacy names), made unique with a number when taken.
    Raises `StandInError` for an empty or too long name, or one already in use.
    """
    display = name.strip()
    if not display or len(display) > 32:
        raise StandInError(f"user name {name!r} must have 1 to 32 characters")
    if world.user_by_name(display) is not None:
        raise StandInError(f"a user named {display!r} already exists")
    base = display if bot and " " not in display else username_for(display)
    username, n = base, 1
    while world.user_by_name(username) is not None:
        n += 1
        username = f"{base[: 32 - len(str(n))]}{n}"
    # A person's id is named by the display name (stable across runs with a seeded factory);
    # a bot's is always new, as a new application is.
    ident = ids.next() if bot else ids.named("user", display.casefold())
    user = User(id=ident, username=username, global_name=display, bot=bot, locale=locale)
    world.users[user.id] = user
    return user


class Directory:
    """Creates and finds users, guilds, channels, threads and roles; `core` dispatches."""

    def __init__(self, core: Core, *, bot_permissions: int) -> None:
        self.core = core
        self.world = core.world
        self._ids = core.world.ids
        self._payloads: Payloads = core.payloads
        self.bot_permissions = bot_permissions
        self._scheduled_events = ScheduledEvents(core)

    async def _dispatch(self, event: str, intent: int, data: Json) -> None:
        await self.core.hub.dispatch(event, lambda s: data if s.wants(intent) else None)

    def _new_user(self, name: str, *, bot: bool = False, locale: str = "en-US") -> User:
        return create_user(self.world, self._ids, name, bot=bot, locale=locale)

    @staticmethod
    def _user_info(user: User) -> UserInfo:
        return UserInfo(user.id, user.username, user.bot)

    def user(self, name: str, *, bot: bool = False, locale: str = "en-US") -> UserInfo:
        """The user with that username or display name (case-insensitive), created on first
        use with `bot` and `locale` (the locale their interactions carry)."""
        name = name.strip().lstrip("@")
        existing = self.world.user_by_name(name)
        if existing is not None:
            return self._user_info(existing)
        return self._user_info(self._new_user(name, bot=bot, locale=locale))

    def set_locale(self, ref: UserRef, locale: str) -> None:
        """Set the client locale `ref`'s interactions carry from now on (a Discord locale
        such as "tr" or "en-US", as a user changing their Discord's language)."""
        self._user(ref).locale = locale

    def _user(self, ref: UserRef, *, create: bool = True) -> User:
        if isinstance(ref, UserInfo):
            ref = ref.id
        if isinstance(ref, str) and re.fullmatch(r"<@!?\d+>", ref.strip()):
            ref = int(ref.strip().strip("<@!>"))
        if isinstance(ref, int):
            user = self.world.users.get(ref)
            if user is None:
                raise StandInError(f"no user with id {ref}")
            return user
        if not create:
            found = self.world.user_by_name(ref.lstrip("@"))
            if found is None:
                raise StandInError(f"no user named {ref!r}")
            return found
        return self.world.users[self.user(ref).id]

    async def add_guild(
        self,
        name: str,
        *,
        owner: UserRef | None = None,
        channels: Sequence[str] = ("general",),
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
        bot_installed: bool = True,
    ) -> GuildInfo:
        """A new guild with @everyone, the bot (and its managed role), the owner and channels.
        With `shard` `(shard_id, num_shards)` its id falls on that shard
        (`snowflakes.on_shard`). Raises `ValueError` for a shard outside the count.

        Sends GUILD_CREATE when the bot is connected (as when a bot joins a server), to the
        session that handles its shard. With `bot_installed` False the app is not installed
        to it: no bot member or role, no gateway event of it, 403 Missing Access on its
        channels; only its members' own installations answer there.
        """
        owner_user = (
            self._user(owner)
            if owner is not None
            else self.world.users[self._payloads.app.owner_id]
        )
        guild_id = self._ids.named("guild", name)
        if shard is not None:
            guild_id = on_shard(guild_id, *shard)
        guild = Guild(
            id=guild_id, name=name, owner_id=owner_user.id,
            preferred_locale=locale, bot_installed=bot_installed,
        )
        guild.roles[guild.id] = Role(
            id=guild.id,
            guild_id=guild.id,
            name="@everyone",
            permissions=int(DEFAULT_EVERYONE),
            position=0,
        )
        bot_role = Role(
            id=self._ids.next(),
            guild_id=guild.id,
            name=self._payloads.app.name,
            permissions=self.bot_permissions,
            position=1,
            managed=True,
            bot_id=self._payloads.app.bot_user_id,
        )
        self.world.guilds[guild.id] = guild
        if bot_installed:
            guild.roles[bot_role.id] = bot_role
            guild.members[self._payloads.app.bot_user_id] = Member(
                self._payloads.app.bot_user_id, guild.id, [bot_role.id]
            )
        guild.members[owner_user.id] = Member(owner_user.id, guild.id)
        for index, channel_name in enumerate(channels):
            self._new_channel(guild, channel_name, position=index)
        await self.core.hub.dispatch(
            "GUILD_CREATE",
            lambda s: (
                self._payloads.guild(
                    guild, all_members=s.wants(Intent.GUILD_PRESENCES), joined=True
                )
                if s.wants(Intent.GUILDS)
                else None
            ),
        )
        return GuildInfo(guild.id, guild.name)

    def _new_channel(
        self,
        guild: Guild,
        name: str,
        *,
        position: int = 0,
        topic: str | None = None,
        category_id: int | None = None,
        kind: ChannelType = ChannelType.GUILD_TEXT,
    ) -> Channel:
        channel = Channel(
            id=self._ids.named("channel", f"{guild.id}/{kind.value}/{name.lstrip('#')}"),
            type=kind,
            name=name.lstrip("#"),
            guild_id=guild.id,
            position=position,
            topic=topic,
            parent_id=category_id,
        )
        self.world.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def _guild(self, ref: GuildRef) -> Guild:
        if isinstance(ref, GuildInfo):
            ref = ref.id
        if isinstance(ref, int):
            guild = self.world.guilds.get(ref)
        else:
            matches = [g for g in self.world.guilds.values() if g.name.casefold() == ref.casefold()]
            guild = matches[0] if len(matches) == 1 else None
        if guild is None:
            names = ", ".join(g.name for g in self.world.guilds.values()) or "none"
            raise StandInError(f"no single guild {ref!r} (guilds: {names})")
        return guild

    def guild(self, ref: GuildRef) -> GuildInfo:
        """Look a guild up by id or name."""
        guild = self._guild(ref)
        return GuildInfo(guild.id, guild.name)

    async def add_channel(
        self,
        guild: GuildRef,
        name: str,
        *,
        topic: str | None = None,
        category: ChannelRef | None = None,
    ) -> ChannelInfo:
        """A new text channel; sends CHANNEL_CREATE."""
        g = self._guild(guild)
        parent = self._channel(category).id if category is not None else None
        channel = self._new_channel(
            g, name, position=len(g.channel_ids), topic=topic, category_id=parent
        )
        await self._dispatch("CHANNEL_CREATE", Intent.GUILDS, self._payloads.channel(channel))
        return self._channel_info(channel)

    async def add_category(self, guild: GuildRef, name: str) -> ChannelInfo:
        """A new category; sends CHANNEL_CREATE."""
        g = self._guild(guild)
        channel = self._new_channel(
            g, name, position=len(g.channel_ids), kind=ChannelType.GUILD_CATEGORY
        )
        await self._dispatch("CHANNEL_CREATE", Intent.GUILDS, self._payloads.channel(channel))
        return self._channel_info(channel)

    async def add_thread(
        self, channel: ChannelRef, name: str, *, owner: UserRef, private: bool = False
    ) -> ChannelInfo:
        """A user starts a thread in a text channel; sends THREAD_CREATE."""
        parent = self._channel(channel)
        if parent.type is not ChannelType.GUILD_TEXT:
            raise StandInError(
                f"#{parent.name} is not a text channel; threads live in text channels"
            )
        user = self._user(owner)
        await self._ensure_member(parent, user)
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        thread = await create_thread(self.core, parent, name, owner_id=user.id, kind=kind)
        return self._channel_info(thread)

    async def edit_thread(
        self,
        thread: ChannelRef,
        *,
        by: UserRef,
        archived: bool | None = None,
        locked: bool | None = None,
    ) -> ChannelInfo:
        """`by` archives or unarchives a thread, locks or unlocks it (None: unchanged),
        with THREAD_UPDATE, as the bot's PATCH /channels/{thread} would
        (`threads.edit_thread`: its creator may archive it, locking needs MANAGE_THREADS).
        Raises `StandInError` when `by` may not, or it is no thread."""
        channel = self._channel(thread)
        if not channel.type.is_thread:
            raise StandInError(f"#{channel.name} is not a thread")
        user = self._user(by)
        change: Json = {
            key: value for key, value in (("archived", archived), ("locked", locked))
            if value is not None
        }
        try:
            await apply_thread_edit(self.core, channel, change, user.id)
        except ApiError as exc:
            raise StandInError(
                f"{user.username} may not change #{channel.name}: {exc.message}"
            ) from None
        return self._channel_info(channel)

    async def dm_channel(self, user: UserRef) -> ChannelInfo:
        """The direct-message channel between `user` and the bot."""
        return self._channel_info(dm_channel(self.core, self._user(user).id))

    async def add_member(
        self, guild: GuildRef, user: UserRef, *, roles: Sequence[RoleInfo] = ()
    ) -> UserInfo:
        """Make `user` a member (sends GUILD_MEMBER_ADD to sessions with the members intent)."""
        g = self._guild(guild)
        u = self._user(user)
        if u.id in g.members:
            return self._user_info(u)
        member = Member(u.id, g.id, [r.id for r in roles])
        g.members[u.id] = member
        data = self._payloads.member(member)
        data["guild_id"] = str(g.id)
        await self._dispatch("GUILD_MEMBER_ADD", Intent.GUILD_MEMBERS, data)
        return self._user_info(u)

    def everyone(self, guild: GuildRef) -> RoleInfo:
        """The guild's @everyone role (e.g. to deny it a channel with `set_permissions`)."""
        role = self._guild(guild).everyone
        return RoleInfo(role.id, role.guild_id, role.name, role.permissions)

    async def add_role(self, guild: GuildRef, name: str, permissions: int = 0) -> RoleInfo:
        """A new role; sends GUILD_ROLE_CREATE."""
        g = self._guild(guild)
        role = Role(
            id=self._ids.next(),
            guild_id=g.id,
            name=name,
            permissions=int(permissions),
            position=len(g.roles),
        )
        g.roles[role.id] = role
        await self._dispatch(
            "GUILD_ROLE_CREATE",
            Intent.GUILDS,
            {"guild_id": str(g.id), "role": self._payloads.role(role)},
        )
        return RoleInfo(role.id, g.id, role.name, role.permissions)

    async def give_role(self, guild: GuildRef, user: UserRef, role: RoleInfo) -> None:
        """Give a member a role (GUILD_MEMBER_UPDATE with the members intent)."""
        g = self._guild(guild)
        await self.add_member(g.id, user)
        member = g.members[self._user(user).id]
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
        data = self._payloads.member(member)
        data["guild_id"] = str(g.id)
        await self._dispatch("GUILD_MEMBER_UPDATE", Intent.GUILD_MEMBERS, data)

    async def set_permissions(
        self, channel: ChannelRef, target: RoleInfo | UserRef, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set a channel overwrite for a role or member; sends CHANNEL_UPDATE."""
        ch = self._channel(channel)
        if isinstance(target, RoleInfo):
            key = (OverwriteType.ROLE, target.id)
        else:
            key = (OverwriteType.MEMBER, self._user(target).id)
        ch.overwrites = [o for o in ch.overwrites if (o.type, o.id) != key]
        ch.overwrites.append(Overwrite(key[1], key[0], int(allow), int(deny)))
        await self._dispatch("CHANNEL_UPDATE", Intent.GUILDS, self._payloads.channel(ch))

    def _channel(self, ref: ChannelRef) -> Channel:
        if isinstance(ref, ChannelInfo):
            ref = ref.id
        if isinstance(ref, int):
            channel = self.world.channels.get(ref)
            if channel is None:
                raise StandInError(f"no channel with id {ref}")
            return channel
        name = ref.lstrip("#")
        matches = [
            c
            for c in self.world.channels.values()
            if c.type is not ChannelType.DM and c.name == name
        ]
        if len(matches) != 1:
            known = sorted({c.name for c in self.world.channels.values() if c.name})
            raise StandInError(
                f"{'no' if not matches else 'more than one'} channel named {ref!r}; "
                f"channels: {', '.join(known) or 'none'} (pass a ChannelInfo or id)"
            )
        return matches[0]

    @staticmethod
    def _channel_info(channel: Channel) -> ChannelInfo:
        return ChannelInfo(
            channel.id, channel.name, channel.guild_id, channel.type, channel.parent_id
        )

    def channel(self, ref: ChannelRef) -> ChannelInfo:
        """Look a channel up by id or name."""
        return self._channel_info(self._channel(ref))

    # ---- scheduled events -----------------------------------------------------------
    def _scheduled_event(self, ref: ScheduledEventRef) -> ScheduledEvent:
        ident = ref.id if isinstance(ref, ScheduledEventInfo) else ref
        event = self.world.scheduled_events.get(ident)
        if event is None:
            raise StandInError(f"no scheduled event with id {ident} (deleted?)")
        return event

    @staticmethod
    def _scheduled_event_info(event: ScheduledEvent) -> ScheduledEventInfo:
        return ScheduledEventInfo(
            id=event.id,
            guild_id=event.guild_id,
            name=event.name,
            status=event.status,
            entity_type=event.entity_type,
            location=event.location,
            scheduled_start_time=event.scheduled_start_time,
            scheduled_end_time=event.scheduled_end_time,
            creator_id=event.creator_id,
            interested_ids=tuple(event.interested_ids),
        )

    def scheduled_events(self, guild: GuildRef) -> list[ScheduledEventInfo]:
        """The guild's scheduled events that are SCHEDULED or ACTIVE, oldest first (as its
        Events list shows them)."""
        g = self._guild(guild)
        return [self._scheduled_event_info(e) for e in self.world.guild_scheduled_events(g.id)]

    def scheduled_event(self, event: ScheduledEventRef) -> ScheduledEventInfo:
        """A scheduled event as it stands now (finished ones too); `StandInError` once
        deleted."""
        return self._scheduled_event_info(self._scheduled_event(event))

    async def mark_interested(
        self, user: UserRef, event: ScheduledEventRef
    ) -> ScheduledEventInfo:
        """`user` presses "Interested" on a scheduled event (made a member of its guild
        first): GUILD_SCHEDULED_EVENT_USER_ADD to sessions with the
        GUILD_SCHEDULED_EVENTS intent; nothing when they already had. Raises
        `StandInError` for a bot account or a finished (completed, canceled) event."""
        return await self._set_interest(user, event, interested=True)

    async def unmark_interested(
        self, user: UserRef, event: ScheduledEventRef
    ) -> ScheduledEventInfo:
        """`user` takes "Interested" back: GUILD_SCHEDULED_EVENT_USER_REMOVE to sessions
        with the GUILD_SCHEDULED_EVENTS intent; nothing when they were not interested.
        Raises `StandInError` for a bot account or a finished event."""
        return await self._set_interest(user, event, interested=False)

    async def _set_interest(
        self, user: UserRef, ref: ScheduledEventRef, *, interested: bool
    ) -> ScheduledEventInfo:
        event = self._scheduled_event(ref)
        u = self._user(user)
        if u.bot:
            raise StandInError(f"{u.username} is a bot account; bots press no buttons")
        if event.status.finished:
            raise StandInError(
                f"the event {event.name!r} is {event.status.name}: its Interested button is gone"
            )
        await self.add_member(event.guild_id, u.id)
        await self._scheduled_events.set_interest(event, u.id, interested)
        return self._scheduled_event_info(event)

    async def _ensure_member(self, channel: Channel, user: User) -> None:
        if (
            channel.guild_id is not None
            and user.id not in self.world.guilds[channel.guild_id].members
        ):
            await self.add_member(channel.guild_id, user.id)
